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
