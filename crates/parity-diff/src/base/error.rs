//! The one error a command reports as exit status 2: a usage or input
//! error, or a report that cannot be written.

use std::io;

/// A usage or input error: the command cannot do its job (exit status 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// One line saying what is wrong.
    pub message: String,
    /// The report's reader went away (`| head`): nothing worth saying.
    pub output_closed: bool,
}

impl InputError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        InputError {
            message: message.into(),
            output_closed: false,
        }
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}

impl From<io::Error> for InputError {
    fn from(error: io::Error) -> Self {
        InputError {
            output_closed: error.kind() == io::ErrorKind::BrokenPipe,
            ..InputError::new(format!("cannot write the report: {error}"))
        }
    }
}
