// The toy cluster's reference: a second contract, small enough to read at
// a glance, for parity-diff's tests of a contract it knows nothing about.
// Node, so that its JSON is JavaScript's to the byte.
//
//   length {text}    the string's length in UTF-16 code units
//   sum {values}     the numbers added, left to right, from 0
//   keys {object}    Object.keys, in JavaScript's property order
//
// Each case's result is {"value": …}, or {"threw": true, "message": …}.
// Standard input is one JSON array of cases; standard output, the array
// of their results. Input that is not a JSON array: exit 2.
import { readFileSync } from "node:fs";

const threw = (message) => ({ threw: true, message });
const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

const ops = {
  length: (c) =>
    typeof c.text === "string" ? { value: c.text.length } : threw("text must be a string"),
  sum: (c) =>
    Array.isArray(c.values) && c.values.every((v) => typeof v === "number")
      ? { value: c.values.reduce((a, b) => a + b, 0) }
      : threw("values must be an array of numbers"),
  keys: (c) => (isObject(c.object) ? { value: Object.keys(c.object) } : threw("object must be an object")),
};

let cases;
try {
  cases = JSON.parse(readFileSync(0, "utf8"));
} catch (error) {
  process.stderr.write(`toy reference: standard input is not JSON: ${error.message}\n`);
  process.exit(2);
}
if (!Array.isArray(cases)) {
  process.stderr.write("toy reference: standard input is not a JSON array\n");
  process.exit(2);
}
const results = cases.map((c) => {
  if (!isObject(c)) return threw("case must be a JSON object");
  if (typeof c.op !== "string" || !Object.hasOwn(ops, c.op)) return threw("unknown op");
  return ops[c.op](c);
});
process.stdout.write(JSON.stringify(results));
