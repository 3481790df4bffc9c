#!/usr/bin/env node
// A batch oracle for parity-diff (written by `parity-diff init`).
//
// The protocol, all of it:
// - parity-diff runs this command once per case file (`sh -c CMD`, in the
//   directory of parity.toml) and writes the file's bytes to its stdin: a
//   JSON array of cases. A case is any JSON value; by convention an object
//   whose `name` tells it apart within its file and whose `op` names what
//   it exercises (reports, rules and `fuzz` group by op).
// - It prints ONE JSON array on stdout: one result per case, in the cases'
//   order. A result is any JSON value. How the array is laid out does not
//   matter unless the suite says `framing = "exact"`.
// - A case whose operation fails is still a result: by default
//   {"threw": true, "message": "..."}. Goldens hold the reference's
//   messages, so the port must throw the same ones.
// - Exit 0. A non-zero exit, a crash or anything but one array on stdout
//   fails the batch; parity-diff then finds the case to blame by running
//   smaller batches. What it writes on stderr is shown with the failure.
// - Be a function of the input: no clock, no random numbers, no host paths
//   in results, or the goldens will not hold.
//
// Replace `answer` with calls into your implementation. The same file
// serves as the reference until parity.toml's `reference` names yours.

// The result of one case (a thrown error is a result too).
function answer(c) {
  const op = c !== null && typeof c === "object" ? c.op : undefined;
  if (op === "add") return { sum: c.a + c.b };
  if (op === "upper") return c.text.toUpperCase();
  throw new Error(`unknown op: ${op}`);
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const results = JSON.parse(input).map((c) => {
    try {
      return answer(c);
    } catch (error) {
      return { threw: true, message: error.message };
    }
  });
  process.stdout.write(JSON.stringify(results));
});
