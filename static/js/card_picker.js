/* The referee's card picker: a tapped card is written into its text field (the field the
 * server reads), an untapped one taken out of it, and typing in the field ticks the cards it
 * names. Once this runs the boxes are no longer sent (their names go): the text field alone
 * says which cards were chosen. Without this script the boxes are sent and the server adds
 * them to the typed text (scoring.presenters.card_picker). */
(function () {
  "use strict";

  var SPLIT = /[\s,]+/;

  function code(word) {
    var text = word.trim().toUpperCase();
    return text.charAt(0) === "T" && text.length === 2 ? "10" + text.charAt(1) : text;
  }

  function words(field) {
    return field.value.split(SPLIT).filter(function (word) {
      return word !== "";
    });
  }

  function boxes(picker) {
    return Array.prototype.slice.call(picker.querySelectorAll("input"));
  }

  function tickFromText(picker, field) {
    var held = words(field).map(code);
    boxes(picker).forEach(function (box) {
      box.checked = held.indexOf(box.value) !== -1;
    });
  }

  function tapped(picker, field, box) {
    var rest = words(field).filter(function (word) {
      return code(word) !== box.value;
    });
    if (picker.hasAttribute("data-single")) {
      field.value = box.checked ? box.value : "";
    } else {
      field.value = (box.checked ? rest.concat([box.value]) : rest).join(" ");
    }
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function start(picker) {
    var field = document.getElementById(picker.getAttribute("data-card-picker"));
    if (!field) return;
    var picked = boxes(picker)
      .filter(function (box) {
        return box.checked;
      })
      .map(function (box) {
        return box.value;
      });
    var held = words(field).map(code);
    picked.forEach(function (card) {
      if (held.indexOf(card) === -1) field.value = (field.value.trim() + " " + card).trim();
    });
    boxes(picker).forEach(function (box) {
      box.removeAttribute("name");
      box.addEventListener("change", function () {
        tapped(picker, field, box);
      });
    });
    field.addEventListener("input", function () {
      tickFromText(picker, field);
    });
    tickFromText(picker, field);
  }

  function startAll() {
    document.querySelectorAll("[data-card-picker]").forEach(start);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", startAll);
  } else {
    startAll();
  }
})();
