//! `t27 breaking` as a user runs it: against a revision of a temporary git repository of two
//! commits (and its work tree left as it was), against a folder, the allowed-break comment,
//! the exit codes and the JSON. What each kind of change reports is snapshotted by the
//! suite's `tests/breaking.rs`.

mod common;

use common::*;
use std::path::Path;

const CODES_V1: &str = "module codes;
; The codes are mirrored by number: a new kind takes the next code, none moves.
pub const C_RUNNING: u32 = 0;
pub const C_FAILED: u32 = 1;
pub const C_DONE: u32 = 2;
pub const LANES: [2]str = [\"review\", \"build\"];
pub fn claim(done: bool) -> u32 {
    if (done) { return C_DONE; }
    return C_RUNNING;
}
";

/// The second commit: a code moved, an element appended, a body changed, a function added.
const CODES_V2: &str = "module codes;
; The codes are mirrored by number: a new kind takes the next code, none moves.
pub const C_RUNNING: u32 = 0;
pub const C_FAILED: u32 = 3;
pub const C_DONE: u32 = 2;
pub const LANES: [3]str = [\"review\", \"build\", \"ship\"];
pub fn claim(done: bool) -> u32 {
    if (done == true) { return C_DONE; }
    return C_RUNNING;
}
pub fn is_done(claim: u32) -> bool {
    return claim == C_DONE;
}
";

/// A repository whose `HEAD~1` has CODES_V1 and `HEAD` CODES_V2, in `specs/queen/codes.t27`.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let spec = dir.path().join("specs/queen/codes.t27");
    std::fs::create_dir_all(spec.parent().expect("a parent")).expect("mkdir");
    git(dir.path(), &["init", "-q", "-b", "main"]);
    std::fs::write(&spec, CODES_V1).expect("write");
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "codes"]);
    std::fs::write(&spec, CODES_V2).expect("write");
    git(dir.path(), &["commit", "-q", "-a", "-m", "codes, again"]);
    dir
}

fn breaking(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["breaking", "--color", "never"];
    all.extend_from_slice(args);
    t27_in(dir, &all)
}

fn json_lines(o: &std::process::Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

#[test]
fn a_moved_code_against_the_previous_commit_is_a_break() {
    let repo = repository();
    let o = breaking(repo.path(), &["specs", "--against", "HEAD~1"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("[const_value_changed] Error: the value of `C_FAILED` changed from 1 to 3"),
        "{out}"
    );
    // Both places: the new file as named, the old one by revision and path.
    assert!(out.contains("─[ specs/queen/codes.t27:4:27 ]"), "{out}");
    assert!(
        out.contains("─[ HEAD~1:specs/queen/codes.t27:4:27 ]"),
        "{out}"
    );
    assert!(
        out.contains("compatible[element_added]: `LANES[2]` (\"ship\") is appended"),
        "{out}"
    );
    assert!(
        out.contains("compatible[fn_added]: public function `is_done` is new"),
        "{out}"
    );
    assert!(
        out.ends_with("against HEAD~1: 1 breaking change, 0 allowed, 2 compatible\n"),
        "{out}"
    );
    // Read through git: the work tree is as it was.
    let now = std::fs::read_to_string(repo.path().join("specs/queen/codes.t27")).expect("read");
    assert_eq!(now, CODES_V2);
}

#[test]
fn the_json_has_one_object_per_change_and_a_summary() {
    let repo = repository();
    let o = breaking(repo.path(), &["--against", "HEAD~1", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 4, "{}", stdout(&o));
    let moved = &lines[0];
    assert_eq!(moved["type"], "change");
    assert_eq!(moved["module"], "queen/codes");
    assert_eq!(moved["name"], "C_FAILED");
    assert_eq!(moved["kind"], "const_value_changed");
    assert_eq!(moved["breaking"], true);
    assert_eq!(moved["allowed"], false);
    assert_eq!(moved["old"]["file"], "HEAD~1:specs/queen/codes.t27");
    assert_eq!(moved["old"]["line"], 4);
    assert_eq!(moved["new"]["file"], "specs/queen/codes.t27");
    assert_eq!(moved["new"]["line"], 4);
    assert_eq!(lines[1]["kind"], "element_added");
    assert_eq!(lines[1]["breaking"], false);
    assert_eq!(lines[1]["old"], serde_json::Value::Null);
    assert_eq!(lines[2]["kind"], "fn_added");
    let summary = &lines[3];
    assert_eq!(summary["type"], "breaking_summary");
    assert_eq!(summary["breaking"], 1);
    assert_eq!(summary["compatible"], 2);
}

#[test]
fn exit_0_when_nothing_breaks() {
    let repo = repository();
    let o = breaking(repo.path(), &["specs", "--against", "HEAD"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        stdout(&o),
        "against HEAD: 0 breaking changes, 0 allowed, 0 compatible\n"
    );
}

#[test]
fn an_allowed_break_is_reported_and_passes() {
    let repo = repository();
    let spec = repo.path().join("specs/queen/codes.t27");
    let allowed = CODES_V2.replace(
        "pub const C_FAILED: u32 = 3;",
        "// allow-break const_value_changed: failed moved to 3; the boards migrate stored 1s\npub const C_FAILED: u32 = 3;",
    );
    std::fs::write(&spec, allowed).expect("write");
    let o = breaking(repo.path(), &["specs", "--against", "HEAD~1"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("[const_value_changed] Warning: the value of `C_FAILED`"),
        "{out}"
    );
    assert!(
        out.contains("Note: allowed by the `allow-break` at specs/queen/codes.t27:4: failed moved to 3; the boards migrate stored 1s"),
        "{out}"
    );
    assert!(
        out.ends_with("against HEAD~1: 0 breaking changes, 1 allowed, 2 compatible\n"),
        "{out}"
    );
    // Against the commit that already has the change, the comment allows nothing: said so.
    git(repo.path(), &["commit", "-q", "-a", "-m", "allowed"]);
    let o = breaking(repo.path(), &["specs", "--against", "HEAD~1"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains(
            "`allow-break const_value_changed` allows nothing: `C_FAILED` has no such change"
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn against_a_folder_that_stands_for_the_current_one() {
    let repo = repository();
    let old = tempfile::tempdir().expect("a temporary folder");
    let spec = old.path().join("specs/queen/codes.t27");
    std::fs::create_dir_all(spec.parent().expect("a parent")).expect("mkdir");
    std::fs::write(&spec, CODES_V1).expect("write");
    let against = old.path().to_string_lossy().into_owned();
    let o = breaking(
        repo.path(),
        &["specs", "--against", &against, "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines[0]["kind"], "const_value_changed");
    assert_eq!(
        lines[0]["old"]["file"],
        format!("{against}/specs/queen/codes.t27")
    );
}

#[test]
fn usage_errors_exit_2() {
    let repo = repository();
    let o = breaking(repo.path(), &["specs", "--against", "no-such-rev"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("error: no such revision: `no-such-rev`"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "");

    let plain = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(plain.path().join("specs")).expect("mkdir");
    std::fs::write(
        plain.path().join("specs/m.t27"),
        "module m;\npub const A: u32 = 1;\n",
    )
    .expect("write");
    let o = breaking(plain.path(), &["specs", "--against", "main"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("is not in a git repository"),
        "{}",
        stderr(&o)
    );

    let o = breaking(repo.path(), &["nowhere", "--against", "HEAD"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("nowhere: no such file or folder"),
        "{}",
        stderr(&o)
    );

    let o = breaking(repo.path(), &["specs"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}

#[test]
fn a_tree_with_an_error_is_compared_where_it_can_be() {
    let repo = repository();
    let spec = repo.path().join("specs/queen/codes.t27");
    let broken = CODES_V2.replace(
        "pub const C_DONE: u32 = 2;",
        "pub const C_DONE: u32 = MISSING;",
    );
    std::fs::write(&spec, broken).expect("write");
    let o = breaking(repo.path(), &["specs", "--against", "HEAD~1"]);
    // The moved code is still found; what the error hides is said, not taken for a change.
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("the value of `C_FAILED` changed from 1 to 3"),
        "{out}"
    );
    assert!(
        out.contains("`C_DONE` was not compared: its value could not be computed"),
        "{out}"
    );
    assert!(
        stderr(&o).contains("in the tree (`t27 check` shows them)"),
        "{}",
        stderr(&o)
    );
    // With only that left, the answer is incomplete: 2.
    let only = CODES_V1.replace(
        "pub const C_DONE: u32 = 2;",
        "pub const C_DONE: u32 = MISSING;",
    );
    std::fs::write(&spec, only).expect("write");
    let o = breaking(repo.path(), &["specs", "--against", "HEAD~1"]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
}

/// A folder that holds none of the tree's specs compares nothing: a usage error that says
/// what was looked for and where, not a tree of new modules that passes.
#[test]
fn an_unrelated_folder_is_a_usage_error() {
    let repo = repository();
    let unrelated = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(unrelated.path().join("lib")).expect("mkdir");
    std::fs::write(
        unrelated.path().join("lib/m.t27"),
        "module m;\npub const A: u32 = 1;\n",
    )
    .expect("write");
    let against = unrelated.path().display().to_string();
    let o = breaking(repo.path(), &["specs", "--against", &against]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let text = stderr(&o);
    assert!(
        text.contains(&format!(
            "error: no module of the tree is in {against}: looked for {against}/specs"
        )),
        "{text}"
    );
    assert!(
        text.contains("name the folder that holds the earlier copy of this folder"),
        "{text}"
    );
    assert_eq!(stdout(&o), "");
    // The same for a module's folder run from inside it.
    let o = breaking(
        &repo.path().join("specs/queen"),
        &["codes.t27", "--against", &against],
    );
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains(&format!("looked for {against}/codes.t27")),
        "{}",
        stderr(&o)
    );
}

/// A revision at which none of the tree's specs exists (here, before they were added).
#[test]
fn a_revision_without_the_tree_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    git(dir.path(), &["init", "-q", "-b", "main"]);
    std::fs::write(dir.path().join("README"), "specs to come\n").expect("write");
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "readme"]);
    let spec = dir.path().join("specs/queen/codes.t27");
    std::fs::create_dir_all(spec.parent().expect("a parent")).expect("mkdir");
    std::fs::write(&spec, CODES_V1).expect("write");
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "codes"]);
    let o = breaking(dir.path(), &["specs", "--against", "HEAD~1"]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let text = stderr(&o);
    assert!(
        text.contains("error: no module of the tree is at `HEAD~1`: looked for HEAD~1:specs in the repository at"),
        "{text}"
    );
    assert!(
        text.contains("(0 `.t27` files there at that revision)"),
        "{text}"
    );
    assert!(text.contains("name a later revision"), "{text}");
    assert_eq!(stdout(&o), "");
    // The revision after it compares.
    let o = breaking(dir.path(), &["specs", "--against", "HEAD"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// An absolute path in the current folder is fine against a folder; one outside it is not,
/// with the reason.
#[test]
fn absolute_paths_against_a_folder() {
    let repo = repository();
    let copy = tempfile::tempdir().expect("a temporary folder");
    let old = copy.path().join("specs/queen");
    std::fs::create_dir_all(&old).expect("mkdir");
    std::fs::write(old.join("codes.t27"), CODES_V1).expect("write");
    let against = copy.path().display().to_string();
    let absolute = repo.path().join("specs").display().to_string();
    let o = breaking(repo.path(), &[&absolute, "--against", &against]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("the value of `C_FAILED` changed from 1 to 3"),
        "{}",
        stdout(&o)
    );
    let o = breaking(copy.path(), &[&absolute, "--against", &against]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("the specs must be in the current folder, which FOLDER stands for"),
        "{}",
        stderr(&o)
    );
}
