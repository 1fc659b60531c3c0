//! The formatter, over data (a data-driven harness: each file is a test of its own).
//!
//! - `layout::NAME`: each spec in `tests/fixtures/fmt` (one for each construct and comment
//!   position, the owner-style tree in `owner/`, the mixed files in `mixed/`) formatted, as an
//!   insta snapshot.
//! - `unchanged::PATH`: the specs written in the owner's style (the seeds in `specs/queen` and
//!   `tests/fixtures/fmt/owner`: `NAME : T`, `name: T` parameters, flat bodies, long lines)
//!   formatted change 0 lines.
//! - `marked::PATH`: in each file of `tests/fixtures/fmt/mixed` (a file inconsistent with its
//!   own majority), formatting changes exactly the lines marked `// normalised`.
//! - `keeps::PATH`: every spec of the repository (the fixtures and both seeds) formatted is
//!   formatted already (idempotence), parses to the same syntax tree spans aside, bodies and
//!   all; a spec with syntax errors is not formatted, and says so with its errors.
//! - `random::N`: the same for random programs (`t27-progen`), and for copies of the seeds with
//!   their line breaks moved: every token on a line of its own, and the whole file on one line
//!   where the `;` comment rule allows it (the layout then comes from the tokens alone).

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use t27_diag::FileId;
use t27_fmt::{Unformatted, format};
use t27_syntax::ast::ItemKind;

fn main() {
    let args = Arguments::from_args();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut trials = Vec::new();
    let layouts = t27_files(&repo.join("tests/fixtures/fmt"));
    assert!(layouts.len() >= 8, "layout fixtures: {}", layouts.len());
    for path in layouts {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        trials.push(Trial::test(format!("layout::{name}"), move || {
            layout(&path, &name)
        }));
    }
    let mut owner_style = t27_files(&repo.join("specs/queen"));
    owner_style.extend(t27_files(&repo.join("tests/fixtures/fmt/owner")));
    assert!(
        owner_style.len() >= 4,
        "owner-style specs: {}",
        owner_style.len()
    );
    for path in owner_style {
        let name = relative(&repo, &path);
        trials.push(Trial::test(format!("unchanged::{name}"), move || {
            unchanged(&path)
        }));
    }
    let mixed = t27_files(&repo.join("tests/fixtures/fmt/mixed"));
    assert!(mixed.len() >= 3, "mixed files: {}", mixed.len());
    for path in mixed {
        let name = relative(&repo, &path);
        trials.push(Trial::test(format!("marked::{name}"), move || {
            marked(&path)
        }));
    }
    let mut every = t27_files(&repo.join("tests/fixtures"));
    every.extend(t27_files(&repo.join("specs")));
    assert!(every.len() > 100, "specs: {}", every.len());
    for path in every {
        let name = relative(&repo, &path);
        trials.push(Trial::test(format!("keeps::{name}"), move || keeps(&path)));
    }
    for batch in 0..8u64 {
        trials.push(Trial::test(format!("random::{batch}"), move || {
            for seed in batch * 25..(batch + 1) * 25 {
                let src = t27_progen::program(seed);
                keeps_text(&src, true)
                    .map_err(|e| format!("program {seed}: {}", e.message().unwrap_or_default()))?;
            }
            Ok(())
        }));
    }
    for seed in ["specs/queen/dispatch.t27", "specs/queen/review_first.t27"] {
        let path = repo.join(seed);
        trials.push(Trial::test(format!("relined::{seed}"), move || {
            let src = read(&path)?;
            keeps_text(&one_token_a_line(&src), true)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// `src` with a line break before every token that does not follow a `;` comment's rule
/// (comments keep their lines): the layout the formatter restores from tokens alone.
fn one_token_a_line(src: &str) -> String {
    let tokens = t27_syntax::lexer::lex(FileId(0), src).tokens;
    let mut out = String::new();
    let mut at = 0;
    for (_, span) in &tokens {
        let gap = &src[at..span.start];
        out.push_str(gap);
        // A break where there was none; never before a `;` (it would become a comment).
        if !gap.contains('\n') && !src[span.start..].starts_with(';') && at > 0 {
            out.push('\n');
        }
        out.push_str(&src[span.start..span.end]);
        at = span.end;
    }
    out.push_str(&src[at..]);
    out
}

fn relative(repo: &Path, path: &Path) -> String {
    path.strip_prefix(repo)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The numbers (from 1) of the lines formatting changes in `path`'s text. The formatter never
/// adds or removes a line of these files (they have no runs of blank lines), so the lines are
/// compared one for one; a different count of lines is a failure of its own.
fn changed_lines(path: &Path) -> Result<(String, Vec<usize>), Failed> {
    let src = read(path)?;
    let out = format(FileId(0), &src).map_err(|e| format!("not formatted: {e:?}"))?;
    let (before, after): (Vec<&str>, Vec<&str>) = (src.lines().collect(), out.lines().collect());
    if before.len() != after.len() {
        return Err(format!("{} lines became {}:\n{out}", before.len(), after.len()).into());
    }
    let changed = (before.iter().zip(&after).enumerate())
        .filter(|(_, (b, a))| b != a)
        .map(|(i, _)| i + 1)
        .collect();
    Ok((src, changed))
}

/// A spec in the owner's style: formatting it changes no line.
fn unchanged(path: &Path) -> Result<(), Failed> {
    let (_, changed) = changed_lines(path)?;
    if changed.is_empty() {
        Ok(())
    } else {
        Err(format!("{} lines changed: {changed:?}", changed.len()).into())
    }
}

/// A mixed file: formatting changes the lines marked `// normalised`, and only those.
fn marked(path: &Path) -> Result<(), Failed> {
    let (src, changed) = changed_lines(path)?;
    let marked: Vec<usize> = (src.lines().enumerate())
        .filter(|(_, l)| l.contains("// normalised"))
        .map(|(i, _)| i + 1)
        .collect();
    if marked.is_empty() {
        return Err("no line is marked `// normalised`".into());
    }
    if changed == marked {
        Ok(())
    } else {
        Err(format!("changed lines {changed:?}, marked lines {marked:?}").into())
    }
}

fn t27_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(t27_files(&path));
        } else if path.extension().is_some_and(|e| e == "t27") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> Result<String, Failed> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8".into())
}

fn layout(path: &Path, name: &str) -> Result<(), Failed> {
    let src = read(path)?;
    let formatted = match format(FileId(0), &src) {
        Ok(text) => text,
        Err(e) => return Err(format!("not formatted: {e:?}").into()),
    };
    // The snapshot shows the text; line ends and the byte order mark are checked here.
    if src.contains("\r\n") != formatted.contains("\r\n")
        || formatted.replace("\r\n", "").contains('\r')
        || src.starts_with('\u{feff}') != formatted.starts_with('\u{feff}')
    {
        return Err("line ends or the byte order mark changed".into());
    }
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(path);
    settings.bind(|| insta::assert_snapshot!(format!("fmt__{name}"), formatted));
    Ok(())
}

fn keeps(path: &Path) -> Result<(), Failed> {
    let Ok(src) = read(path) else {
        // A fixture of bytes that are not UTF-8 is the decoder's business, not the formatter's.
        return Ok(());
    };
    keeps_text(&src, false)
}

/// Formatting `src` is idempotent and keeps its tree; `must_format`: the text parses, so a
/// refusal is a failure.
fn keeps_text(src: &str, must_format: bool) -> Result<(), Failed> {
    let src = src.to_string();
    let once = match format(FileId(0), &src) {
        Ok(text) => text,
        Err(Unformatted::Syntax(errors)) if must_format => {
            return Err(format!("not formatted: {errors:?}").into());
        }
        Err(Unformatted::Syntax(errors)) => {
            return if errors.iter().all(|d| d.is_error()) && !errors.is_empty() {
                Ok(())
            } else {
                Err("a syntax failure without errors".into())
            };
        }
        Err(Unformatted::Changed) => return Err("formatting would change the tokens".into()),
    };
    let twice = format(FileId(0), &once).map_err(|e| format!("the formatted file: {e:?}"))?;
    if twice != once {
        return Err(format!("not idempotent:\n--- once\n{once}\n--- twice\n{twice}").into());
    }
    let (before, after) = (tree(&src), tree(&once));
    if before != after {
        return Err(format!("the syntax tree changed:\n{once}").into());
    }
    Ok(())
}

/// The syntax tree of `src`, bodies read back in, as text with every span taken out.
fn tree(src: &str) -> String {
    let mut parsed = t27_syntax::parse(FileId(0), src).file;
    for item in &mut parsed.items {
        let body = match &mut item.kind {
            ItemKind::Fn(f) => &mut f.body,
            ItemKind::Test(t) => &mut t.body,
            _ => continue,
        };
        if body.stmts.is_empty()
            && let Some(read) = t27_syntax::parse_body(FileId(0), src, body.span)
        {
            *body = read;
        }
    }
    without_spans(&format!("{parsed:?}"))
}

/// `Span { start: 1, end: 2 }` taken out of a tree's debug text.
fn without_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find('}').map_or(rest.len(), |i| i + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}
