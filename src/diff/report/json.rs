//! The report as one JSON object, for machines:
//!
//! ```text
//! {"files":[{"name":"ipc.json","passed":39,"failed":1,"cases":[
//!    {"index":3,"label":"#3 op \"name\"","op":"op","name":"name",
//!     "verdict":"different","passed":false,"summary":"different at /x",
//!     "paths":[{"pointer":"/x","golden":1,"actual":2}],"totalPaths":1}, ...]},
//!   {"name":"new.json","problem":"missing golden","golden":"golden/new.json"}],
//!  "summary":{"passed":39,"failed":2,"skipped":0,"errors":0,"exitCode":1}}
//! ```
//!
//! Every case is listed. A *same value, different bytes* case has
//! `reasons` (`kind`, `pointer`, and how each side writes it) and
//! `totalReasons`. Values are embedded as JSON, secrets masked, lone
//! surrogates kept.

use std::io::{self, Write};

use super::{FileTally, Problem, Render, Totals};
use crate::diff::compare::Verdict;
use crate::diff::view::CaseView;
use crate::js::{write_value, Object, Value};
use crate::js_object;

/// The JSON format.
#[derive(Default)]
pub struct Json {
    started: bool,
    any_file: bool,
    name: Option<String>,
    cases: Vec<u8>,
    any_case: bool,
    problem: Option<Value>,
}

fn to_value(count: usize) -> Value {
    Value::Number(count as f64)
}

fn case_object(view: &CaseView) -> Value {
    let outcome = view.outcome;
    let text = |field: &str| {
        outcome
            .case
            .map(|case| case.get(field))
            .and_then(Value::as_js_string)
            .map(|text| Value::String(view.secrets.mask(&text.to_utf8_lossy()).into()))
    };
    let mut object = Object::new()
        .with("index", to_value(outcome.index))
        .with("label", view.label.as_str())
        .with("op", text("op"))
        .with("name", text("name"))
        .with("verdict", outcome.comparison.verdict.name())
        .with("passed", view.passes)
        .with("summary", view.summary.as_str());
    match &outcome.comparison.verdict {
        Verdict::Different(divergence) => {
            let paths: Vec<Value> = divergence
                .paths
                .iter()
                .map(|path| {
                    let side = |value: &Option<Value>| {
                        value.as_ref().map(|value| view.secrets.mask_value(value))
                    };
                    js_object! {
                        "pointer" => path.pointer.clone(),
                        "golden" => side(&path.golden),
                        "actual" => side(&path.actual),
                    }
                })
                .collect();
            object = object
                .with("paths", paths)
                .with("totalPaths", to_value(divergence.total))
                .with("note", divergence.note.as_deref());
        }
        Verdict::SameValue(explanation) => {
            let reasons: Vec<Value> = explanation
                .reasons
                .iter()
                .map(|reason| {
                    js_object! {
                        "kind" => reason.kind.name(),
                        "pointer" => reason.pointer.clone(),
                        "golden" => view.secrets.mask(&reason.golden),
                        "actual" => view.secrets.mask(&reason.actual),
                    }
                })
                .collect();
            object = object
                .with("reasons", reasons)
                .with("totalReasons", to_value(explanation.total));
        }
        _ => {}
    }
    Value::Object(object)
}

impl Json {
    fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if !self.started {
            self.started = true;
            out.write_all(b"{\"files\":[")?;
        }
        Ok(())
    }
}

impl Render for Json {
    fn begin_file(&mut self, out: &mut dyn Write, name: Option<&str>) -> io::Result<()> {
        self.start(out)?;
        self.name = name.map(str::to_owned);
        self.cases.clear();
        self.any_case = false;
        self.problem = None;
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, view: &CaseView) -> io::Result<()> {
        self.cases
            .extend_from_slice(if self.any_case { b"," } else { b"" });
        self.any_case = true;
        write_value(&case_object(view), &mut self.cases);
        Ok(())
    }

    fn problem(&mut self, _out: &mut dyn Write, _name: &str, problem: &Problem) -> io::Result<()> {
        self.problem = Some(match problem {
            Problem::MissingGolden { golden } => js_object! {
                "problem" => "missing golden",
                "golden" => golden.display().to_string(),
            },
            Problem::OrphanGolden { golden } => js_object! {
                "problem" => "orphaned golden",
                "golden" => golden.display().to_string(),
            },
            Problem::Error {
                message,
                stderr,
                skipped,
            } => js_object! {
                "problem" => "error",
                "message" => message.as_str(),
                "stderr" => stderr.as_deref(),
                "skipped" => to_value(*skipped),
            },
        });
        Ok(())
    }

    fn end_file(&mut self, out: &mut dyn Write, tally: FileTally) -> io::Result<()> {
        let mut head = Object::new()
            .with("name", self.name.take())
            .with("passed", to_value(tally.passed))
            .with("failed", to_value(tally.failed));
        if let Some(problem) = self.problem.take().and_then(Value::into_object) {
            for (key, value) in problem.into_entries() {
                head.insert(key, value);
            }
        }
        let mut bytes = Vec::new();
        bytes.extend_from_slice(if self.any_file { b"," } else { b"" });
        self.any_file = true;
        write_value(&Value::Object(head), &mut bytes);
        // Reopen the object to append the cases array, already printed.
        bytes.pop();
        bytes.extend_from_slice(b",\"cases\":[");
        out.write_all(&bytes)?;
        out.write_all(&self.cases)?;
        self.cases.clear();
        out.write_all(b"]}")
    }

    fn finish(&mut self, out: &mut dyn Write, totals: &Totals) -> io::Result<()> {
        self.start(out)?;
        let summary = js_object! {
            "passed" => to_value(totals.passed),
            "failed" => to_value(totals.failed),
            "skipped" => to_value(totals.skipped),
            "errors" => to_value(totals.errors),
            "exitCode" => f64::from(totals.exit_code()),
        };
        let mut bytes = b"],\"summary\":".to_vec();
        write_value(&summary, &mut bytes);
        bytes.extend_from_slice(b"}\n");
        out.write_all(&bytes)
    }

    fn wants_passing_detail(&self) -> bool {
        true
    }
}
