//! The spec root from anywhere: every command that reads specs, run from the tree's top,
//! from `specs/`, from a module's folder (on the folder and on a single file), and through a
//! link to that folder, resolves the cross-module `use` (the root is the nearest folder named
//! `specs` of each file's real place), and shows paths as they were typed.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Output;

const A: &str = "module A;
pub const X : u32 = 3;
pub fn twice(n: u32) -> u32 { return n * 2; }
test a_twice { assert twice(2) == 4; }
";

/// Uses a constant and a function of `A`; its own constant is defined from `A`'s.
const B: &str = "module B;
use queen::a;
use queen::a::X;
pub const Y : u32 = X + 1;
pub fn more(n: u32) -> u32 { return a::twice(n) + X; }
test b_more { assert more(1) == 5; assert more(0) == 3; assert Y == 4; }
";

/// The earlier `B`, against which `breaking` finds `Y` changed (so it compared the modules).
const B_OLD: &str = "module B;
use queen::a::X;
pub const Y : u32 = X + 2;
";

/// `top/specs/queen/{a,b}.t27`, a git repository whose `HEAD` has the earlier `b.t27`, a copy
/// `old` of the top folder with it too, and a link `top/link` to `specs/queen`.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (top, b) in [("top", B_OLD), ("old", B_OLD)] {
        let queen = dir.path().join(top).join("specs/queen");
        std::fs::create_dir_all(&queen).expect("mkdir");
        std::fs::write(queen.join("a.t27"), A).expect("write");
        std::fs::write(queen.join("b.t27"), b).expect("write");
    }
    let top = dir.path().join("top");
    git(&top, &["init", "-q", "-b", "main"]);
    git(&top, &["add", "."]);
    git(&top, &["commit", "-q", "-m", "earlier"]);
    std::fs::write(top.join("specs/queen/b.t27"), B).expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(top.join("specs/queen"), top.join("link")).expect("symlink");
    dir
}

/// Where to run from (under `top`), the path to name, the copy of that folder in `old`, and
/// whether `a.t27` is requested too.
struct Place {
    cwd: &'static str,
    path: &'static str,
    old: &'static str,
    whole: bool,
}

const PLACES: &[Place] = &[
    Place {
        cwd: "",
        path: "specs/queen",
        old: "old",
        whole: true,
    },
    Place {
        cwd: "specs",
        path: "queen",
        old: "old/specs",
        whole: true,
    },
    Place {
        cwd: "specs/queen",
        path: ".",
        old: "old/specs/queen",
        whole: true,
    },
    Place {
        cwd: "specs/queen",
        path: "b.t27",
        old: "old/specs/queen",
        whole: false,
    },
    Place {
        cwd: "link",
        path: ".",
        old: "old/specs/queen",
        whole: true,
    },
    Place {
        cwd: "link",
        path: "b.t27",
        old: "old/specs/queen",
        whole: false,
    },
];

fn places(dir: &Path) -> Vec<(PathBuf, &'static Place)> {
    PLACES
        .iter()
        .filter(|p| cfg!(unix) || !p.cwd.starts_with("link"))
        .map(|p| (dir.join("top").join(p.cwd), p))
        .collect()
}

fn said(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

/// No `use` left unresolved, and the exit code expected.
fn resolved(o: &Output, code: i32, what: &str) {
    assert!(!said(o).contains("E1003"), "{what}: {}", said(o));
    assert_eq!(o.status.code(), Some(code), "{what}: {}", said(o));
}

#[test]
fn check_test_and_consts_resolve_the_use_from_every_folder() {
    let dir = tree();
    for (cwd, place) in places(dir.path()) {
        let what = format!("in {}, {}", place.cwd, place.path);
        let o = t27_in(&cwd, &["check", "--color", "never", place.path]);
        resolved(&o, 0, &what);
        assert!(
            stderr(&o).contains("checked 2 modules: 0 errors"),
            "{what}: {}",
            said(&o)
        );

        let o = t27_in(&cwd, &["test", "--color", "never", place.path]);
        resolved(&o, 0, &what);
        let passed = if place.whole {
            "2 passed, 0 failed"
        } else {
            "1 passed, 0 failed"
        };
        assert!(stdout(&o).contains(passed), "{what}: {}", said(&o));

        let o = t27_in(&cwd, &["consts", "--format", "json", place.path]);
        resolved(&o, 0, &what);
        assert!(
            stdout(&o).lines().any(|l| l.contains("\"name\":\"Y\"")
                && l.contains("\"value\":\"4\"")
                || l.contains("\"name\":\"Y\"") && l.contains("\"value\":4")),
            "{what}: {}",
            said(&o)
        );
    }
}

#[test]
fn paths_are_shown_as_typed() {
    let dir = tree();
    let queen = dir.path().join("top/specs/queen");
    std::fs::write(
        queen.join("b.t27"),
        B.replace("return a::twice(n) + X;", "return a::twice(n) + Z;"),
    )
    .expect("write");
    let o = t27_in(&queen, &["check", "--color", "never", "b.t27"]);
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    // The requested file as typed, not as the root would spell it.
    assert!(stderr(&o).contains("─[ b.t27:5:"), "{}", said(&o));
    // A module that is not there: the paths looked at, relative to the current folder.
    std::fs::write(
        queen.join("b.t27"),
        B.replace("use queen::a::X;", "use queen::gone::X;"),
    )
    .expect("write");
    let o = t27_in(&queen, &["check", "--color", "never", "b.t27"]);
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    assert!(said(&o).contains("E1003"), "{}", said(&o));
    assert!(said(&o).contains("`../queen/gone.t27`"), "{}", said(&o));
    assert!(said(&o).contains("the spec root is `..`"), "{}", said(&o));
}

#[test]
fn gen_places_each_mirror_by_its_path_under_the_root_from_every_folder() {
    let dir = tree();
    for (cwd, place) in places(dir.path()) {
        let what = format!("in {}, {}", place.cwd, place.path);
        for target in ["ts", "js", "rust"] {
            let out = tempfile::tempdir().expect("a temporary folder");
            let o = t27_in(
                &cwd,
                &[
                    "gen",
                    target,
                    place.path,
                    "--out",
                    &out.path().display().to_string(),
                ],
            );
            resolved(&o, 0, &format!("{what}, gen {target}"));
            let ext = if target == "rust" { "rs" } else { target };
            assert!(
                out.path().join(format!("queen/b.{ext}")).is_file(),
                "{what}, gen {target}: {}",
                said(&o)
            );
        }
    }
}

#[test]
fn doc_mutate_and_fix_resolve_the_use_from_every_folder() {
    let dir = tree();
    for (cwd, place) in places(dir.path()) {
        let what = format!("in {}, {}", place.cwd, place.path);
        let out = tempfile::tempdir().expect("a temporary folder");
        let o = t27_in(
            &cwd,
            &[
                "doc",
                place.path,
                "--run",
                "--out",
                &out.path().display().to_string(),
            ],
        );
        resolved(&o, 0, &format!("{what}, doc"));

        let o = t27_in(&cwd, &["mutate", "--color", "never", place.path]);
        assert!(!said(&o).contains("E1003"), "{what}: {}", said(&o));
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{what}, mutate: {}",
            said(&o)
        );
        assert!(stdout(&o).contains("B  "), "{what}, mutate: {}", said(&o));

        let o = t27_in(&cwd, &["fix", "--dry-run", place.path]);
        resolved(&o, 0, &format!("{what}, fix"));
    }
}

#[test]
fn breaking_compares_the_same_modules_from_every_folder() {
    let dir = tree();
    for (cwd, place) in places(dir.path()) {
        let copy = dir.path().join(place.old).display().to_string();
        for against in ["HEAD", copy.as_str()] {
            let what = format!("in {}, {} against {against}", place.cwd, place.path);
            let o = t27_in(
                &cwd,
                &[
                    "breaking",
                    "--color",
                    "never",
                    place.path,
                    "--against",
                    against,
                ],
            );
            resolved(&o, 1, &what);
            assert!(
                stdout(&o).contains("the value of `Y` changed from 5 to 4"),
                "{what}: {}",
                said(&o)
            );
            // The modules are matched, not taken for new ones.
            assert!(
                !stdout(&o).contains("module `B` is new"),
                "{what}: {}",
                said(&o)
            );
        }
    }
}
