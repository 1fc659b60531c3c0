// The card contract of `t27 gen wasm` (README), held on the card of
// tests/fixtures/wasm/specs/card/contract.t27 through examples/wasm-host/loader.mjs.
// Usage: node tests/wasm/contract.mjs CARDS_DIR  (run by crates/t27-cli/tests/hosts.rs)
import { readFileSync } from "node:fs";
import * as path from "node:path";
import assert from "node:assert/strict";
import { loadCard, Out, u64, CardTrap } from "../../examples/wasm-host/loader.mjs";

const bytes = readFileSync(path.join(process.argv[2], "card/contract.wasm"));
let checks = 0;
const check = (what, f) => {
  f();
  checks += 1;
  console.log(`ok ${what}`);
};

check("a card is valid wasm and imports nothing", () => {
  assert.ok(WebAssembly.validate(bytes));
  assert.deepEqual(WebAssembly.Module.imports(new WebAssembly.Module(bytes)), []);
});
const exported = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
check("it exports memory and each public function that can cross, by its name", () => {
  for (const n of ["memory", "count_byte", "fill", "next_fence", "bump", "name_length", "t27_trap_kind"]) {
    assert.ok(exported.includes(n), n);
  }
  assert.ok(!exported.includes("name_of"), "a str result does not cross");
  assert.ok(!exported.includes("pair_of"), "a struct result does not cross");
});

const card = await loadCard(bytes);
const x = card.exports;
const built = card.base;
check("text written at the built size", () => {
  // Nothing is free in the card's own memory: the host grows it to write at the built size.
  assert.equal(x.memory.buffer.byteLength, built);
  x.memory.grow(1);
  new Uint8Array(x.memory.buffer, built, 4).set([35, 97, 35, 35]);
  assert.equal(x.count_byte(built, 4, 35), 3);
  assert.equal(card.call("count_byte", "a#b#", 35), 2);
  assert.equal(card.call("mentions_queen", "the queen decides"), 1);
  assert.equal(card.call("mentions_queen", "a bee"), 0);
});
check("text past the built size, in a grown memory", () => {
  const pages = x.memory.buffer.byteLength / 65536;
  x.memory.grow(3);
  const at = (pages + 2) * 65536 + 100;
  const text = new TextEncoder().encode("##x#");
  new Uint8Array(x.memory.buffer, at, text.length).set(text);
  assert.equal(x.count_byte(at, text.length, 35), 3);
  // The loader grows the memory itself for text larger than what is left.
  const big = "#".repeat(5 * 65536);
  assert.equal(card.call("count_byte", big, 35), 5 * 65536);
});
check("an output buffer is written by the card and read back by the host", () => {
  const out = new Out(5);
  assert.equal(card.call("fill", out, 33), 5n);
  assert.deepEqual(Array.from(out.bytes), [33, 35, 35, 35, 35]);
});
check("u64 crosses as BigInt, exactly", () => {
  assert.equal(u64(card.call("widest")), 2n ** 64n - 1n);
  assert.equal(u64(card.call("next_fence", 2n ** 64n - 2n)), 2n ** 64n - 1n);
  assert.equal(card.call("next_fence", 41n), 42n);
  assert.equal(card.call("below", -(2n ** 63n) + 1n), -(2n ** 63n));
  assert.equal(card.call("half", 5), 2.5);
});
check("a trap throws, and the card says its kind and place", () => {
  assert.throws(() => card.call("next_fence", 2n ** 64n - 1n), (e) =>
    e instanceof CardTrap && e.kind === "overflow" && /^card\/contract\.t27:\d+:\d+-\d+:\d+$/.test(e.place));
  assert.throws(() => card.call("ratio", 7, 0), (e) => e.kind === "division_by_zero");
  assert.throws(() => card.call("below", -(2n ** 63n)), (e) => e.kind === "overflow");
  assert.throws(() => card.call("checked", 12), (e) => e.kind === "assert");
  assert.throws(() => card.call("narrow", 300), (e) => e.kind === "bad_argument");
  assert.throws(() => card.call("fill", new Out(0), 1), (e) => e.kind === "index_out_of_bounds");
});
check("after a trap, later calls answer correctly", () => {
  assert.equal(card.call("ratio", 7, 2), 3);
  assert.equal(u64(card.call("next_fence", 1n)), 2n);
  assert.equal(card.call("narrow", 255), 255);
  assert.equal(card.call("name_length", 0), 4n);
  assert.equal(card.call("checked", 9), 9);
});
check("module vars keep their values between calls until t27_reset", () => {
  assert.equal(card.call("bump"), 1);
  assert.equal(card.call("bump"), 2);
  card.reset();
  assert.equal(card.call("bump"), 1);
});
console.log(`${checks} checks passed`);
