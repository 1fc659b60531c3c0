#!/usr/bin/env python3
"""What `t27 mutate` costs (issue #14): every mutant of both seeds, end to end, against the way a
generic mutation tool would do it, one `t27 test` process per mutant on a copy of the spec with the
mutant's edit written in. The baseline also checks the in-process verdicts: a mutant `t27 mutate`
calls killed or timed out must fail `t27 test`, and a survivor must pass it.

    cargo build --release -p t27-cli
    python3 benches/mutate.py target/release/t27 specs/queen
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 11


def timed(cmd, cwd=None):
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return time.perf_counter() - start, done


def in_process(t27, tree, engine):
    cmd = [t27, "mutate", tree, "--engine", engine, "--format", "json"]
    timed(cmd)
    times = [timed(cmd)[0] for _ in range(RUNS)]
    return statistics.median(times) * 1e3


def mutants(t27, tree):
    _, done = timed([t27, "mutate", tree, "--format", "json"])
    if done.returncode not in (0, 1):
        sys.exit(f"t27 mutate {tree} exited {done.returncode}")
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return [m for m in lines if m["type"] == "mutant"]


def applied(text, m):
    """The text with the mutant's edit written in (its columns count characters)."""
    lines = text.split("\n")
    def offset(line, column):
        return sum(len(l) + 1 for l in lines[: line - 1]) + column - 1
    start, end = offset(m["line"], m["column"]), offset(m["end_line"], m["end_column"])
    return text[:start] + m["replacement"] + text[end:]


def one_process_each(t27, tree, found):
    """Every mutant as its own `t27 test` on a copy of the tree; the seconds it took and the
    mutants whose verdict differs from the in-process one."""
    work = tempfile.mkdtemp()
    copy = os.path.join(work, "tree")
    shutil.copytree(tree, copy)
    differ = []
    start = time.perf_counter()
    for m in found:
        path = os.path.join(copy, os.path.relpath(m["file"], tree))
        with open(path, encoding="utf-8") as f:
            original = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(applied(original, m))
        _, done = timed([t27, "test", copy, "--timeout", "1"])
        failed = done.returncode == 1
        if done.returncode not in (0, 1) or failed != (m["outcome"] != "survived"):
            differ.append((m, done.returncode))
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)
    took = time.perf_counter() - start
    shutil.rmtree(work)
    return took * 1e3, differ


def main():
    t27, tree = os.path.abspath(sys.argv[1]), sys.argv[2]
    found = mutants(t27, tree)
    survived = sum(1 for m in found if m["outcome"] == "survived")
    print(f"{tree}: {len(found)} mutants, {survived} survived")
    plain = [t27, "test", tree]
    timed(plain)
    ms = statistics.median(timed(plain)[0] for _ in range(RUNS)) * 1e3
    print(f"t27 test (the program unchanged, once): {ms:.1f} ms (median of {RUNS})")
    for engine in ["tiered", "jit", "eval"]:
        ms = in_process(t27, tree, engine)
        print(f"t27 mutate --engine {engine}: {ms:.1f} ms (median of {RUNS})")
    ms, differ = one_process_each(t27, tree, found)
    print(f"one `t27 test` process per mutant: {ms:.0f} ms ({ms / len(found):.1f} ms a mutant)")
    for m, code in differ:
        print(f"  differs: {m['file']}:{m['line']}:{m['column']} {m['mutated']!r}: "
              f"in process {m['outcome']}, t27 test exited {code}")
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
