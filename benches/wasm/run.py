#!/usr/bin/env python3
"""Wasm cards (issue #28): our card of specs/queen/dispatch.t27 beside the owner's route,
the same rules in C (benches/wasm/dispatch.c) built with `zig cc --target=wasm32-wasi -Oz
-mexec-model=reactor` (Zig from PyPI: `pip install ziglang`), both run in one Node process.

    cargo build --release -p t27-cli
    python3 -m venv /tmp/zig && /tmp/zig/bin/pip install ziglang
    python3 benches/wasm/run.py target/release/t27 /tmp/zig/bin/python

Prints: each card's bytes; the dispatch sweep (`next_state` and `claim_of`, N calls each, the
two cards alternating over 7 rounds; the median time per call) for N = 10^6 and 10^7; and the
median wall time of 30 runs of `t27 gen wasm specs/queen` beside `t27 gen js specs/queen`.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def median_ms(cmd, runs=30):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       cwd=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main():
    t27, python = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        ours = os.path.join(tmp, "ours")
        subprocess.run([t27, "gen", "wasm", "specs/queen", "--out", ours], check=True, cwd=ROOT,
                       stderr=subprocess.DEVNULL)
        theirs = os.path.join(tmp, "theirs.wasm")
        subprocess.run([python, "-m", "ziglang", "cc", "--target=wasm32-wasi", "-Oz",
                        "-mexec-model=reactor", os.path.join(HERE, "dispatch.c"), "-o", theirs],
                       check=True)
        card = os.path.join(ours, "queen", "dispatch.wasm")
        for n in ["1000000", "10000000"]:
            subprocess.run(["node", os.path.join(HERE, "sweep.mjs"), card, theirs, n, "7"],
                           check=True)
        gen_wasm = median_ms([t27, "gen", "wasm", "specs/queen", "--out", os.path.join(tmp, "w")])
        gen_js = median_ms([t27, "gen", "js", "specs/queen", "--out", os.path.join(tmp, "j")])
        print(f"t27 gen wasm specs/queen: {gen_wasm:.1f} ms (median of 30); "
              f"t27 gen js specs/queen: {gen_js:.1f} ms")


if __name__ == "__main__":
    main()
