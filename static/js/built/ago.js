/* "built 3 minutes ago", pure, no page: how long ago the standings were built, from the
 * moment they were built and the server's time.
 *
 * The server words it when it renders the page; a phone that keeps the page open (and polls
 * it: an unchanged answer is a 304 with nothing in it) words it again by itself, so that the
 * poll's ETag need not change every minute. As static/js/clock/countdown.js does, the phone
 * measures its clock against the server's once, when the page arrives (offset = server's now
 * - phone's now), and from then on: elapsed = (phone's now + offset) - built. A phone whose
 * clock is minutes off still says what the server says.
 *
 * The words: "just now" under a minute, then whole minutes, hours, days (as the server's
 * tournaments.results.presenters.built_ago), "3 minutes ago" from Intl.RelativeTimeFormat in
 * the page's language, put into the pattern the server translated ("built %(ago)s").
 *
 * A classic script (window.BuiltAgo) that node's tests can require as well
 * (tests/js/built_ago.test.js); static/js/built/page.js is the page around it.
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("../server_clock.js"));
  } else {
    root.BuiltAgo = factory(root.ServerClock);
  }
})(this, function (ServerClock) {
  "use strict";

  /* The server's clock against the phone's: static/js/server_clock.js. */
  var moment = ServerClock.moment;
  var offset = ServerClock.offset;

  /* Whole seconds since `built` at phoneNow (never below zero), or null without a moment. */
  function elapsed(built, phoneNow, offsetMs) {
    var start = moment(built);
    if (isNaN(start)) return null;
    return Math.max(0, Math.floor((phoneNow + (offsetMs || 0) - start) / 1000));
  }

  /* How long ago, to the unit below: null under a minute ("just now"), else
   * {count, unit} in whole minutes (under an hour), hours (under a day) or days. */
  function span(seconds) {
    if (seconds === null || seconds < 60) return null;
    var minutes = Math.floor(seconds / 60);
    if (minutes < 60) return { count: minutes, unit: "minute" };
    var hours = Math.floor(minutes / 60);
    if (hours < 24) return { count: hours, unit: "hour" };
    return { count: Math.floor(hours / 24), unit: "day" };
  }

  /* "3 minutes ago", "преди 3 минути" in `language`; the number as the server writes it
   * (no grouping: "1200 days ago"). null where the browser has no RelativeTimeFormat. */
  function relative(count, unit, language) {
    if (typeof Intl !== "object" || !Intl.RelativeTimeFormat) return null;
    var format;
    try {
      format = new Intl.RelativeTimeFormat(language || undefined, { numeric: "always" });
    } catch (unknownLanguage) {
      format = new Intl.RelativeTimeFormat(undefined, { numeric: "always" });
    }
    if (!format.formatToParts) return format.format(-count, unit);
    return format
      .formatToParts(-count, unit)
      .map(function (part) {
        if (part.type === "literal") return part.value;
        return part.type === "integer" ? part.value : "";
      })
      .join("");
  }

  /* The whole wording: words.justNow under a minute, else words.pattern with "%(ago)s"
   * replaced; null when it cannot be worded here (the page keeps the server's words). */
  function words(built, phoneNow, offsetMs, language, patterns) {
    var seconds = elapsed(built, phoneNow, offsetMs);
    if (seconds === null || !patterns) return null;
    var ago = span(seconds);
    if (ago === null) return patterns.justNow || null;
    if (!patterns.pattern || patterns.pattern.indexOf("%(ago)s") < 0) return null;
    var phrase = relative(ago.count, ago.unit, language);
    return phrase === null ? null : patterns.pattern.replace("%(ago)s", phrase);
  }

  return {
    offset: offset,
    elapsed: elapsed,
    span: span,
    relative: relative,
    words: words,
  };
});
