// The speed of mirrored functions against the same logic written by hand, on Node.js:
// `next_state` over every (state, event) pair and `claim_of` over a grid of its inputs,
// ROUNDS times each, by the JavaScript mirror (`t27 gen js specs/queen --out DIR`) and by
// hand-written code below, alternately, five times; the median of each and their ratio.
//   node benches/host/sweep.mjs DIR [ROUNDS | --short] [OLD_DIR]
// `--short` is 2,000 rounds (a smoke run for CI, a second or so). With OLD_DIR (another
// generated mirror, e.g. of the commit before a change), its mirror is timed in the same
// alternation, so a before and an after are measured in one run.
// Both (all three) must give the same checksum: a mirror that answered differently stops it.
// The last lines are machine-readable: `ratio mirror/hand 1.12` (and `ratio old/hand ...`).
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.argv[2];
const roundsArg = process.argv[3] ?? "20000";
const rounds = roundsArg === "--short" ? 2000 : Number(roundsArg);
const oldDir = process.argv[4];
if (!dir || !Number.isInteger(rounds) || rounds <= 0) {
  console.error(
    "usage: node benches/host/sweep.mjs DIR [ROUNDS | --short] [OLD_DIR]   (DIR: t27 gen js specs/queen --out DIR)",
  );
  process.exit(2);
}
const load = (d) => import(pathToFileURL(path.resolve(d, "queen/dispatch.js")).href);
const mirror = await load(dir);
const old = oldDir ? await load(oldDir) : null;

// ---- The hand-written JavaScript: dispatch.t27's rules as a supervisor would write them ----
const ILLEGAL = 99;
function nextState(state, event) {
  if (state === 0) {
    if (event === 0) return 1;
    if (event === 1) return 2;
    return ILLEGAL;
  }
  if (state === 1) {
    if (event === 2) return 3;
    if (event === 4) return 10;
    if (event === 5) return 10;
    return ILLEGAL;
  }
  if (state === 3 || state === 4) {
    if (event === 6) return 5;
    if (event === 7) return 6;
    if (event === 8) return 7;
    if (event === 9) return 4;
    if (event === 10) return 8;
    if (event === 11) return 9;
    if (event === 14) return 11;
    return ILLEGAL;
  }
  if (state === 5) {
    if (event === 12) return 6;
    if (event === 13) return 7;
    return ILLEGAL;
  }
  if (state === 6 || state === 8) {
    if (event === 11) return 9;
    if (event === 14) return 11;
    return ILLEGAL;
  }
  if (state === 7) {
    if (event === 11) return 9;
    return ILLEGAL;
  }
  if (state === 9 || state === 10 || state === 2 || state === 11) {
    if (event === 15) return 1;
    return ILLEGAL;
  }
  return ILLEGAL;
}
function claimOf(finished, verdict, idleMs, sendBacks, releases) {
  if (!finished) return 0;
  if (verdict === 6) return 1;
  if (verdict === 7 || verdict === 8) return 4;
  if (verdict === 3) return idleMs >= 1800000 ? 4 : 2;
  if (verdict === 9) return 4;
  if (verdict === 4) {
    if (idleMs >= 3600000 && sendBacks < 2) return 4;
    if (releases >= 1) return 2;
    if (idleMs >= 3600000) return 4;
    return 2;
  }
  if (verdict === 0 || verdict === 1 || verdict === 2) {
    if (idleMs >= 21600000 && sendBacks < 2) return 4;
  }
  return 3;
}

// ---- The sweep -------------------------------------------------------------------------------
// Each contender gets a sweep of its own, compiled from the same source text: one shared
// function would see two or three callees at its call sites and be optimized for none of them
// (a host calls one implementation), and closures of one function literal share V8's feedback.
const IDLE = [0, 1000, 1800000, 3600000, 21600000, 86400000];
const SWEEP = `
  let sum = 0;
  let calls = 0;
  for (let r = 0; r < rounds; r++) {
    for (let state = 0; state < 13; state++) {
      for (let event = 0; event < 16; event++) sum += next(state, event);
    }
    calls += 13 * 16;
    for (let verdict = 0; verdict < 11; verdict++) {
      for (const idle of IDLE) sum += claim(true, verdict, idle, r & 3, r & 1);
    }
    calls += 11 * IDLE.length;
  }
  return [sum, calls];`;
const sweepOf = (next, claim) => new Function("next", "claim", "IDLE", `return (rounds) => {${SWEEP}};`)(next, claim, IDLE);

function time(sweep) {
  const t0 = process.hrtime.bigint();
  const [sum, calls] = sweep(rounds);
  return [Number(process.hrtime.bigint() - t0) / 1e6, sum, calls];
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const contenders = {
  mirror: sweepOf(mirror.next_state, mirror.claim_of),
  hand: sweepOf(nextState, claimOf),
  old: old ? sweepOf(old.next_state, old.claim_of) : null,
};
// A warm-up of each before the timed runs, so that a short run times optimized code too.
for (const sweep of Object.values(contenders)) if (sweep) sweep(Math.min(rounds, 2000));
const mirrored = [], hand = [], older = [];
let sums = new Set(), calls = 0;
for (let i = 0; i < 5; i++) {
  const [tm, sm, cm] = time(contenders.mirror);
  const [th, sh] = time(contenders.hand);
  mirrored.push(tm);
  hand.push(th);
  sums.add(sm).add(sh);
  if (old) {
    const [to, so] = time(contenders.old);
    older.push(to);
    sums.add(so);
  }
  calls = cm;
}
if (sums.size !== 1) {
  console.error(`the mirror and the hand-written code disagree: checksums ${[...sums].join(", ")}`);
  process.exit(1);
}
const [m, h] = [median(mirrored), median(hand)];
const line = (label, t) => `  ${label.padEnd(13)}${t.toFixed(1)} ms  (${((t * 1e6) / calls).toFixed(2)} ns/call)`;
console.log(`${calls} calls a run (next_state and claim_of), median of 5 alternating runs:`);
console.log(line("mirror", m));
if (old) console.log(line("old mirror", median(older)));
console.log(line("hand-written", h));
console.log(`ratio mirror/hand ${(m / h).toFixed(2)}`);
if (old) console.log(`ratio old/hand ${(median(older) / h).toFixed(2)}`);
