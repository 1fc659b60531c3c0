//! Front-end throughput: generates a large spec tree in memory (modules that import each
//! other, tens of thousands of constants, thousands of functions and tests) and reports lex,
//! parse and check throughput in MB/s, at two sizes, to show that time grows linearly.
//!
//! Run: `cargo bench -p t27-check --bench frontend` (figures go in BENCHMARKS.md).
//! `T27_BENCH_MB=10` sets the large size; the small one is a tenth of it.
//! `T27_BENCH_WRITE=DIR` writes the trees to disk instead, for timing whole `t27` processes:
//! `DIR/generated/specs/` (the generated tree at `T27_BENCH_MB`) and `DIR/owner/specs/` (the
//! owner's specs copied to 0.48 MB, the size of their whole tree).

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use t27_check::MemoryLoader;
use t27_diag::FileId;

/// One module in the owner's style: a header, constants with docs, decision functions with
/// nested ifs, tests that call them, invariants over the constants, and `use` of the module
/// before it.
fn module(i: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "// SPDX-License-Identifier: Apache-2.0");
    let _ = writeln!(
        s,
        "; specs/gen/m{i}.t27 -- a generated module for the front-end benchmark."
    );
    let _ = writeln!(s, "module GenModule{i};");
    if i > 0 {
        let _ = writeln!(s, "use gen::m{};", i - 1);
        let _ = writeln!(s, "use gen::m{}::S0_{};", i - 1, i - 1);
    }
    let _ = writeln!(
        s,
        "; --- States -------------------------------------------------------------------------"
    );
    for j in 0..300 {
        let _ = writeln!(
            s,
            "/// State {j} of module {i}: mirrored by number, none moves."
        );
        let _ = writeln!(s, "pub const S{j}_{i} : u32 = {j};");
    }
    let _ = writeln!(s, "pub const ILLEGAL_{i} : u32 = 999;");
    let _ = writeln!(
        s,
        "pub const NAMES_{i} : [4]str = [\"running\", \"ended\", \"accepted\", \"stale\"];"
    );
    for f in 0..30 {
        let _ = writeln!(
            s,
            "pub fn next_{f}_{i}(state: u32, event: u32, idle_ms: u64) -> u32 {{"
        );
        for k in 0..6 {
            let a = (f + k) % 300;
            let _ = writeln!(s, "if (state == S{a}_{i}) {{");
            let _ = writeln!(
                s,
                "if (event == {k} and idle_ms >= 1800000) {{ return S{}_{i}; }}",
                (a + 1) % 300
            );
            let _ = writeln!(
                s,
                "if (event == {} or idle_ms < 60000) {{ return S{}_{i}; }}",
                k + 1,
                (a + 2) % 300
            );
            let _ = writeln!(s, "return ILLEGAL_{i};");
            let _ = writeln!(s, "}}");
        }
        let _ = writeln!(s, "var total : u32 = state + event;");
        let _ = writeln!(s, "while (total > 1000) {{ total -= 1000; }}");
        let _ = writeln!(s, "return total;");
        let _ = writeln!(s, "}}");
    }
    for t in 0..30 {
        let _ = writeln!(s, "test transitions_{t}_{i} {{");
        let a = t % 300;
        let _ = writeln!(
            s,
            "assert next_{t}_{i}(S{a}_{i}, 0, 1800000) == S{}_{i};",
            (a + 1) % 300
        );
        let _ = writeln!(
            s,
            "assert next_{t}_{i}(S{a}_{i}, 1, 0) == S{}_{i};",
            (a + 2) % 300
        );
        let _ = writeln!(s, "assert next_{t}_{i}(S{a}_{i}, 7, 70000) == ILLEGAL_{i};");
        let _ = writeln!(s, "assert S{a}_{i} == {a};");
        let _ = writeln!(s, "}}");
    }
    let _ = writeln!(s, "invariant states_are_ordered_{i} {{");
    for j in 0..20 {
        let _ = writeln!(
            s,
            "assert S{j}_{i} < S{}_{i} and NAMES_{i}.len() == 4;",
            j + 1
        );
    }
    if i > 0 {
        let _ = writeln!(
            s,
            "assert m{}::S1_{} == S1_{i} and S0_{} == 0;",
            i - 1,
            i - 1,
            i - 1
        );
    }
    let _ = writeln!(s, "}}");
    s
}

/// A tree of about `mb` megabytes: `specs/gen/m{i}.t27`.
fn tree(mb: f64) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut bytes = 0usize;
    let mut i = 0;
    while (bytes as f64) < mb * 1e6 {
        let text = module(i);
        bytes += text.len();
        files.push((PathBuf::from(format!("specs/gen/m{i}.t27")), text));
        i += 1;
    }
    files
}

/// The owner's own specs, copied into as many folders as it takes to reach `mb` megabytes:
/// the mix of prose, long rule strings and decision functions that real specs have.
fn owner_tree(mb: f64) -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../specs/queen");
    let originals: Vec<(String, String)> = ["review_first.t27", "dispatch.t27"]
        .iter()
        .map(|name| {
            (
                name.to_string(),
                std::fs::read_to_string(root.join(name))
                    .expect("the owner's specs are in specs/queen"),
            )
        })
        .collect();
    let mut files = Vec::new();
    let mut bytes = 0usize;
    let mut copy = 0;
    while (bytes as f64) < mb * 1e6 {
        for (name, text) in &originals {
            bytes += text.len();
            files.push((
                PathBuf::from(format!("specs/copy{copy}/{name}")),
                text.clone(),
            ));
        }
        copy += 1;
    }
    files
}

struct Figures {
    bytes: usize,
    modules: usize,
    lex: Duration,
    parse: Duration,
    check: Duration,
    /// The two halves of the best whole check: loading and parsing every module, then
    /// resolving, type checking and evaluating constants.
    check_load_parse: Duration,
    check_rest: Duration,
}

/// The best of `runs` timings of each phase.
fn measure(files: &[(PathBuf, String)], runs: usize) -> Figures {
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    let mut best = Figures {
        bytes,
        modules: files.len(),
        lex: Duration::MAX,
        parse: Duration::MAX,
        check: Duration::MAX,
        check_load_parse: Duration::ZERO,
        check_rest: Duration::ZERO,
    };
    for _ in 0..runs {
        let start = Instant::now();
        let mut tokens = 0;
        for (_, text) in files {
            tokens += t27_syntax::lexer::lex(FileId(0), text).tokens.len();
        }
        best.lex = best.lex.min(start.elapsed());
        assert!(tokens > 0);

        let start = Instant::now();
        for (_, text) in files {
            let parsed = t27_syntax::parse(FileId(0), text);
            assert!(parsed.diagnostics.is_empty());
        }
        best.parse = best.parse.min(start.elapsed());

        let mut loader = MemoryLoader::new(files.iter().map(|(p, t)| (p, t.clone())));
        let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
        let start = Instant::now();
        let checked = t27_check::check(&paths, None, &mut loader);
        let took = start.elapsed();
        if took < best.check {
            best.check = took;
            best.check_load_parse = checked.stats.load_parse;
            best.check_rest = checked.stats.check;
        }
        assert_eq!(
            checked.error_count(),
            0,
            "the generated tree must check cleanly"
        );
        assert_eq!(checked.program.modules.len(), files.len());
    }
    best
}

fn mbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

fn report(label: &str, f: &Figures) {
    println!(
        "{label:>6}: {:>6.2} MB in {:>4} modules | lex {:>7.1} MB/s | lex+parse {:>6.1} MB/s | whole check {:>6.1} MB/s ({:.3} s = load+parse {:.3} s + check {:.3} s)",
        f.bytes as f64 / 1e6,
        f.modules,
        mbps(f.bytes, f.lex),
        mbps(f.bytes, f.parse),
        mbps(f.bytes, f.check),
        f.check.as_secs_f64(),
        f.check_load_parse.as_secs_f64(),
        f.check_rest.as_secs_f64(),
    );
}

fn compare(what: &str, make: fn(f64) -> Vec<(PathBuf, String)>, large: f64, runs: usize) {
    println!("{what}:");
    let small = measure(&make(large / 10.0), runs);
    let big = measure(&make(large), runs);
    report("small", &small);
    report("large", &big);
    let size_ratio = big.bytes as f64 / small.bytes as f64;
    let time_ratio = big.check.as_secs_f64() / small.check.as_secs_f64();
    println!("  size x{size_ratio:.1} -> whole-check time x{time_ratio:.1}");
}

/// Writes `files` under `dir`.
fn write_tree(dir: &Path, files: &[(PathBuf, String)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("create the folder");
        std::fs::write(&path, text).expect("write the spec");
    }
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    println!(
        "{}: {} modules, {:.2} MB",
        dir.display(),
        files.len(),
        bytes as f64 / 1e6
    );
}

fn main() {
    // The allocator of the `t27` binary, so the figures are those of `t27 check`.
    t27_alloc::setup();
    if let Some(dir) = std::env::var_os("T27_BENCH_WRITE") {
        let mb: f64 = std::env::var("T27_BENCH_MB")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(5.4);
        let dir = PathBuf::from(dir);
        write_tree(&dir.join("generated"), &tree(mb));
        write_tree(&dir.join("owner"), &owner_tree(0.48));
        return;
    }
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this once, small, as a smoke test.
    let smoke = !std::env::args().any(|a| a == "--bench");
    let large: f64 = std::env::var("T27_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10.0);
    let (large, runs) = if smoke { (0.5, 1) } else { (large, 5) };
    compare(
        "generated tree (decision functions, tests, imports; the hardest case per byte)",
        tree,
        large,
        runs,
    );
    compare("the owner's specs/queen, copied", owner_tree, large, runs);
}
