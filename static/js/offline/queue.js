/* The hands kept on the keeper's phone while it is offline: the queue's rules, pure, no page.
 *
 * Each hand is kept with its deal number, the game's version the page showed when it was
 * entered and the phone's time then, and goes, oldest first, to POST /api/games/{id}/deals
 * with "deal", "version" and "age": the seconds it waited, measured on the phone's one clock
 * (so a phone set to the wrong time still says it right), for the round clock to count the
 * hand from when it was played, not from when it arrived.
 * The API records a resent deal once (200) and refuses a different one (409), so a resend is
 * always safe; a hand whose deal another phone changed or undid since is refused too (409,
 * error.current: that deal as recorded now, or null). What an answer means for the queue:
 *
 * - "sent": recorded (201), or recorded before (200): the hand leaves the queue;
 * - "clash": a 409 about this hand's deal: both versions are shown, the keeper chooses;
 * - "retry": the server took no decision (no answer, or busy: 408, 429, 502, 503, 504): the
 *   hand stays first and goes again later, nothing shown but the waiting;
 * - "refused": any other refusal, with the server's words: the queue stops until the keeper
 *   discards the hand. Nothing leaves the queue without an answer or a tap.
 *
 * A classic script (window.OfflineQueue) that node's tests can require as well
 * (tests/js/queue.test.js); static/js/offline/page.js is the page around it.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.OfflineQueue = api;
})(this, function () {
  "use strict";

  /* Answers that decide nothing about the hand: sent again later. */
  var RETRY = [408, 429, 502, 503, 504];

  /* The number of the next deal entered on the phone: after the last kept hand, else the
   * server's next deal. */
  function nextDeal(queue, serverNext) {
    return queue.length ? queue[queue.length - 1].deal + 1 : serverNext;
  }

  function isNumber(value) {
    return typeof value === "number" && isFinite(value);
  }

  /* A hand to keep: its deal, calls, tricks (none for a redeal), the version it was made
   * against (the page's, a whole number, else left out: taken as it always was), the
   * hand it is as the players count hands (`handNumber`: what the page calls it; the API
   * is sent the deal's number only) and when it was entered (`enteredAt`, the phone's
   * milliseconds). */
  function hand(deal, calls, tricks, version, handNumber, enteredAt) {
    var kept = { deal: deal, calls: calls.slice() };
    if (tricks) kept.tricks = tricks.slice();
    if (isNumber(version)) kept.version = version;
    if (isNumber(handNumber)) kept.hand = handNumber;
    if (isNumber(enteredAt)) kept.at = enteredAt;
    return kept;
  }

  /* How many whole seconds the hand has waited at `now` (the same clock): none when either
   * time is unknown, 0 when the clock was set back meanwhile. */
  function ageOf(kept, now) {
    if (!isNumber(kept.at) || !isNumber(now)) return null;
    return Math.max(0, Math.round((now - kept.at) / 1000));
  }

  /* A new deal's body: the hand, and its age when known. */
  function newDeal(kept, now) {
    var body = bodyOf(kept);
    var age = ageOf(kept, now);
    if (age !== null) body.age = age;
    return body;
  }

  /* The API's body for a kept hand. */
  function bodyOf(kept) {
    var body = { deal: kept.deal, calls: kept.calls };
    if (kept.tricks) body.tricks = kept.tricks;
    if (typeof kept.version === "number") body.version = kept.version;
    return body;
  }

  /* The first hand's request, sent at `now` (the phone's milliseconds). */
  function sending(kept, api, now) {
    return { method: "POST", url: api, body: newDeal(kept, now) };
  }

  /* What an answer (status, parsed body; status 0 when the network gave none) means. */
  function meaning(status, body) {
    body = body || {};
    if (status === 200 || status === 201) return { kind: "sent" };
    if (!status || RETRY.indexOf(status) >= 0) return { kind: "retry" };
    var error = body.error || {};
    var current = error.current;
    if (status === 409 && current && typeof current === "object" && "deal" in current) {
      var version = typeof current.version === "number" ? current.version : body.version;
      return { kind: "clash", version: version, recorded: current.deal, undone: current.deal === null };
    }
    return { kind: "refused", message: error.message || String(status) };
  }

  /* "Keep mine" after a clash: sent again against the version the clash showed (the keeper
   * has now seen the deal as it is): a correction of the deal, or, undone meanwhile, the deal
   * anew. */
  function keepMine(kept, clash, api, now) {
    var body = clash.undone ? newDeal(kept, now) : bodyOf(kept);
    body.version = clash.version;
    if (clash.undone) return { method: "POST", url: api, body: body };
    return { method: "PUT", url: api + "/" + kept.deal, body: body };
  }

  /* The queue read back from storage: a list of hands, anything else an empty queue. */
  function parse(text) {
    try {
      var queue = JSON.parse(text);
      return Array.isArray(queue) ? queue : [];
    } catch (error) {
      return [];
    }
  }

  return {
    ageOf: ageOf,
    bodyOf: bodyOf,
    hand: hand,
    keepMine: keepMine,
    meaning: meaning,
    nextDeal: nextDeal,
    parse: parse,
    sending: sending,
  };
});
