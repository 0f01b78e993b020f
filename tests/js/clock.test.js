/* The round clock's countdown (static/js/clock/countdown.js). */
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const clock = require("../../static/js/clock/countdown.js");

const SERVER_NOW = "2026-11-26T19:30:00+00:00";
const DEADLINE = "2026-11-26T19:42:05+00:00";

test("a phone whose clock is right counts down to the deadline", () => {
  const phoneNow = Date.parse(SERVER_NOW);
  const off = clock.offset(SERVER_NOW, phoneNow);
  assert.equal(off, 0);
  assert.equal(clock.secondsLeft(DEADLINE, phoneNow, off), 12 * 60 + 5);
  assert.equal(clock.secondsLeft(DEADLINE, phoneNow + 65000, off), 11 * 60);
});

test("a phone seven minutes slow, or an hour fast, shows the same time left", () => {
  for (const wrong of [-7 * 60 * 1000, 3600 * 1000, 1234]) {
    const phoneAtLoad = Date.parse(SERVER_NOW) + wrong;
    const off = clock.offset(SERVER_NOW, phoneAtLoad);
    assert.equal(clock.secondsLeft(DEADLINE, phoneAtLoad, off), 725);
    // 30 s later on the phone's own (wrong) clock: 30 s less, whatever its error.
    assert.equal(clock.secondsLeft(DEADLINE, phoneAtLoad + 30000, off), 695);
  }
});

test("two pages loaded at different moments agree on the time left", () => {
  const first = Date.parse(SERVER_NOW);
  const offFirst = clock.offset(SERVER_NOW, first + 90000); // a phone 90 s fast
  const laterServer = "2026-11-26T19:31:10+00:00";
  const offSecond = clock.offset(laterServer, Date.parse(laterServer) - 5000); // 5 s slow
  const momentFirst = first + 90000 + 80000; // both read 80 s after the first page came
  const momentSecond = Date.parse(SERVER_NOW) - 5000 + 80000;
  assert.equal(
    clock.secondsLeft(DEADLINE, momentFirst, offFirst),
    clock.secondsLeft(DEADLINE, momentSecond, offSecond),
  );
});

test("the time left never goes below zero, rounds up, and has no deadline when paused", () => {
  const off = 0;
  const deadline = Date.parse(DEADLINE);
  assert.equal(clock.secondsLeft(DEADLINE, deadline + 5000, off), 0);
  assert.equal(clock.secondsLeft(DEADLINE, deadline - 100, off), 1);
  assert.equal(clock.secondsLeft(DEADLINE, deadline, off), 0);
  assert.equal(clock.secondsLeft(null, deadline, off), null);
  assert.equal(clock.secondsLeft("", deadline, off), null);
  assert.equal(clock.offset("not a moment", 5), 0);
});

test("the time left reads as a clock", () => {
  assert.equal(clock.format(725), "12:05");
  assert.equal(clock.format(59), "0:59");
  assert.equal(clock.format(0), "0:00");
  assert.equal(clock.format(3720), "1:02:00");
  assert.equal(clock.format(null), "");
});

test("the keeper is warned five minutes before and at time, once each", () => {
  assert.equal(clock.phase(301), "running");
  assert.equal(clock.phase(300), "warning");
  assert.equal(clock.phase(1), "warning");
  assert.equal(clock.phase(0), "time");
  assert.equal(clock.warns("running", "warning"), true);
  assert.equal(clock.warns("warning", "time"), true);
  assert.equal(clock.warns("running", "time"), true);
  assert.equal(clock.warns("warning", "warning"), false);
  assert.equal(clock.warns("time", "time"), false);
  // A page opened in the last five minutes does not buzz at once.
  assert.equal(clock.warns(null, "warning"), false);
  // Extended after time: back to running, no warning.
  assert.equal(clock.warns("time", "running"), false);
});
