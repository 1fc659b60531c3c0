//! Hover, go to definition, references, document and workspace symbols.

use crate::common::*;
use crate::{APP, RULES, at};
use serde_json::{Value, json};

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
