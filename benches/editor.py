#!/usr/bin/env python3
"""Editor-facing speed of the `t27` binary (issue #13): `t27 fmt` over the seeds,
`t27 test --watch` from a save to its result, and `t27 lsp` from a change to its diagnostics.

    cargo build --release -p t27-cli
    python3 benches/editor.py target/release/t27

fmt: whole processes of `t27 fmt --check specs` (every file read, formatted and compared; none
written), the median of 30 runs. watch: `t27 test --watch` on a copy of `specs/`; 20 times, a
change to dispatch.t27 is written and the time until the watcher's `[watch] ...` result line
arrives on stderr is taken (polling, settling, checking and running included); the median.
lsp: `t27 lsp` over its stdio with the repository as the workspace (both seeds and the 124
fixtures) and dispatch.t27 open; 50 times a `didChange` of the whole text is sent, with a typo
in one function and then without, and the time until `publishDiagnostics` for dispatch.t27
arrives is taken (reading the message, checking dispatch.t27 with the editor's text, which no
module imports, converting and writing the diagnostics); the median and the worst.
"""

import json

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


class Lsp:
    """A minimal LSP client over a child's stdio."""

    def __init__(self, t27, root):
        self.child = subprocess.Popen([t27, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0
        self.request("initialize", {"processId": None, "rootUri": "file://" + root,
                                    "capabilities": {}})
        self.notify("initialized", {})

    def send(self, message):
        body = json.dumps(dict(message, jsonrpc="2.0")).encode()
        self.child.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.child.stdin.flush()

    def read(self):
        length = 0
        while True:
            line = self.child.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.child.stdout.read(length))

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next_id and "method" not in message:
                return message

    def wait_for_diagnostics(self, uri):
        while True:
            message = self.read()
            if message.get("method") == "textDocument/publishDiagnostics" \
                    and message["params"]["uri"] == uri:
                return message["params"]["diagnostics"]

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.child.wait(timeout=10)


def lsp_ms(t27):
    root = os.path.abspath(".")
    path = os.path.join(root, "specs", "queen", "dispatch.t27")
    uri = "file://" + path
    original = open(path).read()
    typo = original.replace("return S_RUNNING;", "return S_RUNING;", 1)
    assert typo != original
    lsp = Lsp(t27, root)
    lsp.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "t27", "version": 1, "text": original}})
    # Answered after the start's check of the whole workspace.
    lsp.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    times = []
    for i in range(50):
        text = typo if i % 2 == 0 else original
        start = time.perf_counter()
        lsp.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [{"text": text}]})
        diagnostics = lsp.wait_for_diagnostics(uri)
        times.append(time.perf_counter() - start)
        assert (len(diagnostics) > 0) == (text is typo), diagnostics
    lsp.close()
    return statistics.median(times) * 1e3, max(times) * 1e3


def main():
    t27 = os.path.abspath(sys.argv[1])
    print(f"t27 fmt --check specs: {fmt_ms(t27):.1f} ms (median of 30)")
    median, worst = watch_ms(t27)
    print(f"t27 test --watch, save to result: {median:.1f} ms median, {worst:.1f} ms worst of 20")
    median, worst = lsp_ms(t27)
    print(f"t27 lsp, change to diagnostics: {median:.1f} ms median, {worst:.1f} ms worst of 50")


if __name__ == "__main__":
    main()
