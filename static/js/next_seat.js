/* My next seat: the rules of the page a player's phone keeps open, pure, no page
 * (tournaments/rounds/views/public_next.py, docs/players-phones.md).
 *
 * The phone asks for a few bytes, the event's version, with the one it has as If-None-Match
 * and a wait marker (`?wait=`): the venue's server holds the ask until the version moves or
 * the wait is over (config/door.py, config/parking.py), so that a phone learns of a new round
 * within a few seconds and asks about twice a minute while it waits. What the answer means:
 *
 * - "same": 304 (or the same version): held the whole wait, ask again at once; answered at
 *   once (a server that holds nothing, or has no room left), ask again at the page's pace,
 *   as a plain poll;
 * - "changed": a 200 naming another version: fetch this phone's part of the page, then ask
 *   again at once;
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

  /* Milliseconds between two asks the server answered at once, while all is well (the page
   * says its own, tournaments.rounds.views.public_next.VERSION_POLL_SECONDS: such a phone
   * learns its new seat about 6 s after the publish, 15 s at most; the unchanged answer is
   * made before the site's middleware, docs/performance.md), and the most a failing phone
   * waits. */
  var POLL_MS = 12000;
  /* Seconds the ask asks the server to hold it (the page says its own, WAIT_SECONDS). */
  var WAIT_S = 25;
  /* An unchanged answer that took at least this share of the wait asked was held; one that
   * came sooner was answered at once (the server holds nothing, or had no room). */
  var HELD_SHARE = 0.5;
  /* How much longer than the wait the phone gives a held ask before it gives it up (a
   * connection that died with the phone's sleep answers nothing, ever). */
  var GIVE_UP_MS = 15000;
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

  /* Seconds to ask the server to hold the ask while the part shown is `kind`: the page's
   * `wait` (else WAIT_S), but none while the player's own game is played (no next round
   * can come before it is over: a plain poll at the playing pace leaves the server's spare
   * threads to the phones that wait). */
  function waitSeconds(kind, wait) {
    if (PLAYING.indexOf(kind) >= 0) return 0;
    return wait >= 0 ? wait : WAIT_S;
  }

  /* The version's address with the wait marker (none when `wait` is 0). */
  function askUrl(base, wait) {
    if (!(wait > 0)) return base;
    return base + (base.indexOf("?") >= 0 ? "&" : "?") + "wait=" + Math.round(wait);
  }

  /* Milliseconds until the next ask once `verdict` came `elapsed` ms after the ask that
   * asked to be held `wait` s (0: a plain poll): at once after a held "same" or a "changed"
   * of a held ask; else `delay` (the page's pace, longer after failures). */
  function nextAsk(verdict, elapsed, wait, failures, random, pace) {
    var holding = wait > 0;
    if (holding && verdict === "changed" && !(failures > 0)) return 0;
    if (holding && verdict === "same" && elapsed >= wait * 1000 * HELD_SHARE) return 0;
    return delay(verdict === "retry" ? failures : 0, random, pace);
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
    WAIT_S: WAIT_S,
    GIVE_UP_MS: GIVE_UP_MS,
    waitSeconds: waitSeconds,
    askUrl: askUrl,
    nextAsk: nextAsk,
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
