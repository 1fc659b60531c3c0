//! `t27 fix` over data: one test per spec in `tests/fixtures/fix`, each named after the code
//! whose fix it carries. Each is fixed in a copy: the diff `--dry-run` shows and the fixed
//! text are snapshots; the file then has no diagnostic of that code; a second run fixes
//! nothing; and the fix changed no meaning: the constants and every block's outcome are
//! those of the original (for a spec whose error kept its blocks from running, they pass).

mod common;

use common::{stdout, t27_in as t27};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Output;

fn main() {
    let args = Arguments::from_args();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(repo.join("tests/fixtures/fix"))
        .expect("tests/fixtures/fix")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "t27"))
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 5, "fix fixtures: {}", fixtures.len());
    let trials = fixtures
        .into_iter()
        .map(|path| {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default();
            Trial::test(name.clone(), move || fixes(&path, &name))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// JSON lines without the fields that change from run to run.
fn records(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|mut v| {
            if let Some(m) = v.as_object_mut() {
                m.remove("duration_ms");
            }
            v
        })
        .collect()
}

fn fixes(path: &Path, name: &str) -> Result<(), Failed> {
    let code = &name[..5];
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir.path().join("specs")).map_err(|e| e.to_string())?;
    let spec = dir.path().join("specs/fixture.t27");
    let original = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    std::fs::write(&spec, &original).map_err(|e| e.to_string())?;
    let reported = |dir: &Path| {
        records(&t27(dir, &["check", "--format", "json"]))
            .iter()
            .filter(|d| d["code"] == code)
            .count()
    };
    if reported(dir.path()) == 0 {
        return Err(format!("the fixture does not report {code}").into());
    }
    let had_errors = t27(dir.path(), &["check"]).status.code() != Some(0);
    let consts = |dir: &Path| records(&t27(dir, &["consts", "--format", "json"]));
    let outcomes =
        |dir: &Path| records(&t27(dir, &["test", "--engine", "eval", "--format", "json"]));
    let (consts_before, outcomes_before) = (consts(dir.path()), outcomes(dir.path()));

    let dry = t27(dir.path(), &["fix", "--dry-run"]);
    if dry.status.code() != Some(0)
        || std::fs::read_to_string(&spec).ok().as_deref() != Some(&original)
    {
        return Err("--dry-run failed or changed the file".into());
    }
    let fixed = t27(dir.path(), &["fix"]);
    if fixed.status.code() != Some(0) {
        return Err(String::from_utf8_lossy(&fixed.stderr).into_owned().into());
    }
    let text = std::fs::read_to_string(&spec).map_err(|e| e.to_string())?;
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(path);
    settings.bind(|| {
        insta::assert_snapshot!(format!("fix__{name}__diff"), stdout(&dry));
        insta::assert_snapshot!(format!("fix__{name}__fixed"), text);
    });

    if reported(dir.path()) != 0 {
        return Err(format!("{code} is still reported after the fix").into());
    }
    let again = t27(dir.path(), &["fix"]);
    if !String::from_utf8_lossy(&again.stderr).contains("fixed 0 problems") {
        return Err(format!(
            "a second run fixed more: {}",
            String::from_utf8_lossy(&again.stderr)
        )
        .into());
    }
    let (consts_after, outcomes_after) = (consts(dir.path()), outcomes(dir.path()));
    if had_errors {
        // The blocks did not run before; they run now, and pass.
        let passed = outcomes_after
            .iter()
            .filter(|r| r["outcome"] == "pass")
            .count();
        let blocks = outcomes_after
            .iter()
            .filter(|r| r["type"] == "block")
            .count();
        if blocks == 0 || passed != blocks {
            return Err(format!("after the fix: {outcomes_after:?}").into());
        }
    } else if consts_before != consts_after || outcomes_before != outcomes_after {
        return Err(format!(
            "the fix changed the meaning:\nconstants {consts_before:?}\n -> {consts_after:?}\noutcomes {outcomes_before:?}\n -> {outcomes_after:?}"
        )
        .into());
    }
    if outcomes_after.is_empty() {
        return Err("no blocks ran".into());
    }
    Ok(())
}
