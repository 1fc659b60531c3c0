//! The language server in memory, one test per feature, on the fixture workspace
//! `tests/fixtures/lsp` (a rules module and a module that imports it).

//! One module per kind of request: diagnostics, navigation (hover, definition, references,
//! symbols), editing (completion, code actions, formatting, rename, code lenses), robustness.

#[path = "../common/mod.rs"]
mod common;
mod diagnostics;
mod editing;
mod navigation;
mod robustness;
mod roots;

use common::*;
use serde_json::{Value, json};

const RULES: &str = "specs/shop/rules.t27";
const APP: &str = "specs/shop/app.t27";

pub(crate) fn at(uri: &str, text: &str, needle: &str, nth: usize, into: usize) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": pos(text, needle, nth, into) })
}

pub(crate) fn codes(diags: &[Value]) -> Vec<String> {
    diags
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}
