//! Helpers shared by the integration tests: checking fixtures from memory and printing what
//! the checker found in a form that reads well as a snapshot.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use t27_check::{Checked, Loader, check};
use t27_ir::{ItemRef, Program, Ty};

/// Serves files from memory; anything not in memory is read from the disk once.
#[derive(Default, Clone)]
pub struct MemLoader {
    pub files: HashMap<PathBuf, Vec<u8>>,
}

impl Loader for MemLoader {
    fn read(&mut self, path: &Path) -> Result<Vec<u8>, String> {
        let key = t27_check::normalize(path);
        if let Some(bytes) = self.files.get(&key) {
            return Ok(bytes.clone());
        }
        let bytes = std::fs::read(&key).map_err(|e| e.to_string())?;
        self.files.insert(key, bytes.clone());
        Ok(bytes)
    }
}

/// A fixture path relative to the repository root, with `/` separators on every platform.
pub fn rel(path: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root).unwrap_or(path).to_path_buf()
}

/// All `.t27` files under a folder, sorted.
pub fn t27_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("fixture folder is readable") {
            let p = entry.expect("fixture entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "t27") {
                out.push(rel(&p));
            }
        }
    }
    out.sort();
    out
}

/// The cases of a fixture folder whose every case is a folder of its own (`tests/fixtures/doc`,
/// `tests/fixtures/breaking`), sorted, each with its name.
pub fn case_dirs(dir: &str) -> Vec<(PathBuf, String)> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir} is readable: {e}"))
        .map(|e| e.expect("fixture entry").path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
        .into_iter()
        .map(|case| {
            let name = case
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            (case, name)
        })
        .collect()
}

/// Runs every block of a checked request on `engine`, each with `timeout`: the reports in
/// order, and the summary.
pub fn run_blocks(
    checked: &Checked,
    engine: t27_run::Engine,
    timeout: std::time::Duration,
) -> (Vec<t27_run::BlockReport>, t27_run::Summary) {
    run_blocks_lowered_on(checked, engine, timeout, None)
}

/// [`run_blocks`], with the blocks lowered ahead on `threads` threads and run on as many
/// engine threads (`None`: as `t27 test` chooses, which for a fixture is the engine's own
/// thread for both).
pub fn run_blocks_lowered_on(
    checked: &Checked,
    engine: t27_run::Engine,
    timeout: std::time::Duration,
    threads: Option<usize>,
) -> (Vec<t27_run::BlockReport>, t27_run::Summary) {
    let opts = t27_run::RunOptions {
        lowering_threads: threads,
        engine_threads: threads,
        coverage: None,
        engine,
        timeout,
        filter: None,
        exact: false,
    };
    let mut reports = Vec::new();
    let summary = t27_run::run(checked, &opts, &mut |r: &t27_run::BlockReport| {
        reports.push(r.clone())
    });
    (reports, summary)
}

pub fn check_paths(paths: &[PathBuf], loader: &mut MemLoader) -> Checked {
    check(paths, None, loader)
}

/// Every diagnostic rendered without colors, as the terminal shows it.
pub fn rendered(checked: &Checked) -> String {
    let mut out = String::new();
    for d in &checked.diagnostics {
        out.push_str(&t27_diag::render(d, &checked.sources, false));
    }
    if out.is_empty() {
        out.push_str("(no diagnostics)\n");
    }
    out
}

/// What the checker made of a program: constants with their values, signatures, and the
/// folded and runtime assert counts of every test.
pub fn summary(checked: &Checked) -> String {
    let p = &checked.program;
    let mut out = String::new();
    for m in &p.modules {
        let file = &checked.sources.get(m.file).name;
        out.push_str(&format!(
            "module {} ({}) from {}\n",
            m.name,
            m.path.join("::"),
            file
        ));
        for item in &m.items {
            out.push_str("  ");
            out.push_str(&item_line(p, *item));
            out.push('\n');
        }
    }
    out
}

fn item_line(p: &Program, item: ItemRef) -> String {
    let ty = |t: &Ty| p.ty_name(t);
    match item {
        ItemRef::Const(id) => {
            let c = &p.consts[id.index()];
            let value = c
                .value
                .as_ref()
                .map_or("<error>".to_string(), |v| v.to_string());
            let doc = c.decl.doc.as_ref().map_or(String::new(), |d| {
                format!("  /// {}", d.replace('\n', " / "))
            });
            format!(
                "{}const {}: {} = {}{}",
                vis(c.decl.is_pub),
                c.decl.name,
                ty(&c.ty),
                value,
                doc
            )
        }
        ItemRef::Global(id) => {
            let g = &p.globals[id.index()];
            let value = g
                .value
                .as_ref()
                .map_or("<error>".to_string(), |v| v.to_string());
            format!(
                "{}var {}: {} = {}",
                vis(g.decl.is_pub),
                g.decl.name,
                ty(&g.ty),
                value
            )
        }
        ItemRef::Fn(id) => {
            let f = &p.functions[id.index()];
            let params: Vec<String> = f
                .params
                .iter()
                .map(|l| &f.body.locals[l.index()])
                .map(|l| format!("{}: {}", l.name, ty(&l.ty)))
                .collect();
            format!(
                "{}fn {}({}) -> {}",
                vis(f.decl.is_pub),
                f.decl.name,
                params.join(", "),
                ty(&f.ret)
            )
        }
        ItemRef::Struct(id) => {
            let s = &p.structs[id.index()];
            let fields: Vec<String> = s
                .fields
                .iter()
                .map(|f| format!("{}: {}", f.name, ty(&f.ty)))
                .collect();
            format!(
                "{}struct {} {{ {} }}",
                vis(s.decl.is_pub),
                s.decl.name,
                fields.join(", ")
            )
        }
        ItemRef::Test(id) => {
            let t = &p.tests[id.index()];
            let kind = match t.kind {
                t27_ir::TestKind::Test => "test",
                t27_ir::TestKind::Invariant => "invariant",
            };
            format!(
                "{kind} {}: {} runtime, {} folded asserts",
                t.decl.name, t.runtime_asserts, t.folded_asserts
            )
        }
    }
}

fn vis(is_pub: bool) -> &'static str {
    if is_pub { "pub " } else { "" }
}

/// The snapshot settings of a fixture's own snapshot: `TEST@NAME` in `tests/snapshots`,
/// recording the fixture it came from (the assertion stays at the caller, whose module names
/// the snapshot).
pub fn fixture_snapshot(name: &str, input: &Path) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_suffix(name);
    settings.set_input_file(input);
    settings
}

/// Tests of a data-driven harness that are not about one fixture, as its trials.
pub fn plain_trials(tests: Vec<(&'static str, fn())>) -> Vec<libtest_mimic::Trial> {
    tests
        .into_iter()
        .map(|(name, test)| {
            libtest_mimic::Trial::test(name, move || {
                test();
                Ok(())
            })
        })
        .collect()
}

/// The pinned TypeScript compiler of `tests/host`, installed with `npm ci` (from its lockfile)
/// the first time a test needs it, once for all the test threads of this process.
#[allow(dead_code)]
pub fn tsc() -> PathBuf {
    use std::process::Command;
    static INSTALLED: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    let host = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/host");
    let installed = INSTALLED.get_or_init(|| {
        let tsc = host.join("node_modules/.bin/tsc");
        if tsc.exists() {
            return Ok(tsc);
        }
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--prefix"])
            .arg(&host)
            .output()
            .map_err(|e| format!("cannot run npm (Node.js and npm are needed): {e}"))?;
        if !out.status.success() || !tsc.exists() {
            return Err(format!(
                "`npm ci --prefix tests/host` failed:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(tsc)
    });
    match installed {
        Ok(tsc) => tsc.clone(),
        Err(e) => panic!("TypeScript is not installed: {e}"),
    }
}
