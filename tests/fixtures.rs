//! Snapshot tests over the fixture folders: every good spec's checked summary, and every bad
//! spec's rendered diagnostics. A data-driven harness (libtest-mimic): each fixture is a test
//! of its own, named after its file (`good::declarations.t27`,
//! `errors::E0101-missing-semicolon.t27`), so a broken fixture reads as its own failure and
//! `cargo test --test fixtures E0101` runs one.

mod common;

use common::*;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for path in t27_files(Path::new("tests/fixtures/good/specs")) {
        let name = fixture_name(&path, "tests/fixtures/good/specs");
        trials.push(Trial::test(format!("good::{name}"), move || {
            good_fixture_checks_cleanly(&path, &name)
        }));
    }
    let bad = t27_files(Path::new("tests/fixtures/errors"));
    assert!(
        bad.len() >= 40,
        "at least 40 bad-input specs, found {}",
        bad.len()
    );
    for path in bad.into_iter().filter(|p| !is_helper(p)) {
        let name = fixture_name(&path, "tests/fixtures/errors");
        trials.push(Trial::test(format!("errors::{name}"), move || {
            bad_fixture_reports_its_code(&path, &name)
        }));
    }
    trials.extend(plain_trials(vec![
        ("owner_specs_check_cleanly", owner_specs_check_cleanly),
        (
            "every_code_has_a_fixture_that_reports_it",
            every_code_has_a_fixture_that_reports_it,
        ),
        (
            "every_reported_code_is_registered",
            every_reported_code_is_registered,
        ),
        (
            "json_lines_carry_the_documented_fields",
            json_lines_carry_the_documented_fields,
        ),
    ]));
    libtest_mimic::run(&args, trials).exit();
}

/// A fixture's name: its path under `dir`, as the snapshot files spell it (`a/b.t27` is
/// `a__b.t27`).
fn fixture_name(path: &Path, dir: &str) -> String {
    let under = path.strip_prefix(dir).unwrap_or(path);
    under.to_string_lossy().replace(['/', '\\'], "__")
}

/// Helper modules that other bad fixtures import are not fixtures of their own.
fn is_helper(path: &Path) -> bool {
    path.starts_with("tests/fixtures/errors/queen")
        || path.ends_with("limits.t27")
        || path.ends_with("b.t27")
}

/// A good fixture (one spec per form of the language reference, sections 1 to 4) checks
/// without a diagnostic; the snapshot shows the values and assert counts computed.
fn good_fixture_checks_cleanly(path: &Path, name: &str) -> Result<(), Failed> {
    let mut loader = MemLoader::default();
    let checked = check_paths(&[path.to_path_buf()], &mut loader);
    if !checked.diagnostics.is_empty() {
        return Err(rendered(&checked).into());
    }
    fixture_snapshot(name, path)
        .bind(|| insta::assert_snapshot!("good_fixtures_check_cleanly", summary(&checked)));
    Ok(())
}

/// The code a bad fixture is named after: `E0101-missing-semicolon.t27` and
/// `E1005-import-cycle/a.t27` both start with their code.
fn expected_code(path: &Path) -> String {
    let rel = path.strip_prefix("tests/fixtures/errors").unwrap_or(path);
    rel.to_string_lossy().chars().take(5).collect()
}

/// A bad fixture reports its code (and only real findings); the snapshot shows every
/// diagnostic as rendered, so a reader sees which span is underlined.
fn bad_fixture_reports_its_code(path: &Path, name: &str) -> Result<(), Failed> {
    let mut loader = MemLoader::default();
    let checked = check_paths(&[path.to_path_buf()], &mut loader);
    let code = expected_code(path);
    if !checked.diagnostics.iter().any(|d| d.code.as_str() == code) {
        return Err(format!("does not report {code}:\n{}", rendered(&checked)).into());
    }
    fixture_snapshot(name, path)
        .bind(|| insta::assert_snapshot!("bad_fixtures_report_their_code", rendered(&checked)));
    Ok(())
}

/// The owner's two specs: no error, no warning, and the assert counts the runner will report.
fn owner_specs_check_cleanly() {
    let mut loader = MemLoader::default();
    let paths = vec![
        PathBuf::from("specs/queen/review_first.t27"),
        PathBuf::from("specs/queen/dispatch.t27"),
    ];
    let checked = check_paths(&paths, &mut loader);
    assert!(checked.diagnostics.is_empty(), "{}", rendered(&checked));
    insta::assert_snapshot!("owner_specs_check_cleanly", summary(&checked));
}

/// Every registered code has an example fixture that triggers it, so `t27 explain` never
/// shows an example that does not do what it says.
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
