//! `t27 doc`: one test per case of `tests/fixtures/doc` (`fixture::<name>`), the site of its
//! tree (blocks run on the evaluator) snapshotted page by page; that the same tree gives the
//! same bytes; and that every case's scripts load in Node.js, each public function of a sound
//! module where the page looks for it.

mod common;

use common::*;
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

const FIXTURES: &str = "tests/fixtures/doc";

/// The files every site has whatever its specs: the stylesheet, the page script and the
/// runtime (the mirrors' own, as a classic script).
const SHARED: &[&str] = &["doc.css", "doc.js", "t27_runtime.js"];

fn site(case: &Path) -> BTreeMap<PathBuf, String> {
    let files = t27_files(&case.join("specs"));
    let checked = t27_check::check_names(&files, None, &mut MemLoader::default());
    let (reports, _) = run_blocks(&checked, t27_run::Engine::Eval, Duration::from_secs(10));
    t27_doc::site(&checked, Some(&reports)).expect("the site is built")
}

fn fixture(case: &Path, name: &str) -> Result<(), Failed> {
    let note = std::fs::read_to_string(case.join("README")).unwrap_or_default();
    let mut text = note;
    for (path, page) in site(case) {
        let path = path.to_string_lossy().replace('\\', "/");
        if SHARED.contains(&path.as_str()) {
            continue;
        }
        text.push_str(&format!("=== {path}\n{page}"));
    }
    fixture_snapshot(name, &case.join("README")).bind(|| insta::assert_snapshot!("doc", text));
    Ok(())
}

fn the_same_tree_gives_the_same_bytes() {
    for (case, _) in case_dirs(FIXTURES) {
        assert!(
            site(&case) == site(&case),
            "{} differs between builds",
            case.display()
        );
    }
}

/// Loads a case's runtime and module scripts as the pages do (in order, into one global
/// `window`) and lists, for each module script, the functions it defines.
fn the_scripts_load() {
    for (case, name) in case_dirs(FIXTURES) {
        let files = site(&case);
        let dir = tempfile::tempdir().expect("a temporary folder");
        let mut scripts = vec!["t27_runtime.js".to_string()];
        let mut modules = Vec::new();
        for (path, text) in &files {
            let target = dir.path().join(path);
            std::fs::create_dir_all(target.parent().expect("a parent")).expect("mkdir");
            std::fs::write(&target, text).expect("write");
            let p = path.to_string_lossy().replace('\\', "/");
            if let Some(m) = p.strip_suffix(".js")
                && !SHARED.contains(&p.as_str())
            {
                scripts.push(p.clone());
                modules.push(m.to_string());
            }
        }
        let program = format!(
            "const fs = require('fs'); const vm = require('vm'); globalThis.window = globalThis;\n\
             for (const s of {scripts:?}) vm.runInThisContext(fs.readFileSync(s, 'utf8'), {{ filename: s }});\n\
             for (const m of {modules:?}) console.log(m + ': ' + Object.keys(T27.modules[m]).filter(k => typeof T27.modules[m][k] === 'function').sort().join(' '));"
        );
        let out = std::process::Command::new("node")
            .arg("-e")
            .arg(&program)
            .current_dir(dir.path())
            .output()
            .expect("node runs (Node.js is needed by the host tests too)");
        assert!(
            out.status.success(),
            "{}: {}",
            case.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let listed = String::from_utf8_lossy(&out.stdout).into_owned();
        insta::with_settings!({ snapshot_suffix => name }, {
            insta::assert_snapshot!("doc_scripts", listed);
        });
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = plain_trials(vec![
        (
            "the_same_tree_gives_the_same_bytes",
            the_same_tree_gives_the_same_bytes,
        ),
        ("the_scripts_load", the_scripts_load),
    ]);
    for (case, name) in case_dirs(FIXTURES) {
        trials.push(Trial::test(format!("fixture::{name}"), move || {
            fixture(&case, &name)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
