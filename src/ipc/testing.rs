//! A channel for the halves' unit tests: it records what is sent, and can
//! be disconnected or made to throw.

use super::Channel;
use js_exact::{JsError, Value};

/// A recording channel.
#[derive(Default)]
pub struct Recorder {
    /// Every frame sent, in order.
    pub sent: Vec<Value>,
    /// `connected` is false.
    pub disconnected: bool,
    /// `send` throws `Error(message)`.
    pub failure: Option<&'static str>,
}

impl Channel for Recorder {
    fn send(&mut self, frame: &Value) -> Result<(), JsError> {
        match self.failure {
            Some(message) => Err(JsError::new(message)),
            None => {
                self.sent.push(frame.clone());
                Ok(())
            }
        }
    }

    fn connected(&self) -> bool {
        !self.disconnected
    }
}
