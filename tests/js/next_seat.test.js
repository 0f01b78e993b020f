/* My next seat's rules (static/js/next_seat.js). */
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const rules = require("../../static/js/next_seat.js");

test("polls at the page's pace, spread so that a room's phones are not in step", () => {
  assert.equal(rules.delay(0, 0.5, 15000), 15000);
  assert.equal(rules.delay(0, 0, 15000), 12000);
  assert.ok(rules.delay(0, 0.999, 15000) < 18000);
  assert.equal(rules.delay(0, 0.5, 4000), 4000);
});

test("without a pace from the page, its own (12 s, as the page's)", () => {
  assert.equal(rules.POLL_MS, 12000);
  assert.equal(rules.delay(0, 0.5), 12000);
  assert.equal(rules.delay(0, 0.5, NaN), 12000);
  assert.equal(rules.delay(0, 0.5, 0), 12000);
  // Spread by ±20 %: never sooner than 9.6 s, never later than 14.4 s while all is well.
  assert.equal(rules.delay(0, 0), 9600);
  assert.ok(rules.delay(0, 0.999) < 14400);
});

test("while the player's own game is played, the page's slower pace; else the few seconds", () => {
  assert.equal(rules.pace("seat", 4000, 15000), 15000);
  for (const kind of ["played", "no_round", "bye", "left", "not_in_round", "withdrawn", ""]) {
    assert.equal(rules.pace(kind, 4000, 15000), 4000, kind);
  }
  // A page that gives no slower pace (NaN) keeps the few seconds.
  assert.equal(rules.pace("seat", 4000, NaN), 4000);
});

test("a failing poll waits longer each time, never more than two minutes and a bit", () => {
  assert.equal(rules.delay(1, 0.5, 15000), 30000);
  assert.equal(rules.delay(2, 0.5, 15000), 60000);
  assert.equal(rules.delay(50, 0.5, 15000), rules.MAX_MS);
  assert.ok(rules.delay(50, 0.999, 15000) <= rules.MAX_MS * 1.2);
  // At the page's few seconds too: 8 s, 16 s, … up to the cap.
  assert.equal(rules.delay(1, 0.5, 4000), 8000);
  assert.equal(rules.delay(20, 0.5, 4000), rules.MAX_MS);
  // A page slower than the cap is not sped up by failing.
  assert.equal(rules.delay(3, 0.5, 300000), 300000);
});

test("the ask asks to be held the page's wait, but not while the player's game is played", () => {
  assert.equal(rules.waitSeconds("no_round", 25), 25);
  assert.equal(rules.waitSeconds("played", 10), 10);
  for (const kind of ["bye", "left", "not_in_round", "withdrawn", ""]) {
    assert.equal(rules.waitSeconds(kind, 25), 25, kind);
  }
  assert.equal(rules.waitSeconds("seat", 25), 0);
  // A page that says no wait: the module's own.
  assert.equal(rules.waitSeconds("played", -1), rules.WAIT_S);
  assert.equal(rules.WAIT_S, 25);
});

test("the wait marker goes on the version's address, none for a plain poll", () => {
  assert.equal(rules.askUrl("/events/a/next/version/", 25), "/events/a/next/version/?wait=25");
  assert.equal(rules.askUrl("/v/?x=1", 25), "/v/?x=1&wait=25");
  assert.equal(rules.askUrl("/events/a/next/version/", 0), "/events/a/next/version/");
});

test("a held 304 is asked again at once; one answered at once waits the page's pace", () => {
  // Held its whole wait (25 s), or most of it: the next ask goes at once, to be held again.
  assert.equal(rules.nextAsk("same", 25010, 25, 0, 0.5, 12000), 0);
  assert.equal(rules.nextAsk("same", 12500, 25, 0, 0.5, 12000), 0);
  // Answered at once (a server that holds nothing, or had no room): a plain poll's pace,
  // never a loop of asks.
  assert.equal(rules.nextAsk("same", 40, 25, 0, 0.5, 12000), 12000);
  assert.equal(rules.nextAsk("same", 12000, 25, 0, 0, 12000), 9600);
  // A plain poll (no wait asked) keeps its pace however long the answer took.
  assert.equal(rules.nextAsk("same", 30000, 0, 0, 0.5, 15000), 15000);
});

test("a new version, once its part is shown, is followed by a held ask at once", () => {
  assert.equal(rules.nextAsk("changed", 3000, 25, 0, 0.5, 12000), 0);
  assert.equal(rules.nextAsk("changed", 10, 25, 0, 0.5, 12000), 0);
  assert.equal(rules.nextAsk("changed", 10, 0, 0, 0.5, 15000), 15000);
});

test("a failing ask backs off as a failing poll, held or not", () => {
  assert.equal(rules.nextAsk("retry", 50, 25, 1, 0.5, 12000), 24000);
  assert.equal(rules.nextAsk("retry", 40000, 25, 2, 0.5, 12000), 48000);
  assert.equal(rules.nextAsk("retry", 50, 25, 30, 0.5, 12000), rules.MAX_MS);
  assert.equal(rules.nextAsk("retry", 50, 0, 1, 0.5, 15000), 30000);
  // A held ask gives up a while after its wait: a connection dead with the phone's sleep.
  assert.ok(rules.GIVE_UP_MS >= 5000 && rules.GIVE_UP_MS <= 30000);
});

test("a 304 or the same version is nothing new; another version is", () => {
  assert.equal(rules.versionVerdict(304, "", "abc"), "same");
  assert.equal(rules.versionVerdict(200, "abc\n", "abc"), "same");
  assert.equal(rules.versionVerdict(200, "def", "abc"), "changed");
  assert.equal(rules.versionVerdict(200, "def", ""), "changed");
});

test("no answer, a busy server or an empty body: try again; no such event: stop", () => {
  for (const status of [0, 429, 500, 502, 503]) {
    assert.equal(rules.versionVerdict(status, "", "abc"), "retry");
  }
  assert.equal(rules.versionVerdict(200, "  ", "abc"), "retry");
  assert.equal(rules.versionVerdict(404, "", "abc"), "gone");
});

test("the phone's part: shown; 204 (the phone forgot who it is): the page asks again", () => {
  assert.equal(rules.liveVerdict(200), "show");
  assert.equal(rules.liveVerdict(204), "reload");
  assert.equal(rules.liveVerdict(503), "retry");
  assert.equal(rules.liveVerdict(0), "retry");
});

test("the poll sends its version as the ETag it came with", () => {
  assert.equal(rules.ifNoneMatch("0f3a"), '"0f3a"');
});

test("a newer round the player is told something about is announced", () => {
  assert.equal(rules.announce({ round: "1", kind: "played" }, { round: "2", kind: "seat" }), 2);
  assert.equal(rules.announce({ round: "", kind: "no_round" }, { round: "1", kind: "seat" }), 1);
  assert.equal(rules.announce({ round: "2", kind: "played" }, { round: "3", kind: "bye" }), 3);
  assert.equal(rules.announce({ round: "2", kind: "played" }, { round: "3", kind: "not_in_round" }), 3);
});

test("the same round changing, a closed round or a withdrawn player is no news", () => {
  assert.equal(rules.announce({ round: "2", kind: "seat" }, { round: "2", kind: "played" }), null);
  assert.equal(rules.announce({ round: "2", kind: "seat" }, { round: "2", kind: "seat" }), null);
  assert.equal(rules.announce({ round: "2", kind: "played" }, { round: "3", kind: "withdrawn" }), null);
  assert.equal(rules.announce({ round: "", kind: "no_round" }, { round: "", kind: "no_round" }), null);
  assert.equal(rules.announce({ round: "3", kind: "seat" }, { round: "2", kind: "seat" }), null);
});

test("the banner's words carry the round's number", () => {
  assert.equal(rules.words("New: round %(n)s", 3), "New: round 3");
  assert.equal(rules.words("Нов: кръг %(n)s", 12), "Нов: кръг 12");
  assert.equal(rules.words(null, 2), "");
});
