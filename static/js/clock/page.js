/* The round clock on a page: counts down each [data-clock] block by itself, every second,
 * from the deadline and the server's time the block came with (static/js/clock/countdown.js
 * does the sums). It never asks the server: a block the page's own polling replaces (htmx) is
 * measured again when it arrives. Without this script the block still shows the time left as
 * the server rendered it.
 *
 * A block with data-clock-warn (the keeper's page) says "5 minutes left" and "Time is up" in
 * its note when the clock gets there, and vibrates briefly where the phone allows it.
 */
(function () {
  "use strict";

  var Clock = window.RoundClock;
  if (!Clock) return;
  var measured = new WeakMap(); // block -> offset (ms) measured when it arrived
  var pageOffset = null; // the first one measured: for blocks that carry no server time
  var lastPhase = {}; // clock key -> phase last shown, so a warning comes once

  /* A block fresh from the server carries its time (data-clock-now); one the server kept and
   * served again (a watchers' sheet) does not, and counts by the page's own offset. */
  function offsetOf(block) {
    if (!measured.has(block)) {
      var now = block.getAttribute("data-clock-now");
      var off = now ? Clock.offset(now, Date.now()) : pageOffset || 0;
      if (now && pageOffset === null) pageOffset = off;
      measured.set(block, off);
    }
    return measured.get(block);
  }

  function tick() {
    var blocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < blocks.length; i++) show(blocks[i]);
  }

  function show(block) {
    var status = block.getAttribute("data-clock-status");
    if (status !== "running" && status !== "at_time") return; // paused: as rendered
    var left = Clock.secondsLeft(block.getAttribute("data-clock-deadline"), Date.now(), offsetOf(block));
    if (left === null) return;
    var time = block.querySelector("[data-clock-time]");
    if (time) time.textContent = Clock.format(left);
    var phase = Clock.phase(left);
    var label = block.querySelector("[data-clock-label]");
    var labelWords = block.getAttribute(phase === "time" ? "data-clock-label-up" : "data-clock-label-left");
    if (label && labelWords) label.textContent = labelWords;
    block.classList.toggle("clock-warning", phase === "warning");
    block.classList.toggle("clock-at-time", phase === "time");
    var key = block.getAttribute("data-clock") || "clock";
    var before = lastPhase[key];
    lastPhase[key] = phase;
    if (!block.hasAttribute("data-clock-warn")) return;
    var note = block.querySelector("[data-clock-note]");
    if (note) {
      var words = phase === "time" ? "data-clock-words-time" : phase === "warning" ? "data-clock-words-warning" : "";
      note.textContent = words ? block.getAttribute(words) || "" : "";
    }
    if (Clock.warns(before, phase) && navigator.vibrate) {
      try {
        navigator.vibrate(phase === "time" ? [300, 150, 300] : 200);
      } catch (ignored) {
        /* a phone that refuses: the words say it */
      }
    }
  }

  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
})();
