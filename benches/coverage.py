#!/usr/bin/env python3
"""What counting costs (issue #14): `t27 test --coverage` against `t27 test` on the compute sweep
(100 million calls of dispatch.t27's `next_state` and `claim_of` from a counted-loop nest), with
dispatch.t27 requested too so that its functions carry the probes, on native code and on the
evaluator-first default engine. Paired runs, alternating, medians (whole processes).

    cargo build --release -p t27-cli
    cargo bench -p t27-run --bench engines     # writes the trees, with T27_BENCH_WRITE=/tmp/t27-trees
    python3 benches/coverage.py /tmp/t27-trees target/release/t27
"""

import os
import statistics
import subprocess
import sys
import time


def run(cmd):
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(cmd)}")
    return time.perf_counter() - start


def paired(a, b, runs):
    run(a)
    run(b)
    ta, tb = [], []
    for _ in range(runs):
        ta.append(run(a))
        tb.append(run(b))
    ratio = statistics.median(y / x for x, y in zip(ta, tb))
    return statistics.median(ta) * 1e3, statistics.median(tb) * 1e3, ratio


def main():
    trees, t27 = sys.argv[1], os.path.abspath(sys.argv[2])
    specs = [f"{trees}/compute/specs/bench/compute.t27", f"{trees}/compute/specs/queen/dispatch.t27"]
    for engine in ["jit", "tiered"]:
        plain = [t27, "test", "--engine", engine, *specs]
        covered = plain + ["--coverage"]
        a, b, r = paired(plain, covered, 15)
        print(f"compute sweep, --engine {engine}: {a:.1f} ms, with --coverage {b:.1f} ms: {r:.2f}x")


if __name__ == "__main__":
    main()
