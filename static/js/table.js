/* The table page's small helpers. Loaded with `defer` (no inline scripts), and written with
 * delegated events so that it keeps working after htmx swaps the page's partial.
 *
 * The trick pad: each seat but the last taps its count on a row of chips; once those are
 * tapped the last seat's box is filled in with the rest (the tricks of a hand minus the
 * tapped ones) and marked as filled in, so that another chip updates it. The sum is said as
 * it changes. The box can still be typed into: the first key typed after tapping into it
 * replaces the count instead of adding to it ("5", then 6, is 6, never 56). A form of three
 * typed boxes (older pages) works the same: two typed, the third filled in.
 *
 * The correction page's form is the same pad (form.tricks-form), so it works the same there.
 */
(function () {
  "use strict";

  function count(input) {
    var text = input.value.trim();
    if (!/^\d+$/.test(text)) return null;
    return parseInt(text, 10);
  }

  function seatName(input) {
    var label = input.form.querySelector('label[for="' + input.id + '"] .seat-name');
    return label ? label.textContent.trim() : "";
  }

  /* The seats' counts in seat order: for a row of chips its checked chip (or nothing), for a
   * box what is typed in it. */
  function seats(form) {
    var byName = {};
    var order = [];
    form.querySelectorAll("input.tricks-input, input.chip-input").forEach(function (input) {
      if (!(input.name in byName)) order.push(input.name);
      if (input.type === "radio") {
        if (input.checked) byName[input.name] = { value: parseInt(input.value, 10), box: null };
        else if (!(input.name in byName)) byName[input.name] = null;
      } else {
        byName[input.name] = { value: count(input), box: input };
      }
    });
    return order.map(function (name) {
      return byName[name] || { value: null, box: null };
    });
  }

  function update(form, changed) {
    var total = parseInt(form.dataset.total, 10);
    var status = form.querySelector(".tricks-sum");
    var boxes = Array.prototype.slice.call(form.querySelectorAll("input.tricks-input"));
    var all = seats(form);
    if (!status || all.length !== 3 || isNaN(total)) return;
    if (changed && boxes.indexOf(changed) >= 0) delete changed.dataset.auto;

    // What the keeper gave (a chip, a typed box) and the boxes left to fill in.
    var given = all.filter(function (seat) {
      return seat.value !== null && !(seat.box && seat.box.dataset.auto);
    });
    var open = boxes.filter(function (box) {
      return box.value.trim() === "" || box.dataset.auto;
    });
    var filled = null;
    if (given.length === 2 && open.length === 1) {
      var rest = total - given[0].value - given[1].value;
      if (rest >= 0) {
        open[0].value = String(rest);
        open[0].dataset.auto = "1";
        filled = open[0];
      } else if (open[0].dataset.auto) {
        open[0].value = "";
      }
    } else {
      open.forEach(function (box) {
        if (box.dataset.auto) {
          box.value = "";
          delete box.dataset.auto;
        }
      });
    }

    var known = seats(form)
      .map(function (seat) {
        return seat.value;
      })
      .filter(function (value) {
        return value !== null;
      });
    var sum = known.reduce(function (acc, value) {
      return acc + value;
    }, 0);
    var complete = known.length === 3;
    var wrong = sum > total || (complete && sum !== total);
    var text = (status.dataset.text || "").replace("{sum}", sum).replace("{total}", total);
    if (filled && status.dataset.textFill) {
      text +=
        " " +
        status.dataset.textFill.replace("{name}", seatName(filled)).replace("{count}", filled.value);
    }
    status.textContent = text;
    status.classList.toggle("ok", complete && sum === total);
    status.classList.toggle("wrong", wrong);
    boxes.forEach(function (box) {
      box.setAttribute("aria-invalid", wrong ? "true" : "false");
    });
  }

  function isCount(target) {
    return target && target.matches && target.matches("form input.tricks-input");
  }

  // A count is one or two digits: the first key typed after tapping into it starts it
  // afresh, as a selected text would (number inputs cannot be reliably selected).
  document.addEventListener("focusin", function (event) {
    var input = event.target;
    if (!isCount(input)) return;
    input.dataset.fresh = "1";
    setTimeout(function () {
      if (document.activeElement === input && input.select) input.select();
    }, 0);
  });

  document.addEventListener("focusout", function (event) {
    if (isCount(event.target)) delete event.target.dataset.fresh;
  });

  document.addEventListener("beforeinput", function (event) {
    var input = event.target;
    if (!isCount(input)) return;
    var type = String(event.inputType || "");
    var fresh = input.dataset.fresh || input.dataset.auto;
    delete input.dataset.fresh;
    if (fresh && type.indexOf("insert") === 0) input.value = "";
  });

  function changed(event) {
    var target = event.target;
    if (!target || !target.closest) return;
    var form = target.closest("form.tricks-form");
    if (form) update(form, target);
  }

  document.addEventListener("input", changed);
  document.addEventListener("change", changed);

  /* The keeper's page is brought up to date by its poll (a GET that swaps the game's part)
   * while the keeper may be tapping chips: those tapped for the same deal and calls stay
   * tapped in the fresh part. */
  var tapped = null;

  function isGet(event) {
    var config = (event.detail && event.detail.requestConfig) || {};
    return String(config.verb || "").toLowerCase() === "get";
  }

  function valueOf(form, name) {
    var input = form.querySelector('input[name="' + name + '"]');
    return input ? input.value : null;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    tapped = null;
    var form = document.querySelector("#game form.tricks-form");
    if (!form || !isGet(event)) return;
    tapped = {
      deal: valueOf(form, "deal"),
      calls: valueOf(form, "calls"),
      ids: Array.prototype.map.call(form.querySelectorAll("input.chip-input:checked"), function (input) {
        return input.id;
      }),
    };
  });

  function restoreTapped() {
    var kept = tapped;
    tapped = null;
    var form = document.querySelector("#game form.tricks-form");
    if (!kept || !form) return;
    if (valueOf(form, "deal") !== kept.deal || valueOf(form, "calls") !== kept.calls) return;
    kept.ids.forEach(function (id) {
      var input = document.getElementById(id);
      if (input && form.contains(input)) input.checked = true;
    });
  }

  function refresh() {
    restoreTapped();
    document.querySelectorAll("form.tricks-form").forEach(function (form) {
      var any = seats(form).some(function (seat) {
        return seat.value !== null;
      });
      if (any) update(form, null);
    });
  }

  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("htmx:afterSwap", refresh);

  /* After the score-keeper's own step (a post) is swapped in, bring what comes next into
   * view: an error (or two phones' clash) first, else what is due now. The watchers' polls
   * (gets) leave the page where the reader has it. */
  document.addEventListener("htmx:afterSwap", function (event) {
    var config = (event.detail && event.detail.requestConfig) || {};
    if (String(config.verb || "").toLowerCase() !== "post") return;
    var game = document.getElementById("game");
    if (!game || !game.scrollIntoView) return;
    var error = game.querySelector('[role="alert"]');
    if (error) {
      error.scrollIntoView({ block: "center" });
      return;
    }
    // During a deal, what is due now starts at the top (#now): the calls so far, the card
    // exchange (what must change hands, once the call is made), then the call buttons or
    // the tricks. After the game: the tie-break, the confirmation or the result.
    var now = game.querySelector("#now");
    if (now) {
      now.scrollIntoView({ block: "start" });
      return;
    }
    var next = game.querySelector(".last-tricks-form, .confirm-form, .confirmed, .result");
    if (next) next.scrollIntoView({ block: "nearest" });
  });
})();
