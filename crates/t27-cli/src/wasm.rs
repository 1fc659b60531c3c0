//! `t27 gen wasm` (one card per module) and the wasm host of `t27 test --host wasm` (each
//! module's blocks as a test card, run by Node's WebAssembly in `wasm_runner.mjs`).

use crate::files::load_and_check;
use crate::host::HostError;
use crate::{EXIT_OK, EXIT_SPEC_ERRORS, EXIT_USAGE};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use t27_diag::Sources;
use t27_ir::{Body, ModuleId, Program, TestId, Ty};

pub const RUNNER: &str = include_str!("wasm_runner.mjs");

/// Where a module's card goes: `queen/dispatch.wasm` (tree) or `queen-dispatch.wasm` (flat).
pub fn card_path(m: &t27_ir::Module, layout: t27_gen::Layout) -> PathBuf {
    match layout {
        t27_gen::Layout::Tree => PathBuf::from(format!("{}.wasm", m.path.join("/"))),
        t27_gen::Layout::Flat => PathBuf::from(format!("{}.wasm", m.path.join("-"))),
    }
}

/// `t27 gen wasm`: writes (or, with `check`, compares) a card per requested module without
/// errors, and lists the public functions a card does not export, with why.
pub fn generate(
    paths: &[PathBuf],
    root: Option<&Path>,
    out: &Path,
    check: bool,
    layout: t27_gen::Layout,
) -> u8 {
    let Ok(checked) = load_and_check(paths, root) else {
        return EXIT_USAGE;
    };
    let p = &checked.program;
    let faults = t27_check::module_faults(&checked);
    for d in checked.diagnostics.iter().filter(|d| d.is_error()) {
        eprint!("{}", t27_diag::render(d, &checked.sources, false));
    }
    let source = |m: ModuleId| checked.sources.text(p.modules[m.index()].file).to_string();
    let places = t27_gen::Places::new(p, &source);
    let place = |m: ModuleId, span| places.place(m, span);
    let (mut skipped, mut differences, mut written, mut cards) = (0, 0, 0, 0);
    let mut seen: BTreeMap<PathBuf, ModuleId> = BTreeMap::new();
    for (i, m) in p.modules.iter().enumerate().filter(|(_, m)| m.requested) {
        let id = ModuleId(i as u32);
        let name = checked.sources.name(m.file);
        if let Some(f) = &faults[i] {
            skipped += 1;
            eprintln!(
                "skipped: {name} (module {}): {}",
                m.name,
                f.describe(p, &checked.sources)
            );
            continue;
        }
        let rel = card_path(m, layout);
        if let Some(other) = seen.insert(rel.clone(), id) {
            let other = checked.sources.name(p.modules[other.index()].file);
            eprintln!(
                "error: the cards of {other} and {name} would both be written to `{}`; use `--layout tree`",
                rel.display()
            );
            return EXIT_USAGE;
        }
        let card = match t27_wasm::card(p, id, &place) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                return EXIT_SPEC_ERRORS;
            }
        };
        for (f, why) in &card.not_exported {
            eprintln!(
                "not exported: {name}: `{}`: {why}",
                p.functions[f.index()].decl.name
            );
        }
        cards += 1;
        let path = out.join(&rel);
        let existing = std::fs::read(&path).ok();
        if existing.as_deref() == Some(card.bytes.as_slice()) {
            continue;
        }
        if check {
            differences += 1;
            match existing {
                None => outln!("missing: {}", path.display()),
                Some(_) => outln!(
                    "differs: {} (not the card this t27 makes of the spec)",
                    path.display()
                ),
            }
            continue;
        }
        if let Err(e) = write_bytes(&path, &card.bytes) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return EXIT_USAGE;
        }
        written += 1;
    }
    let skipped_note = match skipped {
        0 => String::new(),
        1 => "; 1 module skipped (its card is left as it is)".to_string(),
        n => format!("; {n} modules skipped (their cards are left as they are)"),
    };
    if check && differences > 0 {
        eprintln!(
            "{differences} card{} out of date; run the same command without --check{skipped_note}",
            if differences == 1 { " is" } else { "s are" }
        );
    } else if check {
        eprintln!("{cards} cards are up to date{skipped_note}");
    } else {
        eprintln!(
            "{written} of {cards} cards written to {}{skipped_note}",
            out.display()
        );
    }
    std::mem::forget(checked);
    if differences > 0 || skipped > 0 {
        EXIT_SPEC_ERRORS
    } else {
        EXIT_OK
    }
}

fn write_bytes(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("wasm.t27-tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// How the runner reads a failed assert's side of type `ty`: from the card's globals, or,
/// for an array, from its memory at the recorded address, element by element.
fn side_kind(ty: &Ty) -> serde_json::Value {
    match ty {
        Ty::Int(t) if !t.signed() => "u".into(),
        Ty::Int(_) | Ty::UntypedInt => "i".into(),
        Ty::Bool => "b".into(),
        Ty::F64 => "f".into(),
        Ty::Array(e, n) => serde_json::json!({ "array": n, "of": memory_kind(e) }),
        _ => "s".into(),
    }
}

/// An array element's kind: its width in bytes, and for an integer whether it is signed.
fn memory_kind(ty: &Ty) -> serde_json::Value {
    match ty {
        Ty::Int(t) => serde_json::json!({ "int": t.bits() / 8, "signed": t.signed() }),
        Ty::Array(e, n) => serde_json::json!({ "array": n, "of": memory_kind(e) }),
        _ => serde_json::json!("bool"),
    }
}

/// What the wasm host gives the runner: its output, the places it names, and the blocks no
/// card could hold, with why.
pub type Ran = (
    String,
    BTreeMap<String, t27_gen::js::Site>,
    Vec<(TestId, String)>,
);

/// Makes a test card per module, writes them with a manifest and the runner into `dir`, and
/// runs it with Node.
pub fn run_blocks(
    p: &Program,
    blocks: &BTreeMap<ModuleId, Vec<(TestId, &Body)>>,
    dir: &Path,
    timeout: Duration,
    count: usize,
    run: &dyn Fn(std::process::Command, usize) -> Result<String, HostError>,
) -> Result<Ran, HostError> {
    let mut sites = BTreeMap::new();
    let mut cannot = Vec::new();
    let mut cards = Vec::new();
    for (n, (m, list)) in blocks.iter().enumerate() {
        let card = t27_wasm::test_card(p, *m, list).map_err(HostError::Failed)?;
        cannot.extend(card.cannot.iter().cloned());
        if card.blocks.is_empty() {
            continue;
        }
        let file = dir.join(format!("card{n}.wasm"));
        std::fs::write(&file, &card.bytes).map_err(|e| HostError::Missing(e.to_string()))?;
        let mut sides = serde_json::Map::new();
        for (k, s) in card.sites.iter().enumerate() {
            sites.insert(
                format!("{n}:{k}"),
                t27_gen::js::Site {
                    module: s.module,
                    span: s.span,
                    sides: s.sides.clone(),
                },
            );
            if let Some((l, r)) = &s.sides {
                sides.insert(
                    k.to_string(),
                    serde_json::json!([side_kind(l), side_kind(r)]),
                );
            }
        }
        cards.push(serde_json::json!({
            "index": n,
            "file": file.to_string_lossy(),
            "blocks": card.blocks.iter().map(|t| t.0).collect::<Vec<u32>>(),
            "sides": sides,
        }));
    }
    let runs = count - cannot.len();
    if runs == 0 {
        return Ok((String::new(), sites, cannot));
    }
    let manifest = dir.join("manifest.json");
    std::fs::write(&manifest, serde_json::json!({ "cards": cards }).to_string())
        .and_then(|()| std::fs::write(dir.join("wasm_runner.mjs"), RUNNER))
        .map_err(|e| HostError::Missing(e.to_string()))?;
    let mut node = std::process::Command::new("node");
    node.arg("wasm_runner.mjs")
        .arg(timeout.as_millis().to_string())
        .arg(&manifest);
    let output = run(node, runs)?;
    Ok((output, sites, cannot))
}
