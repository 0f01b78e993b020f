/* My next seat: the rules of the page a player's phone keeps open, pure, no page
 * (tournaments/rounds/views/public_next.py, docs/players-phones.md).
 *
 * The phone polls a few bytes, the event's version, with the one it has as If-None-Match:
 *
 * - "same": 304 (or the same version): nothing to do until the next poll;
 * - "changed": a 200 naming another version: fetch this phone's part of the page;
 * - "gone": 404, the event is no more: stop;
 * - "retry": anything else (offline, busy): ask again later, waiting longer each time.
 *
 * The fetched part says which round it shows and what the player does in it; a round newer
 * than the one shown before, published for this player, is announced (a banner always; a
 * vibration and a short sound where the phone allows them).
 *
 * A classic script (window.NextSeat) that node's tests can require as well
 * (tests/js/next_seat.test.js); static/js/next_seat_page.js is the page around it.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.NextSeat = api;
})(this, function () {
  "use strict";

  /* Milliseconds between two polls while all is well (the page says its own,
   * tournaments.rounds.views.public_next.VERSION_POLL_SECONDS: a phone learns its new seat
   * about 6 s after the publish, 15 s at most; the unchanged poll is answered before the
   * site's middleware, docs/performance.md), and the most a failing phone waits. */
  var POLL_MS = 12000;
  /* What the player does in a round while the phone may poll at the slower pace the page
   * gives for it (PLAYING_POLL_SECONDS): their own game is being played, so no next round
   * can come before it is over (which moves the version too). */
  var PLAYING = ["seat"];
  var MAX_MS = 120000;
  /* What the phone does on a new round, where it can: buzz, pause, buzz. */
  var VIBRATION = [200, 100, 200];
  /* What the player does in a round, announced when it is new (not "no_round",
   * "withdrawn", nor "played": a closed round is no news). */
  var NEWS = ["seat", "bye", "left", "not_in_round"];

  /* Milliseconds until the next poll: the page's pace (`pace`, else POLL_MS), doubled for
   * each failure in a row up to MAX_MS, spread by ±20 % (`random` in [0, 1)) so that a room's
   * phones do not poll in step. */
  function delay(failures, random, pace) {
    var every = pace > 0 ? pace : POLL_MS;
    var base = Math.min(every * Math.pow(2, Math.max(0, failures | 0)), Math.max(MAX_MS, every));
    return Math.round(base * (0.8 + 0.4 * random));
  }

  /* The pace for the part shown (its `kind`): `playing` (ms) while the player's game is
   * being played, if the page gives one, else `fast`. */
  function pace(kind, fast, playing) {
    return PLAYING.indexOf(kind) >= 0 && playing > 0 ? playing : fast;
  }

  /* What a version poll's answer means (`known`: the version the page shows). */
  function versionVerdict(status, body, known) {
    if (status === 304) return "same";
    if (status === 404) return "gone";
    if (status !== 200) return "retry";
    var version = String(body || "").trim();
    if (!version) return "retry";
    return version === known ? "same" : "changed";
  }

  /* What the fetch of the phone's part means: show it; reload the page (204: the phone no
   * longer knows who it is, the page asks); or try again at the next poll. */
  function liveVerdict(status) {
    if (status === 200) return "show";
    if (status === 204) return "reload";
    return "retry";
  }

  /* The header a poll sends: the version it has, as the ETag it came with. */
  function ifNoneMatch(known) {
    return '"' + String(known) + '"';
  }

  /* The round to announce when the part shown changes from `before` to `after` (each
   * {round: "3" or "", kind: "seat"…}), or null: only a newer round the player is told
   * something about. */
  function announce(before, after) {
    var now = parseInt(after && after.round, 10);
    if (!isFinite(now) || NEWS.indexOf(after.kind) < 0) return null;
    var was = parseInt(before && before.round, 10);
    if (isFinite(was) && now <= was) return null;
    return now;
  }

  /* The banner's words: the page's translated template with the round's number. */
  function words(template, n) {
    return String(template || "").replace("%(n)s", String(n));
  }

  return {
    POLL_MS: POLL_MS,
    MAX_MS: MAX_MS,
    VIBRATION: VIBRATION,
    delay: delay,
    pace: pace,
    versionVerdict: versionVerdict,
    liveVerdict: liveVerdict,
    ifNoneMatch: ifNoneMatch,
    announce: announce,
    words: words,
  };
});
