// The browser test of `t27 doc` (run by .ci/run): Debian's chromium, driven by playwright-core,
// opens the site written for specs/queen from the file system, uses the Try-it panels and the
// tables as a reader would, follows links, and takes a screenshot of every page.
//
//   node tests/doc/site.test.mjs SITE_DIR SCREENSHOT_DIR
import { launch } from "./browser.mjs";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";

const [site, shots] = process.argv.slice(2).map((p) => resolve(p));
if (!site || !shots) {
  console.error("usage: node site.test.mjs SITE_DIR SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const url = (page) => pathToFileURL(join(site, page)).href;

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
page.on("console", (m) => m.type() === "error" && errors.push(`${page.url()}: ${m.text()}`));

let checks = 0;
async function check(what, fn) {
  await fn();
  checks++;
  console.log(`ok ${checks} - ${what}`);
}

try {
  // The index lists every module and links to its page.
  await page.goto(url("index.html"));
  await page.screenshot({ path: join(shots, "index.png"), fullPage: true });
  await check("the index links to both modules", async () => {
    assert.equal(await page.locator('main a[href="queen/review_first.html"]').count(), 1);
    assert.equal(await page.locator('main a[href="queen/dispatch.html"]').count(), 1);
  });
  await check("a module link opens its page", async () => {
    await page.click('main a[href="queen/review_first.html"]');
    assert.match(page.url(), /queen\/review_first\.html$/);
    assert.equal(await page.textContent("h1 small"), "queen/review_first.t27");
  });

  // admission: a backlog candidate is refused while anything waits in review.
  const out = "#try-admission-out";
  await check("admission(KIND_BACKLOG, 29) reads R_REVIEW_FIRST", async () => {
    await page.selectOption("#try-admission-kind", { label: "0 (KIND_BACKLOG)" });
    await page.fill("#try-admission-review_queue", "29");
    assert.equal(await page.textContent(out), "1 (R_REVIEW_FIRST)");
  });
  await check("admission(KIND_BACKLOG, 0) reads R_ADMIT", async () => {
    await page.fill("#try-admission-review_queue", "0");
    assert.equal(await page.textContent(out), "0 (R_ADMIT)");
  });
  await page.fill("#try-admission-review_queue", "29");
  await page.locator("#fn\\.admission").screenshot({ path: join(shots, "admission.png") });
  await check("the slider moves the queue and the answer", async () => {
    await page.locator("#try-admission-review_queue-slider").fill("5");
    assert.equal(await page.inputValue("#try-admission-review_queue"), "5");
    assert.equal(await page.textContent(out), "1 (R_REVIEW_FIRST)");
  });
  await check("rework is admitted at any queue length", async () => {
    await page.selectOption("#try-admission-kind", { label: "1 (KIND_REWORK)" });
    assert.equal(await page.textContent(out), "0 (R_ADMIT)");
  });
  await check("a queue past u32 is refused by the page, not passed on", async () => {
    await page.fill("#try-admission-review_queue", "4294967296");
    assert.match(await page.textContent(out), /from 0 to 4294967295/);
  });
  await check("the keyboard works the panel: tab to a checkbox and press space", async () => {
    await page.focus("#try-kind_of-assigned");
    await page.keyboard.press("Space");
    assert.equal(await page.isChecked("#try-kind_of-assigned"), true);
    assert.equal(await page.textContent("#try-kind_of-out"), "2 (KIND_ASSIGNED)");
  });
  await check("kind_of's truth table", async () => {
    assert.equal(await page.textContent("#truth-kind_of-0"), "KIND_BACKLOG");
    assert.equal(await page.textContent("#truth-kind_of-1"), "KIND_REWORK");
    assert.equal(await page.textContent("#truth-kind_of-3"), "KIND_ASSIGNED");
  });
  await check("a name in the source links to its declaration", async () => {
    await page.click("#fn\\.admission summary");
    const link = page.locator('#fn\\.admission a[href="#const.R_ADMIT"]').first();
    await link.click();
    assert.match(page.url(), /#const\.R_ADMIT$/);
    assert.equal(await page.locator("#const\\.R_ADMIT").evaluate((e) => e.matches(":target")), true);
  });
  await page.screenshot({ path: join(shots, "queen-review_first.png"), fullPage: true });

  // next_state: the lifecycle as a grid, refused events greyed out.
  await page.goto(url("queen/dispatch.html"));
  const cell = (s, e) => `#grid-next_state-${s}-${e}`;
  await check("next_state grid cells", async () => {
    assert.equal(await page.textContent(cell("S_NONE", "E_START")), "S_RUNNING");
    assert.equal(await page.textContent(cell("S_RUNNING", "E_END")), "S_ENDED");
    assert.equal(await page.textContent(cell("S_ACCEPT", "E_CI_RED_AT_CEILING")), "S_ESCALATE");
    assert.equal(await page.textContent(cell("S_STALE", "E_REDISPATCH")), "S_RUNNING");
  });
  await check("an illegal event is greyed out", async () => {
    assert.equal(await page.textContent(cell("S_NONE", "E_END")), "ILLEGAL");
    assert.match(await page.getAttribute(cell("S_NONE", "E_END"), "class"), /grey/);
    assert.doesNotMatch((await page.getAttribute(cell("S_NONE", "E_START"), "class")) || "", /grey/);
  });
  await check("next_state's Try it names both inputs' constants", async () => {
    await page.selectOption("#try-next_state-state", { label: "1 (S_RUNNING)" });
    await page.selectOption("#try-next_state-event", { label: "2 (E_END)" });
    assert.equal(await page.textContent("#try-next_state-out"), "3 (S_ENDED)");
  });
  await page.setViewportSize({ width: 2600, height: 900 });
  await page.locator("#grid-next_state").screenshot({ path: join(shots, "next_state.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(shots, "queen-dispatch.png"), fullPage: true });

  assert.deepEqual(errors, [], "no script error on any page");
  console.log(`# ${checks} checks passed; screenshots in ${shots}`);
} finally {
  await browser.close();
}
