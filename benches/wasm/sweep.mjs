// The dispatch sweep on Node: `next_state` and `claim_of` called N times each through two
// cards of specs/queen/dispatch.t27, ours (`t27 gen wasm`) and the owner's route (the same
// rules in C, benches/wasm/dispatch.c, `zig cc --target=wasm32-wasi -Oz
// -mexec-model=reactor`), alternating, several rounds; prints the median time per call and
// checks that both cards gave the same answers.
// Usage: node benches/wasm/sweep.mjs OURS.wasm THEIRS.wasm [N] [ROUNDS]
import { readFileSync } from "node:fs";

const [ours, theirs] = process.argv.slice(2, 4);
const N = Number(process.argv[4] ?? 1e6);
const ROUNDS = Number(process.argv[5] ?? 7);

async function load(file) {
  const { instance } = await WebAssembly.instantiate(readFileSync(file), {});
  instance.exports._initialize?.();
  return instance.exports;
}
const cards = { ours: await load(ours), theirs: await load(theirs) };

// Clocks around each floor, made once: a u64 crosses as a BigInt on both cards.
const idle = [0n, 1000n, 1799999n, 1800000n, 3599999n, 3600000n, 21599999n, 21600000n, 999999999n];

function sweep(x) {
  const { next_state, claim_of } = x;
  let sum = 0;
  for (let i = 0; i < N; i++) {
    sum += next_state(i & 15, (i >>> 4) % 17);
    sum += claim_of(i & 1, (i >>> 1) % 11, idle[i % 9], (i >>> 3) & 3, (i >>> 5) & 1);
  }
  return sum;
}

const times = { ours: [], theirs: [] };
const sums = {};
for (let r = 0; r < ROUNDS; r++) {
  for (const name of r % 2 ? ["theirs", "ours"] : ["ours", "theirs"]) {
    const t0 = process.hrtime.bigint();
    sums[name] = sweep(cards[name]);
    times[name].push(Number(process.hrtime.bigint() - t0));
  }
}
if (sums.ours !== sums.theirs) throw new Error(`the cards disagree: ${sums.ours} vs ${sums.theirs}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const perCall = (name) => median(times[name]) / (2 * N);
console.log(`dispatch sweep, ${N} x (next_state + claim_of), median of ${ROUNDS} rounds:`);
console.log(`  ours   ${perCall("ours").toFixed(2)} ns/call  (${readFileSync(ours).length} bytes)`);
console.log(`  theirs ${perCall("theirs").toFixed(2)} ns/call  (${readFileSync(theirs).length} bytes)`);
console.log(`  ratio  ${(perCall("ours") / perCall("theirs")).toFixed(3)}x time, ${(readFileSync(ours).length / readFileSync(theirs).length).toFixed(3)}x bytes`);
