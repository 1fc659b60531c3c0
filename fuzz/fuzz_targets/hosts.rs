//! Random well-typed programs (t27-progen, seeded by the fuzzer) on the evaluator and on the
//! hosts: `t27 test --host js` (Node) and `--host rust` (rustc) must give every block the
//! record `t27 test --engine eval` gives, but for the engine and the time; so must
//! `--host wasm` (Node's WebAssembly) for every block its card can hold (the others it
//! reports not run, with the card's reason). The evaluator's
//! agreement with the JIT is the `engines` target's. Runs the `t27` binary named by `T27`
//! (default `../target/release/t27`; build it first with `cargo build --release`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::process::Command;

fn records(t27: &str, spec: &Path, args: &[&str]) -> Vec<serde_json::Value> {
    let out = Command::new(t27)
        .arg("test")
        .arg(spec)
        .args(["--format", "json", "--timeout", "2"])
        .args(args)
        .output()
        .expect("the t27 binary runs (set T27 to its path)");
    assert!(out.status.code() != Some(3), "t27 {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "block")
        .map(|mut v| {
            if let Some(o) = v.as_object_mut() {
                o.remove("duration_ms");
                o.remove("engine");
            }
            v
        })
        .collect()
}

fuzz_target!(|seed: u64| {
    let t27 = std::env::var("T27").unwrap_or_else(|_| "../target/release/t27".into());
    let dir = tempfile::tempdir().expect("a temporary folder");
    let spec = dir.path().join("generated.t27");
    let source = t27_progen::program(seed);
    std::fs::write(&spec, &source).expect("the program");
    let eval = records(&t27, &spec, &["--engine", "eval"]);
    for host in ["js", "rust"] {
        let got = records(&t27, &spec, &["--host", host]);
        assert_eq!(eval, got, "--host {host} disagrees with the evaluator on seed {seed}:\n{source}");
    }
    let wasm = records(&t27, &spec, &["--host", "wasm"]);
    assert_eq!(eval.len(), wasm.len(), "--host wasm reported other blocks on seed {seed}");
    for (want, got) in eval.iter().zip(&wasm) {
        let not_yet = got["outcome"] == "not_run"
            && got["reason"].as_str().is_some_and(|r| r.contains("the wasm card cannot express it yet"));
        assert!(not_yet || want == got, "--host wasm disagrees with the evaluator on seed {seed}:\n  eval: {want}\n  wasm: {got}\n{source}");
    }
});
