//! The speed of the mirrored functions against the same logic written by hand in Rust:
//! `next_state` over every (state, event) pair and `claim_of` over a grid of its inputs,
//! ROUNDS times each (default 40,000; `T27_SWEEP_ROUNDS`), mirror and hand-written code
//! alternately, five times; the median of each and their ratio. Both must give the same
//! checksum. `cargo bench -p t27-example-rust-host` (figures in BENCHMARKS.md). The last two
//! lines are machine-readable, for a regression guard: `ratio mirror/hand 1.07` (against the
//! `match`) and `ratio mirror/ifs 0.98`; a small `T27_SWEEP_ROUNDS` (2000) is a smoke run.

use std::hint::black_box;
use std::time::Instant;
use t27_example_rust_host::queen::dispatch;

const ILLEGAL: u32 = 99;

/// dispatch.t27's `next_state` as a host would write it by hand.
fn next_state(state: u32, event: u32) -> u32 {
    match (state, event) {
        (0, 0) => 1,
        (0, 1) => 2,
        (1, 2) => 3,
        (1, 4) | (1, 5) => 10,
        (3 | 4, 6) => 5,
        (3 | 4, 7) => 6,
        (3 | 4, 8) => 7,
        (3 | 4, 9) => 4,
        (3 | 4, 10) => 8,
        (3 | 4, 11) => 9,
        (3 | 4, 14) => 11,
        (5, 12) => 6,
        (5, 13) => 7,
        (6 | 8, 11) => 9,
        (6 | 8, 14) => 11,
        (7, 11) => 9,
        (9 | 10 | 2 | 11, 15) => 1,
        _ => ILLEGAL,
    }
}

/// dispatch.t27's `claim_of` as a host would write it by hand.
fn claim_of(finished: bool, verdict: u32, idle_ms: u64, send_backs: u32, releases: u32) -> u32 {
    if !finished {
        return 0;
    }
    match verdict {
        6 => 1,
        7..=9 => 4,
        3 if idle_ms >= 1_800_000 => 4,
        3 => 2,
        4 if idle_ms >= 3_600_000 && send_backs < 2 => 4,
        4 if releases >= 1 => 2,
        4 if idle_ms >= 3_600_000 => 4,
        4 => 2,
        0..=2 if idle_ms >= 21_600_000 && send_backs < 2 => 4,
        _ => 3,
    }
}

/// `next_state` by hand as the spec writes it: a chain of `if`s.
fn next_state_ifs(state: u32, event: u32) -> u32 {
    if state == 0 {
        if event == 0 {
            return 1;
        }
        if event == 1 {
            return 2;
        }
        return ILLEGAL;
    }
    if state == 1 {
        if event == 2 {
            return 3;
        }
        if event == 4 {
            return 10;
        }
        if event == 5 {
            return 10;
        }
        return ILLEGAL;
    }
    if state == 3 || state == 4 {
        if event == 6 {
            return 5;
        }
        if event == 7 {
            return 6;
        }
        if event == 8 {
            return 7;
        }
        if event == 9 {
            return 4;
        }
        if event == 10 {
            return 8;
        }
        if event == 11 {
            return 9;
        }
        if event == 14 {
            return 11;
        }
        return ILLEGAL;
    }
    if state == 5 {
        if event == 12 {
            return 6;
        }
        if event == 13 {
            return 7;
        }
        return ILLEGAL;
    }
    if state == 6 || state == 8 {
        if event == 11 {
            return 9;
        }
        if event == 14 {
            return 11;
        }
        return ILLEGAL;
    }
    if state == 7 {
        if event == 11 {
            return 9;
        }
        return ILLEGAL;
    }
    if state == 9 || state == 10 || state == 2 || state == 11 {
        if event == 15 {
            return 1;
        }
        return ILLEGAL;
    }
    ILLEGAL
}

/// `claim_of` by hand as the spec writes it.
fn claim_of_ifs(finished: bool, verdict: u32, idle_ms: u64, send_backs: u32, releases: u32) -> u32 {
    if !finished {
        return 0;
    }
    if verdict == 6 {
        return 1;
    }
    if verdict == 7 || verdict == 8 {
        return 4;
    }
    if verdict == 3 {
        if idle_ms >= 1_800_000 {
            return 4;
        }
        return 2;
    }
    if verdict == 9 {
        return 4;
    }
    if verdict == 4 {
        if idle_ms >= 3_600_000 && send_backs < 2 {
            return 4;
        }
        if releases >= 1 {
            return 2;
        }
        if idle_ms >= 3_600_000 {
            return 4;
        }
        return 2;
    }
    if (verdict == 0 || verdict == 1 || verdict == 2) && idle_ms >= 21_600_000 && send_backs < 2 {
        return 4;
    }
    3
}

const IDLE: [u64; 6] = [0, 1000, 1_800_000, 3_600_000, 21_600_000, 86_400_000];

fn sweep(
    rounds: u32,
    next: fn(u32, u32) -> u32,
    claim: fn(bool, u32, u64, u32, u32) -> u32,
) -> (u64, u64) {
    let (mut sum, mut calls) = (0u64, 0u64);
    for r in 0..rounds {
        for state in 0..13 {
            for event in 0..16 {
                sum += u64::from(next(black_box(state), black_box(event)));
            }
        }
        for verdict in 0..11 {
            for idle in IDLE {
                sum += u64::from(claim(
                    true,
                    black_box(verdict),
                    black_box(idle),
                    r & 3,
                    r & 1,
                ));
            }
        }
        calls += 13 * 16 + 11 * IDLE.len() as u64;
    }
    (sum, calls)
}

fn main() {
    let rounds: u32 = std::env::var("T27_SWEEP_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40_000);
    let (mut mirror, mut hand, mut ifs, mut sums, mut calls) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), 0);
    for _ in 0..5 {
        let t = Instant::now();
        let (s, c) = sweep(rounds, dispatch::next_state, dispatch::claim_of);
        mirror.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let (h, _) = sweep(rounds, next_state, claim_of);
        hand.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let (i, _) = sweep(rounds, next_state_ifs, claim_of_ifs);
        ifs.push(t.elapsed().as_secs_f64());
        sums.push((s, h, i));
        calls = c;
    }
    assert!(
        sums.iter().all(|(s, h, i)| s == h && h == i),
        "the mirror and the hand-written code disagree: {sums:?}"
    );
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (m, h, i) = (median(&mut mirror), median(&mut hand), median(&mut ifs));
    let per_call = |t: f64| t * 1e9 / calls as f64;
    println!("{calls} calls a run (next_state and claim_of), median of 5 alternating runs:");
    println!(
        "  mirror                    {:.1} ms ({:.2} ns/call)",
        m * 1e3,
        per_call(m)
    );
    println!(
        "  by hand, with `match`     {:.1} ms ({:.2} ns/call)",
        h * 1e3,
        per_call(h)
    );
    println!(
        "  by hand, `if`s as written {:.1} ms ({:.2} ns/call)",
        i * 1e3,
        per_call(i)
    );
    println!(
        "  mirror / match: {:.2}x; mirror / ifs: {:.2}x",
        m / h,
        m / i
    );
    println!("ratio mirror/hand {:.2}", m / h);
    println!("ratio mirror/ifs {:.2}", m / i);
}
