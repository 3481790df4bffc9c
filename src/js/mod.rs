//! JavaScript semantics, and nothing about workers.
//!
//! Everything an op needs to behave as the JavaScript reference behaves:
//! [`Value`] (what `JSON.parse` makes, plus `undefined`), [`JsString`]
//! (UTF-16 code units, lone surrogates included), the reader
//! ([`parse`](mod@parse)) and the printer ([`print`]) that are
//! `JSON.parse` and `JSON.stringify` to the byte, and the conversions the
//! contract names (`str`, `trim`, `Number.isInteger`).

mod deep;
pub mod error;
pub mod number;
pub mod object;
pub mod parse;
pub mod print;
pub mod string;
pub mod value;

#[cfg(test)]
pub(crate) mod testing;

pub use error::{JsError, JsResult};
pub use object::Object;
pub use parse::{parse, parse_js_string, JsonReader, ParseError, TextMode};
pub use print::{stringify, to_json, write_value};
pub use string::JsString;
pub use value::{Value, UNDEFINED};
