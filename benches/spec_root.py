#!/usr/bin/env python3
"""What finding each file's spec root from its real place costs (issue #26): `t27 check` of a
generated 200-module tree whose modules `use` each other, from the tree's top and from one
module folder, for two binaries side by side (A B A B ..., as `whole_process.py` does).

    python3 benches/spec_root.py /tmp/spec-root-tree OLD/t27 NEW/t27
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from whole_process import paired  # noqa: E402


def write_tree(top):
    """200 modules in 10 folders under `top/specs`; each uses a constant and a function of up
    to three earlier modules, and has 20 constants and a test."""
    for i in range(200):
        folder = os.path.join(top, "specs", f"g{i % 10}")
        os.makedirs(folder, exist_ok=True)
        deps = [j for j in (i - 1, i - 7, i - 31) if j >= 0]
        lines = [f"module M{i};"]
        for j in deps:
            lines.append(f"use g{j % 10}::m{j};")
            lines.append(f"use g{j % 10}::m{j}::K{j};")
        lines.append(f"pub const K{i} : u32 = {i};")
        body = " + ".join([f"m{j}::f{j}(x)" for j in deps] or ["x"])
        lines.append(f"pub fn f{i}(x: u32) -> u32 {{ return ({body}) % 1000 + K{i}; }}")
        lines += [f"pub const C{i}_{k} : u32 = K{i} + {k};" for k in range(20)]
        lines.append(f"test t{i} {{ assert f{i}(1) >= K{i}; }}")
        with open(os.path.join(folder, f"m{i}.t27"), "w") as f:
            f.write("\n".join(lines) + "\n")


def main():
    top, old, new = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    write_tree(top)
    print("| command | old (ms) | new (ms) | old/new |")
    print("|---|---|---|---|")
    for where, args in [("", ["check", "specs"]), ("specs/g3", ["check", "."])]:
        os.chdir(os.path.join(top, where))
        a, b, ratio = paired([old] + args, [new] + args, runs=15)
        shown = f"`t27 {' '.join(args)}`" + (f" in `{where}`" if where else "")
        print(f"| {shown} | {a:.1f} | {b:.1f} | {ratio:.3f} |")
        os.chdir(top)


if __name__ == "__main__":
    main()
