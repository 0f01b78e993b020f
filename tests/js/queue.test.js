/* The queue of hands kept on the keeper's phone (static/js/offline/queue.js). */
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const queue = require("../../static/js/offline/queue.js");

const API = "/api/games/7/deals";

test("the next deal follows the last kept hand, else the server's next", () => {
  assert.equal(queue.nextDeal([], 4), 4);
  assert.equal(queue.nextDeal([{ deal: 4 }, { deal: 5 }], 4), 6);
});

test("a kept hand carries its deal, calls, tricks and the version it was made against", () => {
  assert.deepEqual(queue.hand(3, ["hearts"], [4, 7, 5], 12), {
    deal: 3,
    calls: ["hearts"],
    tricks: [4, 7, 5],
    version: 12,
  });
  // A redeal has no tricks; a page without a version sends none.
  assert.deepEqual(queue.hand(2, ["pass"], null, NaN), { deal: 2, calls: ["pass"] });
});

test("a kept hand notes the hand it is as the players count it; the API gets the deal only", () => {
  // After a redeal, deal 3 is hand 2: the page names it so, the API numbers the deal.
  const kept = queue.hand(3, ["hearts"], [4, 7, 5], 12, 2);
  assert.equal(kept.hand, 2);
  assert.deepEqual(queue.sending(kept, API).body, {
    deal: 3,
    calls: ["hearts"],
    tricks: [4, 7, 5],
    version: 12,
  });
  assert.equal("hand" in queue.keepMine(kept, { version: 13, undone: false }, API).body, false);
  assert.equal("hand" in queue.hand(3, ["hearts"], [4, 7, 5], 12), false);
});

test("the first hand goes as a POST of the deal with its version", () => {
  const kept = queue.hand(3, ["pass", "spades"], [8, 5, 3], 9);
  assert.deepEqual(queue.sending(kept, API), {
    method: "POST",
    url: API,
    body: { deal: 3, calls: ["pass", "spades"], tricks: [8, 5, 3], version: 9 },
  });
});

test("a hand kept offline says how long it waited, on the phone's own clock", () => {
  const kept = queue.hand(4, ["hearts"], [4, 7, 5], 9, 4, 1_000_000);
  assert.equal(kept.at, 1_000_000);
  // Sent 95.4 s later: age 95, whatever the phone's clock says the date is.
  assert.deepEqual(queue.sending(kept, API, 1_095_400).body, {
    deal: 4,
    calls: ["hearts"],
    tricks: [4, 7, 5],
    version: 9,
    age: 95,
  });
  // A clock set back meanwhile says 0; no time kept (an older queue), no age.
  assert.equal(queue.sending(kept, API, 900_000).body.age, 0);
  assert.equal("age" in queue.sending(queue.hand(4, ["pass"], null, 9), API, 5).body, false);
  assert.equal("at" in queue.sending(kept, API, 1_095_400).body, false);
});

test("keep mine sends the age with a deal anew, never with a correction (no such field)", () => {
  const kept = queue.hand(5, ["hearts"], [4, 7, 5], 10, 5, 2_000);
  assert.equal(queue.keepMine(kept, { version: 15, undone: true }, API, 62_000).body.age, 60);
  assert.equal("age" in queue.keepMine(kept, { version: 14, undone: false }, API, 62_000).body, false);
});

test("recorded, or recorded before: sent", () => {
  assert.deepEqual(queue.meaning(201, { deal: {} }), { kind: "sent" });
  assert.deepEqual(queue.meaning(200, {}), { kind: "sent" });
});

test("no answer, or a busy server, decides nothing: the hand goes again later", () => {
  assert.deepEqual(queue.meaning(0, null), { kind: "retry" });
  for (const status of [408, 429, 502, 503, 504]) {
    assert.deepEqual(queue.meaning(status, { error: { message: "busy" } }), { kind: "retry" }, String(status));
  }
});

test("a 409 naming the deal as recorded now is a clash, with the version it answered", () => {
  const recorded = { calls: ["clubs"], tricks: [3, 8, 5] };
  const answer = { version: 14, error: { message: "changed", current: { version: 14, deal: recorded } } };
  assert.deepEqual(queue.meaning(409, answer), { kind: "clash", version: 14, recorded, undone: false });
});

test("a 409 whose deal was undone meanwhile is a clash too, the deal not recorded", () => {
  const answer = { version: 20, error: { message: "undone", current: { version: 20, deal: null } } };
  assert.deepEqual(queue.meaning(409, answer), { kind: "clash", version: 20, recorded: null, undone: true });
});

test("any other refusal stops the queue with the server's words", () => {
  assert.deepEqual(queue.meaning(400, { error: { message: "Tricks must add up to 16." } }), {
    kind: "refused",
    message: "Tricks must add up to 16.",
  });
  assert.deepEqual(queue.meaning(409, { error: { message: "The game is confirmed." } }), {
    kind: "refused",
    message: "The game is confirmed.",
  });
  assert.deepEqual(queue.meaning(403, {}), { kind: "refused", message: "403" });
  assert.deepEqual(queue.meaning(500, null), { kind: "refused", message: "500" });
});

test("keep mine: a correction of the recorded deal, or the undone deal anew, at the clash's version", () => {
  const kept = queue.hand(5, ["hearts"], [4, 7, 5], 10);
  assert.deepEqual(queue.keepMine(kept, { version: 14, undone: false }, API), {
    method: "PUT",
    url: `${API}/5`,
    body: { deal: 5, calls: ["hearts"], tricks: [4, 7, 5], version: 14 },
  });
  assert.deepEqual(queue.keepMine(kept, { version: 15, undone: true }, API), {
    method: "POST",
    url: API,
    body: { deal: 5, calls: ["hearts"], tricks: [4, 7, 5], version: 15 },
  });
});

test("a queue read back from storage is a list, else empty", () => {
  assert.deepEqual(queue.parse('[{"deal":2,"calls":["pass"]}]'), [{ deal: 2, calls: ["pass"] }]);
  assert.deepEqual(queue.parse(null), []);
  assert.deepEqual(queue.parse("{oops"), []);
  assert.deepEqual(queue.parse('{"deal":2}'), []);
});
