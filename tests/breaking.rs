//! `t27 breaking`: one test per fixture pair of `tests/fixtures/breaking` (`fixture::<name>`),
//! the tree in `old/` against the tree in `new/`, its text and JSON snapshotted; and a test
//! that every kind of change has a fixture that reports it.

mod common;

use common::*;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::Path;
use t27_breaking::{Comparison, Kind, Names};
use t27_check::Checked;

const FIXTURES: &str = "tests/fixtures/breaking";

fn compared(case: &Path) -> (Checked, Checked, Comparison) {
    let tree = |side: &str| {
        let files = t27_files(&case.join(side));
        check_paths(&files, &mut MemLoader::default())
    };
    let (old, new) = (tree("old"), tree("new"));
    let comparison = t27_breaking::compare(&old, &new);
    (old, new, comparison)
}

fn fixture(case: &Path, name: &str) -> Result<(), Failed> {
    let (old, new, comparison) = compared(case);
    let names = Names {
        against: "old",
        old_file: &|n: &str| n.to_string(),
    };
    let note = std::fs::read_to_string(case.join("README")).unwrap_or_default();
    let text = format!(
        "{note}--- text\n{}--- json\n{}",
        comparison.text(&old, &new, &names, false),
        comparison.json(&old, &new, &names)
    );
    fixture_snapshot(name, &case.join("README")).bind(|| insta::assert_snapshot!("breaking", text));
    Ok(())
}

/// Every kind of change is reported by some fixture, so each has its snapshot.
fn every_kind_has_a_fixture() {
    let mut seen = Vec::new();
    for (case, _) in case_dirs(FIXTURES) {
        seen.extend(compared(&case).2.changes.iter().map(|c| c.kind));
    }
    let missing: Vec<&str> = Kind::ALL
        .iter()
        .filter(|k| !seen.contains(k))
        .map(|k| k.as_str())
        .collect();
    assert!(missing.is_empty(), "no fixture reports {missing:?}");
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = plain_trials(vec![("every_kind_has_a_fixture", every_kind_has_a_fixture)]);
    for (case, name) in case_dirs(FIXTURES) {
        trials.push(Trial::test(format!("fixture::{name}"), move || {
            fixture(&case, &name)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
