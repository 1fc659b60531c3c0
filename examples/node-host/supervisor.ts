// A supervisor's round in TypeScript, decided by the spec's own functions: the mirror of
// specs/queen that `t27 gen ts specs/queen --out gen` (or `t27 gen js`, with its `.d.ts`
// files) writes, not a copy written by hand. Build and run (see README.md):
//   t27 gen ts ../../specs/queen --out gen && tsc --strict --target es2022 --module es2022 \
//     --moduleResolution bundler --outDir out supervisor.ts && node out/supervisor.js
import {
  admission,
  admits,
  KIND_ASSIGNED,
  KIND_BACKLOG,
  KIND_REWORK,
  R_ADMIT,
  R_REVIEW_FIRST,
  REFUSAL_TAIL,
} from "./gen/queen/review_first.js";
import {
  claim_of,
  next_state,
  C_FAILED,
  C_REJECTED,
  E_END,
  E_START,
  E_VERDICT_ACCEPT,
  EMPTY_FLOOR_MS,
  ILLEGAL,
  S_ACCEPT,
  S_ENDED,
  S_NONE,
  S_RUNNING,
  V_EMPTY,
} from "./gen/queen/dispatch.js";

let checked = 0;
function expect(what: string, ok: boolean): void {
  if (!ok) throw new Error(`not what the spec says: ${what}`);
  checked++;
}

// Admission: while 29 dispatches wait in review, the backlog is closed; rework and the
// owner's own assignments are not backlog.
const waiting = 29;
expect("a backlog issue waits", admission(KIND_BACKLOG, waiting) === R_REVIEW_FIRST);
expect("rework is admitted", admits(KIND_REWORK, waiting));
expect("an assignment is admitted", admission(KIND_ASSIGNED, waiting) === R_ADMIT);
expect("an empty queue opens the backlog", admission(KIND_BACKLOG, 0) === R_ADMIT);
const refusal = `${waiting}${REFUSAL_TAIL}`;

// A task's life: the events the spec allows move it; any other is ILLEGAL.
let state = S_NONE;
for (const event of [E_START, E_END, E_VERDICT_ACCEPT]) state = next_state(state, event);
expect("start, end, accept", state === S_ACCEPT);
expect("a second start is illegal", next_state(S_RUNNING, E_START) === ILLEGAL);
expect("an ended task cannot end again", next_state(S_ENDED, E_END) === ILLEGAL);

// Claims: an empty run frees its files once it has been idle past the floor (a 64-bit time,
// passed as a number while it is a safe integer).
expect("an empty run idle past its floor", claim_of(true, V_EMPTY, EMPTY_FLOOR_MS, 0, 0) === C_FAILED);
expect("an empty run still inside it", claim_of(true, V_EMPTY, 1000, 0, 0) === C_REJECTED);

// A 64-bit time may come as a bigint too; and what the spec's types do not hold is refused at
// the boundary (a RangeError or a TypeError naming the parameter), not answered.
expect("a bigint time is the same time", claim_of(true, V_EMPTY, BigInt(EMPTY_FLOOR_MS), 0, 0) === C_FAILED);
function refused(call: () => unknown): boolean {
  try {
    call();
    return false;
  } catch (e) {
    return e instanceof RangeError || e instanceof TypeError;
  }
}
expect("a negative queue is refused", refused(() => admission(KIND_BACKLOG, -1)));
expect("a kind past u8 is refused", refused(() => admission(256, waiting)));

console.log(`${checked} decisions as the spec makes them; the round says: ${refusal}`);
