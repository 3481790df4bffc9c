//! The worker IPC protocol (contract 4.19–4.21, 5): not implemented yet.

pub mod scripted;
