/* The next deal in words, as the table page says it (scoring/presenters/table.py DealView):
 * pure, no page. From the rules, the state the phone stepped on to (offline/rules.js), the
 * calls of this deal so far and the page's words (scoring/presenters/offline.py
 * offline_words): the heading, each seat's card (target, total, deals, calls first, passes
 * left, whose turn), the calls made, the card exchange, the calls open or the contract.
 * tests/js/engine_answers.json holds the table page's own views for many games, which the
 * node tests compare with this one.
 *
 * A classic script (window.OfflineDealView) that node's tests can require as well.
 */
(function (root, factory) {
  "use strict";
  var api = factory(typeof module === "object" && module.exports ? require("./rules.js") : root.OfflineRules);
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.OfflineDealView = api;
})(this, function (rules) {
  "use strict";

  var MINUS = "\u2212";

  /* +2, −1 (a true minus sign), 0: scoring.words.signed. */
  function signed(number) {
    return number > 0 ? "+" + number : number < 0 ? MINUS + -number : "0";
  }

  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (match, name) {
      return name in values ? String(values[name]) : match;
    });
  }

  function exchangeView(game, state, words, contract, hand) {
    var said = words.exchange;
    if (game.exchange === "never") return { note: "", sentences: [] };
    if (hand === 1) return { note: said.first, sentences: [] };
    if (contract && game.exchange_skipped_after.indexOf(contract.call) >= 0) {
      return { note: said.skipped[contract.seat][contract.call], sentences: [] };
    }
    var due = rules.exchangeDue(game, state, contract ? contract.call : null);
    if (!due.length) return { note: said.nobody, sentences: [] };
    var note;
    if (contract) note = said.before_play;
    else if (game.exchange === "before the call") note = said.before_call;
    else if (game.exchange_skipped_after.length) note = said.only_if;
    else note = said.after_call;
    return {
      note: note,
      sentences: due.map(function (transfer) {
        return fill(said.transfer[String(transfer.cards)], {
          giver: words.names[transfer.from],
          receiver: words.names[transfer.to],
        });
      }),
    };
  }

  /* The deal to enter next, or {over: true} once the hands kept end the game. Calls that no
   * longer fit the deal are dropped (the page asks for them again), as the table page does. */
  function dealView(game, state, calls, words) {
    if (state.end) return { over: true, sentence: words.over };
    var next = rules.upcoming(game, state);
    var now = rules.auction(game, state, calls || []);
    var callsError = now.error !== null || now.redeal;
    if (callsError) now = rules.auction(game, state, []);
    var seats = [0, 1, 2].map(function (seat) {
      var left = game.passes ? now.passes_left[seat] : null;
      return {
        seat: seat,
        name: words.names[seat],
        short: words.shorts[seat],
        target: next.targets[seat],
        total: signed(state.totals[seat]),
        dealer: seat === next.dealer,
        caller: seat === next.caller,
        to_call: seat === now.to_call,
        passes_left: left,
        passes_text: left === null ? "" : words.passes[String(left)],
      };
    });
    var view = {
      over: false,
      number: next.deal,
      hand: next.hand,
      heading: fill(words.heading, { deal: next.deal, hand: next.hand }),
      seats: seats,
      calls_made: now.calls.map(function (made) {
        return { sentence: words.made[made.seat][made.call], is_pass: made.call === "pass" };
      }),
      calls_value: now.calls
        .map(function (made) {
          return made.call;
        })
        .join(","),
      calls_error: callsError,
      exchange: exchangeView(game, state, words, now.contract, next.hand),
      contract: null,
      to_call_name: "",
      choices: [],
    };
    if (now.contract) {
      view.contract = words.made[now.contract.seat][now.contract.call];
    } else {
      view.to_call_name = words.names[now.to_call];
      view.to_call = words.to_call[now.to_call];
      view.choices = now.allowed.map(function (call) {
        var said = words.calls[call];
        return { value: call, label: said.label, symbol: said.symbol, red: said.red, is_pass: said.is_pass };
      });
    }
    return view;
  }

  /* A hand kept on the phone as a row of the score sheet (presenters.table's sheet rows):
   * its number as the players count hands (a redeal: the hand dealt again), its call and
   * dealer, and for a played hand each seat's total, tricks and points. From the state
   * before the hand and after it (rules.play). */
  function rowView(game, before, deal, after, words) {
    var now = rules.auction(game, before, deal.calls);
    var row = { number: before.hand, dealer: words.row.dealer[before.dealer], redeal: now.redeal };
    if (now.redeal) {
      row.call = now.calls.length === 1 ? words.row.redeal_one[now.calls[0].seat] : words.row.redeal_all;
      row.cells = null;
      return row;
    }
    row.call = words.row.call[now.contract.seat][now.contract.call];
    row.cells = [0, 1, 2].map(function (seat) {
      return {
        tricks: deal.tricks[seat],
        points: signed(after.last.points[seat]),
        total: signed(after.totals[seat]),
      };
    });
    return row;
  }

  /* A kept hand (queue.js) as the players name it, "Hand 3", or "Hand 3 (dealt again)" for
   * a redeal (kept without tricks): presenters.numbering's one numbering, never the deal's
   * number, which only the API is sent. */
  function keptTitle(kept, words) {
    var said = words.hand_title;
    return fill(kept.tricks ? said.played : said.again, { n: kept.hand });
  }

  return { dealView: dealView, fill: fill, keptTitle: keptTitle, rowView: rowView, signed: signed };
});
