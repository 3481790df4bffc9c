//! Comparing result arrays with goldens made by another implementation.

pub mod golden;
