//! `t27 fix`: the certain fixes the diagnostics carry (`Diagnostic::fix`), applied to the
//! requested files, or shown as a diff.

use crate::files::load_and_check_diagnostics;
use crate::{EXIT_OK, EXIT_SPEC_ERRORS, EXIT_USAGE};
use std::collections::BTreeMap;
use std::path::PathBuf;
use t27_diag::{Edit, FileId};

pub struct Options {
    pub paths: Vec<PathBuf>,
    pub root: Option<PathBuf>,
    pub dry_run: bool,
}

pub fn run(opts: &Options) -> u8 {
    let paths = if opts.paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        opts.paths.clone()
    };
    let Ok(checked) = load_and_check_diagnostics(&paths, opts.root.as_deref()) else {
        return EXIT_USAGE;
    };
    // Only the files asked for are changed, not the modules they import.
    let (requested, _) = t27_build::files::collect(&paths);
    let requested: Vec<PathBuf> = requested.iter().map(|p| t27_check::normalize(p)).collect();
    let mut edits: BTreeMap<FileId, Vec<&Edit>> = BTreeMap::new();
    let mut unfixable = 0;
    // The errors of the requested files that no certain fix removes: the specs still do not
    // compile after this run, and the exit code says so.
    let mut remaining = 0;
    let mut fixed_files = Vec::new();
    for d in &checked.diagnostics {
        if d.fix.is_empty() {
            unfixable += 1;
        } else {
            edits.entry(d.file).or_default().extend(&d.fix);
        }
    }
    let (mut applied, mut files) = (0, 0);
    for (file, mut list) in edits {
        let source = checked.sources.get(file);
        let shown = source.path.display();
        if !requested.contains(&t27_check::normalize(&source.path)) {
            continue;
        }
        // A file that is not UTF-8 was read with its bad bytes as spaces: writing that back
        // would change more than the fixes.
        if checked
            .diagnostics
            .iter()
            .any(|d| d.file == file && d.code.as_str() == "E0006")
        {
            eprintln!("{shown}: not fixed: it is not valid UTF-8");
            continue;
        }
        fixed_files.push(file);
        let (fixed, count) = apply(&source.text, &mut list);
        applied += count;
        files += 1;
        if opts.dry_run {
            let diff = similar::TextDiff::from_lines(source.text.as_str(), fixed.as_str());
            out!(
                "{}",
                diff.unified_diff()
                    .context_radius(2)
                    .header(&format!("a/{shown}"), &format!("b/{shown}"))
            );
        } else if let Err(e) = std::fs::write(&source.path, &fixed) {
            eprintln!("error: {shown}: {e}");
            return EXIT_USAGE;
        }
    }
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let verb = if opts.dry_run { "would fix" } else { "fixed" };
    let mut summary = format!(
        "{verb} {applied} problem{} in {files} file{}",
        s(applied),
        s(files)
    );
    if unfixable > 0 {
        summary += &format!(
            "; {unfixable} diagnostic{} need{} a person (`t27 check` shows them)",
            s(unfixable),
            if unfixable == 1 { "s" } else { "" }
        );
    }
    for d in checked.diagnostics.iter().filter(|d| d.is_error()) {
        let path = t27_check::normalize(&checked.sources.get(d.file).path);
        if requested.contains(&path) && (d.fix.is_empty() || !fixed_files.contains(&d.file)) {
            remaining += 1;
        }
    }
    if remaining > 0 {
        summary += &format!(
            "; {remaining} error{} {} no certain fix removes",
            s(remaining),
            if opts.dry_run {
                "would remain that"
            } else {
                "remain that"
            }
        );
    }
    eprintln!("{summary}");
    if remaining > 0 {
        EXIT_SPEC_ERRORS
    } else {
        EXIT_OK
    }
}

/// `text` with the edits applied, and how many were: in order, each once, an edit that
/// overlaps one before it left for the next run.
fn apply(text: &str, edits: &mut Vec<&Edit>) -> (String, usize) {
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    edits.dedup();
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0usize;
    let mut count = 0;
    for e in edits.iter() {
        let (start, end) = (e.span.start as usize, e.span.end as usize);
        if start < at
            || end > text.len()
            || !text.is_char_boundary(start)
            || !text.is_char_boundary(end)
        {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(&e.text);
        at = end;
        count += 1;
    }
    out.push_str(&text[at..]);
    (out, count)
}
