//! `t27 fmt` as a user runs it: in place, `--check`, `--stdin`, a file with syntax errors.

mod common;

use common::{stderr, t27_in as t27};
use std::io::Write;
use std::process::{Command, Stdio};

const UNFORMATTED: &str = "module M;\npub fn f(x:u32)->u32{\n  return x+1; // one more\n}\n";
const FORMATTED: &str = "module M;\npub fn f(x: u32) -> u32 {\n    return x + 1; // one more\n}\n";

fn tree(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        std::fs::write(path, text).expect("write");
    }
    dir
}

#[test]
fn check_lists_unformatted_files_and_exits_1_then_fmt_formats_them_in_place() {
    let dir = tree(&[
        ("specs/a.t27", UNFORMATTED.as_bytes()),
        ("specs/b.t27", FORMATTED.as_bytes()),
    ]);
    let o = t27(dir.path(), &["fmt", "--check"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "specs/a.t27\n");
    assert!(
        stderr(&o).contains("2 files: 1 to format"),
        "{}",
        stderr(&o)
    );
    // --check changed nothing.
    let a = dir.path().join("specs/a.t27");
    assert_eq!(std::fs::read_to_string(&a).expect("read"), UNFORMATTED);
    let o = t27(dir.path(), &["fmt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&a).expect("read"), FORMATTED);
    let o = t27(dir.path(), &["fmt", "--check", "specs"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

#[test]
fn a_file_with_syntax_errors_is_left_as_it_is_with_its_errors() {
    let broken = "module M;\npub fn f( -> u32 { return 1; }\n";
    let dir = tree(&[
        ("specs/broken.t27", broken.as_bytes()),
        ("specs/ok.t27", UNFORMATTED.as_bytes()),
    ]);
    let o = t27(dir.path(), &["fmt", "--color", "never"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("E0100") && err.contains("broken.t27"), "{err}");
    assert!(err.contains("1 formatted, 1 left as they are"), "{err}");
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).expect("read");
    assert_eq!(read("specs/broken.t27"), broken);
    // The other file was formatted all the same.
    assert_eq!(read("specs/ok.t27"), FORMATTED);
}

/// A body is taken whole before the file is parsed: its own errors must stop `fmt` too (they
/// did not, until the language server's formatting test found it).
#[test]
fn an_error_inside_a_body_leaves_the_file_as_it_is() {
    for broken in [
        "module M;\nfn f(n: u32) -> u32 {\n return n * ;\n}\n",
        "module M;\ntest t {\n assert 1 == ;\n}\n",
    ] {
        let dir = tree(&[("specs/broken.t27", broken.as_bytes())]);
        let o = t27(dir.path(), &["fmt", "--check", "--color", "never"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains("E0100"), "{}", stderr(&o));
        let o = t27(dir.path(), &["fmt", "--color", "never"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let read = std::fs::read_to_string(dir.path().join("specs/broken.t27")).expect("read");
        assert_eq!(read, broken);
    }
}

#[test]
fn crlf_and_a_byte_order_mark_stay() {
    let crlf = UNFORMATTED.replace('\n', "\r\n");
    let bom = format!("\u{feff}{UNFORMATTED}");
    let dir = tree(&[
        ("specs/crlf.t27", crlf.as_bytes()),
        ("specs/bom.t27", bom.as_bytes()),
    ]);
    let o = t27(dir.path(), &["fmt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).expect("read");
    assert_eq!(read("specs/crlf.t27"), FORMATTED.replace('\n', "\r\n"));
    assert_eq!(read("specs/bom.t27"), format!("\u{feff}{FORMATTED}"));
}

#[test]
fn stdin_is_formatted_to_stdout() {
    let run = |input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_t27"))
            .args(["fmt", "--stdin", "--color", "never"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("t27 runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
        child.wait_with_output().expect("t27 ends")
    };
    let o = run(UNFORMATTED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), FORMATTED);
    // Text that does not parse comes back as it went, with its errors.
    let broken = "module M;\nconst X: u32 = ;\n";
    let o = run(broken);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&o.stdout), broken);
    assert!(stderr(&o).contains("<stdin>"), "{}", stderr(&o));
}

/// The owner's habits are not mistakes: `NAME : T`, flat bodies and long lines stay as written.
#[test]
fn a_file_in_the_owners_style_is_formatted_already() {
    let long = format!("pub const RULE : str = \"{}\";\n", "x".repeat(150));
    let owner = format!(
        "module M;\n{long}pub fn f(a: u32, b: u32) -> u32 {{\nvar s : u32 = a + b;\nreturn s;\n}}\n"
    );
    let dir = tree(&[("specs/owner.t27", owner.as_bytes())]);
    let o = t27(dir.path(), &["fmt", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

#[test]
fn a_missing_path_is_a_usage_error() {
    let dir = tree(&[]);
    let o = t27(dir.path(), &["fmt", "nowhere.t27"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
