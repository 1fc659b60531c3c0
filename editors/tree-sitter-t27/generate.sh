#!/usr/bin/env bash
# Regenerates src/parser.c (and grammar.json, node-types.json) from grammar.js, and records
# grammar.js's SHA-256 in src/grammar.js.sha256, which the tests compare (tests/parse.rs).
# Needs the tree-sitter CLI on PATH (or TREE_SITTER=/path/to/tree-sitter): `npm install
# tree-sitter-cli`, or `cargo install tree-sitter-cli --locked` where npm cannot download
# its binary (see README.md here).
set -euo pipefail
cd "$(dirname "$0")"
# ABI 14: read by every tree-sitter runtime from 0.20 on (Neovim 0.7 and later, Helix), and by
# the `tree-sitter` crate the tests use.
"${TREE_SITTER:-tree-sitter}" generate --abi 14
sha256sum grammar.js > src/grammar.js.sha256
