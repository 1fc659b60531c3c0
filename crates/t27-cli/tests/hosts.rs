//! The hosts agree with the engines: every fixture of `tests/fixtures/run`, the good specs,
//! the mirror fixtures, the owner's seeds and the isolation tree, run with `t27 test --host js`, `--host ts` and
//! `--host rust`,
//! give per block the record `t27 test --engine eval` gives (outcome, span, failure values
//! and the constants they stand for, trap kind, blocker), but for the engine and the time.
//! So do random programs (`t27-progen`, fixed seeds): the evaluator, the JIT (its agreement
//! with the evaluator is `tests/differential.rs`), Node on JavaScript and on TypeScript, and
//! native code from the Rust mirror.
//! One test per fixture and host: `cargo test -p t27-cli --test hosts traps.t27` runs one.

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pinned TypeScript compiler of `tests/host`, installed with `npm ci` the first time.
fn tsc() -> Result<PathBuf, String> {
    static INSTALLED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            let host = repo().join("tests/host");
            let tsc = host.join("node_modules/.bin/tsc");
            if tsc.exists() {
                return Ok(tsc);
            }
            let out = Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                .arg(&host)
                .output()
                .map_err(|e| format!("cannot run npm: {e}"))?;
            if !out.status.success() || !tsc.exists() {
                return Err(format!(
                    "`npm ci --prefix tests/host` failed:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            Ok(tsc)
        })
        .clone()
}

/// `t27 test PATH --format json ARGS...`: each block's record by `module::name`, without the
/// fields that say where and how fast it ran.
fn records(path: &Path, args: &[&str]) -> Result<BTreeMap<String, Value>, Failed> {
    let out = Command::new(env!("CARGO_BIN_EXE_t27"))
        .arg("test")
        .arg(path)
        .args(["--format", "json", "--timeout", "2"])
        .args(args)
        .current_dir(repo())
        .output()
        .map_err(|e| format!("t27 runs: {e}"))?;
    if out.status.code() == Some(3) || out.stdout.is_empty() {
        return Err(format!(
            "t27 test {} {args:?} failed:\n{}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let mut blocks = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let mut v: Value = serde_json::from_str(line).map_err(|e| format!("{e}: {line}"))?;
        if v["type"] != "block" {
            continue;
        }
        let key = format!("{}::{}::{}", v["file"], v["module"], v["name"]);
        if let Some(o) = v.as_object_mut() {
            o.remove("duration_ms");
            o.remove("engine");
        }
        blocks.insert(key, v);
    }
    Ok(blocks)
}

fn agree(path: &Path, host: &str) -> Result<(), Failed> {
    let expected = records(path, &["--engine", "eval"])?;
    let tsc = tsc()?;
    let tsc = tsc.to_string_lossy();
    let args: Vec<&str> = match host {
        "ts" => vec!["--host", "ts", "--tsc", &tsc],
        _ => vec!["--host", host],
    };
    let got = records(path, &args)?;
    if expected.is_empty() {
        return Err("no blocks ran".into());
    }
    for (name, want) in &expected {
        match got.get(name) {
            Some(g) if g == want => {}
            Some(g) => return Err(format!("{name}:\n  eval: {want}\n  {host}: {g}").into()),
            None => return Err(format!("{name}: the host reported nothing").into()),
        }
    }
    if got.len() != expected.len() {
        return Err(format!("{} blocks on {host}, {} on eval", got.len(), expected.len()).into());
    }
    Ok(())
}

/// The inputs with blocks the wasm card cannot express yet (structs, tuples, arrays passed
/// or returned by value): there a block may be reported not run, with the card's reason,
/// instead of its outcome. Everywhere else, and for every block that runs, the wasm host
/// agrees with the evaluator exactly.
const WASM_PARTIAL: [&str; 5] = [
    "tests/fixtures/run/failures.t27",
    "tests/fixtures/run/undefined_fill.t27",
    "tests/fixtures/run/views.t27",
    "tests/fixtures/good/specs",
    "tests/fixtures/gen",
];

fn agree_wasm(path: &Path, partial: bool) -> Result<(), Failed> {
    let expected = records(path, &["--engine", "eval"])?;
    let got = records(path, &["--host", "wasm"])?;
    let mut ran = 0;
    for (name, want) in &expected {
        match got.get(name) {
            Some(g) if g == want => ran += 1,
            Some(g)
                if partial
                    && g["outcome"] == "not_run"
                    && g["reason"]
                        .as_str()
                        .is_some_and(|r| r.contains("the wasm card cannot express it yet")) => {}
            Some(g) => return Err(format!("{name}:\n  eval: {want}\n  wasm: {g}").into()),
            None => return Err(format!("{name}: the host reported nothing").into()),
        }
    }
    eprintln!(
        "{}: {ran} of {} blocks ran on wasm",
        path.display(),
        expected.len()
    );
    if got.len() != expected.len() || (ran == 0 && !partial) {
        return Err(format!(
            "{} blocks on wasm ({ran} ran), {} on eval",
            got.len(),
            expected.len()
        )
        .into());
    }
    Ok(())
}

/// How many random programs each host runs (one `t27 test` over all of them).
const PROGRAMS: u64 = 150;

/// The random programs of seeds `0..PROGRAMS`, one spec file each, in a fresh folder.
fn programs() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("t27-host-programs-")
            .tempdir()
            .expect("a temporary folder");
        for seed in 0..PROGRAMS {
            std::fs::write(
                dir.path().join(format!("seed{seed}.t27")),
                t27_progen::program(seed),
            )
            .expect("a program");
        }
        dir
    })
    .path()
}

/// `examples/node-host` as its README builds it, against the mirror of `target` (`ts`, or
/// `js` with its `.d.ts` files): the supervisor type-checks under `--strict` and makes every
/// decision as the spec does.
fn node_host_example(target: &str) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let example = repo().join("examples/node-host/supervisor.ts");
    std::fs::copy(&example, dir.path().join("supervisor.ts")).map_err(|e| e.to_string())?;
    let run = |cmd: &mut Command| -> Result<String, Failed> {
        let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{cmd:?} failed:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    run(Command::new(env!("CARGO_BIN_EXE_t27"))
        .args(["gen", target, "specs/queen", "--out"])
        .arg(dir.path().join("gen"))
        .current_dir(repo()))?;
    run(Command::new(tsc()?)
        .args(["--strict", "--target", "es2022", "--module", "es2022"])
        .args([
            "--moduleResolution",
            "bundler",
            "--outDir",
            "out",
            "supervisor.ts",
        ])
        .current_dir(dir.path()))?;
    let out = dir.path().join("out");
    if target == "js" {
        // The JavaScript mirror is not compiled: it runs as it was generated.
        std::fs::create_dir_all(out.join("gen/queen")).map_err(|e| e.to_string())?;
        for f in ["queen/review_first.js", "queen/dispatch.js"] {
            std::fs::copy(dir.path().join("gen").join(f), out.join("gen").join(f))
                .map_err(|e| e.to_string())?;
        }
    }
    std::fs::copy(
        dir.path().join("gen/t27_runtime.js"),
        out.join("gen/t27_runtime.js"),
    )
    .map_err(|e| e.to_string())?;
    std::fs::write(out.join("package.json"), "{ \"type\": \"module\" }")
        .map_err(|e| e.to_string())?;
    let printed = run(Command::new("node")
        .arg("out/supervisor.js")
        .current_dir(dir.path()))?;
    if !printed.starts_with(
        "12 decisions as the spec makes them; the round says: 29 dispatches wait in review",
    ) {
        return Err(format!("the supervisor printed: {printed}").into());
    }
    Ok(())
}

/// `t27 gen wasm SPECS` into a fresh folder, then `node SCRIPT FOLDER`: what it printed.
fn node_on_cards(specs: &str, script: &str) -> Result<String, Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let o = t27(
        &["gen", "wasm", specs, "--out", &dir.path().to_string_lossy()],
        None,
    );
    expect(
        o.status.success() || o.status.code() == Some(1),
        "t27 gen wasm",
        &o,
    )?;
    let out = Command::new("node")
        .arg(script)
        .arg(dir.path())
        .current_dir(repo())
        .output()
        .map_err(|e| format!("node: {e}"))?;
    expect(out.status.success(), script, &out)?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The card contract (README, `t27 gen wasm`), held by `tests/wasm/contract.mjs` through the
/// example host's loader.
fn wasm_contract() -> Result<(), Failed> {
    let printed = node_on_cards("tests/fixtures/wasm/specs", "tests/wasm/contract.mjs")?;
    if !printed.contains("9 checks passed") {
        return Err(format!("the contract checks printed: {printed}").into());
    }
    Ok(())
}

/// `t27 gen wasm`: the same bytes every run, `--check` on them, a card changed by hand found,
/// `--layout flat`, and the public functions not exported listed with why.
fn wasm_gen() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out = dir.path().to_string_lossy().into_owned();
    let make = |extra: &[&str]| {
        let mut args = vec!["gen", "wasm", "specs/queen", "--out", &out];
        args.extend_from_slice(extra);
        t27(&args, None)
    };
    let o = make(&[]);
    expect(o.status.success(), "t27 gen wasm specs/queen", &o)?;
    let stderr = String::from_utf8_lossy(&o.stderr);
    expect(
        stderr
            .contains("not exported: specs/queen/dispatch.t27: `end_reason_to_name`: returns str"),
        "the str result is listed",
        &o,
    )?;
    let card = dir.path().join("queen/dispatch.wasm");
    let first = std::fs::read(&card).map_err(|e| e.to_string())?;
    let o = make(&["--check"]);
    expect(o.status.success(), "--check right after", &o)?;
    std::fs::remove_file(&card).map_err(|e| e.to_string())?;
    let o = make(&[]);
    expect(
        std::fs::read(&card).ok() == Some(first.clone()),
        "the same bytes again",
        &o,
    )?;
    let mut edited = first;
    let last = edited.len() - 1;
    edited[last] ^= 1;
    std::fs::write(&card, &edited).map_err(|e| e.to_string())?;
    let o = make(&["--check"]);
    expect(
        o.status.code() == Some(1) && String::from_utf8_lossy(&o.stdout).contains("differs:"),
        "--check finds the edited card",
        &o,
    )?;
    let o = make(&["--layout", "flat"]);
    expect(
        o.status.success() && dir.path().join("queen-review_first.wasm").is_file(),
        "--layout flat",
        &o,
    )?;
    Ok(())
}

/// `examples/wasm-host` as its README runs it: the seeds' cards decide a round.
fn wasm_host_example() -> Result<(), Failed> {
    let printed = node_on_cards("specs/queen", "examples/wasm-host/supervisor.mjs")?;
    if !printed.contains("13 decisions as the spec makes them") {
        return Err(format!("the supervisor printed: {printed}").into());
    }
    Ok(())
}

fn t27(args: &[&str], path: Option<&str>) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_t27"));
    cmd.args(args).current_dir(repo());
    if let Some(p) = path {
        cmd.env("PATH", p);
    }
    cmd.output().expect("t27 runs")
}

fn expect(ok: bool, what: &str, o: &std::process::Output) -> Result<(), Failed> {
    if ok {
        return Ok(());
    }
    Err(format!(
        "{what}: exit {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
    .into())
}

/// A host that is not there is a usage error (exit 3) that says what to install; `--filter`
/// and `--junit` work on a host as on the engines.
fn host_usage() -> Result<(), Failed> {
    let o = t27(
        &[
            "test",
            "specs/queen",
            "--host",
            "ts",
            "--tsc",
            "/no/such/tsc",
        ],
        None,
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    expect(
        o.status.code() == Some(3) && err.contains("--tsc PATH"),
        "no tsc",
        &o,
    )?;
    let o = t27(&["test", "specs/queen", "--host", "js"], Some(""));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    expect(
        o.status.code() == Some(3) && err.contains("cannot run `node`"),
        "no node",
        &o,
    )?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let junit = dir.path().join("junit.xml");
    let junit_arg = junit.to_string_lossy().into_owned();
    let o = t27(
        &[
            "test",
            "specs/queen",
            "--host",
            "js",
            "--filter",
            "QueenReviewFirst::",
            "--junit",
            &junit_arg,
        ],
        None,
    );
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    expect(
        o.status.success() && out.contains(" passed, 0 failed"),
        "filter",
        &o,
    )?;
    let xml = std::fs::read_to_string(&junit).map_err(|e| e.to_string())?;
    let cases = xml.matches("<testcase").count();
    let ran = out.lines().filter(|l| l.starts_with("PASS")).count();
    expect(cases == ran && ran > 0, "one JUnit case per block run", &o)
}

/// `t27 gen rust --tests`: the blocks as `#[test]`s of the mirror, which `rustc --test -D
/// warnings` compiles; the seeds' and the good specs' all pass, and a spec with failing blocks
/// fails (every block a `#[test]`, each from the declared module `var`s).
fn rust_tests(spec: &'static str, passes: bool) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out = dir.path().join("gen");
    let out_arg = out.to_string_lossy().into_owned();
    let o = t27(&["gen", "rust", spec, "--tests", "--out", &out_arg], None);
    expect(o.status.success(), "gen rust --tests", &o)?;
    let lib = dir.path().join("lib.rs");
    std::fs::write(&lib, "#[path = \"gen/mod.rs\"]\nmod generated;\n")
        .map_err(|e| e.to_string())?;
    let exe = dir.path().join("tests");
    let o = Command::new("rustc")
        .args(["--edition", "2021", "--test", "-D", "warnings", "-o"])
        .arg(&exe)
        .arg(&lib)
        .output()
        .map_err(|e| e.to_string())?;
    expect(o.status.success(), "rustc --test", &o)?;
    let o = Command::new(&exe).output().map_err(|e| e.to_string())?;
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    expect(o.status.success() == passes, "the tests' outcome", &o)?;
    expect(out.contains(" passed;"), "tests ran", &o)
}

fn main() {
    let args = Arguments::from_args();
    let root = repo();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(root.join("tests/fixtures/run"))
        .expect("tests/fixtures/run")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "t27"))
        .collect();
    inputs.sort();
    inputs.extend(
        [
            "tests/fixtures/good/specs",
            "tests/fixtures/gen",
            "specs/queen",
            "tests/fixtures/isolation",
        ]
        .map(|p| root.join(p)),
    );
    let mut trials = Vec::new();
    for input in inputs {
        let name = input
            .strip_prefix(&root)
            .unwrap_or(&input)
            .display()
            .to_string();
        for host in ["js", "ts", "rust"] {
            let input = input.clone();
            trials.push(Trial::test(format!("{host}::{name}"), move || {
                agree(&input, host)
            }));
        }
        let partial = WASM_PARTIAL.contains(&name.as_str());
        trials.push(Trial::test(format!("wasm::{name}"), move || {
            agree_wasm(&input, partial)
        }));
    }
    for host in ["js", "ts", "rust"] {
        trials.push(Trial::test(format!("{host}::random_programs"), move || {
            agree(programs(), host)
        }));
    }
    // Random programs use every construct, arrays and structs among them: a block the card
    // cannot hold yet is not run, and every block that runs agrees.
    trials.push(Trial::test("wasm::random_programs", || {
        agree_wasm(programs(), true)
    }));
    for target in ["ts", "js"] {
        trials.push(Trial::test(
            format!("{target}::examples/node-host"),
            move || node_host_example(target),
        ));
    }
    trials.push(Trial::test("host_usage_errors", host_usage));
    trials.push(Trial::test("wasm::contract", wasm_contract));
    trials.push(Trial::test("wasm::gen", wasm_gen));
    // The card fixtures: arrays in memory (failures included) and the contract's own block.
    let cards = repo().join("tests/fixtures/wasm/specs");
    trials.push(Trial::test("wasm::tests/fixtures/wasm/specs", move || {
        agree_wasm(&cards, false)
    }));
    trials.push(Trial::test("wasm::examples/wasm-host", wasm_host_example));
    for (spec, passes) in [
        ("specs/queen", true),
        ("tests/fixtures/good/specs", true),
        ("tests/fixtures/gen", true),
        ("tests/fixtures/run/views.t27", false),
        ("tests/fixtures/run/failures.t27", false),
        ("tests/fixtures/run/undefined_fill.t27", true),
    ] {
        trials.push(Trial::test(format!("rust::gen_tests::{spec}"), move || {
            rust_tests(spec, passes)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
