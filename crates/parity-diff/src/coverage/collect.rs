//! Running a Node reference with V8's coverage on, and gathering what
//! each run reached.
//!
//! Each run gets a fresh directory as `NODE_V8_COVERAGE`; Node writes
//! one file there for every process that runs under it (the reference,
//! and any child it starts), when the process exits. The run's counts
//! are the processes' counts added up. The directory is removed when the
//! run has been read.
//!
//! [`run_batch`] is the one entry: `coverage` runs each case alone
//! through it (so that a report can say which cases reach a span), and a
//! coverage-guided fuzzer can run whole batches through it and keep the
//! cases of a batch that reaches something new ([`super::novelty`]).

use std::collections::BTreeMap;

use serde_json::Value;

use super::ranges::Counts;
use super::v8;
use crate::exec::oracle::{Oracle, OracleFailure, OracleOptions};

/// What one run reached in one script: counts summed over the run's
/// processes, and the functions V8 reported (range, name).
#[derive(Debug, Clone, Default)]
pub struct ScriptRun {
    /// Each offset's count.
    pub counts: Counts,
    /// The functions reported, by range.
    pub functions: BTreeMap<(u32, u32), String>,
}

/// One run's coverage.
#[derive(Debug, Clone, Default)]
pub struct RunCoverage {
    /// The reference's scripts (`file:` URLs), by URL.
    pub scripts: BTreeMap<String, ScriptRun>,
    /// How many processes wrote coverage.
    pub processes: usize,
    /// How many scripts of those processes were Node's own, left out.
    pub left_out: usize,
    /// The source maps Node found, by script URL.
    pub source_maps: BTreeMap<String, Value>,
}

/// One run: what the reference did, and the coverage it wrote.
#[derive(Debug)]
pub struct Ran {
    /// Its failure, when it failed (its coverage may still be there).
    pub failure: Option<OracleFailure>,
    /// Its coverage, or why there is none.
    pub coverage: Result<RunCoverage, String>,
}

/// `export NODE_V8_COVERAGE=DIR` before the command, so that it reaches
/// whatever the command runs (a shell quotes nothing in a single-quoted
/// word but `'`).
fn with_coverage_dir(command: &str, dir: &str) -> String {
    let quoted = dir.replace('\'', r"'\''");
    format!("NODE_V8_COVERAGE='{quoted}'\nexport NODE_V8_COVERAGE\n{command}")
}

impl RunCoverage {
    /// The coverage of a run's processes.
    pub fn of_processes(processes: Vec<v8::ProcessCoverage>) -> RunCoverage {
        let mut run = RunCoverage {
            processes: processes.len(),
            ..RunCoverage::default()
        };
        for process in processes {
            run.left_out += process.left_out;
            for script in process.scripts {
                let ranges = script
                    .functions
                    .iter()
                    .flat_map(|function| function.ranges.iter().copied());
                let counts = Counts::of_process(ranges);
                let entry = run.scripts.entry(script.url).or_default();
                entry.counts.add(&counts);
                for function in script.functions {
                    if let Some(own) = function.ranges.first() {
                        entry
                            .functions
                            .entry((own.start, own.end))
                            .or_insert(function.name);
                    }
                }
            }
            for (url, map) in process.source_maps {
                run.source_maps.entry(url).or_insert(map);
            }
        }
        run
    }
}

/// Runs `input` (a case array) through `reference` (a shell command)
/// with V8's coverage on, and reads what its processes wrote.
pub fn run_batch(reference: &str, input: &[u8], options: OracleOptions) -> Ran {
    let dir = match tempfile::Builder::new()
        .prefix("parity-diff-coverage-")
        .tempdir()
    {
        Ok(dir) => dir,
        Err(error) => {
            return Ran {
                failure: None,
                coverage: Err(format!("cannot make a directory for coverage: {error}")),
            }
        }
    };
    let command = with_coverage_dir(reference, &dir.path().to_string_lossy());
    let failure = Oracle::command(command).run(input, options).err();
    let coverage = v8::read_dir(dir.path()).and_then(|processes| {
        if processes.is_empty() {
            Err("the reference wrote no coverage into NODE_V8_COVERAGE".to_owned())
        } else {
            Ok(RunCoverage::of_processes(processes))
        }
    });
    Ran { failure, coverage }
}

/// Every run's coverage, by script.
#[derive(Debug, Clone, Default)]
pub struct Collected {
    /// By script URL: the functions any run reported, and each run's
    /// counts (`None` for a run that did not load the script).
    pub scripts: BTreeMap<String, ScriptRuns>,
    /// The first source map found for each script.
    pub source_maps: BTreeMap<String, Value>,
    /// How many runs wrote coverage.
    pub runs_with_coverage: usize,
    /// How many scripts were Node's own, over all processes.
    pub left_out: usize,
}

/// One script over every run.
#[derive(Debug, Clone, Default)]
pub struct ScriptRuns {
    /// Every function reported by some run.
    pub functions: BTreeMap<(u32, u32), String>,
    /// Each run's counts, by run number.
    pub runs: Vec<Option<Counts>>,
}

impl Collected {
    /// Adds run number `run`'s coverage.
    pub fn add(&mut self, run: usize, coverage: RunCoverage) {
        self.runs_with_coverage += 1;
        self.left_out += coverage.left_out;
        for (url, script) in coverage.scripts {
            let entry = self.scripts.entry(url).or_default();
            for (range, name) in script.functions {
                entry.functions.entry(range).or_insert(name);
            }
            if entry.runs.len() <= run {
                entry.runs.resize(run + 1, None);
            }
            entry.runs[run] = Some(script.counts);
        }
        for (url, map) in coverage.source_maps {
            self.source_maps.entry(url).or_insert(map);
        }
    }

    /// Every script's runs made `runs` long.
    pub fn pad(&mut self, runs: usize) {
        for script in self.scripts.values_mut() {
            script.runs.resize(runs.max(script.runs.len()), None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::ranges::Range;
    use crate::coverage::v8::{FunctionCoverage, ProcessCoverage, ScriptCoverage};

    fn process(url: &str, ranges: &[(u32, u32, u64)]) -> ProcessCoverage {
        ProcessCoverage {
            scripts: vec![ScriptCoverage {
                url: url.into(),
                functions: vec![FunctionCoverage {
                    name: String::new(),
                    ranges: ranges
                        .iter()
                        .map(|&(start, end, count)| Range { start, end, count })
                        .collect(),
                }],
            }],
            left_out: 3,
            source_maps: Vec::new(),
        }
    }

    #[test]
    fn a_runs_processes_add_up_each_by_its_innermost_ranges() {
        // The reference, and a child it started that ran the block.
        let run = RunCoverage::of_processes(vec![
            process("file:///r.mjs", &[(0, 10, 1), (2, 4, 0)]),
            process("file:///r.mjs", &[(0, 10, 1), (2, 4, 3)]),
        ]);
        assert_eq!((run.processes, run.left_out), (2, 6));
        let counts = &run.scripts["file:///r.mjs"].counts;
        assert_eq!(counts.count_at(3), Some(3));
        assert_eq!(counts.count_at(5), Some(2));
    }

    #[test]
    fn the_coverage_directory_reaches_the_command_quoted() {
        let command = with_coverage_dir("node r.mjs", "/tmp/it's here");
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(command.replace(
                "node r.mjs",
                "printf %s \"$NODE_V8_COVERAGE\"; sh -c 'printf %s \"$NODE_V8_COVERAGE\"'",
            ))
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "/tmp/it's here/tmp/it's here"
        );
    }
}
