//! JavaScript semantics, and nothing about workers: the bottom layer.
//!
//! Everything an op needs to behave as the JavaScript reference behaves:
//! - [`value`]: [`Value`], what `JSON.parse` makes, plus `undefined`;
//!   [`object`]: [`Object`], its plain objects, in JavaScript property
//!   order;
//! - [`string`]: [`JsString`], UTF-16 code units (lone surrogates
//!   included) kept as WTF-8, with the conversions the contract names
//!   (`str`, `trim`);
//! - [`parse`](mod@parse) and [`print`](mod@print): `JSON.parse` and `JSON.stringify`
//!   to the byte; [`number`]: `Number.prototype.toString`, `isInteger`;
//! - [`error`]: what an op throws.
//!
//! Values nest to any depth where the contract lets them (JSON text that
//! an op parses): the reader keeps its open containers on the heap, and a
//! value drops without recursion.

mod deep;
pub mod error;
pub mod number;
pub mod object;
pub mod parse;
pub mod print;
pub mod string;
pub mod value;

#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use error::{JsError, JsResult};
pub use parse::{parse, parse_js_string, JsonReader, ParseError, TextMode};
pub use print::{
    stringify, to_json, write_str, write_string, write_value, write_value_to, JsonSink,
};
pub use string::{JsStr, JsString};
pub use value::{Object, Str, Value, UNDEFINED};
