// Joins the corpus into one case file and one golden, each element's
// bytes as they stand (a case may be `1e400`, hold a duplicated key or a
// lone surrogate, which parsing and printing again would change), so
// that a mutant runs the whole corpus in one process: one Node start per
// mutant rather than one per file.
//
//   node combine.mjs CASES_DIR GOLDEN_DIR OUT_DIR
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/// The top-level elements of a JSON array text, as they are written:
/// only brackets, braces, strings and commas are followed.
function elements(text) {
  const found = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let at = 0; at < text.length; at += 1) {
    const c = text[at];
    if (inString) {
      if (c === "\\") at += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      if (depth === 1 && start < 0) start = at;
    } else if (c === "[" || c === "{") {
      if (depth === 1 && start < 0) start = at;
      depth += 1;
    } else if (c === "]" || c === "}") {
      depth -= 1;
      if (depth === 0 && start >= 0) found.push(text.slice(start, at).trim());
    } else if (c === "," && depth === 1) {
      found.push(text.slice(start, at).trim());
      start = -1;
    } else if (depth === 1 && start < 0 && !/\s/.test(c)) {
      start = at;
    }
  }
  return found;
}

const [casesDir, goldenDir, outDir] = process.argv.slice(2);
const files = readdirSync(casesDir).filter((name) => name.endsWith(".json")).sort();
const cases = [];
const golden = [];
for (const name of files) {
  const own = elements(readFileSync(join(casesDir, name), "latin1"));
  const results = elements(readFileSync(join(goldenDir, name), "latin1"));
  if (own.length !== results.length) {
    throw new Error(`${name}: ${own.length} cases but ${results.length} golden elements`);
  }
  cases.push(...own);
  golden.push(...results);
}
const array = (items) => `[\n${items.join(",\n")}\n]\n`;
for (const dir of ["cases", "golden"]) mkdirSync(join(outDir, dir), { recursive: true });
// latin1 both ways: every byte stays the byte it was.
writeFileSync(join(outDir, "cases", "corpus.json"), array(cases), "latin1");
writeFileSync(join(outDir, "golden", "corpus.json"), array(golden), "latin1");
console.log(`${cases.length} cases from ${files.length} files`);
