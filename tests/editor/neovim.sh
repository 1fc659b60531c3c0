#!/usr/bin/env bash
# End-to-end editor test: headless Neovim's built-in LSP client drives `t27 lsp` (see
# neovim.lua). Usage: tests/editor/neovim.sh [T27_BINARY]; needs `nvim` (.ci/run installs
# Debian's). The fixture workspace is copied, so the edits the test makes touch no file here.
set -euo pipefail
cd "$(dirname "$0")/../.."
t27="$(realpath "${1:-target/debug/t27}")"
command -v nvim > /dev/null || { echo "neovim.sh: nvim is not installed" >&2; exit 2; }
workspace="$(mktemp -d)"
trap 'rm -rf "$workspace"' EXIT
cp -r tests/fixtures/lsp/. "$workspace"
# The tree-sitter grammar as an editor loads it: a shared library.
cc -shared -fPIC -O1 -I editors/tree-sitter-t27/src -o "$workspace/t27.so" \
    editors/tree-sitter-t27/src/parser.c editors/tree-sitter-t27/src/scanner.c
T27="$t27" WORKSPACE="$workspace" T27_PARSER="$workspace/t27.so" \
    T27_QUERIES="$(pwd)/editors/tree-sitter-t27/queries" timeout 120 \
    nvim --headless -u NONE -i NONE -n -c "luafile tests/editor/neovim.lua"
