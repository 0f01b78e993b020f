/* The keeper's page without a connection (templates/scoring/_offline.html holds its words).
 *
 * A hand entered while the phone is offline, or whose POST fails on the network, is kept in
 * localStorage with its deal number and sent, oldest first, through the JSON API when the
 * connection returns: POST /api/games/{id}/deals with the table's token and "deal": n. The
 * API records the same deal sent twice once (200) and refuses a different one (409), so a
 * resend is safe. Each hand also carries "version": the game's version the page showed when
 * the hand was entered (#game's data-version); a hand whose deal another phone changed or
 * undid since is refused (409) rather than bringing the undone deal back. A 409 about the
 * deal (error.current: the deal as recorded now, or null) stops the queue and shows both
 * versions, one tap keeps either ("keep mine" is sent with the version that 409 answered, the
 * one the keeper has now seen); any other refusal stops it too, with the message and a
 * button to discard that hand: nothing is ever dropped without the keeper saying so. While hands wait, the page cannot ask the server
 * what comes next, so its own form asks for each next hand (the call, then the tricks) and the
 * sheet shows the waiting hands. The service worker (scoring/offline.py) keeps a copy of the
 * page and its files so it loads offline once it was opened.
 */
(function () {
  "use strict";

  var root = document.getElementById("offline");
  var dataNode = document.getElementById("offline-data");
  if (!root || !dataNode || !window.localStorage) return;
  var data = JSON.parse(dataNode.textContent);
  var KEY = "offline-queue:" + root.dataset.game;
  var entryForm = root.querySelector(".offline-entry");
  var sending = false;
  var stopped = false; // a refusal waits for the keeper's choice
  var sentSome = false;
  var entry = null; // the hand being entered on the page's own form: {deal, calls}
  var clash = null; // the clash shown: {version: the game's now, undone: deal n not recorded}

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (match, name) {
      return name in values ? String(values[name]) : match;
    });
  }

  function load() {
    try {
      return JSON.parse(localStorage.getItem(KEY)) || [];
    } catch (error) {
      return [];
    }
  }

  function save(queue) {
    localStorage.setItem(KEY, JSON.stringify(queue));
  }

  /* The calls the table's call form offered (value and words), remembered on the phone for
   * the page's own form: offline, the server cannot say which calls are open. */
  var CALLS_KEY = "offline-calls:" + root.dataset.game;

  function knownCalls() {
    try {
      return JSON.parse(localStorage.getItem(CALLS_KEY)) || [];
    } catch (error) {
      return [];
    }
  }

  function rememberCalls() {
    var calls = knownCalls();
    document.querySelectorAll('#game .call-form button[name="call"]').forEach(function (button) {
      var words = button.querySelector(".call-name");
      var known = calls.some(function (call) {
        return call.value === button.value;
      });
      if (!known) {
        calls.push({ value: button.value, label: (words || button).textContent.trim() });
      }
    });
    localStorage.setItem(CALLS_KEY, JSON.stringify(calls));
    var row = entryForm.querySelector(".offline-call-buttons");
    row.textContent = "";
    calls.forEach(function (call) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "call" + (call.value === "pass" ? " call-pass" : "");
      button.value = call.value;
      button.textContent = call.label;
      row.append(button);
    });
  }

  /* A call's words, as the table's call form said them. */
  function label(call) {
    var known = knownCalls().filter(function (item) {
      return item.value === call;
    });
    return known.length ? known[0].label : call;
  }

  /* A hand in words: its calls, then each seat's tricks ("Hearts · Ana 4, Boris 7, Vera 5"). */
  function words(calls, tricks) {
    var text = calls.map(label).join(", ");
    if (tricks) {
      text +=
        " · " +
        tricks
          .map(function (count, seat) {
            return data.names[seat] + " " + count;
          })
          .join(", ");
    }
    return text;
  }

  function serverNext() {
    var input = document.querySelector('#game input[name="deal"]');
    var number = parseInt(input ? input.value : root.dataset.next, 10);
    return isNaN(number) ? null : number;
  }

  /* The game's version the page shows (the server's last word): each kept hand is made
   * against it. */
  function pageVersion() {
    var game = document.getElementById("game");
    var version = parseInt(game ? game.dataset.version : "", 10);
    return isNaN(version) ? null : version;
  }

  function nextNumber() {
    var queue = load();
    return queue.length ? queue[queue.length - 1].deal + 1 : serverNext();
  }

  function isRedeal(calls) {
    return calls.length === 3 && calls.every(function (call) {
      return call === "pass";
    });
  }

  function callsOf(text) {
    return (text || "").split(",").filter(function (call) {
      return call.trim() !== "";
    });
  }

  function tricksOf(form) {
    var tricks = [];
    for (var seat = 0; seat < 3; seat++) {
      var field = form.get("tricks_" + seat);
      tricks.push(field === null || field === "" ? NaN : parseInt(field, 10));
    }
    return tricks;
  }

  function tricksFit(tricks) {
    var sum = 0;
    for (var i = 0; i < tricks.length; i++) {
      if (isNaN(tricks[i]) || tricks[i] < 0) return false;
      sum += tricks[i];
    }
    return sum === parseInt(entryForm.dataset.total, 10);
  }

  /* --- the page: banner, waiting rows in the sheet, the form for the next hand ---------- */

  function render() {
    rememberCalls();
    var queue = load();
    var offline = !navigator.onLine;
    var banner = root.querySelector(".offline-banner");
    banner.textContent = queue.length
      ? fill(queue.length === 1 ? root.dataset.one : root.dataset.many, { n: queue.length })
      : "";
    banner.hidden = !queue.length;
    root.querySelector(".offline-note").hidden = !offline;
    if (queue.length && !entry) entry = { deal: nextNumber(), calls: [] };
    var entering = entry !== null;
    root.hidden = !(queue.length || offline || entering || stopped);
    // While hands wait, the server's next step (and undoing its last deal) is out of date.
    document.querySelectorAll("#game section.deal, #game .table-actions").forEach(function (node) {
      node.hidden = entering;
    });
    // A refusal is settled first: the next hands wait behind it.
    entryForm.hidden = !entering || entry.deal === null || stopped;
    if (entering) renderEntry();
    renderRows(queue);
  }

  function renderEntry() {
    entryForm.querySelector(".offline-deal").textContent = fill(root.dataset.deal, { n: entry.deal });
    entryForm.querySelector(".offline-calls").textContent = entry.calls.map(label).join(", ");
    var contract = entry.calls.length && entry.calls[entry.calls.length - 1] !== "pass";
    entryForm.querySelector(".offline-call").hidden = contract;
    entryForm.querySelector(".offline-tricks").hidden = !contract;
  }

  function renderRows(queue) {
    var body = document.querySelector("#game .sheet-section table tbody");
    if (!body) return;
    body.querySelectorAll("tr.offline-row").forEach(function (row) {
      row.remove();
    });
    queue.forEach(function (hand) {
      var head = document.createElement("tr");
      head.className = "deal-row offline-row";
      var number = document.createElement("td");
      number.className = "number";
      number.textContent = hand.deal;
      var call = document.createElement("td");
      call.colSpan = 3;
      call.textContent = hand.calls.map(label).join(", ") + " · " + root.dataset.waiting;
      head.append(number, call);
      body.append(head);
      if (!hand.tricks) return;
      number.rowSpan = 2;
      var counts = document.createElement("tr");
      call.className = "call";
      counts.className = "score-row offline-row";
      hand.tricks.forEach(function (count) {
        var cell = document.createElement("td");
        cell.textContent = count;
        counts.append(cell);
      });
      body.append(counts);
    });
  }

  /* --- entering hands on the phone ------------------------------------------------------ */

  function keep(deal, calls, tricks) {
    var queue = load();
    var hand = { deal: deal, calls: calls, version: pageVersion() };
    if (tricks) hand.tricks = tricks;
    queue.push(hand);
    save(queue);
    entry = { deal: deal + 1, calls: [] };
    entryForm.reset();
    render();
    flush();
  }

  function takeCall(call) {
    entry.calls.push(call);
    if (isRedeal(entry.calls)) keep(entry.deal, entry.calls, null);
    else render();
    if (call !== "pass") entryForm.querySelector("input").focus();
  }

  entryForm.addEventListener("click", function (event) {
    var button = event.target.closest(".offline-call button[value]");
    if (button) takeCall(button.value);
  });

  entryForm.addEventListener("input", function () {
    var boxes = entryForm.querySelectorAll('input[type="number"]');
    var given = [];
    boxes.forEach(function (box) {
      if (box.value !== "" && !box.dataset.auto) given.push(parseInt(box.value, 10));
    });
    var open = Array.prototype.filter.call(boxes, function (box) {
      return box.value === "" || box.dataset.auto;
    });
    if (given.length === 2 && open.length === 1) {
      var rest = parseInt(entryForm.dataset.total, 10) - given[0] - given[1];
      if (rest >= 0) {
        open[0].value = String(rest);
        open[0].dataset.auto = "1";
      }
    }
  });

  entryForm.addEventListener("keydown", function (event) {
    if (event.target.dataset) delete event.target.dataset.auto;
  });

  entryForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var tricks = tricksOf(new FormData(entryForm));
    var sum = entryForm.querySelector(".offline-sum");
    if (!tricksFit(tricks)) {
      sum.classList.add("error");
      sum.setAttribute("role", "alert");
      return;
    }
    sum.classList.remove("error");
    sum.removeAttribute("role");
    keep(entry.deal, entry.calls, tricks);
  });

  /* The page's own forms, offline or while hands wait: kept here instead of posted (before
   * htmx sees the submit). Fields are read by name, whatever the form's look. */
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!form.closest || !form.closest("#game")) return;
      var isCall = form.classList.contains("call-form");
      if (!isCall && !form.classList.contains("tricks-form")) return;
      if (navigator.onLine && !load().length) return;
      event.preventDefault();
      event.stopPropagation();
      var fields = new FormData(form);
      if (event.submitter && event.submitter.name) {
        fields.set(event.submitter.name, event.submitter.value);
      }
      takeForm(form, fields, isCall);
    },
    true
  );

  function takeForm(form, fields, isCall) {
    var deal = parseInt(fields.get("deal"), 10);
    var calls = callsOf(fields.get("calls"));
    if (isNaN(deal)) return;
    if (isCall) {
      entry = { deal: deal, calls: calls };
      takeCall(fields.get("call"));
      return;
    }
    var tricks = tricksOf(fields);
    if (!tricksFit(tricks)) return;
    keep(deal, calls, tricks);
  }

  /* A POST the network lost (online, yet no answer): keep that hand the same way. */
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form");
    if (!form || !form.closest("#game")) return;
    var isCall = form.classList.contains("call-form");
    if (!isCall && !form.classList.contains("tricks-form")) return;
    var fields = new FormData(form);
    var sent = event.detail.requestConfig && event.detail.requestConfig.parameters;
    var call = sent && (typeof sent.get === "function" ? sent.get("call") : sent.call);
    if (isCall && call) fields.set("call", call);
    takeForm(form, fields, isCall);
  });

  /* --- sending, oldest first ------------------------------------------------------------ */

  function request(method, url, body) {
    return fetch(url, {
      method: method,
      credentials: "omit",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + data.token },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response
        .json()
        .catch(function () {
          return {};
        })
        .then(function (answer) {
          return { status: response.status, body: answer };
        });
    });
  }

  function bodyOf(hand) {
    var body = { deal: hand.deal, calls: hand.calls };
    if (hand.tricks) body.tricks = hand.tricks;
    if (typeof hand.version === "number") body.version = hand.version;
    return body;
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

  function flush() {
    if (sending || stopped || !navigator.onLine) return;
    var queue = load();
    if (!queue.length) {
      // All sent: the server says what comes next, unless a hand is half entered.
      if (sentSome && (!entry || !entry.calls.length)) window.location.reload();
      return;
    }
    sending = true;
    request("POST", data.api, bodyOf(queue[0])).then(
      function (answer) {
        sending = false;
        if (answer.status === 200 || answer.status === 201) sent();
        else refused(queue[0], answer);
      },
      function () {
        sending = false; // no connection after all: tried again later
      }
    );
  }

  /* A 409 about this hand's deal names the deal as recorded now (error.current.deal, null
   * when it is not on the sheet: undone on another phone): both are shown side by side. */
  function refused(hand, answer) {
    stopped = true;
    var current = answer.body.error && answer.body.error.current;
    if (answer.status === 409 && current && current.deal !== undefined) {
      var recorded = current.deal;
      clash = { version: answer.body.version, undone: recorded === null };
      var box = root.querySelector(".offline-clash");
      var heading = box.querySelector(".offline-clash-heading");
      var text = clash.undone ? heading.dataset.undone : heading.dataset.text;
      heading.textContent = fill(text, { n: hand.deal });
      var shown = box.querySelector(".offline-recorded");
      shown.textContent = clash.undone ? shown.dataset.undone : words(recorded.calls, recorded.tricks);
      var keepRecorded = box.querySelector(".offline-keep-recorded");
      keepRecorded.textContent = clash.undone ? keepRecorded.dataset.undone : keepRecorded.dataset.text;
      box.querySelector(".offline-mine").textContent = words(hand.calls, hand.tricks);
      box.hidden = false;
    } else {
      var error = answer.body.error || {};
      root.querySelector(".offline-error-text").textContent =
        fill(root.dataset.deal, { n: hand.deal }) + ": " + (error.message || answer.status);
      root.querySelector(".offline-error").hidden = false;
    }
    render();
  }

  root.querySelector(".offline-keep-recorded").addEventListener("click", sent);
  root.querySelector(".offline-discard").addEventListener("click", sent);
  /* Keep mine: sent again against the version the clash showed, the keeper having seen the
   * deal as it is now; a correction of deal n (PUT), or, undone meanwhile, deal n anew. */
  root.querySelector(".offline-keep-mine").addEventListener("click", function () {
    var hand = load()[0];
    if (!hand || !clash) return;
    var body = bodyOf(hand);
    body.version = clash.version;
    var method = clash.undone ? "POST" : "PUT";
    var url = clash.undone ? data.api : data.api + "/" + hand.deal;
    request(method, url, body).then(function (answer) {
      if (answer.status === 200 || answer.status === 201) sent();
      else refused(hand, answer);
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
    render();
    refreshCopy();
  });
  window.setInterval(flush, 5000);
  render();
  flush();
})();
