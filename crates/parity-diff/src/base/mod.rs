pub mod columns;
pub mod error;
pub mod files;
pub mod glob;
pub mod outside;
pub mod redact;
pub mod size;
