/* The round clock's countdown, pure, no page: the time left from one shared deadline and the
 * server's time.
 *
 * A page gives the server's "now" and the round's deadline (ISO 8601, both from the server's
 * clock). The phone measures its own clock against the server's once, when the page arrives
 * (offset = server's now - phone's now), and from then on counts down on its own: time left =
 * deadline - (phone's now + offset). A phone whose clock is wrong by minutes still shows the
 * right time left, and the phone never asks the server every second: a new offset comes only
 * with what the page polls anyway.
 *
 * A classic script (window.RoundClock) that node's tests can require as well
 * (tests/js/clock.test.js); static/js/clock/page.js is the page around it.
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("../server_clock.js"));
  } else {
    root.RoundClock = factory(root.ServerClock);
  }
})(this, function (ServerClock) {
  "use strict";

  /* When the keeper is warned: five minutes before time. */
  var WARN_SECONDS = 5 * 60;

  /* The server's clock against the phone's: static/js/server_clock.js. */
  var moment = ServerClock.moment;
  var offset = ServerClock.offset;

  /* Whole seconds left until the deadline at phoneNow (rounded up: "0:00" only at time),
   * never below zero; null without a deadline. */
  function secondsLeft(deadline, phoneNow, offsetMs) {
    var end = moment(deadline);
    if (isNaN(end)) return null;
    var left = (end - (phoneNow + (offsetMs || 0))) / 1000;
    return Math.max(0, Math.ceil(left - 1e-9));
  }

  /* Seconds as a clock shows them: "12:05", "1:02:00". */
  function format(seconds) {
    if (seconds === null || seconds === undefined || isNaN(seconds)) return "";
    var s = Math.max(0, Math.floor(seconds));
    var hours = Math.floor(s / 3600);
    var minutes = Math.floor((s % 3600) / 60);
    var rest = s % 60;
    var two = function (n) {
      return (n < 10 ? "0" : "") + n;
    };
    return hours ? hours + ":" + two(minutes) + ":" + two(rest) : minutes + ":" + two(rest);
  }

  /* Where the clock stands with this many seconds left: "running", "warning" (the last five
   * minutes) or "time" (at time). */
  function phase(seconds) {
    if (seconds === null) return "running";
    if (seconds <= 0) return "time";
    if (seconds <= WARN_SECONDS) return "warning";
    return "running";
  }

  /* Whether moving from phase `before` to `now` deserves a warning (a vibration): into the
   * last five minutes, or at time. A page opened inside them warns nothing until the next. */
  function warns(before, now) {
    if (before === null || before === undefined || before === now) return false;
    return now === "time" || (now === "warning" && before === "running");
  }

  return {
    WARN_SECONDS: WARN_SECONDS,
    offset: offset,
    secondsLeft: secondsLeft,
    format: format,
    phase: phase,
    warns: warns,
  };
});
