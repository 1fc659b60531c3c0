//! Diagnostics as you type, into the modules that import a file, and what is checked when.

use crate::common::*;
use crate::{APP, RULES, codes};
use serde_json::{Value, json};

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
