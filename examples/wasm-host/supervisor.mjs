// A supervisor's round decided by the owner's wasm cards: `t27 gen wasm specs/queen --out cards`
// writes cards/queen/review_first.wasm and cards/queen/dispatch.wasm; this loads them with
// loader.mjs (the card contract, nothing else) and makes its decisions through them.
//   t27 gen wasm ../../specs/queen --out cards && node supervisor.mjs cards
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { loadCard, CardTrap } from "./loader.mjs";

const dir = process.argv[2] ?? "cards";
const reviewFirst = await loadCard(readFileSync(path.join(dir, "queen/review_first.wasm")));
const dispatch = await loadCard(readFileSync(path.join(dir, "queen/dispatch.wasm")));

// The codes, mirrored by number as the specs say (`t27 gen js` writes them as constants).
const KIND_BACKLOG = 0, KIND_REWORK = 1, KIND_ASSIGNED = 2;
const R_ADMIT = 0, R_REVIEW_FIRST = 1;
const S_NONE = 0, S_RUNNING = 1, S_ENDED = 3, S_ACCEPT = 5, ILLEGAL = 99;
const E_START = 0, E_END = 2, E_VERDICT_ACCEPT = 6;
const V_EMPTY = 3, C_REJECTED = 2, C_FAILED = 4;
const EMPTY_FLOOR_MS = 1800000n;

let decisions = 0;
function expect(what, ok) {
  if (!ok) throw new Error(`not what the spec says: ${what}`);
  decisions++;
}

// Admission: while 29 dispatches wait in review the backlog is closed; rework and the owner's
// own assignments are not backlog.
const waiting = 29;
const admission = (kind, queue) => reviewFirst.call("admission", kind, queue);
expect("a backlog issue waits", admission(KIND_BACKLOG, waiting) === R_REVIEW_FIRST);
expect("rework is admitted", admission(KIND_REWORK, waiting) === R_ADMIT);
expect("an assignment is admitted", admission(KIND_ASSIGNED, waiting) === R_ADMIT);
expect("an empty queue opens the backlog", admission(KIND_BACKLOG, 0) === R_ADMIT);
expect("the sent-back kind", reviewFirst.call("kind_of", false, true) === KIND_REWORK);

// A task's life: the events the spec allows move it; any other is ILLEGAL.
let state = S_NONE;
for (const event of [E_START, E_END, E_VERDICT_ACCEPT]) state = dispatch.call("next_state", state, event);
expect("start, end, accept", state === S_ACCEPT);
expect("a second start is illegal", dispatch.call("next_state", S_RUNNING, E_START) === ILLEGAL);
expect("an ended task cannot end again", dispatch.call("next_state", S_ENDED, E_END) === ILLEGAL);

// Claims: a u64 clock crosses as a BigInt.
const claim = (...a) => dispatch.call("claim_of", ...a);
expect("an empty run idle past its floor", claim(true, V_EMPTY, EMPTY_FLOOR_MS, 0, 0) === C_FAILED);
expect("an empty run still inside it", claim(true, V_EMPTY, 1000n, 0, 0) === C_REJECTED);
expect("the fence rises", dispatch.call("fence_after", 41n) === 42n);

// What the spec's types do not hold traps, and the card says where; the next call is fine.
try {
  dispatch.call("fence_after", -1n); // 2^64 - 1: one more overflows u64
  expect("the last fence overflows", false);
} catch (e) {
  expect("the last fence overflows", e instanceof CardTrap && e.kind === "overflow");
  console.log(`trapped as the spec says: ${e.kind} at ${e.place}`);
}
expect("and the card answers after", dispatch.call("fence_after", 1n) === 2n);

console.log(`${decisions} decisions as the spec makes them; the round says: ${waiting} dispatches wait in review`);
