//! The coverage report in each format: human, JSON, Markdown, HTML. All
//! four show the same [`Analysis`]; a span's source text, file names,
//! function names, case names and allowlist reasons are outside text and
//! go through [`outside`](crate::base::outside) (Markdown through its
//! code spans and blocks, HTML through its escaping).

use std::io::{self, Write};

use super::analysis::Analysis;
use crate::base::error::InputError;
use crate::report::formats::{not_mine, Command, Renderer};

pub mod cmin;
mod html;
mod human;
mod json;
mod markdown;

pub use human::table_rows;

/// A span's text as one line for a list: each run of white space one
/// space, cut at `chars` characters, with `…` when it was cut. Not
/// neutral yet: the caller writes it as outside text.
pub fn preview(text: &str, chars: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    let mut shown: String = joined.chars().take(chars).collect();
    if shown.len() < joined.len() {
        shown.push('…');
    }
    shown
}

/// An op as a table shows it: `(no op)`, or the op, quoted when it
/// would not read as one ([`op_display`]). Still outside text.
///
/// [`op_display`]: crate::judge::signature::op_display
pub fn shown_op(op: &str) -> String {
    if op == crate::report::NO_OP {
        op.to_owned()
    } else {
        crate::judge::signature::op_display(Some(op))
    }
}

/// Writes the report with `renderer`, one of the table's for `coverage`.
pub fn write(
    analysis: &Analysis,
    renderer: Renderer,
    quiet: bool,
    out: &mut dyn Write,
) -> Result<(), InputError> {
    let written: io::Result<()> = match renderer {
        Renderer::CoverageHuman => out.write_all(human::render(analysis, quiet).as_bytes()),
        Renderer::CoverageJson => out.write_all(&json::render(analysis)),
        Renderer::CoverageMarkdown => out.write_all(markdown::render(analysis).as_bytes()),
        Renderer::CoverageHtml => out.write_all(html::render(analysis).as_bytes()),
        other => return Err(not_mine(Command::Coverage, other)),
    };
    written.and_then(|()| out.flush())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_is_the_first_line_cut_and_says_when_there_is_more() {
        assert_eq!(preview("  ?? []  ", 60), "?? []");
        assert_eq!(
            preview("catch (e) {\n  throw e;\n}", 60),
            "catch (e) { throw e; }"
        );
        assert_eq!(preview("abc\tdef", 5), "abc d…");
        assert_eq!(preview("", 3), "");
        assert_eq!(shown_op("(no op)"), "(no op)");
        assert_eq!(shown_op(" someOp"), "\" someOp\"");
    }
}
