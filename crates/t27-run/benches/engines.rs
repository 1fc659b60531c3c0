//! Engine benchmarks: the owner's specs end to end on the JIT and on the evaluator; a
//! compute-heavy sweep of `next_state` and `claim_of` over their whole input domain against
//! the same logic in Rust; and generated replay specs of 100,000 and 1,000,000 runtime
//! asserts, end to end.
//!
//! And an owner-shaped tree (`owner_shaped/`: modules that scan strings of a few KB, look up
//! tables in loops, loop a few hundred times), end to end on each engine: the tiered engine
//! must not pay for compiling blocks the evaluator finishes first.
//!
//! Run: `cargo bench -p t27-run --bench engines` (figures go in BENCHMARKS.md).
//! `cargo test -p t27-run --bench engines` runs it once, small, as a smoke test.

mod owner_shaped;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use t27_check::MemoryLoader;
use t27_run::{BlockReport, Engine, RunOptions};

fn owner_spec() -> String {
    seed("dispatch.t27")
}

/// One of the owner's specs, `specs/queen/NAME`.
fn seed(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../specs/queen")
        .join(name);
    std::fs::read_to_string(path).expect("the owner's specs are in specs/queen")
}

/// The owner-shaped tree with the two seeds beside it, as `(path, text)`.
fn owner_shaped_tree() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = ["dispatch.t27", "review_first.t27"]
        .iter()
        .map(|name| (format!("specs/queen/{name}"), seed(name)))
        .collect();
    files.extend(owner_shaped::tree());
    files
}

/// Checks and runs a spec tree held in memory; returns the time and the pass/fail counts.
fn check_and_run(files: &[(&str, String)], engine: Engine) -> (Duration, usize, usize) {
    let started = Instant::now();
    let mut loader = MemoryLoader::new(files.iter().map(|(p, t)| (p, t.clone())));
    let requested: Vec<PathBuf> = files
        .iter()
        // The compute and replay specs' blocks, not those of the seed they import.
        .filter(|(p, _)| {
            !p.ends_with("dispatch.t27")
                || !files.iter().any(|(q, _)| q.starts_with("specs/bench/"))
        })
        .map(|(p, _)| PathBuf::from(p))
        .collect();
    let checked = t27_check::check(&requested, None, &mut loader);
    if std::env::var_os("T27_BENCH_PHASES").is_some() {
        let s = checked.stats;
        eprintln!(
            "    check {:.3} s (of which read, lex and parse {:.3} s)",
            (s.load_parse + s.check).as_secs_f64(),
            s.load_parse.as_secs_f64()
        );
    }
    assert_eq!(
        checked.error_count(),
        0,
        "the benchmark spec must check cleanly"
    );
    let opts = RunOptions {
        lowering_threads: None,
        engine_threads: None,
        coverage: None,
        engine,
        timeout: Duration::from_secs(600),
        filter: None,
        exact: false,
    };
    let before_run = Instant::now();
    let summary = t27_run::run(&checked, &opts, &mut |_: &BlockReport| {});
    if std::env::var_os("T27_BENCH_PHASES").is_some() {
        eprintln!(
            "    compile and run {:.3} s",
            before_run.elapsed().as_secs_f64()
        );
    }
    let elapsed = started.elapsed();
    // Freed after the timing, as the CLI never frees it; the next run reuses the memory.
    drop(checked);
    (elapsed, summary.passed, summary.failed)
}

// ---- The same decision logic in Rust, for the comparison and to compute expected values ----

const ILLEGAL: u32 = 99;

fn next_state(state: u32, event: u32) -> u32 {
    match state {
        0 => match event {
            0 => 1,
            1 => 2,
            _ => ILLEGAL,
        },
        1 => match event {
            2 => 3,
            4 | 5 => 10,
            _ => ILLEGAL,
        },
        3 | 4 => match event {
            6 => 5,
            7 => 6,
            8 => 7,
            9 => 4,
            10 => 8,
            11 => 9,
            14 => 11,
            _ => ILLEGAL,
        },
        5 => match event {
            12 => 6,
            13 => 7,
            _ => ILLEGAL,
        },
        6 | 8 => match event {
            11 => 9,
            14 => 11,
            _ => ILLEGAL,
        },
        7 => match event {
            11 => 9,
            _ => ILLEGAL,
        },
        9 | 10 | 2 | 11 => match event {
            15 => 1,
            _ => ILLEGAL,
        },
        _ => ILLEGAL,
    }
}

fn claim_of(finished: bool, verdict: u32, idle_ms: u64, send_backs: u32, releases: u32) -> u32 {
    const C_RUNNING: u32 = 0;
    const C_ACCEPTED: u32 = 1;
    const C_REJECTED: u32 = 2;
    const C_AWAITING_REVIEW: u32 = 3;
    const C_FAILED: u32 = 4;
    if !finished {
        return C_RUNNING;
    }
    if verdict == 6 {
        return C_ACCEPTED;
    }
    if verdict == 7 || verdict == 8 {
        return C_FAILED;
    }
    if verdict == 3 {
        if idle_ms >= 1_800_000 {
            return C_FAILED;
        }
        return C_REJECTED;
    }
    if verdict == 9 {
        return C_FAILED;
    }
    if verdict == 4 {
        if idle_ms >= 3_600_000 && send_backs < 2 {
            return C_FAILED;
        }
        if releases >= 1 {
            return C_REJECTED;
        }
        if idle_ms >= 3_600_000 {
            return C_FAILED;
        }
        return C_REJECTED;
    }
    if (verdict == 0 || verdict == 1 || verdict == 2) && idle_ms >= 21_600_000 && send_backs < 2 {
        return C_FAILED;
    }
    C_AWAITING_REVIEW
}

const IDLES: [u64; 6] = [0, 1_799_999, 1_800_000, 3_600_000, 21_599_999, 21_600_000];

/// One round calls `next_state` on all 12 x 16 (state, event) pairs and `claim_of` on all
/// 2 x 11 x 6 x 3 x 2 inputs: 984 calls.
const CALLS_PER_ROUND: u64 = 12 * 16 + 2 * 11 * 6 * 3 * 2;

/// The input domain of one round. The sweeps below read it from a constant, where the
/// optimiser sees every value, or through `black_box`, as a program whose inputs arrive at
/// run time would.
struct Domain {
    states: u32,
    events: u32,
    verdicts: u32,
    idles: [u64; 6],
    send_backs: u32,
    releases: u32,
}

const DOMAIN: Domain = Domain {
    states: 12,
    events: 16,
    verdicts: 11,
    idles: IDLES,
    send_backs: 3,
    releases: 2,
};

#[inline(always)]
fn sweep_over(
    rounds: u32,
    d: &Domain,
    next_state: impl Fn(u32, u32) -> u32,
    claim_of: impl Fn(bool, u32, u64, u32, u32) -> u32,
) -> u64 {
    let mut total: u64 = 0;
    for _ in 0..rounds {
        for s in 0..d.states {
            for e in 0..d.events {
                total = total
                    .checked_add(next_state(s, e) as u64)
                    .expect("no overflow");
            }
        }
        for f in [false, true] {
            for v in 0..d.verdicts {
                for idle in d.idles {
                    for sb in 0..d.send_backs {
                        for rel in 0..d.releases {
                            total = total
                                .checked_add(claim_of(f, v, idle, sb, rel) as u64)
                                .expect("no overflow");
                        }
                    }
                }
            }
        }
    }
    total
}

/// Everything visible to the optimiser: it inlines both functions into loops whose bounds
/// and inputs are constants, and can fold much of each round from them.
#[inline(never)]
fn sweep_rust(rounds: u32) -> u64 {
    sweep_over(rounds, &DOMAIN, next_state, claim_of)
}

/// Both functions inlined, but the domain read at run time, as a host program calling the
/// spec's functions on its own data does.
#[inline(never)]
fn sweep_rust_opaque(rounds: u32) -> u64 {
    sweep_over(rounds, std::hint::black_box(&DOMAIN), next_state, claim_of)
}

/// Every call kept a call, as the JIT keeps calls of larger functions: the functions are
/// reached through pointers the optimiser cannot see through.
#[inline(never)]
fn sweep_rust_calls(rounds: u32) -> u64 {
    let ns: fn(u32, u32) -> u32 = std::hint::black_box(next_state);
    let co: fn(bool, u32, u64, u32, u32) -> u32 = std::hint::black_box(claim_of);
    sweep_over(rounds, &DOMAIN, ns, co)
}

/// The sweep as a spec. With `opaque`, the sizes of the domain are parameters the test passes
/// in, so the compiled loops know them only at run time, as the opaque Rust sweep does.
fn compute_spec(rounds: u32, expected: u64, opaque: bool) -> String {
    let (params, args) = if opaque {
        (
            ", states: u32, events: u32, flags: u32, verdicts: u32, idles: u32, sends: u32, releases: u32",
            ", 12, 16, 2, 11, 6, 3, 2",
        )
    } else {
        ("", "")
    };
    let bound = |name: &str, n: u32| {
        if opaque {
            name.to_string()
        } else {
            n.to_string()
        }
    };
    format!(
        r#"module ComputeBench;
use queen::dispatch;
pub const IDLES : [6]u64 = [0, 1799999, 1800000, 3600000, 21599999, 21600000];
pub fn sweep(rounds: u32{params}) -> u64 {{
var total : u64 = 0;
var r : u32 = 0;
while (r < rounds) {{
var s : u32 = 0;
while (s < {states}) {{
var e : u32 = 0;
while (e < {events}) {{
total += dispatch::next_state(s, e);
e += 1;
}}
s += 1;
}}
var f : u32 = 0;
while (f < {flags}) {{
var v : u32 = 0;
while (v < {verdicts}) {{
var i : u32 = 0;
while (i < {idles}) {{
var sb : u32 = 0;
while (sb < {sends}) {{
var rel : u32 = 0;
while (rel < {releases}) {{
total += dispatch::claim_of(f == 1, v, IDLES[i], sb, rel);
rel += 1;
}}
sb += 1;
}}
i += 1;
}}
v += 1;
}}
f += 1;
}}
r += 1;
}}
return total;
}}
test the_sweep_adds_up {{
assert sweep({rounds}{args}) == {expected};
}}
"#,
        states = bound("states", 12),
        events = bound("events", 16),
        flags = bound("flags", 2),
        verdicts = bound("verdicts", 11),
        idles = bound("idles", 6),
        sends = bound("sends", 3),
        releases = bound("releases", 2),
    )
}

/// A replay spec in the shape of the owner's: calls with constant arguments compared to
/// constants, `asserts` of them in blocks of 1,000.
fn replay_spec(asserts: usize) -> String {
    let mut s = String::from(
        "module ReplayBench;\nuse queen::dispatch::next_state;\nuse queen::dispatch::claim_of;\n",
    );
    let mut n = 0;
    let mut block = 0;
    while n < asserts {
        s.push_str(&format!("test replay_{block} {{\n"));
        for _ in 0..1000.min(asserts - n) {
            let k = n as u64;
            if k.is_multiple_of(2) {
                let (st, ev) = ((k / 2 % 12) as u32, (k / 24 % 16) as u32);
                s.push_str(&format!(
                    "assert next_state({st}, {ev}) == {};\n",
                    next_state(st, ev)
                ));
            } else {
                let (f, v, idle, sb, rel) = (
                    !k.is_multiple_of(3),
                    (k % 11) as u32,
                    IDLES[(k % 6) as usize],
                    (k % 3) as u32,
                    (k % 2) as u32,
                );
                s.push_str(&format!(
                    "assert claim_of({f}, {v}, {idle}, {sb}, {rel}) == {};\n",
                    claim_of(f, v, idle, sb, rel)
                ));
            }
            n += 1;
        }
        s.push_str("}\n");
        block += 1;
    }
    s
}

/// Writes spec trees to disk for timing whole `t27` processes (`T27_BENCH_WRITE=DIR`):
/// `DIR/owner-shaped/specs` (the seeds and the generated owner-shaped modules),
/// `DIR/compute/specs` (the full compute sweep), `DIR/compute-eval/specs` (the sweep at a
/// hundredth of its rounds, for the evaluator, as in the benchmark's own evaluator row) and
/// `DIR/replay/specs` (1,000,000 asserts). `T27_BENCH_TREES=owner-shaped,compute` writes only
/// the trees named (the CI guard needs no 39 MB replay spec); by default, all of them.
fn write_trees(dir: &Path, dispatch: &str) {
    let only = std::env::var("T27_BENCH_TREES").ok();
    let wanted = |name: &str| {
        only.as_deref()
            .is_none_or(|list| list.split(',').any(|n| n.trim() == name))
    };
    if wanted("owner-shaped") {
        let shaped = dir.join("owner-shaped");
        for (path, text) in owner_shaped_tree() {
            let path = shaped.join(path);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("create the folder");
            std::fs::write(&path, text).expect("write the spec");
        }
        println!("{}", shaped.join("specs").display());
    }
    // Each spec is generated only when asked for: the compute sweep's expected sum is the
    // Rust sweep's, 100 million calls, and the replay spec is 39 MB.
    let rounds = 102_000;
    let eval_rounds = rounds / 100;
    let trees: [(&str, &str, &dyn Fn() -> String); 3] = [
        ("compute", "compute.t27", &|| {
            compute_spec(rounds, sweep_rust(rounds), false)
        }),
        ("compute-eval", "compute.t27", &|| {
            compute_spec(eval_rounds, sweep_rust(eval_rounds), false)
        }),
        ("replay", "replay.t27", &|| replay_spec(1_000_000)),
    ];
    for (name, file, text) in trees {
        if !wanted(name) {
            continue;
        }
        let specs = dir.join(name).join("specs");
        for (path, text) in [
            (specs.join("queen/dispatch.t27"), dispatch.to_string()),
            (specs.join("bench").join(file), text()),
        ] {
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("create the folder");
            std::fs::write(&path, text).expect("write the spec");
        }
        println!("{}", specs.join("bench").join(file).display());
    }
}

fn main() {
    // The allocator of the `t27` binary, so the figures are those of `t27 test`.
    t27_alloc::setup();
    let smoke = !std::env::args().any(|a| a == "--bench");
    let dispatch = owner_spec();
    if let Some(dir) = std::env::var_os("T27_BENCH_WRITE") {
        write_trees(Path::new(&dir), &dispatch);
        return;
    }
    let owner = vec![("specs/queen/dispatch.t27", dispatch.clone())];

    println!("t27 test specs/queen/dispatch.t27, end to end (check, compile, run):");
    for engine in [Engine::DEFAULT, Engine::Jit, Engine::Eval] {
        let best = (0..if smoke { 1 } else { 5 })
            .map(|_| check_and_run(&owner, engine))
            .min_by_key(|r| r.0)
            .expect("a run");
        println!(
            "  {}: {:.2} ms ({} passed, {} failed)",
            engine.name(),
            best.0.as_secs_f64() * 1e3,
            best.1,
            best.2
        );
    }

    println!("owner-shaped tree: byte loops over strings, table lookups, loops of hundreds");
    let shaped = owner_shaped_tree();
    let shaped: Vec<(&str, String)> = shaped
        .iter()
        .map(|(p, t)| (p.as_str(), t.clone()))
        .collect();
    let blocks = shaped
        .iter()
        .map(|(_, t)| t.matches("\ntest ").count() + t.matches("\ninvariant ").count())
        .sum::<usize>();
    for engine in [Engine::DEFAULT, Engine::Eval, Engine::Jit] {
        let best = (0..if smoke { 1 } else { 5 })
            .map(|_| check_and_run(&shaped, engine))
            .min_by_key(|r| r.0)
            .expect("a run");
        assert_eq!(
            (best.1, best.2),
            (blocks, 0),
            "every owner-shaped block passes on {engine:?}"
        );
        println!(
            "  {}: {:.2} ms ({} passed)",
            engine.name(),
            best.0.as_secs_f64() * 1e3,
            best.1
        );
    }

    println!("compute: next_state and claim_of over their whole input domain");
    let rounds: u32 = if smoke { 20 } else { 102_000 };
    let calls = CALLS_PER_ROUND * rounds as u64;
    // Every row is the best of three runs: the machine's noise only ever adds time.
    let best_of_3 = |run: &dyn Fn() -> Duration| (0..3).map(|_| run()).min().expect("a run");
    let expected = sweep_rust(std::hint::black_box(rounds));
    let timed = |sweep: fn(u32) -> u64| {
        let started = Instant::now();
        assert_eq!(sweep(std::hint::black_box(rounds)), expected);
        started.elapsed()
    };
    let rust = best_of_3(&|| timed(sweep_rust));
    let rust_opaque = best_of_3(&|| timed(sweep_rust_opaque));
    let rust_calls = best_of_3(&|| timed(sweep_rust_calls));
    let sweep_on = |engine: Engine, opaque: bool| {
        let files = vec![
            ("specs/queen/dispatch.t27", dispatch.clone()),
            (
                "specs/bench/compute.t27",
                compute_spec(rounds, expected, opaque),
            ),
        ];
        best_of_3(&|| {
            let (t, passed, _) = check_and_run(&files, engine);
            assert_eq!(passed, 1, "the JIT sweep must match the Rust sweep");
            t
        })
    };
    let jit = sweep_on(Engine::Jit, false);
    let jit_opaque = sweep_on(Engine::Jit, true);
    let tiered = sweep_on(Engine::DEFAULT, false);
    let per_call = |d: Duration, n: u64| d.as_secs_f64() * 1e9 / n as f64;
    let line = |label: &str, d: Duration, n: u64| {
        println!(
            "  {label:<28}{n} calls in {:.3} s = {:.2} ns/call",
            d.as_secs_f64(),
            per_call(d, n)
        )
    };
    line("Rust (-O, all visible):", rust, calls);
    line("Rust (-O, domain opaque):", rust_opaque, calls);
    line("Rust (-O, calls kept):", rust_calls, calls);
    line("JIT (end to end):", jit, calls);
    line("JIT, domain as parameters:", jit_opaque, calls);
    line("tiered (the default engine):", tiered, calls);
    println!(
        "  the default engine takes {:.2}x the time of the JIT",
        tiered.as_secs_f64() / jit.as_secs_f64()
    );
    // The evaluator takes minutes for the full sweep: it runs a hundredth of it.
    let eval_rounds = (rounds / 100).max(1);
    let eval_calls = CALLS_PER_ROUND * eval_rounds as u64;
    let eval_spec = compute_spec(eval_rounds, sweep_rust(eval_rounds), false);
    let files = vec![
        ("specs/queen/dispatch.t27", dispatch.clone()),
        ("specs/bench/compute.t27", eval_spec),
    ];
    let (eval, passed, _) = check_and_run(&files, Engine::Eval);
    assert_eq!(passed, 1, "the evaluator sweep must match the Rust sweep");
    line("evaluator:", eval, eval_calls);
    println!(
        "  JIT is {:.0}x the evaluator per call; {:.2}x the time of Rust with everything visible, {:.2}x with calls kept",
        per_call(eval, eval_calls) / per_call(jit, calls),
        jit.as_secs_f64() / rust.as_secs_f64(),
        jit.as_secs_f64() / rust_calls.as_secs_f64()
    );
    println!(
        "  with the domain known only at run time on both sides: JIT {:.2}x the time of Rust",
        jit_opaque.as_secs_f64() / rust_opaque.as_secs_f64()
    );

    println!("replay: runtime asserts of calls with constant arguments, end to end on the JIT");
    for asserts in if smoke {
        vec![2_000, 20_000]
    } else {
        vec![100_000, 1_000_000]
    } {
        let files = vec![
            ("specs/queen/dispatch.t27", dispatch.clone()),
            ("specs/bench/replay.t27", replay_spec(asserts)),
        ];
        let bytes: usize = files.iter().map(|f| f.1.len()).sum();
        // The best of three: a run's first touch of fresh memory costs what the machine
        // makes it cost, and that varies several-fold from run to run on a shared host.
        let (t, passed, failed) = (0..3)
            .map(|_| check_and_run(&files, Engine::Jit))
            .min_by_key(|r| r.0)
            .expect("a run");
        assert_eq!(failed, 0);
        println!(
            "  {asserts} asserts ({:.1} MB, {passed} blocks): {:.3} s",
            bytes as f64 / 1e6,
            t.as_secs_f64()
        );
    }
}
