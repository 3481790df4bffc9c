// Reads `cargo metadata --format-version 1` on stdin and fails when one
// of the two tools depends on the other, directly or through any other
// package, as a normal or a build dependency:
// - parity-diff on the worker-spawn oracle's package (worker-spawn-oracle):
//   parity-diff knows no contract (tests/no_contract.rs keeps the
//   contract's names out of its sources);
// - worker-spawn-oracle on parity-diff: the contract's binary does not
//   link the diff tool (what both need is the case-tree crate).
// Dev-dependencies do not count: they build only a package's own tests.
let text = "";
process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
  const meta = JSON.parse(text);
  const named = (name) => meta.packages.filter((p) => p.name === name).map((p) => p.id);
  const nodes = new Map(meta.resolve.nodes.map((node) => [node.id, node]));
  // Breadth first from `from` over normal and build edges, each package
  // with the path that reached it, so a failure names the chain.
  const check = (from, forbidden) => {
    const [start] = named(from);
    const avoid = new Set(named(forbidden));
    if (!start || avoid.size === 0) {
      console.error(`parity-diff-deps: the metadata lists no ${from} or no ${forbidden} package`);
      process.exit(1);
    }
    const reached = new Map([[start, [from]]]);
    const queue = [start];
    while (queue.length) {
      const id = queue.shift();
      for (const dep of nodes.get(id)?.deps ?? []) {
        const runs = dep.dep_kinds.some((k) => k.kind === null || k.kind === "build");
        if (!runs || reached.has(dep.pkg)) continue;
        const path = [...reached.get(id), dep.name];
        if (avoid.has(dep.pkg)) {
          console.error(`${from} depends on ${forbidden}: ${path.join(" -> ")}`);
          process.exit(1);
        }
        reached.set(dep.pkg, path);
        queue.push(dep.pkg);
      }
    }
    console.log(`${from}'s ${reached.size - 1} normal and build dependencies, direct or not, include no ${forbidden}`);
  };
  check("parity-diff", "worker-spawn-oracle");
  check("worker-spawn-oracle", "parity-diff");
});
