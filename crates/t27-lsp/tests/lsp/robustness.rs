//! Every request gets an answer, and half-typed files never stop the server.

use crate::RULES;
use crate::common::*;
use serde_json::json;

#[test]
fn every_request_gets_an_answer() {
    let mut c = Client::start(&fixture_root());
    let rules = fixture_uri(RULES);
    c.open(&rules, &fixture_text(RULES));
    let unknown = c.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": rules } }),
    );
    assert_eq!(
        unknown.error.expect("an error").code,
        lsp_server::ErrorCode::MethodNotFound as i32
    );
    let bad = c.request("textDocument/hover", json!({ "textDocument": 7 }));
    assert_eq!(
        bad.error.expect("an error").code,
        lsp_server::ErrorCode::InvalidParams as i32
    );
    let elsewhere = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///nowhere/x.t27" }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(elsewhere.error.is_some());
    // Past the end of a line and of the file.
    let far = c.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": rules }, "position": { "line": 999, "character": 999 } }),
    );
    assert!(far.error.is_none(), "{far:?}");
    c.shutdown();
}

/// Every prefix of both seeds, as if typed, a piece at a time: after each change, every
/// request at several positions gets an answer and the server lives on.
#[test]
fn half_typed_seeds_never_crash_it() {
    let root = fixture_root();
    let mut c = Client::start(&root);
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for seed in ["dispatch.t27", "review_first.t27"] {
        let text =
            std::fs::read_to_string(here.join("../../specs/queen").join(seed)).expect("seed");
        let uri = uri(&root.join("specs/typing").join(seed));
        c.open(&uri, "");
        let mut cut = 0;
        while cut < text.len() {
            cut = (cut + 997).min(text.len());
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            let typed = &text[..cut];
            c.change(&uri, typed);
            let lines = typed.lines().count() as u32;
            for line in [0, lines / 2, lines.saturating_sub(1), lines + 3] {
                let position = json!({ "line": line, "character": 3 });
                let doc = json!({ "textDocument": { "uri": uri }, "position": position });
                for method in [
                    "textDocument/hover",
                    "textDocument/definition",
                    "textDocument/completion",
                    "textDocument/prepareRename",
                ] {
                    let resp = c.request(method, doc.clone());
                    if let Some(e) = &resp.error {
                        assert_ne!(
                            e.code,
                            lsp_server::ErrorCode::InternalError as i32,
                            "{method} at {cut}: {}",
                            e.message
                        );
                    }
                }
            }
            for method in ["textDocument/documentSymbol", "textDocument/codeLens"] {
                let resp = c.request(method, json!({ "textDocument": { "uri": uri } }));
                assert!(resp.error.is_none(), "{method} at {cut}: {:?}", resp.error);
            }
        }
        // The whole seed checks as `t27 check` does: no errors.
        let diags = c.diagnostics(&uri);
        assert!(
            diags.iter().all(|d| d["severity"] != 1),
            "{seed}: {diags:?}"
        );
        c.notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        );
    }
    c.shutdown();
}

/// Specs that used to overflow the stack of whatever walked them (a struct that holds
/// itself, types, structs and constants nested past every limit): the server answers and
/// reports each with its code.
#[test]
fn self_containing_and_deeply_nested_specs_get_diagnostics() {
    let root = fixture_root();
    let mut c = Client::start(&root);
    let structs: String = (0..20_000)
        .map(|i| format!("pub struct S{i} {{ a: S{} }}\n", i + 1))
        .collect();
    let consts: String = (0..20_000)
        .map(|i| format!("pub const C{i} : u32 = C{} + 1;\n", i + 1))
        .collect();
    let cases = [
        (
            "tree.t27",
            "module Tree;\npub struct Tree { kids: [2]Tree }\ntest t { var x : Tree = undefined; assert true; }\n".to_string(),
            "E2026",
        ),
        (
            "deep_type.t27",
            format!("module Deep;\npub const A : {}u32 = undefined;\n", "[1]".repeat(100_000)),
            "E0109",
        ),
        (
            "struct_chain.t27",
            format!("module Chain;\n{structs}pub struct S20000 {{ x: u32 }}\n"),
            "E2027",
        ),
        (
            "const_chain.t27",
            format!("module Consts;\n{consts}pub const C20000 : u32 = 0;\n"),
            "E2027",
        ),
    ];
    for (name, text, code) in cases {
        let uri = uri(&root.join("specs/hostile").join(name));
        c.open(&uri, &text);
        let diags = c.diagnostics(&uri);
        assert!(diags.iter().any(|d| d["code"] == code), "{name}: {diags:?}");
        for method in ["textDocument/documentSymbol", "textDocument/codeLens"] {
            let resp = c.request(method, json!({ "textDocument": { "uri": uri } }));
            assert!(resp.error.is_none(), "{name} {method}: {:?}", resp.error);
        }
        let at =
            json!({ "textDocument": { "uri": uri }, "position": { "line": 1, "character": 12 } });
        for method in ["textDocument/hover", "textDocument/completion"] {
            let resp = c.request(method, at.clone());
            assert!(resp.error.is_none(), "{name} {method}: {:?}", resp.error);
        }
    }
    c.shutdown();
}
