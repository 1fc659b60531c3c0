//! The front end never panics and never stays silent on a broken file: every fixture is fed
//! cut at every byte offset, and with each single token deleted.

mod common;

use common::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use t27_diag::FileId;
use t27_syntax::token::Token;

/// Checks `path` with its text replaced by `bytes` (its neighbours come from the disk).
/// Returns the number of errors, or the panic message.
fn errors_with(path: &Path, bytes: &[u8], base: &MemLoader) -> Result<usize, String> {
    let mut loader = base.clone();
    loader
        .files
        .insert(t27_check::normalize(path), bytes.to_vec());
    catch_unwind(AssertUnwindSafe(|| {
        check_paths(&[path.to_path_buf()], &mut loader).error_count()
    }))
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// Byte ranges inside declarations other than `module`: a cut there leaves a broken file.
/// A cut right after the `//` of a doc comment's `///` leaves a plain comment, so the range
/// of a documented declaration starts one byte later.
fn declaration_interiors(text: &str) -> Vec<(usize, usize)> {
    let parsed = t27_syntax::parse(FileId(0), text);
    parsed
        .file
        .items
        .iter()
        .flat_map(|i| {
            let (start, end) = (i.span.start as usize, i.span.end as usize);
            match &i.doc {
                Some(_) => vec![(start, start + 2), (start + 2, end)],
                None => vec![(start, end)],
            }
        })
        .collect()
}

fn every_fixture() -> Vec<PathBuf> {
    t27_files(Path::new("tests/fixtures"))
}

/// A loader that already holds every fixture, so each of the many checks reads no disk.
fn preloaded(files: &[PathBuf]) -> MemLoader {
    let mut loader = MemLoader::default();
    for f in files {
        loader.files.insert(
            t27_check::normalize(f),
            std::fs::read(f).expect("fixture is readable"),
        );
    }
    loader
}

fn cut_everywhere(path: &Path, step: usize, base: &MemLoader, failures: &mut Vec<String>) {
    let bytes = std::fs::read(path).expect("fixture is readable");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let interiors = declaration_interiors(&text);
    for cut in (0..=bytes.len()).step_by(step) {
        match errors_with(path, &bytes[..cut], base) {
            Err(panic) => failures.push(format!(
                "{} cut at {cut}: panicked: {panic}",
                path.display()
            )),
            Ok(0) if interiors.iter().any(|(s, e)| *s < cut && cut < *e) => failures.push(format!(
                "{} cut at {cut} (inside a declaration): no error",
                path.display()
            )),
            Ok(_) => {}
        }
    }
}

/// Tokens whose deletion can leave a valid file: `pub`, a doc comment, a trailing comma, a
/// prefix `!`, `-` or `&`, `else` before a block, `break`, `continue`, `const` in `[]const u8`.
fn deletion_may_be_valid(t: &Token) -> bool {
    matches!(
        t,
        Token::Pub
            | Token::DocComment(_)
            | Token::Comma
            | Token::Bang
            | Token::Minus
            | Token::Amp
            | Token::Else
            | Token::Break
            | Token::Continue
            | Token::Const
    )
}

/// Whether deleting token `i` can leave a valid file in its context: the name of a call
/// (`f(x)` becomes `(x)`), the `assert` of a call, an operand before a binary `-` (`a + b - c` becomes `a + -c`),
/// an array length (`[17]u8` becomes the slice `[]u8`), or the `;` of `module Name;` (W0001).
fn deletion_may_be_valid_here(tokens: &[(Token, t27_syntax::lexer::TokenSpan)], i: usize) -> bool {
    let at = |j: usize| tokens.get(j).map(|(t, _)| *t);
    let prev = i.checked_sub(1).and_then(at);
    let next = at(i + 1);
    match tokens[i].0 {
        Token::Ident(_) | Token::Int(_) | Token::Float(_) => {
            matches!(next, Some(Token::LParen | Token::Minus))
                || (prev == Some(Token::LBracket) && next == Some(Token::RBracket))
        }
        // `assert f(x);` without `assert` is the call statement `f(x);`.
        Token::Assert | Token::Return => {
            matches!(next, Some(Token::Ident(_))) && matches!(at(i + 2), Some(Token::LParen))
        }
        Token::Semi => {
            let mut j = i;
            while j > 0 && matches!(at(j - 1), Some(Token::Ident(_) | Token::Minus)) {
                j -= 1;
            }
            j > 0 && at(j - 1) == Some(Token::Module)
        }
        other => deletion_may_be_valid(&other),
    }
}

fn delete_each_token(
    path: &Path,
    step: usize,
    base: &MemLoader,
    must_break: bool,
    failures: &mut Vec<String>,
) {
    let bytes = std::fs::read(path).expect("fixture is readable");
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return;
    };
    let lexed = t27_syntax::lexer::lex(FileId(0), text);
    for (i, (token, span)) in lexed.tokens.iter().enumerate().step_by(step) {
        // Blank the token out rather than remove it, so that its neighbours do not merge.
        let mut mutated = bytes.clone();
        mutated[span.start..span.end].fill(b' ');
        match errors_with(path, &mutated, base) {
            Err(panic) => failures.push(format!(
                "{} without {token} at {}: panicked: {panic}",
                path.display(),
                span.start
            )),
            Ok(0) if must_break && !deletion_may_be_valid_here(&lexed.tokens, i) => {
                failures.push(format!(
                    "{} without {token} at {}: no error",
                    path.display(),
                    span.start
                ))
            }
            Ok(_) => {}
        }
    }
}

#[test]
fn every_fixture_cut_at_every_byte() {
    let files = every_fixture();
    let base = preloaded(&files);
    let mut failures = Vec::new();
    for f in &files {
        cut_everywhere(f, 1, &base, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_fixture_with_each_token_deleted() {
    let files = every_fixture();
    let base = preloaded(&files);
    let mut failures = Vec::new();
    for f in &files {
        // A bad or hostile fixture may become valid when the token that made it bad is deleted,
        // a formatter's fixture is about layout (`return Pair { .. }` is as good without
        // `Pair`), and a fixer's carries the mistake it fixes; so may any fixture that is broken
        // on purpose (the `breaking` fixture of a tree that does not check).
        let broken_already = errors_with(f, &std::fs::read(f).expect("readable"), &base) != Ok(0);
        let must_break = !broken_already
            && !f.starts_with("tests/fixtures/errors")
            && !f.starts_with("tests/fixtures/hostile")
            && !f.starts_with("tests/fixtures/fmt")
            && !f.starts_with("tests/fixtures/fix");
        delete_each_token(f, 1, &base, must_break, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The owner's specs are large, so they are sampled: every 31st cut and every 5th token.
#[test]
fn owner_specs_cut_and_with_tokens_deleted() {
    let files = vec![
        PathBuf::from("specs/queen/review_first.t27"),
        PathBuf::from("specs/queen/dispatch.t27"),
    ];
    let base = preloaded(&files);
    let mut failures = Vec::new();
    for f in &files {
        cut_everywhere(f, 31, &base, &mut failures);
        delete_each_token(f, 5, &base, true, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
