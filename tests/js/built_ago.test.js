/* "built … ago" on the phone (static/js/built/ago.js): the same words as the server's
 * (tournaments.results.presenters.built_ago; tests/tournaments/test_built_ago.py runs both),
 * whatever the phone's clock says. */
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const ago = require("../../static/js/built/ago.js");

const BUILT = "2026-11-26T19:30:00+00:00";
const EN = { pattern: "built %(ago)s", justNow: "built just now" };
const BG = { pattern: "изчислено %(ago)s", justNow: "изчислено току-що" };

/* The phone's clock when the server's reads `seconds` after BUILT, the phone `wrong` ms off,
 * the offset measured when the page came (the server then at `loaded` s after BUILT). */
function wordsAt(seconds, patterns, language, wrong = 0, loaded = 5) {
  const serverAtLoad = Date.parse(BUILT) + loaded * 1000;
  const off = ago.offset(new Date(serverAtLoad).toISOString(), serverAtLoad + wrong);
  const phoneNow = Date.parse(BUILT) + seconds * 1000 + wrong;
  return ago.words(BUILT, phoneNow, off, language, patterns);
}

test("under a minute is just now, then whole minutes, hours and days", () => {
  assert.equal(wordsAt(20, EN, "en"), "built just now");
  assert.equal(wordsAt(59, EN, "en"), "built just now");
  assert.equal(wordsAt(60, EN, "en"), "built 1 minute ago");
  assert.equal(wordsAt(150, EN, "en"), "built 2 minutes ago");
  assert.equal(wordsAt(3600 + 300, EN, "en"), "built 1 hour ago");
  assert.equal(wordsAt(2 * 3600 + 3599, EN, "en"), "built 2 hours ago");
  assert.equal(wordsAt(86400 + 7200, EN, "en"), "built 1 day ago");
  assert.equal(wordsAt(3 * 86400 + 1, EN, "en"), "built 3 days ago");
});

test("in Bulgarian, as the server's catalogue words it", () => {
  assert.equal(wordsAt(20, BG, "bg"), "изчислено току-що");
  assert.equal(wordsAt(60, BG, "bg"), "изчислено преди 1 минута");
  assert.equal(wordsAt(150, BG, "bg"), "изчислено преди 2 минути");
  assert.equal(wordsAt(3600 + 300, BG, "bg"), "изчислено преди 1 час");
  assert.equal(wordsAt(5 * 3600, BG, "bg"), "изчислено преди 5 часа");
  assert.equal(wordsAt(86400, BG, "bg"), "изчислено преди 1 ден");
  assert.equal(wordsAt(3 * 86400, BG, "bg"), "изчислено преди 3 дни");
});

test("a phone whose clock is minutes off says the same", () => {
  for (const wrong of [-7 * 60 * 1000, 3600 * 1000, 4 * 60 * 1000 + 1234]) {
    for (const seconds of [20, 150, 3900, 200000]) {
      assert.equal(wordsAt(seconds, EN, "en", wrong), wordsAt(seconds, EN, "en"));
      assert.equal(wordsAt(seconds, BG, "bg", wrong), wordsAt(seconds, BG, "bg"));
    }
  }
  // ... and so does a page opened long after the build
  assert.equal(wordsAt(3900, EN, "en", -7 * 60 * 1000, 3000), "built 1 hour ago");
});

test("a moment ahead of the server's clock is just now, never a negative", () => {
  assert.equal(wordsAt(-30, EN, "en"), "built just now");
  assert.equal(ago.elapsed(BUILT, Date.parse(BUILT) - 5000, 0), 0);
});

test("a big number is written as the server writes it, without grouping", () => {
  assert.equal(wordsAt(1200 * 86400, EN, "en"), "built 1200 days ago");
  assert.equal(wordsAt(12000 * 86400, BG, "bg"), "изчислено преди 12000 дни");
});

test("without a moment or a pattern the page keeps the server's words", () => {
  assert.equal(ago.words("", Date.now(), 0, "en", EN), null);
  assert.equal(ago.words(BUILT, Date.parse(BUILT) + 150000, 0, "en", { justNow: "x" }), null);
  assert.equal(ago.words(BUILT, Date.parse(BUILT) + 150000, 0, "en", null), null);
  assert.equal(ago.offset("", 1000), 0);
});
