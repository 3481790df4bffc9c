//! The line a reviewer types a reason (and, to triage, a link) into:
//! one line of text with a cursor, checked as `accept` checks `--reason`
//! and `--link` before the decision is made. Esc (or quitting) while
//! typing drops the decision.

use crate::command::accept::edits::one_line;

use super::actions::Decision;

/// A key, as the session reads it (the terminal's events mapped to
/// these, so that everything but drawing runs without a terminal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A character typed.
    Char(char),
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// The arrows, Home, End, Page Up and Page Down.
    Left,
    Right,
    Up,
    Down,
    Home,
    End,
    PageUp,
    PageDown,
    /// Ctrl-U: clear the line.
    ClearLine,
    /// Ctrl-C: quit, wherever the reviewer is.
    Interrupt,
}

/// What the typed text will decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// `a`: accept, with a reason.
    Accept,
    /// `t`: triage, with a reason, then a link.
    Triage,
    /// `r`: an op rule, with a reason.
    Rule,
}

/// A line being typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// What it decides.
    pub asked: Asked,
    /// The reason, once typed, while the link is asked for.
    pub reason: Option<String>,
    /// The text so far.
    pub text: Vec<char>,
    /// The cursor, a character index.
    pub cursor: usize,
}

/// What a key did to the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// Still typing.
    Editing,
    /// Dropped (Esc): no decision.
    Dropped,
    /// The text does not do: why (still typing).
    Refused(String),
    /// Done: the decision.
    Decided(Decision),
}

impl Prompt {
    /// Asks for a reason, offering `last` (the last one typed).
    pub fn new(asked: Asked, last: &str) -> Self {
        let text: Vec<char> = last.chars().collect();
        Prompt {
            asked,
            reason: None,
            cursor: text.len(),
            text,
        }
    }

    /// What is asked for now: `reason` or `link`.
    pub fn label(&self) -> &'static str {
        match self.reason {
            None => "reason",
            Some(_) => "link",
        }
    }

    /// A hint for the line above the prompt.
    pub fn hint(&self) -> &'static str {
        match (self.asked, &self.reason) {
            (Asked::Triage, Some(_)) => {
                "where the bug is tracked, or nothing: Enter records it, Esc drops it"
            }
            (Asked::Triage, None) => {
                "why it is a known bug: Enter goes on to its link, Esc drops it"
            }
            (Asked::Rule, _) => "why the op's rule accepts this: Enter writes it, Esc drops it",
            (Asked::Accept, _) => {
                "why this divergence is acceptable: Enter writes it, Esc drops it"
            }
        }
    }

    /// The text typed.
    pub fn typed(&self) -> String {
        self.text.iter().collect()
    }

    /// Applies a key.
    pub fn key(&mut self, key: Key) -> Typed {
        match key {
            // A control character never reaches the ledger (it would act
            // on a reviewer's terminal in `git diff`); a tab is a space.
            Key::Char('\t') => self.insert(' '),
            Key::Char(c) if c.is_control() || crate::base::outside::is_forbidden(c) => {}
            Key::Char(c) => self.insert(c),
            Key::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                self.text.remove(self.cursor);
            }
            Key::Delete if self.cursor < self.text.len() => {
                self.text.remove(self.cursor);
            }
            Key::Left => self.cursor = self.cursor.saturating_sub(1),
            Key::Right => self.cursor = (self.cursor + 1).min(self.text.len()),
            Key::Home => self.cursor = 0,
            Key::End => self.cursor = self.text.len(),
            Key::ClearLine => {
                self.text.clear();
                self.cursor = 0;
            }
            Key::Esc | Key::Interrupt => return Typed::Dropped,
            Key::Enter => return self.enter(),
            _ => {}
        }
        Typed::Editing
    }

    fn insert(&mut self, c: char) {
        self.text.insert(self.cursor, c);
        self.cursor += 1;
    }

    fn enter(&mut self) -> Typed {
        let text = self.typed().trim().to_owned();
        let Some(reason) = self.reason.clone() else {
            if let Err(error) = one_line("the reason", &text) {
                return Typed::Refused(error.message);
            }
            return match self.asked {
                Asked::Accept => Typed::Decided(Decision::Accept { reason: text }),
                Asked::Rule => Typed::Decided(Decision::Rule { reason: text }),
                Asked::Triage => {
                    self.reason = Some(text);
                    self.text.clear();
                    self.cursor = 0;
                    Typed::Editing
                }
            };
        };
        let link = match text.is_empty() {
            true => None,
            false => match one_line("the link", &text) {
                Ok(()) => Some(text),
                Err(error) => return Typed::Refused(error.message),
            },
        };
        Typed::Decided(Decision::Triage { reason, link })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(prompt: &mut Prompt, text: &str) {
        for c in text.chars() {
            assert_eq!(prompt.key(Key::Char(c)), Typed::Editing);
        }
    }

    #[test]
    fn the_last_reason_is_offered_and_can_be_edited() {
        let mut prompt = Prompt::new(Asked::Accept, "rounds half");
        assert_eq!(prompt.cursor, 11);
        typed(&mut prompt, " to even");
        prompt.key(Key::Home);
        prompt.key(Key::Delete);
        typed(&mut prompt, "R");
        prompt.key(Key::End);
        prompt.key(Key::Backspace);
        typed(&mut prompt, "N\u{1b}\t!");
        assert_eq!(prompt.typed(), "Rounds half to eveN !");
        assert_eq!(
            prompt.key(Key::Enter),
            Typed::Decided(Decision::Accept {
                reason: "Rounds half to eveN !".into()
            })
        );
    }

    #[test]
    fn an_empty_reason_is_refused_and_esc_drops_the_decision() {
        let mut prompt = Prompt::new(Asked::Rule, "old");
        prompt.key(Key::ClearLine);
        typed(&mut prompt, "  ");
        assert_eq!(
            prompt.key(Key::Enter),
            Typed::Refused("the reason must not be empty".into())
        );
        assert_eq!(prompt.key(Key::Esc), Typed::Dropped);
        assert_eq!(
            Prompt::new(Asked::Accept, "x").key(Key::Interrupt),
            Typed::Dropped
        );
    }

    #[test]
    fn triaging_asks_a_reason_then_a_link_that_may_be_left_out() {
        let mut prompt = Prompt::new(Asked::Triage, "");
        typed(&mut prompt, "sorts keys");
        assert_eq!(prompt.key(Key::Enter), Typed::Editing);
        assert_eq!(prompt.label(), "link");
        assert_eq!(prompt.typed(), "", "the link starts empty");
        let mut without = prompt.clone();
        typed(&mut prompt, "https://example.com/issues/7");
        assert_eq!(
            prompt.key(Key::Enter),
            Typed::Decided(Decision::Triage {
                reason: "sorts keys".into(),
                link: Some("https://example.com/issues/7".into())
            })
        );
        assert_eq!(
            without.key(Key::Enter),
            Typed::Decided(Decision::Triage {
                reason: "sorts keys".into(),
                link: None
            })
        );
    }
}
