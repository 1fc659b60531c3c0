#!/usr/bin/env python3
"""Whole-process figures of the `t27` binary (issues #11, #26), for one or more binaries in one run.

Each comparison runs its two commands in turn, A B A B ..., and reports the median of each and
the median of the ratios pair by pair, so that the machine's drift cancels. Peak memory is the
largest resident size of the child (getrusage).

    cargo build --release -p t27-cli
    T27_BENCH_WRITE=/tmp/t27-trees T27_BENCH_MB=5.4 cargo bench -p t27-check --bench frontend
    T27_BENCH_WRITE=/tmp/t27-trees cargo bench -p t27-run --bench engines
    python3 benches/whole_process.py /tmp/t27-trees OLD/t27 target/release/t27

With `--short`, only the engine ratios, quickly (about 15 s on a release binary), one
machine-readable line each, `ratio WHAT TREE VALUE goal GOAL`; it exits with 1 when a ratio is
past `--fail-at` (default 3) times its goal, as a CI guard:

    python3 benches/whole_process.py --short /tmp/t27-trees target/release/t27
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time


def run(cmd):
    """Wall seconds and peak resident MiB of one run of `cmd` (its output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(after, before) / 1024


def paired(a, b, runs, warmup=2):
    """Medians of A and B (ms) and the median of A/B pair by pair."""
    for _ in range(warmup):
        run(a)
        run(b)
    ta, tb = [], []
    for _ in range(runs):
        ta.append(run(a)[0])
        tb.append(run(b)[0])
    ratio = statistics.median(x / y for x, y in zip(ta, tb))
    return statistics.median(ta) * 1e3, statistics.median(tb) * 1e3, ratio


def peak(cmd):
    """Peak resident MiB of one run, in a fresh process of its own."""
    out = subprocess.run(
        [sys.executable, "-c",
         "import resource,subprocess,sys;"
         "subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL);"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + cmd,
        capture_output=True, text=True, check=True)
    return int(out.stdout) / 1024


def ratios(trees, t27, scale=1):
    """The engine ratios and their goals: (what, tree, value, goal, detail)."""
    shaped = f"{trees}/owner-shaped/specs"
    compute = f"{trees}/compute/specs/bench/compute.t27"
    rows = []
    t, c, r = paired([t27, "test", "specs/queen"], [t27, "check", "specs/queen"], 30 * scale)
    rows.append(("test/check", "seeds", r, 1.5, f"test {t:.2f} ms, check {c:.2f} ms"))
    t, c, r = paired([t27, "test", shaped], [t27, "check", shaped], 20 * scale)
    rows.append(("test/check", "owner-shaped", r, 1.5, f"test {t:.2f} ms, check {c:.2f} ms"))
    t, e, r = paired([t27, "test", shaped], [t27, "test", "--engine", "eval", shaped], 20 * scale)
    rows.append(("test/eval", "owner-shaped", r, 1.15,
                 f"test {t:.2f} ms, test --engine eval {e:.2f} ms"))
    d, j, r = paired([t27, "test", compute], [t27, "test", "--engine", "jit", compute],
                     10 * scale)
    rows.append(("test/jit", "compute-sweep", r, 1.1,
                 f"test {d:.1f} ms, test --engine jit {j:.1f} ms"))
    return rows


def short(trees, t27, fail_at):
    """The ratios alone, one line each; whether every one is within `fail_at` times its goal."""
    ok = True
    for what, tree, value, goal, detail in ratios(trees, t27):
        print(f"ratio {what} {tree} {value:.2f} goal {goal}  # {detail}", flush=True)
        ok = ok and value <= goal * fail_at
    return ok


def main():
    if sys.argv[1] == "--short":
        args = argparse.ArgumentParser()
        args.add_argument("--short", action="store_true")
        args.add_argument("--fail-at", type=float, default=3.0)
        args.add_argument("trees")
        args.add_argument("t27")
        a = args.parse_args()
        sys.exit(0 if short(a.trees, a.t27, a.fail_at) else 1)
    trees, binaries = sys.argv[1], sys.argv[2:]
    owner = f"{trees}/owner/specs"
    generated = f"{trees}/generated/specs"
    replay = f"{trees}/replay/specs/bench/replay.t27"
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, fs in os.walk(generated) for f in fs)
    for t27 in binaries:
        print(f"== {t27} ({os.path.getsize(t27) / 1e6:.1f} MB)")
        t, c, r = paired([t27, "test", owner], [t27, "check", owner], 20)
        print(f"owner-like tree: test {t:.2f} ms, check {c:.2f} ms, test/check {r:.2f}x")
        for what, tree, value, goal, detail in ratios(trees, t27, scale=2):
            print(f"{tree}: {detail}, {what} {value:.2f}x (goal {goal}x)")
        g, _, _ = paired([t27, "check", generated], [t27, "check", generated], 15)
        print(f"check {size / 1e6:.2f} MB generated tree: {g:.1f} ms, {size / 1e3 / g:.1f} MB/s")
        times = [run([t27, "test", replay])[0] for _ in range(5)]
        print(f"replay, 1,000,000 asserts: {statistics.median(times):.2f} s, "
              f"peak {peak([t27, 'test', replay]):.0f} MiB")
    if len(binaries) == 2:
        # The rows in absolute times, once more with the two binaries in turn, so that the
        # machine's drift between them cancels in each pair.
        old, new = binaries
        o, n, r = paired([old, "check", generated], [new, "check", generated], 15)
        print(f"paired, check generated tree: {o:.1f} ms -> {n:.1f} ms "
              f"({size / 1e3 / o:.1f} -> {size / 1e3 / n:.1f} MB/s), old/new {r:.2f}x")
        shaped = f"{trees}/owner-shaped/specs"
        o, n, r = paired([old, "test", shaped], [new, "test", shaped], 20)
        print(f"paired, test owner-shaped tree: {o:.1f} ms -> {n:.1f} ms, old/new {r:.2f}x")
        o, n, r = paired([old, "test", replay], [new, "test", replay], 5, warmup=1)
        print(f"paired, replay: {o / 1e3:.2f} s -> {n / 1e3:.2f} s, old/new {r:.2f}x")


if __name__ == "__main__":
    main()
