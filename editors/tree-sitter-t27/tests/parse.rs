//! The grammar against t27's own parser, one test per spec of the repository (both seeds and
//! every fixture): a file t27 reads without a syntax error must give a tree without an
//! `ERROR` or `MISSING` node. A file t27 rejects is listed as ignored, with why (the grammar
//! is allowed to be more forgiving: it colours, it does not judge). Then the highlight query:
//! it compiles, and snapshots of what it captures in two fixtures; and the generated
//! parser is the one grammar.js gives (`src/grammar.js.sha256`, written by generate.sh).

use libtest_mimic::{Arguments, Failed, Trial};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use streaming_iterator::StreamingIterator;
use t27_diag::{Diagnostic, FileId};
use tree_sitter::{Language, Node, Parser, Query, QueryCursor, Tree};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn specs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["specs", "tests/fixtures"] {
        walk(&repo().join(dir), &mut files);
    }
    files.sort();
    files
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "t27") {
            files.push(path);
        }
    }
}

fn language() -> Language {
    tree_sitter_t27::LANGUAGE.into()
}

fn parse(source: &[u8]) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&language())
        .expect("the grammar's ABI is the runtime's");
    parser.parse(source, None).expect("a tree")
}

/// Why t27 rejects the file's syntax (or skips the file), if it does.
fn t27_rejects(bytes: &[u8]) -> Option<String> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Some("not UTF-8".into());
    };
    let parsed = t27_syntax::parse(FileId(0), text);
    if parsed.skipped {
        return Some("t27 skips it: a Markdown document, not t27 (W0008)".into());
    }
    let in_bodies = t27_syntax::errors_in_bodies(FileId(0), text, &parsed.file.items);
    parsed
        .diagnostics
        .iter()
        .chain(&in_bodies)
        .find(|d| Diagnostic::is_error(d))
        .map(|d| format!("t27 rejects it: {} {}", d.code.0, d.message))
}

/// The first `ERROR` or `MISSING` node, as `line:column kind`.
fn first_error(node: Node) -> Option<String> {
    if node.is_error() || node.is_missing() {
        let at = node.start_position();
        return Some(format!(
            "{}:{} {}",
            at.row + 1,
            at.column + 1,
            node.to_sexp()
        ));
    }
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    children.into_iter().find_map(first_error)
}

fn parses_cleanly(path: &Path) -> Result<(), Failed> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let tree = parse(&bytes);
    match first_error(tree.root_node()) {
        None => Ok(()),
        Some(e) => Err(format!("t27 reads this file, the grammar does not, at {e}").into()),
    }
}

/// What the highlight query captures, one line a capture: `line:column capture text`.
fn highlights(source: &str) -> String {
    let query =
        Query::new(&language(), tree_sitter_t27::HIGHLIGHTS_QUERY).expect("the query compiles");
    let tree = parse(source.as_bytes());
    let mut cursor = QueryCursor::new();
    let mut captures = cursor.captures(&query, tree.root_node(), source.as_bytes());
    // The first pattern that captures a node decides its colour, as in editors.
    let mut seen = std::collections::HashSet::new();
    let mut out = String::new();
    while let Some((m, index)) = captures.next() {
        let capture = m.captures()[*index];
        let node = capture.node;
        if !seen.insert(node.id()) {
            continue;
        }
        let at = node.start_position();
        let text = &source[node.byte_range()];
        out.push_str(&format!(
            "{}:{} {} {}\n",
            at.row + 1,
            at.column + 1,
            query.capture_names()[capture.index as usize],
            text.lines().next().unwrap_or("")
        ));
    }
    out
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for path in specs() {
        let name = path
            .strip_prefix(repo())
            .unwrap_or(&path)
            .display()
            .to_string();
        let bytes = std::fs::read(&path).unwrap_or_default();
        let rejected = t27_rejects(&bytes);
        let trial = Trial::test(format!("parse::{name}"), move || parses_cleanly(&path));
        trials.push(match rejected {
            Some(why) => trial.with_ignored_flag(true).with_kind(why),
            None => trial,
        });
    }
    trials.push(Trial::test("every_spec_is_tried", || {
        let files = specs();
        let clean = files
            .iter()
            .filter(|f| t27_rejects(&std::fs::read(f).unwrap_or_default()).is_none())
            .count();
        if files.len() < 100 || clean < 60 {
            return Err(format!("only {} specs, {clean} that t27 reads", files.len()).into());
        }
        Ok(())
    }));
    // Every lexical form; and paths, `use`s and calls across modules.
    for (name, file) in [
        ("lexical", "tests/fixtures/good/specs/lexical.t27"),
        ("paths", "tests/fixtures/lsp/specs/shop/app.t27"),
    ] {
        trials.push(Trial::test(format!("highlights::{name}"), move || {
            let source = std::fs::read_to_string(repo().join(file)).map_err(|e| e.to_string())?;
            let mut settings = insta::Settings::clone_current();
            settings
                .set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
            settings.set_prepend_module_to_snapshot(false);
            settings.set_omit_expression(true);
            settings.bind(|| {
                insta::assert_snapshot!(format!("highlights_{name}"), highlights(&source))
            });
            Ok(())
        }));
    }
    trials.push(Trial::test("generated_from_grammar_js", || {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let grammar = std::fs::read(here.join("grammar.js")).map_err(|e| e.to_string())?;
        let recorded = std::fs::read_to_string(here.join("src/grammar.js.sha256")).map_err(|e| e.to_string())?;
        let now = format!("{:x}", Sha256::digest(&grammar));
        if recorded.split_whitespace().next() != Some(now.as_str()) {
            return Err("grammar.js changed since src/parser.c was generated: run editors/tree-sitter-t27/generate.sh".into());
        }
        Ok(())
    }));
    libtest_mimic::run(&args, trials).exit();
}
