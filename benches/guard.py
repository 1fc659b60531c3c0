#!/usr/bin/env python3
"""The CI guard (issue #26): every benchmark that carries a goal, re-measured in a short mode.

Goals met once were later lost without anyone noticing (a JavaScript mirror 25x slower than
hand-written code, the tiered engine slower than the evaluator on the owner's shapes). This
measures each goal's ratio again, side by side in one run (both sides alternate, so the
machine's load cancels), and fails on an order-of-magnitude regression: a ratio past
`--fail-at` (3) times its goal, or, for the JIT's speedup, below a third of it. The margins are
wide on purpose: a shared, noisy machine must never fail it; only a real regression does.

    python3 benches/guard.py                  # builds what it times (cargo profile `guard`)
    python3 benches/guard.py --t27 target/release/t27 --only js,whole
    python3 benches/guard.py --fail-at 1      # the goals themselves, for a report

It builds the `t27` binary with the `guard` profile (release optimisation without LTO:
BENCHMARKS.md "The CI guard" says why), writes the benchmark trees with the engines bench in
its write-only mode, and then runs, in short mode, the ratios listed in `CHECKS`. One line per
ratio: what, tree, value, goal, fail threshold, verdict. Exit status 1 if any fails.
"""

import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import whole_process  # noqa: E402  (its paired runs)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Rounds of the host sweeps: long enough (tens of ms a run) that a run is optimized code, not
# start-up (at Node's own `--short`, 2,000 rounds, the JS ratio read 4.4x where longer runs
# read 2.2-3.0x); BENCHMARKS.md's figures use longer ones for the last per cent.
JS_ROUNDS = 20_000
RUST_ROUNDS = 20_000


def sh(cmd, env=None, capture=True):
    """Runs `cmd` from the repository's root; its stdout, or the guard stops with its output."""
    full = dict(os.environ, **(env or {}))
    out = subprocess.run(cmd, cwd=ROOT, env=full, text=True,
                         stdout=subprocess.PIPE if capture else None,
                         stderr=subprocess.PIPE if capture else None)
    if out.returncode != 0:
        if capture:
            sys.stderr.write(out.stdout + out.stderr)
        sys.exit(f"guard: `{' '.join(cmd)}` failed (exit {out.returncode})")
    return out.stdout if capture else ""


def ratio_line(stdout, name):
    """The value of a bench's machine-readable `ratio NAME VALUE` line."""
    found = re.findall(rf"^ratio {re.escape(name)} ([0-9.]+)$", stdout, re.M)
    if not found:
        sys.exit(f"guard: no `ratio {name}` line in:\n{stdout}")
    return float(found[-1])


class Guard:
    def __init__(self, t27, work, fail_at):
        self.t27, self.work, self.fail_at = t27, work, fail_at
        self.trees = os.path.join(work, "trees")
        self.failed = []

    def verdict(self, what, tree, value, goal, detail, higher_is_better=False):
        """Prints one ratio's line and records whether it is within its threshold."""
        if higher_is_better:
            threshold = goal / self.fail_at
            ok = value >= threshold
            bounds = f"goal >= {goal:g}x  fails below {threshold:.3g}x"
        else:
            threshold = goal * self.fail_at
            ok = value <= threshold
            bounds = f"goal <= {goal:g}x  fails past {threshold:.3g}x"
        word = "ok" if ok else "FAIL"
        print(f"guard {what:<18} {tree:<14} {value:8.2f}x  {bounds:<34} {word:<4}  # {detail}",
              flush=True)
        if not ok:
            self.failed.append(f"{what} {tree}")

    def write_trees(self):
        # The engines bench's write-only mode, on the debug build CI has just tested: it writes
        # and returns before any benchmark runs. The three trees the ratios below read.
        sh(["cargo", "test", "--quiet", "--locked", "-p", "t27-run", "--bench", "engines"],
           env={"T27_BENCH_WRITE": self.trees,
                "T27_BENCH_TREES": "owner-shaped,compute,compute-eval"})
        # The owner-like tree of BENCHMARKS.md's test/check row: the two seeds copied into
        # folders up to 0.48 MB, as the frontend bench's `owner_tree(0.48)` writes it (done
        # here: that bench's write mode also generates a 5 MB tree the guard does not read).
        seeds = [(n, open(os.path.join(ROOT, "specs/queen", n)).read())
                 for n in ("review_first.t27", "dispatch.t27")]
        copy, size = 0, 0
        while size < 0.48e6:
            folder = os.path.join(self.trees, "owner", "specs", f"copy{copy}")
            os.makedirs(folder, exist_ok=True)
            for name, text in seeds:
                with open(os.path.join(folder, name), "w") as f:
                    f.write(text)
                size += len(text.encode())
            copy += 1

    def js(self):
        """The JavaScript mirror against the same rules written by hand, on Node."""
        out_dir = os.path.join(self.work, "js")
        sh([self.t27, "gen", "js", "specs/queen", "--out", out_dir])
        out = sh(["node", "benches/host/sweep.mjs", out_dir, str(JS_ROUNDS)])
        per_call = re.findall(r"^\s+(mirror|hand-written)\s+([0-9.]+) ms\s+\(([0-9.]+) ns/call",
                              out, re.M)
        detail = ", ".join(f"{w} {ns} ns/call" for w, _, ns in per_call)
        self.verdict("js mirror/hand", "seeds", ratio_line(out, "mirror/hand"), 1.5, detail)

    def rust(self):
        """The Rust mirror (t27-build, examples/rust-host) against two hand-written versions."""
        out = sh(["cargo", "bench", "--quiet", "--locked", "--profile", "guard",
                  "-p", "t27-example-rust-host"], env={"T27_SWEEP_ROUNDS": str(RUST_ROUNDS)})
        detail = f"{RUST_ROUNDS} rounds, median of 5 alternating runs"
        self.verdict("rust mirror/match", "seeds", ratio_line(out, "mirror/hand"), 1.2, detail)
        self.verdict("rust mirror/ifs", "seeds", ratio_line(out, "mirror/ifs"), 1.2, detail)

    def whole(self):
        """`t27 test` against `t27 check` (the seeds, the owner-like and owner-shaped trees), against
        `--engine eval` (the owner-shaped tree) and the default engine against `--engine jit`
        (the compute sweep): whole processes, paired (whole_process.py's runs)."""
        t27, paired = self.t27, whole_process.paired
        owner = f"{self.trees}/owner/specs"
        shaped = f"{self.trees}/owner-shaped/specs"
        compute = f"{self.trees}/compute/specs/bench/compute.t27"
        # The owner-shaped tree's test/check goal is not met yet (1.9x; BENCHMARKS.md "The
        # evaluator's byte loops"): guarded at the same threshold, it keeps what was won (11.7x
        # before the tiered engine's new policy) from coming back.
        for tree, specs, runs in [("seeds", "specs/queen", 30), ("owner-like", owner, 20),
                                  ("owner-shaped", shaped, 10)]:
            t, c, r = paired([t27, "test", specs], [t27, "check", specs], runs)
            self.verdict("test/check", tree, r, 1.5, f"test {t:.2f} ms, check {c:.2f} ms")
        t, e, r = paired([t27, "test", shaped], [t27, "test", "--engine", "eval", shaped], 10)
        self.verdict("test/eval", "owner-shaped", r, 1.15,
                     f"test {t:.1f} ms, test --engine eval {e:.1f} ms")
        d, j, r = paired([t27, "test", compute], [t27, "test", "--engine", "jit", compute], 10)
        self.verdict("test/jit", "compute-sweep", r, 1.1,
                     f"test {d:.1f} ms, test --engine jit {j:.1f} ms")

    def jit(self):
        """The JIT against the evaluator per call, on the compute sweep's loops (the evaluator
        runs a hundredth of the rounds, as in the engines bench; both end to end)."""
        jit_spec = os.path.join(self.trees, "compute/specs/bench/compute.t27")
        eval_spec = os.path.join(self.trees, "compute-eval/specs/bench/compute.t27")
        rounds = [int(re.search(r"assert sweep\((\d+)\)", open(p).read()).group(1))
                  for p in (jit_spec, eval_spec)]
        jit_cmd = [self.t27, "test", "--engine", "jit", jit_spec]
        eval_cmd = [self.t27, "test", "--engine", "eval", eval_spec]
        e, j, r = whole_process.paired(eval_cmd, jit_cmd, 3, warmup=1)
        speedup = r * rounds[0] / rounds[1]
        self.verdict("jit/eval per call", "compute-sweep", speedup, 50,
                     f"jit {j:.1f} ms for {rounds[0]} rounds, eval {e:.1f} ms for {rounds[1]}",
                     higher_is_better=True)

    def passes(self):
        """Each timed command once, checked: a ratio of runs that fail would mean nothing
        (the compute sweep's assert holds each engine's sum to Rust's)."""
        shaped = f"{self.trees}/owner-shaped/specs"
        compute = f"{self.trees}/compute/specs/bench/compute.t27"
        for cmd in [["specs/queen"], [f"{self.trees}/owner/specs"], [shaped], ["--engine", "eval", shaped], [compute],
                    ["--engine", "jit", compute],
                    ["--engine", "eval", f"{self.trees}/compute-eval/specs/bench/compute.t27"]]:
            sh([self.t27, "test"] + cmd)


TREES = ["owner", "owner-shaped", "compute", "compute-eval"]
CHECKS = {"js": Guard.js, "rust": Guard.rust, "whole": Guard.whole, "jit": Guard.jit}


def main():
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--t27", help="a built binary to time (default: build the guard profile)")
    args.add_argument("--only", default=",".join(CHECKS),
                      help=f"comma-separated subset of {','.join(CHECKS)}")
    args.add_argument("--fail-at", type=float, default=3.0,
                      help="fail past this many times a goal (below goal / this for a speedup)")
    args.add_argument("--work", default=os.path.join(ROOT, "target", "guard-work"))
    args.add_argument("--reuse-trees", action="store_true",
                      help="keep the trees a run before wrote in --work (no cargo to write them)")
    a = args.parse_args()
    os.chdir(ROOT)  # the ratios name `specs/queen` from the root
    only = a.only.split(",")
    unknown = [c for c in only if c not in CHECKS]
    if unknown:
        sys.exit(f"guard: no check {unknown}; the checks are {', '.join(CHECKS)}")
    started = time.perf_counter()
    t27 = a.t27
    if t27 is None:
        sh(["cargo", "build", "--locked", "--profile", "guard", "-p", "t27-cli"], capture=False)
        if "rust" in only:
            sh(["cargo", "bench", "--locked", "--profile", "guard", "-p",
                "t27-example-rust-host", "--no-run"], capture=False)
        t27 = os.path.join(ROOT, "target", "guard", "t27")
    t27 = os.path.abspath(t27)
    built = time.perf_counter()
    guard = Guard(t27, a.work, a.fail_at)
    if not (a.reuse_trees and all(os.path.isdir(os.path.join(guard.trees, t)) for t in TREES)):
        guard.write_trees()
    guard.passes()
    print(f"guard: {t27}, trees in {guard.trees} (build {built - started:.0f} s, "
          f"trees and checked runs {time.perf_counter() - built:.0f} s)", flush=True)
    timing = time.perf_counter()
    for name in only:
        CHECKS[name](guard)
    print(f"guard: measured in {time.perf_counter() - timing:.0f} s", flush=True)
    if guard.failed:
        print(f"guard: FAILED, an order of magnitude past the goal: {'; '.join(guard.failed)}")
        sys.exit(1)
    print("guard: every ratio within its threshold")


if __name__ == "__main__":
    main()
