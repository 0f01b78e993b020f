/* "built … ago" on a page: words each time[data-built] again every 30 s and when htmx swaps
 * a part in, from its datetime, the phone's clock measured against the server's time this
 * script's tag carries (data-server-now), the page's language and the patterns the server
 * translated (data-built-pattern, data-built-just-now); static/js/built/ago.js does the
 * sums. It never asks the server. Without it the page shows the words as the server rendered
 * them, right when the page came.
 */
(function () {
  "use strict";

  var Ago = window.BuiltAgo;
  var script = document.currentScript;
  if (!Ago) return;
  var offset = Ago.offset(script ? script.getAttribute("data-server-now") : null, Date.now());
  var language = document.documentElement.lang;

  function show(time) {
    var text = Ago.words(time.getAttribute("datetime"), Date.now(), offset, language, {
      pattern: time.getAttribute("data-built-pattern"),
      justNow: time.getAttribute("data-built-just-now"),
    });
    if (text && time.textContent !== text) time.textContent = text;
  }

  function tick() {
    var times = document.querySelectorAll("time[data-built]");
    for (var i = 0; i < times.length; i++) show(times[i]);
  }

  tick();
  window.setInterval(tick, 30000);
  document.addEventListener("htmx:afterSwap", tick);
})();
