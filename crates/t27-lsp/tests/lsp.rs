//! The language server in memory, one test per feature, on the fixture workspace
//! `tests/fixtures/lsp` (a rules module and a module that imports it).

mod common;

use common::*;
use serde_json::{Value, json};

const RULES: &str = "specs/shop/rules.t27";
const APP: &str = "specs/shop/app.t27";

fn at(uri: &str, text: &str, needle: &str, nth: usize, into: usize) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": pos(text, needle, nth, into) })
}

fn codes(diags: &[Value]) -> Vec<String> {
    diags
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn diagnostics_follow_every_change_into_the_importers() {
    let mut c = Client::start(&fixture_root());
    let (app, rules) = (fixture_uri(APP), fixture_uri(RULES));
    let app_text = fixture_text(APP);
    let rules_text = fixture_text(RULES);
    c.open(&app, &app_text);
    assert_eq!(c.diagnostics(&app), Vec::<Value>::new());

    // A typo as it is typed: the code, the span of the name, the help.
    let typo = app_text.replace(
        "return rules::LIMIT - taken;",
        "return rules::LIMT - taken;",
    );
    c.change(&app, &typo);
    let diags = c.diagnostics(&app);
    assert_eq!(codes(&diags), ["E1001"]);
    assert_eq!(diags[0]["range"]["start"], pos(&typo, "LIMT", 0, 0));
    assert_eq!(diags[0]["range"]["end"], pos(&typo, "LIMT", 0, 4));
    let message = diags[0]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("has no") && message.contains("help: did you mean `LIMIT`?"),
        "{message}"
    );
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(diags[0]["source"], "t27");
    c.change(&app, &app_text);
    assert_eq!(c.diagnostics(&app), Vec::<Value>::new());

    // A change to the imported module, unsaved: the importer's diagnostics move, with the
    // declaration as a related location in the other file.
    c.open(&rules, &rules_text);
    let private = rules_text.replace("pub const MAX_ITEMS", "const MAX_ITEMS");
    c.change(&rules, &private);
    let diags = c.diagnostics(&app);
    assert_eq!(codes(&diags), ["E1006"]);
    let related = &diags[0]["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], rules.as_str());
    assert_eq!(
        related["location"]["range"]["start"],
        pos(&private, "MAX_ITEMS", 0, 0)
    );
    assert_eq!(related["message"], "declared here without `pub`");
    c.change(&rules, &rules_text);
    assert_eq!(c.diagnostics(&app), Vec::<Value>::new());

    // A warning carries its severity; the versions of open documents come back.
    let warned = rules_text.replace("assert twice(2) == 4;", "assert twice(2) == 4 && admit(o);");
    c.change(&rules, &warned);
    let diags = c.diagnostics(&rules);
    assert_eq!(codes(&diags), ["W0003"]);
    assert_eq!(diags[0]["severity"], 2);
    let published = c.take_notifications("textDocument/publishDiagnostics");
    let last = published
        .iter()
        .rev()
        .find(|p| p["uri"] == rules.as_str())
        .expect("published");
    assert_eq!(last["version"], 4);
    c.shutdown();
}

/// What each analysis checked, from the server's log.
fn checked(c: &mut Client) -> Vec<String> {
    let logs = c.take_notifications("window/logMessage");
    logs.iter()
        .filter_map(|l| l["message"].as_str())
        .filter(|m| m.starts_with("t27: checked"))
        .map(|m| m.split(" in ").next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_change_checks_its_module_and_the_modules_that_import_it() {
    let mut c = Client::start(&fixture_root());
    let (app, rules) = (fixture_uri(APP), fixture_uri(RULES));
    let (app_text, rules_text) = (fixture_text(APP), fixture_text(RULES));
    c.open(&app, &app_text);
    c.open(&rules, &rules_text);
    c.diagnostics(&app);
    assert_eq!(
        checked(&mut c),
        ["t27: checked 2 of 2 files (the whole workspace)"]
    );
    // Nothing imports app.t27: it alone is checked again.
    c.change(&app, &app_text.replace("return 0;", "return 1;"));
    c.diagnostics(&app);
    assert_eq!(checked(&mut c), ["t27: checked 1 of 2 files"]);
    // app.t27 imports rules.t27: both are.
    c.change(&rules, &rules_text.replace("* 2;", "* 3;"));
    c.diagnostics(&rules);
    assert_eq!(checked(&mut c), ["t27: checked 2 of 2 files"]);
    // A request about every module checks the whole workspace first, once.
    c.change(&app, &app_text);
    c.ok("workspace/symbol", json!({ "query": "" }));
    c.ok("workspace/symbol", json!({ "query": "x" }));
    assert_eq!(
        checked(&mut c),
        [
            "t27: checked 1 of 2 files",
            "t27: checked 2 of 2 files (the whole workspace)"
        ]
    );
    c.shutdown();
}

#[test]
fn hover_shows_declarations_values_docs_and_signatures() {
    let mut c = Client::start(&fixture_root());
    let (app, rules) = (fixture_uri(APP), fixture_uri(RULES));
    let (app_text, rules_text) = (fixture_text(APP), fixture_text(RULES));
    c.open(&app, &app_text);
    let hover = |c: &mut Client, uri: &str, text: &str, needle: &str, nth: usize| -> String {
        let h = c.ok("textDocument/hover", at(uri, text, needle, nth, 1));
        h["contents"]["value"].as_str().unwrap_or("").to_string()
    };
    let max = hover(&mut c, &app, &app_text, "MAX_ITEMS", 1);
    assert_eq!(
        max,
        "```t27\npub const MAX_ITEMS : u32 = 40\n```\n\nOrders above this many items wait for a person."
    );
    // A constant's computed value, through a module alias.
    assert_eq!(
        hover(&mut c, &app, &app_text, "LIMIT", 0),
        "```t27\npub const LIMIT : u32 = 80\n```"
    );
    assert_eq!(
        hover(&mut c, &app, &app_text, "taken", 1),
        "```t27\ntaken: u32 // a parameter\n```"
    );
    assert!(
        hover(&mut c, &app, &app_text, "rules::LIMIT", 0).starts_with("```t27\nmodule ShopRules")
    );
    c.open(&rules, &rules_text);
    assert_eq!(
        hover(&mut c, &rules, &rules_text, "admit(o)", 0),
        "```t27\npub fn admit(order: Order) -> bool\n```\n\nWhether an order goes through without a person."
    );
    assert_eq!(
        hover(&mut c, &rules, &rules_text, "items", 1),
        "```t27\nOrder.items : u32\n```"
    );
    assert_eq!(
        hover(&mut c, &rules, &rules_text, "small", 1),
        "```t27\nlet small : bool\n```"
    );
    let h = c.ok(
        "textDocument/hover",
        at(&rules, &rules_text, "struct Order", 0, 8),
    );
    assert_eq!(
        h["contents"]["value"],
        "```t27\npub struct Order {\n    items: u32,\n    rush: bool,\n}\n```"
    );
    // A `const` local, read in a test block.
    let h = c.ok(
        "textDocument/hover",
        at(&rules, &rules_text, "admit(o)", 0, 6),
    );
    assert_eq!(h["contents"]["value"], "```t27\nconst o : Order\n```");
    // The range is the name's.
    let h = c.ok("textDocument/hover", at(&rules, &rules_text, "twice", 1, 2));
    assert_eq!(h["range"]["start"], pos(&rules_text, "twice", 1, 0));
    // Nothing to say on a keyword.
    assert_eq!(
        c.ok(
            "textDocument/hover",
            at(&rules, &rules_text, "return", 0, 1)
        ),
        Value::Null
    );
    c.shutdown();
}

#[test]
fn definition_goes_across_use() {
    let mut c = Client::start(&fixture_root());
    let (app, rules) = (fixture_uri(APP), fixture_uri(RULES));
    let (app_text, rules_text) = (fixture_text(APP), fixture_text(RULES));
    c.open(&app, &app_text);
    let def = c.ok(
        "textDocument/definition",
        at(&app, &app_text, "LIMIT", 0, 0),
    );
    assert_eq!(def["uri"], rules.as_str());
    assert_eq!(def["range"]["start"], pos(&rules_text, "LIMIT", 0, 0));
    assert_eq!(def["range"]["end"], pos(&rules_text, "LIMIT", 0, 5));
    // The name a `use` brings in, and the module a `use` names.
    let def = c.ok(
        "textDocument/definition",
        at(&app, &app_text, "MAX_ITEMS", 0, 3),
    );
    assert_eq!(def["range"]["start"], pos(&rules_text, "MAX_ITEMS", 0, 0));
    let def = c.ok(
        "textDocument/definition",
        at(&app, &app_text, "shop::rules;", 0, 6),
    );
    assert_eq!(def["uri"], rules.as_str());
    assert_eq!(
        def["range"]["start"],
        pos(&rules_text, "module ShopRules", 0, 7)
    );
    // A parameter, a field.
    let def = c.ok(
        "textDocument/definition",
        at(&app, &app_text, "taken", 2, 0),
    );
    assert_eq!(def["range"]["start"], pos(&app_text, "taken", 0, 0));
    c.open(&rules, &rules_text);
    let def = c.ok(
        "textDocument/definition",
        at(&rules, &rules_text, "order.items", 0, 6),
    );
    assert_eq!(def["range"]["start"], pos(&rules_text, "items: u32", 0, 0));
    c.shutdown();
}

#[test]
fn references_are_found_in_every_module() {
    let mut c = Client::start(&fixture_root());
    let (app, rules) = (fixture_uri(APP), fixture_uri(RULES));
    let (app_text, rules_text) = (fixture_text(APP), fixture_text(RULES));
    c.open(&rules, &rules_text);
    let mut params = at(&rules, &rules_text, "MAX_ITEMS", 0, 0);
    params["context"] = json!({ "includeDeclaration": true });
    let refs = c.ok("textDocument/references", params.clone());
    let found: Vec<(String, Value)> = refs
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| {
            (
                l["uri"].as_str().unwrap_or("").to_string(),
                l["range"]["start"].clone(),
            )
        })
        .collect();
    let want = vec![
        (rules.clone(), pos(&rules_text, "MAX_ITEMS", 0, 0)),
        (app.clone(), pos(&app_text, "MAX_ITEMS", 0, 0)),
        (app.clone(), pos(&app_text, "MAX_ITEMS", 1, 0)),
        (rules.clone(), pos(&rules_text, "MAX_ITEMS", 1, 0)),
        (rules.clone(), pos(&rules_text, "MAX_ITEMS", 2, 0)),
    ];
    let mut found_sorted = found.clone();
    let mut want_sorted = want.clone();
    found_sorted.sort_by_key(|(u, p)| (u.clone(), p.to_string()));
    want_sorted.sort_by_key(|(u, p)| (u.clone(), p.to_string()));
    assert_eq!(found_sorted, want_sorted);
    assert_eq!(found[0], want[0], "the declaration comes first");
    params["context"] = json!({ "includeDeclaration": false });
    assert_eq!(
        c.ok("textDocument/references", params)
            .as_array()
            .map(Vec::len),
        Some(4)
    );
    // A local's references stay in its function.
    let mut params = at(&rules, &rules_text, "n: u32", 0, 0);
    params["context"] = json!({ "includeDeclaration": true });
    assert_eq!(
        c.ok("textDocument/references", params)
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    c.shutdown();
}

#[test]
fn document_and_workspace_symbols() {
    let mut c = Client::start(&fixture_root());
    let rules = fixture_uri(RULES);
    let rules_text = fixture_text(RULES);
    c.open(&rules, &rules_text);
    let symbols = c.ok(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": rules } }),
    );
    let outline: Vec<String> = symbols
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| {
            let children: Vec<&str> = s["children"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["name"].as_str())
                .collect();
            format!(
                "{} {} {} {:?}",
                s["kind"],
                s["name"].as_str().unwrap_or(""),
                s["detail"].as_str().unwrap_or(""),
                children
            )
        })
        .collect();
    assert_eq!(
        outline,
        [
            "14 MAX_ITEMS u32 []",
            "14 LIMIT u32 []",
            "23 Order struct [\"items\", \"rush\"]",
            "12 admit pub fn admit(order: Order) -> bool []",
            "12 twice fn twice(n: u32) -> u32 []",
            "6 admits_small_orders test []",
            "6 fails_on_purpose test []",
        ]
    );
    // The name is the selection, the whole declaration the range.
    let admit = &symbols[3];
    assert_eq!(
        admit["selectionRange"]["start"],
        pos(&rules_text, "admit", 0, 0)
    );
    // Its doc comment is part of it.
    assert_eq!(
        admit["range"]["start"],
        pos(&rules_text, "/// Whether an order", 0, 0)
    );
    let found = c.ok("workspace/symbol", json!({ "query": "lim" }));
    let names: Vec<(&str, &str)> = found
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or(""),
                s["containerName"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(names, [("LIMIT", "ShopRules")]);
    let all = c.ok("workspace/symbol", json!({ "query": "" }));
    // Two modules, their eleven declarations and two fields.
    assert_eq!(all.as_array().map(Vec::len), Some(13), "{all}");
    assert_eq!(all[0]["name"], "ShopApp");
    assert_eq!(
        all[0]["location"]["range"]["start"],
        pos(&fixture_text(APP), "ShopApp", 0, 0)
    );
    c.shutdown();
}

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

/// A client that watches files for the server hears of specs changed on disk, and the modules
/// that import them are checked again.
#[test]
fn specs_changed_on_disk_are_checked_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = t27_check::normalize(dir.path());
    std::fs::create_dir_all(root.join("specs/shop")).expect("folders");
    for f in [RULES, APP] {
        std::fs::write(root.join(f), fixture_text(f)).expect("copy");
    }
    let watching =
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let mut c = Client::start_with(&root, watching);
    let app = uri(&root.join(APP));
    c.open(&app, &fixture_text(APP));
    assert_eq!(c.diagnostics(&app), Vec::<Value>::new());
    let asked = c
        .requests
        .iter()
        .find(|r| r.method == "client/registerCapability")
        .expect("asked to watch");
    assert_eq!(
        asked.params["registrations"][0]["registerOptions"]["watchers"][0]["globPattern"],
        "**/*.t27"
    );
    // Another program makes `MAX_ITEMS` private; the editor says so.
    let private = fixture_text(RULES).replace("pub const MAX_ITEMS", "const MAX_ITEMS");
    std::fs::write(root.join(RULES), private).expect("write");
    let changes = json!({ "changes": [{ "uri": uri(&root.join(RULES)), "type": 2 }] });
    c.notify("workspace/didChangeWatchedFiles", changes);
    assert_eq!(codes(&c.diagnostics(&app)), ["E1006"]);
    c.shutdown();
}

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
