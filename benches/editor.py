#!/usr/bin/env python3
"""Editor-facing speed of the `t27` binary (issue #13): `t27 fmt` over the seeds, and
`t27 test --watch` from a save to its result.

    cargo build --release -p t27-cli
    python3 benches/editor.py target/release/t27

fmt: whole processes of `t27 fmt --check specs` (every file read, formatted and compared; none
written), the median of 30 runs. watch: `t27 test --watch` on a copy of `specs/`; 20 times, a
change to dispatch.t27 is written and the time until the watcher's `[watch] ...` result line
arrives on stderr is taken (polling, settling, checking and running included); the median.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import queue


def fmt_ms(t27):
    times = []
    for _ in range(30):
        start = time.perf_counter()
        subprocess.run([t27, "fmt", "--check", "specs"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def watch_ms(t27):
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree("specs", os.path.join(tmp, "specs"))
        spec = os.path.join(tmp, "specs", "queen", "dispatch.t27")
        original = open(spec).read()
        child = subprocess.Popen([t27, "test", "--watch", "--color", "never"], cwd=tmp,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(l) for l in child.stderr], daemon=True).start()

        def wait_for(text):
            while True:
                line = lines.get(timeout=30)
                if text in line:
                    return

        try:
            wait_for("waiting for changes to")
            times = []
            for i in range(20):
                time.sleep(0.2)
                start = time.perf_counter()
                with open(spec, "w") as f:
                    f.write(original + f"// save {i}\n")
                wait_for("; waiting for changes")
                times.append(time.perf_counter() - start)
        finally:
            child.kill()
            child.wait()
        return statistics.median(times) * 1e3, max(times) * 1e3


def main():
    t27 = os.path.abspath(sys.argv[1])
    print(f"t27 fmt --check specs: {fmt_ms(t27):.1f} ms (median of 30)")
    median, worst = watch_ms(t27)
    print(f"t27 test --watch, save to result: {median:.1f} ms median, {worst:.1f} ms worst of 20")


if __name__ == "__main__":
    main()
