//! What the CLI's test files share: running the binary (and git) in a folder, and reading what
//! it said.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// `t27 ARGS` run in `dir`.
pub fn t27_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_t27"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("t27 runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `git ARGS` run in `dir` with a fixed author; the test fails if git does.
pub fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args([
            "-c",
            "user.name=t27",
            "-c",
            "user.email=t27@example.invalid",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(o.status.success(), "git {args:?}: {}", stderr(&o));
}
