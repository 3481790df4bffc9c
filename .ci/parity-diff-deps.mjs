// Reads `cargo metadata --format-version 1` on stdin and fails when the
// parity-diff package depends on the worker-spawn oracle's package
// (worker-spawn-oracle), directly or through any other package, as a
// normal or a build dependency: parity-diff knows no contract, and this
// is the crate boundary that says so (tests/no_contract.rs keeps the
// contract's names out of its sources). Dev-dependencies do not count:
// they build only parity-diff's own tests.
let text = "";
process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
  const meta = JSON.parse(text);
  const named = (name) => meta.packages.filter((p) => p.name === name).map((p) => p.id);
  const [tool] = named("parity-diff");
  const contract = new Set(named("worker-spawn-oracle"));
  if (!tool || contract.size === 0) {
    console.error("parity-diff-deps: the metadata lists no parity-diff or no worker-spawn-oracle package");
    process.exit(1);
  }
  const nodes = new Map(meta.resolve.nodes.map((node) => [node.id, node]));
  // Breadth first from parity-diff over normal and build edges, each
  // package with the path that reached it, so a failure names the chain.
  const reached = new Map([[tool, ["parity-diff"]]]);
  const queue = [tool];
  while (queue.length) {
    const id = queue.shift();
    for (const dep of nodes.get(id)?.deps ?? []) {
      const runs = dep.dep_kinds.some((k) => k.kind === null || k.kind === "build");
      if (!runs || reached.has(dep.pkg)) continue;
      const path = [...reached.get(id), dep.name];
      if (contract.has(dep.pkg)) {
        console.error(`parity-diff depends on the worker-spawn oracle's package: ${path.join(" -> ")}`);
        process.exit(1);
      }
      reached.set(dep.pkg, path);
      queue.push(dep.pkg);
    }
  }
  console.log(`parity-diff's ${reached.size - 1} normal and build dependencies, direct or not, include no worker-spawn-oracle`);
});
