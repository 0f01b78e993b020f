/* The keeper's page without a connection: the page around the pure rules (templates/scoring/
 * _offline.html holds the banner, the refusal and the clash; docs/offline.md).
 *
 * Offline, or while hands wait on the phone, the server's step is out of date: the page shows
 * the next hand itself, in the table page's own markup (section.deal: seat cards, the calls
 * so far, the card exchange, the call buttons with their suits, then the trick pad), worked
 * out on the phone from the engine's state the page carries (#offline-state, inside #game)
 * stepped on over the hands kept (rules.js) and worded as the table page words it
 * (deal_view.js). Each hand kept is a row of the score sheet, as the recorded ones are.
 *
 * The hands go, oldest first, through the JSON API when the connection returns; what each
 * answer means (sent, clash, refused, retry) is queue.js's. Nothing is dropped without a tap.
 * The service worker (scoring/offline.py) keeps a copy of the page and its files.
 */
(function () {
  "use strict";

  var root = document.getElementById("offline");
  var dataNode = document.getElementById("offline-data");
  var Rules = window.OfflineRules;
  var Words = window.OfflineDealView;
  var Queue = window.OfflineQueue;
  if (!root || !dataNode || !window.localStorage || !Rules || !Words || !Queue) return;
  var data = JSON.parse(dataNode.textContent);
  var rules = data.rules;
  var words = data.words;
  var fill = Words.fill;
  var KEY = "offline-queue:" + root.dataset.game;
  var sending = false;
  var stopped = false; // a refusal or a clash waits for the keeper's choice
  var sentSome = false;
  var entry = null; // the deal being entered on the phone: {calls}
  var clash = null; // the clash shown (queue.js meaning)
  var shownKey = null; // the deal shown, so that a render keeps a half-tapped pad

  function load() {
    return Queue.parse(localStorage.getItem(KEY));
  }

  function save(queue) {
    localStorage.setItem(KEY, JSON.stringify(queue));
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* The engine's state the page shows (the server's last word), and the calls of its deal. */
  function server() {
    var node = document.getElementById("offline-state");
    if (!node) return null;
    try {
      return JSON.parse(node.textContent);
    } catch (error) {
      return null;
    }
  }

  /* The game's version the page shows: each kept hand is made against it. */
  function pageVersion() {
    var game = document.getElementById("game");
    return parseInt(game ? game.dataset.version : "", 10);
  }

  /* The state after the kept hands, with each hand's row; `broken` when the hands do not
   * follow the page's state (a copy of the page older than the hands, a hand the rules
   * refuse): then the page asks for no more hands until the server has answered. */
  function stepped(queue) {
    var shown = server();
    if (!shown) return { broken: true, rows: [] };
    var state = shown.state;
    var kept = queue.filter(function (hand) {
      return hand.deal >= shown.state.deal;
    });
    var rows = [];
    if (kept.length && kept[0].deal !== state.deal) return { broken: true, rows: rows };
    try {
      kept.forEach(function (hand) {
        var before = state;
        state = Rules.play(rules, state, hand);
        rows.push({ hand: hand, before: before, after: state });
      });
    } catch (error) {
      return { broken: true, rows: rows };
    }
    // The kept hands follow one another: the next deal the rules reach is the queue's.
    if (state.deal !== Queue.nextDeal(kept, shown.state.deal)) return { broken: true, rows: rows };
    return { state: state, rows: rows, calls: kept.length ? [] : shown.calls };
  }

  /* --- the next hand, as the table page shows it ---------------------------------------- */

  function seatName(seat, into) {
    var name = words.names[seat];
    var short = words.shorts[seat];
    if (short === name) {
      into.append(el("span", "seat-name", name));
      return;
    }
    var shown = el("span", "seat-name", short);
    shown.setAttribute("aria-hidden", "true");
    shown.title = name;
    into.append(shown, el("span", "visually-hidden", name));
  }

  function seatCard(seat) {
    var card = el("li", "seat-card" + (seat.to_call ? " to-call" : ""));
    seatName(seat.seat, card);
    var target = el("span", "seat-target");
    target.append(el("span", "label", words.target), " ", el("strong", "", String(seat.target)));
    var total = el("span", "seat-total");
    total.append(words.total + " ", el("strong", "", seat.total));
    card.append(" ", target, " ", total);
    if (seat.dealer || seat.caller) {
      var badges = el("span", "badges");
      if (seat.dealer) badges.append(el("span", "badge", words.deals));
      if (seat.caller) badges.append(el("span", "badge badge-caller", words.calls_first));
      card.append(" ", badges);
    }
    if (seat.passes_left !== null) card.append(" ", el("span", "seat-passes", seat.passes_text));
    return card;
  }

  function callButton(choice) {
    var button = el("button", "call" + (choice.is_pass ? " call-pass" : "") + (choice.red ? " red" : ""));
    button.type = "button";
    button.value = choice.value;
    if (choice.symbol) {
      var suit = el("span", "suit", choice.symbol);
      suit.setAttribute("aria-hidden", "true");
      button.append(suit);
    }
    button.append(el("span", "call-name", choice.label));
    return button;
  }

  function restartButton() {
    var button = el("button", "secondary offline-restart", words.change_call);
    button.type = "button";
    return button;
  }

  /* The trick pad, as the table page's (scoring.forms.TricksForm): chips for each seat but
   * the last, whose box is the rest; static/js/table.js fills it in and says the sum. */
  function trickPad(view) {
    var form = el("form", "tricks-form");
    form.dataset.total = String(rules.tricks);
    var heading = el("h3", "", words.tricks_taken);
    heading.id = "offline-tricks-heading";
    var pad = el("div", "trick-pad");
    view.seats.forEach(function (seat) {
      var hint = fill(words.pad_target, { n: seat.target });
      if (seat.seat < 2) {
        var chips = el("fieldset", "chips");
        chips.id = "offline-pad-" + seat.seat;
        var legend = el("legend");
        seatName(seat.seat, legend);
        legend.append(" ", el("span", "hint", hint));
        var row = el("div", "chip-row");
        for (var count = 0; count <= rules.tricks; count++) {
          var id = "offline-tricks_" + seat.seat + "_" + count;
          var chip = el("label", "chip" + (count === seat.target ? " chip-target" : ""));
          chip.htmlFor = id;
          var radio = el("input", "chip-input");
          radio.type = "radio";
          radio.name = "tricks_" + seat.seat;
          radio.value = String(count);
          radio.id = id;
          radio.required = true;
          radio.dataset.seat = String(seat.seat);
          chip.append(radio, el("span", "chip-count", String(count)));
          row.append(chip);
        }
        chips.append(legend, row);
        pad.append(chips);
      } else {
        var rest = el("div", "tricks-field tricks-rest");
        var label = el("label");
        label.htmlFor = "offline-tricks_2";
        seatName(seat.seat, label);
        label.append(" ", el("span", "hint", hint + " · " + words.rest));
        var box = el("input", "tricks-input");
        box.type = "number";
        box.name = "tricks_2";
        box.id = "offline-tricks_2";
        box.min = "0";
        box.max = String(rules.tricks);
        box.setAttribute("inputmode", "numeric");
        box.autocomplete = "off";
        box.dataset.seat = "2";
        rest.append(label, box);
        pad.append(rest);
      }
    });
    var sum = el("p", "tricks-sum", words.sum);
    sum.setAttribute("aria-live", "polite");
    sum.dataset.text = words.sum_live;
    sum.dataset.textFill = words.sum_fill;
    var actions = el("div", "form-actions");
    var keep = el("button", "primary", words.keep);
    keep.type = "submit";
    actions.append(keep, restartButton());
    form.append(heading, pad, sum, actions);
    return form;
  }

  function dealSection(view) {
    var section = el("section", "deal offline-deal");
    section.setAttribute("aria-labelledby", "offline-deal-heading");
    var heading = el("h2", "", view.over ? words.result : view.heading);
    heading.id = "offline-deal-heading";
    section.append(heading);
    if (view.over) {
      section.append(el("p", "notice", view.sentence));
      return section;
    }
    var seats = el("ul", "seats");
    view.seats.forEach(function (seat) {
      seats.append(seatCard(seat));
    });
    var now = el("div", "now");
    if (view.calls_made.length) {
      var made = el("ul", "calls-made");
      view.calls_made.forEach(function (call) {
        made.append(el("li", call.is_pass ? "" : "contract", call.sentence));
      });
      now.append(made);
    }
    if (view.exchange.note) {
      var exchange = el("div", "exchange");
      exchange.append(el("h3", "", words.heading_exchange), el("p", "", view.exchange.note));
      if (view.exchange.sentences.length) {
        var list = el("ul");
        view.exchange.sentences.forEach(function (sentence) {
          list.append(el("li", "", sentence));
        });
        exchange.append(list);
      }
      now.append(exchange);
    }
    if (view.contract) {
      now.append(trickPad(view));
    } else {
      var callHeading = el("h3", "", view.to_call);
      callHeading.id = "offline-call-heading";
      var form = el("form", "call-form offline-call-form");
      var buttons = el("div", "call-buttons");
      buttons.setAttribute("role", "group");
      buttons.setAttribute("aria-labelledby", "offline-call-heading");
      view.choices.forEach(function (choice) {
        buttons.append(callButton(choice));
      });
      form.append(buttons);
      if (view.calls_made.length) {
        var again = el("p");
        again.append(restartButton());
        form.append(again);
      }
      now.append(callHeading, form);
    }
    section.append(seats, now);
    return section;
  }

  function showDeal(at) {
    var game = document.getElementById("game");
    var old = game && game.querySelector("section.offline-deal");
    if (!at || !at.state) {
      if (old) old.remove();
      shownKey = null;
      return;
    }
    if (!entry) entry = { calls: at.calls.slice() };
    var view = Words.dealView(rules, at.state, entry.calls, words);
    if (view.calls_error) entry.calls = [];
    var key = JSON.stringify(view);
    if (old && key === shownKey) return;
    var section = dealSection(view);
    if (old) old.replaceWith(section);
    else {
      var before = game.querySelector("section.deal, section.result, .sheet-section");
      game.insertBefore(section, before);
    }
    shownKey = key;
  }

  /* --- the hands kept, as rows of the score sheet --------------------------------------- */

  function showRows(at) {
    var body = document.querySelector("#game table.sheet tbody");
    if (!body) return;
    body.querySelectorAll("tr.offline-row").forEach(function (row) {
      row.remove();
    });
    var empty = body.querySelector("tr:not(.deal-row):not(.score-row)");
    if (empty) empty.hidden = at.rows.length > 0;
    at.rows.forEach(function (step) {
      var row = Words.rowView(rules, step.before, step.hand, step.after, words);
      var head = el("tr", "deal-row offline-row" + (row.redeal ? " redeal" : ""));
      var number = el("td", "number", String(row.number));
      var call = el("td", "call");
      call.colSpan = 3;
      call.append(
        el("span", "call-text", row.call),
        el("span", "detail", row.dealer),
        el("span", "detail offline-waiting", words.row.waiting)
      );
      head.append(number, call);
      body.append(head);
      if (row.redeal) return;
      number.rowSpan = 2;
      var cells = el("tr", "score-row offline-row");
      row.cells.forEach(function (seat) {
        var cell = el("td", "seat");
        cell.append(el("span", "total", seat.total), el("span", "detail", seat.tricks + " · " + seat.points));
        cells.append(cell);
      });
      body.append(cells);
    });
    // The totals under the sheet: with the hands kept, as the seat cards say them.
    var last = at.rows.length ? at.rows[at.rows.length - 1].after : null;
    document.querySelectorAll("#game table.sheet tfoot td.seat").forEach(function (cell, seat) {
      if (!("server" in cell.dataset)) cell.dataset.server = cell.textContent;
      cell.textContent = last ? Words.signed(last.totals[seat]) : cell.dataset.server;
    });
  }

  /* --- the page: banner, the server's step or the phone's, the rows ---------------------- */

  function render() {
    var queue = load();
    var offline = !navigator.onLine;
    var banner = root.querySelector(".offline-banner");
    banner.textContent = queue.length
      ? fill(queue.length === 1 ? root.dataset.one : root.dataset.many, { n: queue.length })
      : "";
    banner.hidden = !queue.length;
    root.querySelector(".offline-note").hidden = !offline;
    root.hidden = !(queue.length || offline || stopped);
    // Offline or while hands wait, the server's step (and undoing its last deal) is out of
    // date: the phone shows the next hand instead. A refusal is settled first.
    var guiding = queue.length > 0 || offline || (entry !== null && entry.calls.length > 0);
    if (!guiding) entry = null; // back online, nothing kept: the server's step again
    document
      .querySelectorAll("#game section.deal:not(.offline-deal), #game .table-actions")
      .forEach(function (node) {
        node.hidden = guiding;
      });
    var at = stepped(queue);
    showDeal(guiding && !stopped ? at : null);
    showRows(at);
  }

  /* --- entering hands on the phone ------------------------------------------------------ */

  function keep(calls, tricks) {
    var queue = load();
    var at = stepped(queue);
    if (!at.state) return;
    queue.push(Queue.hand(at.state.deal, calls, tricks, pageVersion(), at.state.hand, Date.now()));
    save(queue);
    entry = { calls: [] };
    render();
    flush();
  }

  function takeCall(call) {
    var at = stepped(load());
    if (!at.state) return;
    var calls = entry.calls.concat([call]);
    var now = Rules.auction(rules, at.state, calls);
    if (now.error) return render();
    if (now.redeal) return keep(calls, null);
    entry.calls = calls;
    render();
    if (now.contract) {
      var pad = document.querySelector("#game section.offline-deal .now");
      if (pad && pad.scrollIntoView) pad.scrollIntoView({ block: "start" });
    }
  }

  /* Two chips tapped and the box (filled in by table.js, or typed): the three counts. */
  function tricksOf(fields) {
    var tricks = [0, 1, 2].map(function (seat) {
      var value = fields.get("tricks_" + seat);
      return value === null || String(value).trim() === "" ? null : parseInt(value, 10);
    });
    if (tricks[0] !== null && tricks[1] !== null && tricks[2] === null) {
      tricks[2] = rules.tricks - tricks[0] - tricks[1];
    }
    return tricks;
  }

  document.addEventListener("click", function (event) {
    var section = event.target.closest && event.target.closest("#game section.offline-deal");
    if (!section) return;
    var button = event.target.closest("button.call[value]");
    if (button) takeCall(button.value);
    if (event.target.closest(".offline-restart")) {
      entry = { calls: [] };
      render();
    }
  });

  /* The forms of the page, offline or while hands wait: kept here instead of posted
   * (before htmx sees the submit). The phone's own trick pad, and the server's call and
   * tricks forms when the connection went before the page knew it. */
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!form.closest || !form.closest("#game")) return;
      var mine = !!form.closest("section.offline-deal");
      var isCall = form.classList.contains("call-form");
      if (!mine && !isCall && !form.classList.contains("tricks-form")) return;
      if (!mine && navigator.onLine && !load().length) return;
      event.preventDefault();
      event.stopPropagation();
      var fields = new FormData(form);
      if (event.submitter && event.submitter.name) fields.set(event.submitter.name, event.submitter.value);
      if (mine) return keepTricks(form, entry.calls, tricksOf(fields));
      takeForm(fields, isCall);
    },
    true
  );

  function keepTricks(form, calls, tricks) {
    if (!Rules.tricksFit(rules, tricks)) {
      var sum = form && form.querySelector(".tricks-sum");
      if (sum) {
        sum.classList.add("wrong");
        sum.setAttribute("role", "alert");
      }
      return;
    }
    keep(calls, tricks);
  }

  function takeForm(fields, isCall) {
    var calls = (fields.get("calls") || "").split(",").filter(function (call) {
      return call.trim() !== "";
    });
    if (isCall) {
      entry = { calls: calls };
      takeCall(fields.get("call"));
      return;
    }
    keepTricks(null, calls, tricksOf(fields));
  }

  /* A POST the network lost (online, yet no answer): keep that step the same way. */
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form");
    if (!form || !form.closest("#game")) return;
    var isCall = form.classList.contains("call-form");
    if (!isCall && !form.classList.contains("tricks-form")) return;
    var fields = new FormData(form);
    var sent = event.detail.requestConfig && event.detail.requestConfig.parameters;
    var call = sent && (typeof sent.get === "function" ? sent.get("call") : sent.call);
    if (isCall && call) fields.set("call", call);
    takeForm(fields, isCall);
  });

  /* --- sending, oldest first ------------------------------------------------------------ */

  function request(asked) {
    return fetch(asked.url, {
      method: asked.method,
      credentials: "omit",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + data.token },
      body: JSON.stringify(asked.body),
    }).then(
      function (response) {
        return response
          .json()
          .catch(function () {
            return {};
          })
          .then(function (body) {
            return Queue.meaning(response.status, body);
          });
      },
      function () {
        return Queue.meaning(0, null); // no answer: tried again later
      }
    );
  }

  function sent() {
    var queue = load();
    queue.shift();
    save(queue);
    sentSome = true;
    stopped = false;
    clash = null;
    root.querySelector(".offline-clash").hidden = true;
    root.querySelector(".offline-error").hidden = true;
    render();
    flush();
  }

  function answered(hand, meaning) {
    if (meaning.kind === "sent") sent();
    else if (meaning.kind === "clash") showClash(hand, meaning);
    else if (meaning.kind === "refused") showRefusal(hand, meaning);
    // retry: the hand stays first and goes again with the next try
  }

  function flush() {
    if (sending || stopped || !navigator.onLine) return;
    var queue = load();
    if (!queue.length) {
      // All sent: the server says what comes next, unless a hand is half entered.
      if (sentSome && (!entry || !entry.calls.length)) window.location.reload();
      return;
    }
    sending = true;
    request(Queue.sending(queue[0], data.api, Date.now())).then(function (meaning) {
      sending = false;
      answered(queue[0], meaning);
    });
  }

  /* A hand in words: its calls, then each seat's tricks ("hearts · Ana 4, Boris 7, Vera 5"). */
  function handWords(calls, tricks) {
    var text = calls
      .map(function (call) {
        return words.calls[call] ? words.calls[call].label : call;
      })
      .join(", ");
    if (tricks) {
      text +=
        " · " +
        tricks
          .map(function (count, seat) {
            return words.names[seat] + " " + count;
          })
          .join(", ");
    }
    return text;
  }

  /* A kept hand as the players name it ("Hand 3"); a hand kept before the phone noted its
   * hand number is found among the rows the kept hands make. */
  function titleOf(kept) {
    if (typeof kept.hand !== "number") {
      var step = stepped(load()).rows.filter(function (row) {
        return row.hand.deal === kept.deal;
      })[0];
      kept = { tricks: kept.tricks, hand: step ? step.before.hand : kept.deal };
    }
    return Words.keptTitle(kept, words);
  }

  /* Both versions of the deal side by side (the one recorded now, or none: undone). */
  function showClash(hand, meaning) {
    stopped = true;
    clash = meaning;
    var box = root.querySelector(".offline-clash");
    var heading = box.querySelector(".offline-clash-heading");
    heading.textContent = fill(clash.undone ? heading.dataset.undone : heading.dataset.text, {
      deal: titleOf(hand),
    });
    var shown = box.querySelector(".offline-recorded");
    shown.textContent = clash.undone ? shown.dataset.undone : handWords(clash.recorded.calls, clash.recorded.tricks);
    var keepRecorded = box.querySelector(".offline-keep-recorded");
    keepRecorded.textContent = clash.undone ? keepRecorded.dataset.undone : keepRecorded.dataset.text;
    box.querySelector(".offline-mine").textContent = handWords(hand.calls, hand.tricks);
    box.hidden = false;
    render();
  }

  function showRefusal(hand, meaning) {
    stopped = true;
    root.querySelector(".offline-error-text").textContent =
      titleOf(hand) + ": " + meaning.message;
    root.querySelector(".offline-error").hidden = false;
    render();
  }

  root.querySelector(".offline-keep-recorded").addEventListener("click", sent);
  root.querySelector(".offline-discard").addEventListener("click", sent);
  root.querySelector(".offline-keep-mine").addEventListener("click", function () {
    var hand = load()[0];
    if (!hand || !clash) return;
    request(Queue.keepMine(hand, clash, data.api, Date.now())).then(function (meaning) {
      answered(hand, meaning);
    });
  });

  /* --- the service worker, and a copy of this page and its files right away ------------- */

  function copyPage() {
    if (!window.caches) return;
    var urls = [window.location.pathname];
    document.querySelectorAll('link[rel="stylesheet"], link[rel="icon"], script[src]').forEach(function (node) {
      urls.push(node.getAttribute("href") || node.getAttribute("src"));
    });
    caches.open(data.cache).then(function (cache) {
      urls.forEach(function (url) {
        cache.add(url).catch(function () {});
      });
    });
  }

  /* After each change the page shows (an htmx swap), the copy is brought up to date, so an
   * offline reload shows the deals recorded so far. */
  function refreshCopy() {
    if (!window.caches || !navigator.onLine) return;
    caches.open(data.cache).then(function (cache) {
      cache.add(window.location.pathname).catch(function () {});
    });
  }

  if ("serviceWorker" in navigator && navigator.onLine) {
    navigator.serviceWorker.register(root.dataset.sw).then(copyPage, function () {});
  }

  // A phone that stops keeping the score forgets its copy of the keeper's page.
  document.addEventListener("submit", function (event) {
    if (!event.target.classList || !event.target.classList.contains("release")) return;
    if (window.caches) {
      caches.open(data.cache).then(function (cache) {
        cache.delete(window.location.pathname);
      });
    }
  });

  window.addEventListener("online", function () {
    render();
    flush();
  });
  window.addEventListener("offline", render);
  document.addEventListener("htmx:afterSwap", function () {
    shownKey = null;
    render();
    refreshCopy();
  });
  window.setInterval(flush, 5000);
  render();
  flush();
})();
