//! `t27 doc` as a user runs it: the files it writes, its exit codes, and a tree with an
//! error still documented. The pages themselves are snapshotted by the suite's
//! `tests/doc.rs`, and driven in a browser by `tests/doc/site.test.mjs`.

mod common;

use common::*;
use std::path::Path;

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

const SOUND: &str = "module Shop;
pub const LIMIT: u32 = 3;
pub fn fits(n: u32) -> bool { return n <= LIMIT; }
test fits_three { assert fits(3); }
";

#[test]
fn writes_the_site_and_exits_0() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "specs/shop.t27", SOUND);
    let out = t27_in(dir.path(), &["doc", "specs", "--out", "site", "--run"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("2 pages written to site"),
        "{}",
        stdout(&out)
    );
    for file in [
        "index.html",
        "shop.html",
        "shop.js",
        "t27_runtime.js",
        "doc.js",
        "doc.css",
    ] {
        assert!(
            dir.path().join("site").join(file).is_file(),
            "{file} is written"
        );
    }
    let page = std::fs::read_to_string(dir.path().join("site/shop.html")).expect("page");
    assert!(page.contains("id=\"try-fits\""), "a Try it for fits");
    assert!(
        page.contains("<span class=\"outcome pass\">pass</span>"),
        "the run's outcome"
    );
    // The same specs give the same bytes.
    let again = t27_in(dir.path(), &["doc", "specs", "--out", "again", "--run"]);
    assert_eq!(again.status.code(), Some(0));
    for file in ["index.html", "shop.html", "shop.js"] {
        assert_eq!(
            std::fs::read(dir.path().join("site").join(file)).expect("first"),
            std::fs::read(dir.path().join("again").join(file)).expect("second"),
            "{file} differs between builds"
        );
    }
}

#[test]
fn a_failing_block_or_an_error_exits_1_with_the_pages_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "specs/shop.t27",
        &SOUND.replace("assert fits(3)", "assert fits(4)"),
    );
    write(
        dir.path(),
        "specs/bad.t27",
        "module Bad;\npub fn f(n: u32) -> u32 { return n + MISSING; }\n",
    );
    let out = t27_in(dir.path(), &["doc", "specs", "--out", "site", "--run"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("1 error in the specs"),
        "{}",
        stderr(&out)
    );
    let bad = std::fs::read_to_string(dir.path().join("site/bad.html")).expect("page");
    assert!(bad.contains("Try it is off on this page"), "{bad}");
    let shop = std::fs::read_to_string(dir.path().join("site/shop.html")).expect("page");
    assert!(shop.contains("<strong>fail</strong>"), "{shop}");
    assert!(
        shop.contains("id=\"try-fits\""),
        "the sound module keeps its Try it"
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = t27_in(dir.path(), &["doc", "nowhere", "--out", "site"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = t27_in(dir.path(), &["doc", "nowhere"]);
    assert_eq!(out.status.code(), Some(2), "--out is required");
    write(dir.path(), "specs/shop.t27", SOUND);
    write(dir.path(), "site", "a file where the folder should be");
    let out = t27_in(dir.path(), &["doc", "specs", "--out", "site"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("error: site/"), "{}", stderr(&out));
}
