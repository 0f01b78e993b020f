/* The table page's small helpers. Loaded with `defer` (no inline scripts), and written with
 * delegated events so that it keeps working after htmx swaps the page's partial.
 *
 * Tricks entry: checks the sum of the three counts as you type, and once two counts are
 * typed fills in the third (total minus the two), marking it as filled in so that a later
 * change of the typed ones updates it. Typing into the filled-in field makes it yours, and
 * replaces the filled-in count instead of adding to it ("5", then 6, is 6, never 56): the first
 * key typed after tapping into a count (or into a filled-in one) starts it afresh.
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

  function update(form, changed) {
    var total = parseInt(form.dataset.total, 10);
    var inputs = Array.prototype.slice.call(form.querySelectorAll("input.tricks-input"));
    var status = form.querySelector(".tricks-sum");
    if (!status || inputs.length !== 3 || isNaN(total)) return;
    if (changed && inputs.indexOf(changed) >= 0) delete changed.dataset.auto;

    var typed = inputs.filter(function (input) {
      return input.value.trim() !== "" && !input.dataset.auto;
    });
    var others = inputs.filter(function (input) {
      return typed.indexOf(input) < 0;
    });
    var filled = null;
    if (typed.length === 2 && others.length === 1) {
      var a = count(typed[0]);
      var b = count(typed[1]);
      var rest = a === null || b === null ? -1 : total - a - b;
      if (rest >= 0) {
        others[0].value = String(rest);
        others[0].dataset.auto = "1";
        filled = others[0];
      } else if (others[0].dataset.auto) {
        others[0].value = "";
      }
    } else {
      others.forEach(function (input) {
        if (input.dataset.auto) {
          input.value = "";
          delete input.dataset.auto;
        }
      });
    }

    var values = inputs.map(count);
    var known = values.filter(function (value) {
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
    inputs.forEach(function (input) {
      input.setAttribute("aria-invalid", wrong ? "true" : "false");
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

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (!target || !target.closest) return;
    var form = target.closest("form.tricks-form");
    if (form) update(form, target);
  });

  function refresh() {
    document.querySelectorAll("form.tricks-form").forEach(function (form) {
      var any = Array.prototype.some.call(form.querySelectorAll("input.tricks-input"), function (input) {
        return input.value.trim() !== "";
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
