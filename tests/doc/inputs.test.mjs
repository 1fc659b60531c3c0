// The second browser test of `t27 doc` (run by .ci/run): the site of tests/fixtures/doc/links,
// whose functions take every kind of input the page has (a string, 64-bit and signed integers,
// an f64, arrays as lists, a reserved word as a name), and whose names link across modules.
//
//   node tests/doc/inputs.test.mjs SITE_DIR
import { launch } from "./browser.mjs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";

const site = resolve(process.argv[2] || "");
const browser = await launch();
const page = await browser.newPage();
const errors = [];
page.on("pageerror", (e) => errors.push(e.message));
let checks = 0;
async function answer(field, value, out, expected) {
  await page.fill(field, value);
  const got = await page.textContent(out);
  assert.match(got, expected, `${field} = ${value}`);
  console.log(`ok ${++checks} - ${field} = ${JSON.stringify(value)} reads ${JSON.stringify(got)}`);
}

try {
  await page.goto(pathToFileURL(join(site, "shop/cart.html")).href);
  await answer("#try-greet-name", "alice", "#try-greet-out", /^true$/);
  await answer("#try-greet-name", "al", "#try-greet-out", /^false$/);
  // BIG is 2^53 + 1: past a safe integer, the page passes a bigint.
  await answer("#try-past_big-v", "9007199254740994", "#try-past_big-out", /^true$/);
  await answer("#try-past_big-v", "9007199254740993", "#try-past_big-out", /^false$/);
  await answer("#try-sign-d", "-5", "#try-sign-out", /^-1$/);
  await answer("#try-sign-d", "-129", "#try-sign-out", /from -128 to 127/);
  await answer("#try-delete-n", "7", "#try-delete-out", /^7$/);
  await answer("#try-total-xs", "1, 2, 3", "#try-total-out", /^6$/);
  await answer("#try-total-xs", "1, 2", "#try-total-out", /3 values/);
  await answer("#try-total-xs", "4294967295, 1, 0", "#try-total-out", /overflow/);
  await answer("#try-above-flags", "true, false", "#try-above-out", /^false$/);
  await answer("#try-above-x", "2.5", "#try-above-out", /^true$/);
  await answer("#try-above-flags", "yes, no", "#try-above-out", /true or false/);
  await answer("#try-pair_of-a", "3", "#try-pair_of-out", /^\{ a: 3, b: 20 \}$/);
  await answer("#try-room-n", "", "#try-room-out", /whole number/);
  assert.equal(await page.locator("#try-first").count(), 0, "a struct parameter has no panel");

  // A name of another module links to its declaration on that module's page.
  await page.click("#fn\\.room summary");
  await page.click('#fn\\.room a[href="../shop/base.html#fn.clamp_items"]');
  assert.match(page.url(), /shop\/base\.html#fn\.clamp_items$/);
  assert.equal(await page.locator("#fn\\.clamp_items").evaluate((e) => e.matches(":target")), true);
  console.log(`ok ${++checks} - a link across modules lands on the declaration`);

  assert.deepEqual(errors, [], "no script error");
  console.log(`# ${checks} checks passed`);
} finally {
  await browser.close();
}
