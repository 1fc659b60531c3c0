//! The help of `t27` and of every command, snapshotted: a change to what a command does that
//! leaves its help behind shows up as a snapshot to review (`t27 gen --help` once still said
//! it mirrored constants alone).

mod common;

use common::*;

/// Every command and subcommand, as typed after `t27`.
const COMMANDS: &[&[&str]] = &[
    &[],
    &["check"],
    &["test"],
    &["mutate"],
    &["breaking"],
    &["doc"],
    &["gen"],
    &["consts"],
    &["fmt"],
    &["fix"],
    &["lsp"],
    &["explain"],
];

fn help(args: &[&str], flag: &str) -> String {
    let mut all = args.to_vec();
    all.push(flag);
    let o = t27_in(std::env::temp_dir().as_path(), &all);
    assert_eq!(o.status.code(), Some(0), "t27 {all:?}: {}", stderr(&o));
    assert_eq!(stderr(&o), "", "t27 {all:?}");
    stdout(&o)
}

#[test]
fn the_help_of_every_command_is_as_reviewed() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for args in COMMANDS {
            let name = if args.is_empty() {
                "t27".to_string()
            } else {
                format!("t27-{}", args.join("-"))
            };
            // `--help` is the long help, `-h` the short one; both are what users read.
            insta::assert_snapshot!(format!("help__{name}"), help(args, "--help"));
            insta::assert_snapshot!(format!("help__{name}__short"), help(args, "-h"));
        }
    });
}

#[test]
fn the_help_says_what_gen_mirrors_today() {
    for text in [help(&[], "--help"), help(&["gen"], "--help")] {
        assert!(text.contains("every function"), "{text}");
        assert!(!text.contains("`t27 gen ts` or `t27 gen rust`"), "{text}");
    }
    let gen_help = help(&["gen"], "--help");
    for target in ["ts", "js", "rust", "--tests", "--layout", "--check"] {
        assert!(gen_help.contains(target), "{target}: {gen_help}");
    }
    let test_help = help(&["test"], "--help");
    for option in ["--host", "--coverage", "--watch", "--junit", "--engine"] {
        assert!(test_help.contains(option), "{option}: {test_help}");
    }
}
