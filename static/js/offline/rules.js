/* The game's next step on the keeper's phone while it is offline: pure, no page.
 *
 * The server gives the page the engine's state after the live deals and the game's rules as
 * data (scoring/presenters/offline.py: offline_state, offline_rules); this steps that state on
 * over the hands kept on the phone, so the page can show the next hand as the table page
 * does: who deals, the targets, who calls, the calls open, passes left, the card exchange.
 * Every answer here is checked against the engine's own answers for many games
 * (tests/js/engine_answers.json, made by tests/js/engine_answers.py; node --test tests/js/),
 * and a stale copy of those answers fails the Python tests: the phone cannot drift from the
 * engine (engine/game.py, auction.py, exchange.py).
 *
 * A classic script (window.OfflineRules) that node's tests can require as well.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.OfflineRules = api;
})(this, function () {
  "use strict";

  function nextSeat(seat, steps) {
    return (seat + (steps === undefined ? 1 : steps)) % 3;
  }

  function position(seat, dealer) {
    return (seat - dealer + 3) % 3;
  }

  function targetsBySeat(rules, dealer) {
    return [0, 1, 2].map(function (seat) {
      return rules.targets[position(seat, dealer)];
    });
  }

  function callerOf(rules, dealer) {
    return nextSeat(dealer, rules.caller);
  }

  /* The calls open to `seat`: the ruleset's calls (each once where the ruleset says so),
   * then a pass while the seat has one left; in the engine's order. */
  function allowedCalls(rules, passesLeft, called, seat) {
    var open = rules.calls.filter(function (call) {
      return !(rules.each_call_once && called[seat].indexOf(call) >= 0);
    });
    if (passesLeft[seat] > 0) open.push("pass");
    return open;
  }

  function copy(state) {
    return JSON.parse(JSON.stringify(state));
  }

  /* The calls of the next deal so far, checked one by one: whose turn it is, the calls open,
   * the contract or the redeal, passes left; `error` names the first call not allowed. */
  function auction(rules, state, calls) {
    var dealer = state.dealer;
    var caller = callerOf(rules, dealer);
    var passesLeft = state.passes_left.slice();
    var called = state.called.map(function (names) {
      return names.slice();
    });
    var made = [];
    var contract = null;
    var redeal = false;
    var error = null;
    var toCall = state.end ? null : caller;
    for (var i = 0; i < calls.length; i++) {
      var call = calls[i];
      if (toCall === null) {
        error = call + " comes after " + (contract ? "the contract" : "the redeal");
        break;
      }
      if (allowedCalls(rules, passesLeft, called, toCall).indexOf(call) < 0) {
        error = "seat " + toCall + " may not call " + call;
        break;
      }
      made.push({ seat: toCall, call: call });
      if (call === "pass") {
        passesLeft[toCall] -= 1;
        // The caller's pass redeals at once; where the turn passes on, the dealer's pass.
        redeal = !rules.pass_turns || position(toCall, dealer) === 0;
      } else {
        if (called[toCall].indexOf(call) < 0) called[toCall].push(call);
        contract = { seat: toCall, call: call };
      }
      toCall = contract || redeal ? null : nextSeat(toCall);
    }
    return {
      dealer: dealer,
      caller: caller,
      calls: made,
      contract: contract,
      redeal: redeal,
      finished: contract !== null || redeal,
      to_call: toCall,
      allowed: toCall === null ? [] : allowedCalls(rules, passesLeft, called, toCall),
      passes_left: passesLeft,
      called: called,
      error: error,
    };
  }

  /* The transfers due after a hand with these points and targets, in the order they happen
   * (engine/exchange.py transfers). */
  function transfers(rules, points, targets) {
    var givers = [0, 1, 2].filter(function (seat) {
      return points[seat] > 0;
    });
    if (givers.length === 1) {
      var giver = givers[0];
      return [0, 1, 2]
        .map(function (step) {
          return nextSeat(giver, step);
        })
        .filter(function (seat) {
          return points[seat] < 0;
        })
        .map(function (seat) {
          return { from: giver, to: seat, cards: -points[seat] };
        });
    }
    if (givers.length === 2) {
      var receiver = [0, 1, 2].filter(function (seat) {
        return points[seat] < 0;
      })[0];
      var byTarget = function (seat) {
        return targets[seat];
      };
      var byPoints = function (seat) {
        return points[seat];
      };
      var first = rules.exchange_order === "target" ? byTarget : byPoints;
      var second = rules.exchange_order === "target" ? byPoints : byTarget;
      var nearness = function (seat) {
        return position(seat, receiver);
      };
      return givers
        .slice()
        .sort(function (a, b) {
          return first(b) - first(a) || second(b) - second(a) || nearness(a) - nearness(b);
        })
        .map(function (seat) {
          return { from: seat, to: receiver, cards: points[seat] };
        });
    }
    return [];
  }

  /* The card exchange before the next hand; with `contract` null, what is due if a suit is
   * called (engine Game.exchange_due). */
  function exchangeDue(rules, state, contract) {
    if (rules.exchange === "never" || !state.last) return [];
    if (contract && rules.exchange_skipped_after.indexOf(contract) >= 0) return [];
    return transfers(rules, state.last.points, state.last.targets);
  }

  /* The next deal as the engine's state names it (`next` of `python -m engine replay`), or
   * null once the game is over. */
  function upcoming(rules, state) {
    if (state.end) return null;
    var caller = callerOf(rules, state.dealer);
    return {
      deal: state.deal,
      hand: state.hand,
      dealer: state.dealer,
      targets: targetsBySeat(rules, state.dealer),
      caller: caller,
      allowed_calls: allowedCalls(rules, state.passes_left, state.called, caller),
      exchange: exchangeDue(rules, state, null),
    };
  }

  function isCount(value) {
    return typeof value === "number" && isFinite(value) && Math.floor(value) === value && value >= 0;
  }

  /* Whether three counts are a hand's tricks: whole, not negative, adding up. */
  function tricksFit(rules, tricks) {
    if (!Array.isArray(tricks) || tricks.length !== 3 || !tricks.every(isCount)) return false;
    return tricks[0] + tricks[1] + tricks[2] === rules.tricks;
  }

  function endAfter(rules, hand, totals, tricks, called) {
    if (rules.instant_win_tricks !== null && Math.max.apply(null, tricks) >= rules.instant_win_tricks) {
      return "instant_win";
    }
    if (rules.goal !== null && Math.max.apply(null, totals) >= rules.goal) return "goal";
    if (rules.hands !== null && hand >= rules.hands) return "hands";
    if (rules.each_call_once) {
      var none = [0, 1, 2].every(function (seat) {
        return allowedCalls(rules, [0, 0, 0], called, seat).length === 0;
      });
      if (none) return "calls";
    }
    return null;
  }

  /* The state after one more deal ({calls, tricks}); an Error for a deal the rules refuse. */
  function play(rules, state, deal) {
    if (state.end) throw new Error("the game is already finished: no more deals");
    var calls = auction(rules, state, deal.calls || []);
    if (calls.error) throw new Error(calls.error);
    if (!calls.finished) throw new Error("the calls stop before a contract or a redeal");
    var next = copy(state);
    next.deal += 1;
    next.passes_left = calls.passes_left;
    next.called = calls.called.map(function (names) {
      return names.slice().sort();
    });
    if (calls.redeal) {
      if (deal.tricks) throw new Error("a redeal has no tricks");
      return next; // the same dealer deals again
    }
    if (!tricksFit(rules, deal.tricks)) throw new Error("the tricks must add up to " + rules.tricks);
    var targets = targetsBySeat(rules, state.dealer);
    var sign = rules.inverting.indexOf(calls.contract.call) >= 0 ? -1 : 1;
    var points = [0, 1, 2].map(function (seat) {
      return sign * (deal.tricks[seat] - targets[seat]);
    });
    next.totals = [0, 1, 2].map(function (seat) {
      return state.totals[seat] + points[seat];
    });
    next.last = { points: points, targets: targets };
    next.end = endAfter(rules, state.hand, next.totals, deal.tricks, next.called);
    next.hand += 1;
    next.dealer = next.end ? null : nextSeat(state.dealer);
    return next;
  }

  /* The state after the hands kept on the phone, oldest first. */
  function replay(rules, state, deals) {
    return deals.reduce(function (now, deal) {
      return play(rules, now, deal);
    }, state);
  }

  return {
    allowedCalls: allowedCalls,
    auction: auction,
    exchangeDue: exchangeDue,
    play: play,
    replay: replay,
    targetsBySeat: targetsBySeat,
    transfers: transfers,
    tricksFit: tricksFit,
    upcoming: upcoming,
  };
});
