//! Completion, code actions, formatting, rename, and the code lens that runs a block.

use crate::common::*;
use crate::{APP, RULES, at};
use serde_json::{Value, json};

fn labels(completions: &Value) -> Vec<String> {
    let items = completions
        .as_array()
        .or_else(|| completions["items"].as_array());
    items
        .into_iter()
        .flatten()
        .filter_map(|i| i["label"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn completion_offers_names_in_scope_paths_and_fields() {
    let mut c = Client::start(&fixture_root());
    let app = fixture_uri(APP);
    let app_text = fixture_text(APP);
    // Half-typed: `rules::` with nothing after it yet.
    let typing = app_text.replace("return rules::LIMIT - taken;", "return rules::");
    c.open(&app, &typing);
    let got = labels(&c.ok(
        "textDocument/completion",
        at(&app, &typing, "rules::", 1, 7),
    ));
    assert_eq!(
        got,
        ["MAX_ITEMS", "LIMIT", "Order", "admit"],
        "public declarations only"
    );
    // A `use` path, segment by segment.
    let typing = app_text.replace("use shop::rules;", "use shop::");
    c.change(&app, &typing);
    let got = labels(&c.ok(
        "textDocument/completion",
        at(&app, &typing, "use shop::", 0, 10),
    ));
    assert_eq!(got, ["app", "rules"]);
    // Fields of a local's struct type, while the line is unfinished.
    let rules = fixture_uri(RULES);
    let rules_text = fixture_text(RULES);
    let typing = rules_text.replace("    assert admit(o);", "    assert o.");
    c.open(&rules, &typing);
    let got = labels(&c.ok(
        "textDocument/completion",
        at(&rules, &typing, "assert o.", 0, 9),
    ));
    assert_eq!(got, ["items", "rush"]);
    // Everything in scope: locals first, then the module's names and its imports.
    c.change(&app, &app_text);
    let got = labels(&c.ok(
        "textDocument/completion",
        at(&app, &app_text, "return 0;", 0, 7),
    ));
    let first: Vec<&str> = got.iter().take(4).map(String::as_str).collect();
    assert_eq!(first, ["taken", "room", "rules", "MAX_ITEMS"]);
    assert!(got.iter().any(|l| l == "while") && got.iter().any(|l| l == "u32"));
    c.shutdown();
}

#[test]
fn code_actions_apply_the_certain_fixes() {
    let mut c = Client::start(&fixture_root());
    let rules = fixture_uri(RULES);
    let rules_text = fixture_text(RULES);
    let warned = rules_text.replace("assert twice(2) == 4;", "assert twice(2) == 4 && admit(o);");
    let want = rules_text.replace(
        "assert twice(2) == 4;",
        "assert twice(2) == 4 and admit(o);",
    );
    c.open(&rules, &warned);
    let range = json!({ "start": pos(&warned, "&&", 0, 0), "end": pos(&warned, "&&", 0, 2) });
    let actions = c.ok(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": rules }, "range": range, "context": { "diagnostics": [] } }),
    );
    let actions = actions.as_array().expect("actions");
    assert_eq!(actions.len(), 2, "{actions:?}");
    let quick = &actions[0];
    assert_eq!(quick["kind"], "quickfix");
    assert_eq!(quick["diagnostics"][0]["code"], "W0003");
    assert!(
        quick["title"].as_str().unwrap_or("").starts_with("W0003: "),
        "{quick}"
    );
    let edits = quick["edit"]["changes"][rules.as_str()]
        .as_array()
        .expect("edits");
    let fixed = apply(&warned, edits);
    assert_eq!(fixed, want);
    assert_eq!(actions[1]["kind"], "source.fixAll");
    // Only what was asked for.
    let only = c.ok(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": rules }, "range": range, "context": { "diagnostics": [], "only": ["source.fixAll"] } }),
    );
    assert_eq!(only.as_array().map(Vec::len), Some(1));
    // After the fix, no diagnostics and no actions.
    c.change(&rules, &fixed);
    assert_eq!(c.diagnostics(&rules), Vec::<Value>::new());
    let none = c.ok(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": rules }, "range": range, "context": { "diagnostics": [] } }),
    );
    assert_eq!(none, json!([]));
    c.shutdown();
}

#[test]
fn formatting_is_t27_fmt() {
    let mut c = Client::start(&fixture_root());
    let rules = fixture_uri(RULES);
    let rules_text = fixture_text(RULES);
    let messy = rules_text
        .replace("    return n * 2;", "return n*2 ;")
        .replace("    items: u32,", "  items:u32,");
    c.open(&rules, &messy);
    let params = json!({ "textDocument": { "uri": rules }, "options": { "tabSize": 4, "insertSpaces": true } });
    let edits = c.ok("textDocument/formatting", params.clone());
    assert_eq!(apply(&messy, edits.as_array().expect("edits")), rules_text);
    c.change(&rules, &rules_text);
    assert_eq!(c.ok("textDocument/formatting", params.clone()), json!([]));
    // A file with a syntax error is left alone, with an error response that says why.
    c.change(&rules, &rules_text.replace("return n * 2;", "return n * ;"));
    let resp = c.request("textDocument/formatting", params);
    let error = resp.error.expect("an error response");
    assert!(error.message.contains("syntax error"), "{}", error.message);
    c.shutdown();
}

#[test]
fn rename_changes_every_module() {
    let mut c = Client::start(&fixture_root());
    let (app, rules) = (fixture_uri(APP), fixture_uri(RULES));
    let (app_text, rules_text) = (fixture_text(APP), fixture_text(RULES));
    c.open(&app, &app_text);
    let prepared = c.ok(
        "textDocument/prepareRename",
        at(&app, &app_text, "MAX_ITEMS", 1, 2),
    );
    assert_eq!(prepared["start"], pos(&app_text, "MAX_ITEMS", 1, 0));
    let mut params = at(&app, &app_text, "MAX_ITEMS", 1, 2);
    params["newName"] = json!("ITEM_CEILING");
    let edit = c.ok("textDocument/rename", params.clone());
    let changes = &edit["changes"];
    let new_app = apply(
        &app_text,
        changes[app.as_str()].as_array().expect("app edits"),
    );
    let new_rules = apply(
        &rules_text,
        changes[rules.as_str()].as_array().expect("rules edits"),
    );
    assert_eq!(new_app, app_text.replace("MAX_ITEMS", "ITEM_CEILING"));
    assert_eq!(new_rules, rules_text.replace("MAX_ITEMS", "ITEM_CEILING"));
    // The renamed tree checks clean.
    c.change(&app, &new_app);
    c.open(&rules, &new_rules);
    assert_eq!(c.diagnostics(&app), Vec::<Value>::new());
    assert_eq!(c.diagnostics(&rules), Vec::<Value>::new());
    // Not a name, a keyword, a module: error responses.
    for (name, why) in [("2fast", "not a name"), ("while", "not a name")] {
        params["newName"] = json!(name);
        params["position"] = pos(&new_app, "ITEM_CEILING", 1, 2);
        let error = c
            .request("textDocument/rename", params.clone())
            .error
            .expect("refused");
        assert!(error.message.contains(why), "{}", error.message);
    }
    let error = c
        .request(
            "textDocument/prepareRename",
            at(&app, &new_app, "shop::rules;", 0, 7),
        )
        .error
        .expect("refused");
    assert!(
        error.message.contains("rename the file"),
        "{}",
        error.message
    );
    c.shutdown();
}

#[test]
fn a_code_lens_runs_one_test_block() {
    let mut c = Client::start(&fixture_root());
    let rules = fixture_uri(RULES);
    let rules_text = fixture_text(RULES);
    c.open(&rules, &rules_text);
    let lenses = c.ok(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": rules } }),
    );
    let lenses = lenses.as_array().expect("lenses");
    assert_eq!(lenses.len(), 2);
    assert_eq!(
        lenses[0]["range"]["start"],
        pos(&rules_text, "admits_small_orders", 0, 0)
    );
    let command = &lenses[1]["command"];
    assert_eq!(command["title"], "▶ Run test");
    assert_eq!(command["command"], t27_lsp::COMMAND_RUN_TEST);
    let ran = c.ok(
        "workspace/executeCommand",
        json!({ "command": command["command"], "arguments": command["arguments"] }),
    );
    assert_eq!(ran["name"], "ShopRules::fails_on_purpose");
    assert_eq!(ran["passed"], false);
    assert_eq!(ran["outcome"], "fail");
    let report = ran["report"].as_str().unwrap_or("");
    assert!(
        report.starts_with("FAIL    ShopRules::fails_on_purpose"),
        "{report}"
    );
    assert!(report.contains("left:  6"), "{report}");
    let shown = c.take_notifications("window/showMessage");
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0]["type"], 1);
    let ran = c.ok(
        "workspace/executeCommand",
        json!({ "command": t27_lsp::COMMAND_RUN_TEST, "arguments": [rules, "admits_small_orders"] }),
    );
    assert_eq!(
        (ran["passed"].clone(), ran["outcome"].clone()),
        (json!(true), json!("pass"))
    );
    // The unsaved text is what runs.
    c.change(
        &rules,
        &rules_text.replace("twice(3) == 7", "twice(3) == 6"),
    );
    let ran = c.ok(
        "workspace/executeCommand",
        json!({ "command": t27_lsp::COMMAND_RUN_TEST, "arguments": [rules, "fails_on_purpose"] }),
    );
    assert_eq!(ran["passed"], true);
    let error = c
        .request(
            "workspace/executeCommand",
            json!({ "command": t27_lsp::COMMAND_RUN_TEST, "arguments": [rules, "no_such_block"] }),
        )
        .error
        .expect("refused");
    assert!(
        error
            .message
            .contains("no test or invariant `no_such_block`"),
        "{}",
        error.message
    );
    c.shutdown();
}
