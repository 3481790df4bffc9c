//! The human report's failure groups: its longest part, in a file of its own.

use std::io::{self, Write};

use super::{cases, shown_op, Human, BOLD, CYAN, DIFF_LINES, DIM, GREEN, RED};
use crate::base::outside;
use crate::corpus::identity::CaseId;
use crate::judge::textdiff::LineKind;
use crate::report::detail;
use crate::report::groups::{Group, GroupKey, SHOWN_IN_FULL};
use crate::report::record::{CaseRecord, CaseState, VerdictKind};
use crate::report::Aggregates;

impl Human {
    fn case_block(&self, out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        let tag = match record.state {
            CaseState::New => "NEW",
            CaseState::Changed => "CHANGED",
            CaseState::Stale => "STALE",
            CaseState::Error => "ERROR",
            _ => "FAIL",
        };
        let location = match record.line {
            Some(line) => format!("{}:{line} ", outside::text(&record.file)),
            None => String::new(),
        };
        writeln!(
            out,
            "  {} {location}{}: {}",
            self.red(tag),
            self.paint(BOLD, &outside::text(&record.label)),
            outside::text(&record.summary)
        )?;
        for line in detail::lines(record, DIFF_LINES) {
            let style = match line.kind {
                LineKind::Text | LineKind::Context => "",
                LineKind::Golden | LineKind::Removed => RED,
                LineKind::Actual | LineKind::Added => GREEN,
                LineKind::FileHeader => BOLD,
                LineKind::Hunk => CYAN,
                LineKind::Note => DIM,
            };
            writeln!(out, "      {}", self.paint(style, &line.text))?;
        }
        Ok(())
    }

    fn group(&self, out: &mut dyn Write, group: &Group, shown: &[CaseRecord]) -> io::Result<()> {
        let oracle_failed = VerdictKind::from_name(&group.signature.kind)
            .is_some_and(VerdictKind::is_oracle_failure);
        writeln!(
            out,
            "{} [{}] {}",
            self.red(if oracle_failed { "ERROR" } else { "FAIL" }),
            cases(group.count, "case"),
            self.paint(BOLD, &outside::text(&group.signature.text))
        )?;
        for record in shown {
            self.case_block(out, record)?;
        }
        let more = group.count.saturating_sub(shown.len());
        if more > 0 {
            let names: Vec<String> = group
                .ids
                .iter()
                .skip(shown.len().min(SHOWN_IN_FULL))
                .map(CaseId::neutral)
                .collect();
            let etc = if more > names.len() { ", …" } else { "" };
            writeln!(out, "  and {more} more: {}{etc}", names.join(", "))?;
        }
        Ok(())
    }

    pub(super) fn groups(
        &self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
    ) -> io::Result<()> {
        let uniform: Vec<(String, usize, String)> = aggregates
            .by_op
            .iter()
            .filter_map(|(op, tally)| {
                let message = tally.all_threw()?;
                Some((op.clone(), tally.tally.failed, message.to_owned()))
            })
            .collect();
        let groups = &mut aggregates.groups;
        let sorted: Vec<GroupKey> = groups
            .sorted()
            .into_iter()
            .filter(|&group| {
                let op = groups.op(group).unwrap_or(super::super::NO_OP);
                !uniform.iter().any(|(name, ..)| name == op)
            })
            .collect();
        let max = self.options.max_failures;
        for &key in sorted.iter().take(max) {
            let group = groups.load(key)?;
            self.group(out, &group, group.shown())?;
        }
        if sorted.len() > max {
            let left: usize = sorted[max..].iter().map(|&group| groups.count(group)).sum();
            let more = sorted.len() - max;
            writeln!(
                out,
                "… {more} more failure {} ({}) not shown; --max-failures {} shows them",
                if more == 1 { "group" } else { "groups" },
                cases(left, "case"),
                sorted.len()
            )?;
        }
        if !uniform.is_empty() {
            // The rows that stand for no one op are named, not counted
            // as ops.
            let ops = uniform
                .iter()
                .filter(|(op, ..)| !super::super::is_row_marker(op))
                .count();
            let mut what: Vec<String> = Vec::new();
            if ops > 0 {
                what.push(cases(ops, "op"));
            }
            what.extend(
                uniform
                    .iter()
                    .filter(|(op, ..)| super::super::is_row_marker(op))
                    .map(|(op, ..)| format!("the {op} row")),
            );
            writeln!(
                out,
                "{} every case of {} failed with the port throwing one message:",
                self.red("FAIL"),
                what.join(" and ")
            )?;
            for (op, count, message) in &uniform {
                writeln!(
                    out,
                    "  {} ({}): {}",
                    shown_op(op),
                    cases(*count, "case"),
                    outside::json_string(message)
                )?;
            }
        }
        Ok(())
    }
}
