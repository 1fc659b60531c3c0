//! `t27 gen ts|rust` and `t27 consts`.

use crate::files::load_and_check;
use crate::{EXIT_OK, EXIT_SPEC_ERRORS, EXIT_USAGE, Format};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use t27_diag::Sources;

/// A checked request and, per module, why it cannot be mirrored (`None`: it can).
struct Request {
    checked: t27_check::Checked,
    faults: Vec<Option<t27_check::ModuleFault>>,
}

impl Request {
    fn mirrored(&self, m: t27_ir::ModuleId) -> bool {
        self.faults[m.index()].is_none()
    }

    /// Prints every error, then a line for each requested module that is skipped and why;
    /// returns how many were skipped.
    fn report_skipped(&self) -> usize {
        let c = &self.checked;
        for d in c.diagnostics.iter().filter(|d| d.is_error()) {
            eprint!("{}", t27_diag::render(d, &c.sources, false));
        }
        let mut skipped = 0;
        for (m, fault) in c.program.modules.iter().zip(&self.faults) {
            if let (true, Some(f)) = (m.requested, fault) {
                skipped += 1;
                eprintln!(
                    "skipped: {} (module {}): {}",
                    c.sources.name(m.file),
                    m.name,
                    f.describe(&c.program, &c.sources)
                );
            }
        }
        skipped
    }
}

/// Checks the specs and finds which modules can be mirrored.
fn request(paths: &[PathBuf], root: Option<&Path>) -> Result<Request, u8> {
    let Ok(checked) = load_and_check(paths, root) else {
        return Err(EXIT_USAGE);
    };
    let faults = t27_check::module_faults(&checked);
    Ok(Request { checked, faults })
}

/// Every file the mirror consists of, by path relative to the output folder. A `mod.rs`
/// keeps naming a skipped module whose file is already in `out`.
fn expected_files(
    req: &Request,
    target: t27_gen::Target,
    layout: t27_gen::Layout,
    out: &Path,
) -> BTreeMap<PathBuf, String> {
    let checked = &req.checked;
    let p = &checked.program;
    let source = |m: t27_ir::ModuleId| checked.sources.text(p.modules[m.index()].file).to_string();
    let mirrored = |m| req.mirrored(m);
    let kept = |rel: &Path| out.join(rel).is_file();
    t27_gen::mirror_files(p, target, layout, &source, &mirrored, &kept)
}

/// The test files of the mirrored modules: every block of each, lowered.
fn test_files(
    req: &Request,
    target: t27_gen::Target,
    layout: t27_gen::Layout,
) -> BTreeMap<PathBuf, String> {
    let checked = &req.checked;
    let p = &checked.program;
    let mut lowerer = checked.block_lowerer();
    let lowered: Vec<(t27_ir::ModuleId, t27_ir::TestId, t27_ir::Body)> = p
        .modules
        .iter()
        .enumerate()
        .map(|(i, m)| (t27_ir::ModuleId(i as u32), m))
        .filter(|(id, m)| m.requested && req.mirrored(*id))
        .flat_map(|(id, m)| {
            m.items.iter().filter_map(move |item| match item {
                t27_ir::ItemRef::Test(t) => Some((id, *t)),
                _ => None,
            })
        })
        .map(|(m, t)| (m, t, lowerer.lower(t).body))
        .collect();
    let mut blocks: BTreeMap<t27_ir::ModuleId, Vec<(t27_ir::TestId, &t27_ir::Body)>> =
        BTreeMap::new();
    for (m, t, body) in &lowered {
        blocks.entry(*m).or_default().push((*t, body));
    }
    let source = |m: t27_ir::ModuleId| checked.sources.text(p.modules[m.index()].file).to_string();
    t27_gen::test_files(p, target, layout, &source, &|m| req.mirrored(m), &blocks).0
}

/// Says which modules would share a file in `layout`, or for Rust a module name (files of
/// their own, one name: `reviewValve.t27` and `review_valve.t27`); true when any would.
fn report_shared_files(req: &Request, target: t27_gen::Target, layout: t27_gen::Layout) -> bool {
    let c = &req.checked;
    let files = |modules: &[t27_ir::ModuleId]| -> String {
        let names: Vec<String> = modules
            .iter()
            .map(|m| {
                c.sources
                    .name(c.program.modules[m.index()].file)
                    .to_string()
            })
            .collect();
        names.join(" and ")
    };
    let shared = t27_gen::shared_paths(&c.program, target, layout);
    for (path, modules) in &shared {
        eprintln!(
            "error: the mirrors of {} would all be written to `{}`; rename one of the specs, or use `--layout tree`",
            files(modules),
            path.display()
        );
    }
    if !shared.is_empty() || target != t27_gen::Target::Rust {
        return !shared.is_empty();
    }
    let modules = t27_gen::shared_rust_modules(&c.program, layout);
    for (module, ms) in &modules {
        eprintln!(
            "error: the Rust mirrors of {} would all be the module `{module}` (a Rust module name is snake case); rename one of the specs",
            files(ms),
        );
    }
    !modules.is_empty()
}

/// The source hash a generated file's header names.
fn header_hash(text: &str) -> Option<&str> {
    text.lines()
        .find_map(|l| l.strip_prefix("// Source SHA-256: "))
}

/// What `t27 gen` writes.
pub struct What {
    pub target: t27_gen::Target,
    pub layout: t27_gen::Layout,
    /// Test files beside the mirrors too.
    pub tests: bool,
}

pub fn generate(what: What, paths: &[PathBuf], root: Option<&Path>, out: &Path, check: bool) -> u8 {
    let What {
        target,
        layout,
        tests,
    } = what;
    let req = match request(paths, root) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if report_shared_files(&req, target, layout) {
        return EXIT_USAGE;
    }
    let skipped = req.report_skipped();
    let mut files = expected_files(&req, target, layout, out);
    if tests {
        files.extend(test_files(&req, target, layout));
    }
    let mut differences = 0;
    let mut written = 0;
    for (rel, text) in &files {
        let path = out.join(rel);
        let existing = std::fs::read_to_string(&path).ok();
        if existing.as_deref() == Some(text.as_str()) {
            continue;
        }
        if check {
            differences += 1;
            match existing {
                None => outln!("missing: {}", path.display()),
                Some(old)
                    if header_hash(&old).is_some() && header_hash(&old) == header_hash(text) =>
                {
                    outln!(
                        "edited by hand: {} (the spec is unchanged, the file is not what t27 generates)",
                        path.display()
                    )
                }
                // The runtime and `mod.rs` files come from no spec of their own.
                Some(_) if header_hash(text).is_none() => outln!(
                    "differs: {} (not what this t27 generates: edited by hand, or from another version)",
                    path.display()
                ),
                Some(_) => outln!(
                    "stale: {} (the spec changed since it was generated)",
                    path.display()
                ),
            }
            continue;
        }
        if let Err(e) = write_atomically(&path, text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return EXIT_USAGE;
        }
        written += 1;
    }
    let skipped_note = match skipped {
        0 => String::new(),
        1 => "; 1 module skipped (its files are left as they are)".to_string(),
        n => format!("; {n} modules skipped (their files are left as they are)"),
    };
    if check {
        if differences > 0 {
            eprintln!(
                "{differences} generated file{} out of date; run the same command without --check{skipped_note}",
                if differences == 1 { " is" } else { "s are" }
            );
        } else {
            eprintln!(
                "{} generated files are up to date{skipped_note}",
                files.len()
            );
        }
    } else {
        eprintln!(
            "{written} of {} files written to {}{skipped_note}",
            files.len(),
            out.display()
        );
    }
    std::mem::forget(req);
    if differences > 0 || skipped > 0 {
        EXIT_SPEC_ERRORS
    } else {
        EXIT_OK
    }
}

/// Writes through a temporary file and a rename, so that an interrupted run never leaves a
/// half-written file.
pub(crate) fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!(
        "{}.t27-tmp",
        path.extension().and_then(|e| e.to_str()).unwrap_or("")
    ));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

pub fn consts(paths: &[PathBuf], root: Option<&Path>, format: Format) -> u8 {
    let req = match request(paths, root) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let skipped = req.report_skipped();
    let checked = &req.checked;
    let p = &checked.program;
    let name = |m: t27_ir::ModuleId| checked.sources.name(p.modules[m.index()].file).to_string();
    let listed = |m| req.mirrored(m);
    for line in t27_gen::consts_json(p, &name, &listed) {
        match format {
            Format::Json => outln!("{line}"),
            Format::Human => {
                let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
                outln!(
                    "{}::{}: {} = {}",
                    v["module"].as_str().unwrap_or(""),
                    v["name"].as_str().unwrap_or(""),
                    v["type"].as_str().unwrap_or(""),
                    v["value"]
                );
            }
        }
    }
    std::mem::forget(req);
    if skipped > 0 {
        EXIT_SPEC_ERRORS
    } else {
        EXIT_OK
    }
}
