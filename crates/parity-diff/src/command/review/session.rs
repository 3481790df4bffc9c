//! A review session as a state machine over keys, without a terminal:
//! the queue, the view (side by side or unified, scrolled, help), the
//! line being typed, and the message line. Each decision is written to
//! the ledger as it is made ([`actions::write`]); one that cannot be
//! made leaves its item undecided and says why.

use std::path::PathBuf;

use super::actions::{self, Decision};
use super::prompt::{Asked, Key, Prompt, Typed};
use super::queue::{Decided, Queue};

/// How a message reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// What was done, or a hint.
    Said,
    /// What could not be done.
    Refused,
}

/// A review session.
#[derive(Debug)]
pub struct Session {
    /// What there is to review, and where the reviewer is.
    pub queue: Queue,
    /// The ledger written.
    pub ledger: PathBuf,
    /// Unified rather than side by side.
    pub unified: bool,
    /// How many lines of the body are scrolled past.
    pub scroll: usize,
    /// Whether the keys' help is shown.
    pub help: bool,
    /// The line being typed, when one is.
    pub prompt: Option<Prompt>,
    /// The message line.
    pub message: Option<(Tone, String)>,
    /// The reason typed last, offered again.
    last_reason: String,
    /// Whether the reviewer quit.
    pub quit: bool,
}

/// The lines Page Up and Page Down move by.
const PAGE: usize = 10;

impl Session {
    /// A session over `queue`, writing the ledger at `ledger`.
    pub fn new(queue: Queue, ledger: PathBuf) -> Self {
        Session {
            queue,
            ledger,
            unified: false,
            scroll: 0,
            help: false,
            prompt: None,
            message: None,
            last_reason: String::new(),
            quit: false,
        }
    }

    fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.message = Some((tone, text.into()));
    }

    /// Handles one key.
    pub fn key(&mut self, key: Key) {
        if let Some(prompt) = &mut self.prompt {
            match prompt.key(key) {
                Typed::Editing => {}
                Typed::Refused(why) => self.say(Tone::Refused, why),
                Typed::Dropped => {
                    self.prompt = None;
                    self.say(Tone::Said, "dropped: nothing written");
                    // Quitting while typing drops that one decision.
                    self.quit = key == Key::Interrupt;
                }
                Typed::Decided(decision) => {
                    self.prompt = None;
                    if let Decision::Accept { reason }
                    | Decision::Rule { reason }
                    | Decision::Triage { reason, .. } = &decision
                    {
                        self.last_reason.clone_from(reason);
                    }
                    self.decide(decision);
                }
            }
            return;
        }
        if self.help {
            self.help = false;
            self.quit = matches!(key, Key::Char('q') | Key::Interrupt);
            return;
        }
        self.message = None;
        match key {
            Key::Char('q') | Key::Interrupt => self.quit = true,
            // Esc drops a line being typed; here there is none.
            Key::Esc => {}
            Key::Char('?') => self.help = true,
            Key::Char('v') => self.unified = !self.unified,
            Key::Up => self.scroll = self.scroll.saturating_sub(1),
            Key::Down => self.scroll += 1,
            Key::PageUp => self.scroll = self.scroll.saturating_sub(PAGE),
            Key::PageDown => self.scroll += PAGE,
            _ if self.queue.is_done() => self.say(Tone::Said, "every item has been seen: q quits"),
            Key::Char('n') => self.move_case(true),
            Key::Char('N') => self.move_case(false),
            Key::Char('s') => {
                self.queue.decide(Decided::Skipped);
                self.scroll = 0;
                self.say(Tone::Said, "skipped: nothing written");
            }
            Key::Char('p') => self.decide(Decision::Prune),
            Key::Char('a') => self.ask(Asked::Accept),
            Key::Char('t') => self.ask(Asked::Triage),
            Key::Char('r') => self.ask(Asked::Rule),
            _ => self.say(Tone::Refused, "not a key of review: ? shows them"),
        }
    }

    fn move_case(&mut self, next: bool) {
        let moved = match next {
            true => self.queue.next_case(),
            false => self.queue.previous_case(),
        };
        self.scroll = 0;
        if !moved {
            let end = if next { "last" } else { "first" };
            self.say(Tone::Said, format!("this is the {end} case of the group"));
        }
    }

    /// Asks for a reason, unless the item is one that is pruned.
    fn ask(&mut self, asked: Asked) {
        let Some((_, item)) = self.queue.current() else {
            return;
        };
        if item.is_prunable() {
            self.say(
                Tone::Refused,
                "this one is not a divergence: prune it (p) or skip it (s)",
            );
            return;
        }
        let prompt = Prompt::new(asked, &self.last_reason);
        self.say(Tone::Said, prompt.hint());
        self.prompt = Some(prompt);
    }

    /// Writes a decision about the current item, and moves on when it
    /// was written.
    fn decide(&mut self, decision: Decision) {
        let Some((_, item)) = self.queue.current() else {
            return;
        };
        let item = item.clone();
        match actions::write(&self.ledger, &item, &decision) {
            Ok(changes) => {
                let (decided, word) = match decision {
                    Decision::Accept { .. } => (Decided::Accepted, "accepted"),
                    Decision::Triage { .. } => (Decided::Triaged, "triaged"),
                    Decision::Rule { .. } => (Decided::Rule, "accepted by a rule"),
                    Decision::Prune => (Decided::Pruned, "pruned"),
                };
                self.queue.decide(decided);
                self.scroll = 0;
                self.say(
                    Tone::Said,
                    format!("{word}: {}", actions::describe(&changes)),
                );
            }
            Err(error) => self.say(Tone::Refused, error.message),
        }
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
