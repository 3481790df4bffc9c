// Counts scripts/mutation.sh's mutants from Stryker's JSON report and the
// verdicts test-mutant.sh wrote (the authority on killed, survived and
// timed out: Stryker sees only a pass or a failure), and lists each
// survivor with its file, line and change. With the coverage report of
// the reference (`parity-diff coverage --format json`), a survivor in a
// span that no case runs says so: no case can catch it there.
//
//   node summarize.mjs reports/mutation.json verdicts/ [coverage.json source.mjs]
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";

const [reportPath, verdictDir, coveragePath, sourcePath] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, "utf8"));

// Never-run spans as line ranges, with their allowlist reason.
const unrun = [];
if (coveragePath && existsSync(coveragePath)) {
  const coverage = JSON.parse(readFileSync(coveragePath, "utf8"));
  const text = readFileSync(sourcePath, "utf8");
  const lineAt = (offset) => text.slice(0, offset).split("\n").length;
  for (const never of coverage.neverRun) {
    const span = coverage.scripts[never.script].spans[never.span];
    unrun.push({ from: lineAt(span.start), to: lineAt(span.end), start: span.start, end: span.end, reason: never.allowlisted });
  }
}

const counts = { killed: 0, survived: 0, timeout: 0, error: 0, notRun: 0 };
const survivors = [];
const errors = [];
for (const [file, { mutants, source }] of Object.entries(report.files)) {
  const lineStarts = [0];
  for (let at = 0; at < source.length; at += 1) if (source[at] === "\n") lineStarts.push(at + 1);
  for (const mutant of mutants) {
    const verdictFile = join(verdictDir, String(mutant.id));
    const verdict = existsSync(verdictFile) ? readFileSync(verdictFile, "utf8").trim() : "";
    let kind;
    if (mutant.status === "Timeout" || verdict === "timeout") kind = "timeout";
    else if (mutant.status === "Survived") kind = verdict === "survived" ? "survived" : "error";
    else if (mutant.status === "Killed") kind = verdict.startsWith("killed") ? "killed" : "error";
    else kind = "notRun";
    counts[kind] += 1;
    const { line, column } = mutant.location.start;
    const where = `${file}:${line}:${column}`;
    const change = `${mutant.mutatorName}: ${JSON.stringify(mutant.replacement ?? "")}`;
    if (kind === "survived") {
      const offset = lineStarts[line - 1] + column - 1;
      const span = unrun.find((s) => s.start <= offset && offset < s.end);
      survivors.push({ where, change, unrun: span });
    } else if (kind === "error" || kind === "notRun") {
      errors.push(`${where} ${change} (${mutant.status}${verdict ? ", " + verdict : ""})`);
    }
  }
}
const valid = counts.killed + counts.survived + counts.timeout;
const score = valid === 0 ? 0 : (100 * (counts.killed + counts.timeout)) / valid;
console.log(`mutants: ${valid + counts.error + counts.notRun}`);
console.log(`killed ${counts.killed}, survived ${counts.survived}, timed out ${counts.timeout}, errors ${counts.error} (crashed on load, or not judged), not run ${counts.notRun}`);
console.log(`score: ${score.toFixed(1)}% ((killed + timed out) / (killed + survived + timed out); errors and mutants not run do not count)`);
const reachable = survivors.filter((s) => !s.unrun);
console.log(`\nsurvivors in code some case runs (${reachable.length}): each is a behaviour no case holds`);
for (const s of reachable) console.log(`  ${s.where}  ${s.change}`);
const unreachable = survivors.filter((s) => s.unrun);
console.log(`\nsurvivors in spans no case runs (${unreachable.length}): see coverage-allowlist.txt`);
for (const s of unreachable) console.log(`  ${s.where}  ${s.change}  (${s.unrun.reason ?? "never run, not allowlisted"})`);
if (errors.length > 0) {
  console.log(`\nerrors and mutants not run (${errors.length}):`);
  for (const e of errors) console.log(`  ${e}`);
}
