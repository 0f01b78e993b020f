/* The projector's slow scroll: down through the round's tables and the standings, a pause
 * at the bottom, back to the top, a pause, and again. No libraries, no inline code (the
 * Content Security Policy forbids it). htmx replaces the content every so often; the loop
 * only keeps a position, so it carries on over the new content.
 *
 * With reduced motion asked for, it moves a screen at a time instead of gliding.
 * A click (or a key press) pauses and resumes it, for someone reading the wall up close.
 */
(function () {
  "use strict";

  var PIXELS_PER_SECOND = 40;
  var PAUSE_MS = 6000;
  var STEP_MS = 12000; // reduced motion: one screen every 12 s

  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var position = 0;
  var last = null;
  var waitUntil = 0;
  var stopped = false;

  function bottom() {
    return Math.max(0, document.documentElement.scrollHeight - window.innerHeight);
  }

  function toTop(now) {
    position = 0;
    window.scrollTo(0, 0);
    waitUntil = now + PAUSE_MS;
  }

  function glide(now) {
    var elapsed = last === null ? 0 : now - last;
    last = now;
    if (!stopped && now >= waitUntil && bottom() > 0) {
      if (position >= bottom()) {
        toTop(now);
      } else {
        position = Math.min(bottom(), position + (PIXELS_PER_SECOND * elapsed) / 1000);
        window.scrollTo(0, position);
        if (position >= bottom()) waitUntil = now + PAUSE_MS;
      }
    }
    window.requestAnimationFrame(glide);
  }

  function step() {
    if (!stopped && bottom() > 0) {
      if (position >= bottom()) {
        position = 0;
      } else {
        position = Math.min(bottom(), position + window.innerHeight * 0.9);
      }
      window.scrollTo(0, position);
    }
    window.setTimeout(step, STEP_MS);
  }

  function toggle() {
    stopped = !stopped;
    position = window.scrollY;
  }

  function start() {
    document.addEventListener("click", toggle);
    document.addEventListener("keydown", toggle);
    waitUntil = performance.now() + PAUSE_MS;
    if (reduced) {
      window.setTimeout(step, STEP_MS);
    } else {
      window.requestAnimationFrame(glide);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
