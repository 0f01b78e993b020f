/* The keeper's phone steps the game on offline exactly as the engine does: every answer of
 * static/js/offline/rules.js and deal_view.js against the engine's and the table page's own
 * answers (engine_answers.json, made by engine_answers.py from the Python engine). */
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const rules = require("../../static/js/offline/rules.js");
const { dealView, keptTitle, rowView, signed } = require("../../static/js/offline/deal_view.js");

const answers = JSON.parse(fs.readFileSync(path.join(__dirname, "engine_answers.json"), "utf8"));

function named(variant) {
  return `${variant.ruleset} ${JSON.stringify(variant.options)} first dealer ${variant.first_dealer}`;
}

function eachCase(run) {
  answers.variants.forEach((variant) => {
    variant.cases.forEach((item, index) => run(variant, item, `${named(variant)} #${index}`));
  });
}

test("the answers cover every ruleset, the ends and the refusals", () => {
  const rulesets = new Set(answers.variants.map((variant) => variant.ruleset));
  assert.deepEqual([...rulesets].sort(), [
    "blato",
    "nine-five-two",
    "sergeant-major",
    "sergeant-major-alternate",
    "three-five-eight",
  ]);
  const cases = answers.variants.flatMap((variant) => variant.cases);
  const ends = new Set(cases.map((item) => item.state.end).filter(Boolean));
  assert.deepEqual([...ends].sort(), ["calls", "goal", "hands", "instant_win"]);
  assert.ok(cases.some((item) => item.hands.length >= 3), "several hands kept in a row");
  assert.ok(cases.some((item) => (item.steps || []).some((step) => step.redeal)), "a redeal");
  assert.ok(cases.some((item) => (item.refused || []).length), "deals the engine refuses");
});

test("the state after the hands kept on the phone is the engine's", () => {
  eachCase((variant, item, name) => {
    const state = rules.replay(variant.rules, item.start, item.hands);
    assert.deepEqual(state, item.state, name);
  });
});

test("the next deal is the engine's: dealer, targets, caller, calls open, exchange due", () => {
  eachCase((variant, item, name) => {
    assert.deepEqual(rules.upcoming(variant.rules, item.state), item.next, name);
  });
});

test("each call of the next deal is answered as the engine answers it", () => {
  eachCase((variant, item, name) => {
    (item.steps || []).forEach((step) => {
      const now = rules.auction(variant.rules, item.state, step.calls);
      const where = `${name} calls ${step.calls.join(",")}`;
      assert.equal(now.error, null, where);
      assert.equal(now.to_call, step.to_call, where);
      assert.deepEqual(now.allowed, step.allowed, where);
      assert.deepEqual(now.contract, step.contract, where);
      assert.equal(now.redeal, step.redeal, where);
      assert.deepEqual(now.passes_left, step.passes_left, where);
      const contract = now.contract ? now.contract.call : null;
      assert.deepEqual(rules.exchangeDue(variant.rules, item.state, contract), step.exchange, where);
    });
  });
});

test("a deal the engine refuses is refused on the phone too", () => {
  let count = 0;
  eachCase((variant, item, name) => {
    (item.refused || []).forEach((deal) => {
      count += 1;
      assert.throws(() => rules.play(variant.rules, item.state, deal), Error, `${name} ${JSON.stringify(deal)}`);
    });
  });
  assert.ok(count > 50);
});

test("the next deal is worded as the table page words it", () => {
  eachCase((variant, item, name) => {
    item.views.forEach(({ calls, view }) => {
      const mine = dealView(variant.rules, item.state, calls, variant.words);
      const where = `${name} calls ${calls.join(",")}`;
      if (view.over) {
        assert.equal(mine.over, true, where);
        return;
      }
      const seats = mine.seats.map(({ name: seatName, short, target, total, dealer, caller, to_call, passes_left }) => ({
        name: seatName,
        short,
        target,
        total,
        dealer,
        caller,
        to_call,
        passes_left,
      }));
      assert.deepEqual(
        {
          number: mine.number,
          hand: mine.hand,
          heading: mine.heading,
          seats,
          calls_made: mine.calls_made.map((made) => made.sentence),
          calls_value: mine.calls_value,
          calls_error: mine.calls_error,
          exchange: mine.exchange,
          contract: mine.contract,
          to_call_name: mine.to_call_name,
          choices: mine.choices,
        },
        view,
        where
      );
    });
  });
});

test("each hand kept is a row of the sheet as the table page writes it", () => {
  let count = 0;
  eachCase((variant, item, name) => {
    let state = item.start;
    item.hands.forEach((hand, index) => {
      const after = rules.play(variant.rules, state, hand);
      assert.deepEqual(rowView(variant.rules, state, hand, after, variant.words), item.rows[index], name);
      state = after;
      count += 1;
    });
  });
  assert.ok(count > 50);
});

test("a kept hand is named by the hand the players count, never by the deal's number", () => {
  // The words as the page gives them ({n} for the number), English and Bulgarian alike.
  let redeals = 0;
  eachCase((variant, item, name) => {
    let state = item.start;
    item.hands.forEach((hand, index) => {
      const after = rules.play(variant.rules, state, hand);
      const kept = { deal: state.deal, calls: hand.calls, tricks: hand.tricks, hand: state.hand };
      const title = keptTitle(kept, variant.words);
      const row = item.rows[index];
      const said = row.redeal ? variant.words.hand_title.again : variant.words.hand_title.played;
      assert.equal(title, said.replace("{n}", String(row.number)), name);
      if (state.deal !== state.hand) redeals += 1;
      state = after;
    });
  });
  assert.ok(redeals > 0, "hands kept after a redeal, where deal and hand differ");
  const words = { hand_title: { played: "Hand {n}", again: "Hand {n} (dealt again)" } };
  assert.equal(keptTitle({ deal: 4, calls: ["hearts"], tricks: [4, 7, 5], hand: 3 }, words), "Hand 3");
  assert.equal(keptTitle({ deal: 3, calls: ["pass"], hand: 3 }, words), "Hand 3 (dealt again)");
});

test("totals are signed with a true minus sign", () => {
  assert.equal(signed(3), "+3");
  assert.equal(signed(0), "0");
  assert.equal(signed(-2), "\u22122");
});

test("a redeal after the caller's pass needs no more calls where the turn does not pass on", () => {
  const blato = answers.variants.find((variant) => variant.ruleset === "blato" && !variant.options);
  const fresh = blato.cases.find((item) => item.state.hand === 1 && !item.state.end) || {
    state: blato.cases[0].start,
  };
  const now = rules.auction(blato.rules, fresh.state, ["pass"]);
  assert.equal(now.redeal, true);
  assert.equal(now.to_call, null);
});
