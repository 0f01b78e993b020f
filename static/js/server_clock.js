/* The phone's clock measured against the server's, pure, no page: the one home of that sum for
 * every script that counts time by itself (the round clock's countdown, "built … ago").
 *
 * A page gives the server's "now" (ISO 8601) when it arrives; the phone's clock may be wrong by
 * minutes, so a script measures offset = server's now - phone's now once, and from then on
 * reads the server's time as phone's now + offset, without asking the server again.
 *
 * A classic script (window.ServerClock) that node's tests can require as well.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.ServerClock = api;
})(this, function () {
  "use strict";

  /* A moment as milliseconds since the epoch, or NaN. */
  function moment(text) {
    if (typeof text === "number") return text;
    if (!text) return NaN;
    return Date.parse(text);
  }

  /* How far the server's clock is ahead of the phone's, in ms, measured when the page came:
   * serverNow as the page gave it, phoneNow the phone's clock then (Date.now()). */
  function offset(serverNow, phoneNow) {
    var server = moment(serverNow);
    return isNaN(server) ? 0 : server - phoneNow;
  }

  return { moment: moment, offset: offset };
});
