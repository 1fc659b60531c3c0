//! Snapshot tests over the fixture folders: every good spec's checked summary, and every bad
//! spec's rendered diagnostics.

mod common;

use common::*;
use std::path::{Path, PathBuf};

/// Good fixtures: one spec per form of the language reference, sections 1 to 4. Each must
/// check without a diagnostic; the snapshot shows the values and assert counts computed.
#[test]
fn good_fixtures_check_cleanly() {
    insta::glob!("fixtures/good/specs/**/*.t27", |path| {
        let mut loader = MemLoader::default();
        let checked = check_paths(&[rel(path)], &mut loader);
        assert!(checked.diagnostics.is_empty(), "{}", rendered(&checked));
        insta::assert_snapshot!(summary(&checked));
    });
}

/// The owner's two specs: no error, no warning, and the assert counts the runner will report.
#[test]
fn owner_specs_check_cleanly() {
    let mut loader = MemLoader::default();
    let paths = vec![
        PathBuf::from("specs/queen/review_first.t27"),
        PathBuf::from("specs/queen/dispatch.t27"),
    ];
    let checked = check_paths(&paths, &mut loader);
    assert!(checked.diagnostics.is_empty(), "{}", rendered(&checked));
    insta::assert_snapshot!(summary(&checked));
}

/// The code a bad fixture is named after: `E0101-missing-semicolon.t27` and
/// `E1005-import-cycle/a.t27` both start with their code.
fn expected_code(path: &Path) -> String {
    let rel = path.strip_prefix("tests/fixtures/errors").unwrap_or(path);
    rel.to_string_lossy().chars().take(5).collect()
}

/// Bad fixtures: each reports its code (and only real findings); the snapshot shows every
/// diagnostic as rendered, so a reader sees which span is underlined.
#[test]
fn bad_fixtures_report_their_code() {
    let files = t27_files(Path::new("tests/fixtures/errors"));
    assert!(
        files.len() >= 40,
        "at least 40 bad-input specs, found {}",
        files.len()
    );
    insta::glob!("fixtures/errors/**/*.t27", |path| {
        let path = rel(path);
        // Helper modules that other fixtures import are not fixtures of their own.
        if path.starts_with("tests/fixtures/errors/queen")
            || path.ends_with("limits.t27")
            || path.ends_with("b.t27")
        {
            return;
        }
        let mut loader = MemLoader::default();
        let checked = check_paths(std::slice::from_ref(&path), &mut loader);
        let code = expected_code(&path);
        assert!(
            checked.diagnostics.iter().any(|d| d.code.as_str() == code),
            "{} does not report {code}:\n{}",
            path.display(),
            rendered(&checked)
        );
        insta::assert_snapshot!(rendered(&checked));
    });
}

/// Every registered code has an example fixture that triggers it, so `t27 explain` never
/// shows an example that does not do what it says.
#[test]
fn every_code_has_a_fixture_that_reports_it() {
    for info in t27_diag::CODES {
        let path = PathBuf::from("tests/fixtures/errors").join(info.example_file);
        let mut loader = MemLoader::default();
        let checked = check_paths(std::slice::from_ref(&path), &mut loader);
        assert!(
            checked
                .diagnostics
                .iter()
                .any(|d| d.code.as_str() == info.code),
            "the example of {} ({}) does not report it:\n{}",
            info.code,
            path.display(),
            rendered(&checked)
        );
        assert_eq!(
            std::fs::read(&path).expect("example exists"),
            info.example,
            "{} example is stale",
            info.code
        );
    }
}

/// Every diagnostic the fixtures produce uses a registered code with the registered severity.
#[test]
fn every_reported_code_is_registered() {
    for path in t27_files(Path::new("tests/fixtures")) {
        let mut loader = MemLoader::default();
        let checked = check_paths(std::slice::from_ref(&path), &mut loader);
        for d in &checked.diagnostics {
            let info = t27_diag::explain(d.code.as_str());
            assert!(
                info.is_some(),
                "{} reports unregistered code {}",
                path.display(),
                d.code
            );
            assert_eq!(d.severity, d.code.severity());
        }
    }
}

/// `--format json`: one object per diagnostic with the documented fields.
#[test]
fn json_lines_carry_the_documented_fields() {
    let path = PathBuf::from("tests/fixtures/errors/E0101-missing-semicolon.t27");
    let mut loader = MemLoader::default();
    let checked = check_paths(std::slice::from_ref(&path), &mut loader);
    let lines: Vec<serde_json::Value> = checked
        .diagnostics
        .iter()
        .map(|d| {
            serde_json::from_str(&t27_diag::to_json_line(d, &checked.sources)).expect("valid JSON")
        })
        .collect();
    assert_eq!(lines.len(), 2);
    let first = &lines[0];
    assert_eq!(
        first["file"],
        "tests/fixtures/errors/E0101-missing-semicolon.t27"
    );
    assert_eq!(first["code"], "E0101");
    assert_eq!(first["severity"], "error");
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(2), Some(26))
    );
    assert_eq!(
        (first["end_line"].as_u64(), first["end_column"].as_u64()),
        (Some(2), Some(26))
    );
    assert!(
        first["message"]
            .as_str()
            .is_some_and(|m| m.contains("missing `;`"))
    );
}
