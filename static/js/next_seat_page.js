/* My next seat: the page around static/js/next_seat.js (its rules). Asks for the event's
 * version, held by the server until it moves (or answered at once, then asked again at the
 * page's pace), fetches this phone's part when it moved and puts it in place; a new round
 * shows the banner, vibrates and beeps (WebAudio, once the page was touched: phones play no
 * sound before). A phone that wakes gives up the ask in flight and asks afresh. Without
 * JavaScript the page reloads itself (a meta refresh) and has a Refresh link. */
(function () {
  "use strict";
  var rules = window.NextSeat;
  var section = document.getElementById("next-seat");
  if (!rules || !section || !window.fetch) return;
  var banner = document.getElementById("next-banner");
  var versionUrl = section.getAttribute("data-version-url");
  var liveUrl = section.getAttribute("data-live-url");
  var failures = 0;
  var timer = null;
  var stopped = false;
  var asking = 0; // the number of the latest ask: an older one's answer is dropped
  var aborter = null;
  var audio = null;

  function unlock() {
    var Context = window.AudioContext || window.webkitAudioContext;
    try {
      if (!audio && Context) audio = new Context();
      if (audio && audio.state === "suspended") audio.resume();
    } catch (e) {
      audio = null;
    }
  }
  document.addEventListener("pointerdown", unlock, { passive: true });
  document.addEventListener("keydown", unlock);

  function beep() {
    if (!audio || audio.state !== "running") return;
    [0, 0.25].forEach(function (start) {
      var at = audio.currentTime + start;
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + 0.18);
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.2);
    });
  }

  function signal(n) {
    if (banner) {
      banner.textContent = rules.words(banner.getAttribute("data-words"), n);
      banner.hidden = false;
    }
    if (navigator.vibrate) navigator.vibrate(rules.VIBRATION);
    beep();
  }

  function show(html) {
    var holder = document.createElement("template");
    holder.innerHTML = html;
    var fresh = holder.content.getElementById("next-seat");
    if (!fresh) return false;
    var before = { round: section.getAttribute("data-round"), kind: section.getAttribute("data-kind") };
    section.replaceWith(fresh);
    section = fresh;
    var after = { round: fresh.getAttribute("data-round"), kind: fresh.getAttribute("data-kind") };
    var n = rules.announce(before, after);
    if (n !== null) signal(n);
    return true;
  }

  function fetchLive() {
    return fetch(liveUrl, { cache: "no-store", credentials: "same-origin" }).then(function (answer) {
      var verdict = rules.liveVerdict(answer.status);
      if (verdict === "reload") {
        stopped = true;
        window.location.reload();
        return false;
      }
      if (verdict !== "show") return false;
      return answer.text().then(show);
    });
  }

  function currentWait() {
    var wait = parseInt(section.getAttribute("data-wait-seconds"), 10);
    return rules.waitSeconds(section.getAttribute("data-kind"), isFinite(wait) ? wait : -1);
  }

  function poll() {
    clearTimeout(timer);
    if (aborter) aborter.abort();
    aborter = window.AbortController ? new AbortController() : null;
    var mine = ++asking;
    var wait = currentWait();
    var known = section.getAttribute("data-version");
    var options = {
      cache: "no-store",
      credentials: "same-origin",
      headers: { "If-None-Match": rules.ifNoneMatch(known) },
    };
    var giveUp = null;
    if (aborter) {
      options.signal = aborter.signal;
      giveUp = setTimeout(aborter.abort.bind(aborter), wait * 1000 + rules.GIVE_UP_MS);
    }
    var started = Date.now();
    var verdict = "retry";
    fetch(rules.askUrl(versionUrl, wait), options)
      .then(function (answer) {
        if (answer.status !== 200) return [answer.status, ""];
        return answer.text().then(function (body) {
          return [200, body];
        });
      })
      .then(function (got) {
        if (mine !== asking) return true; // a newer ask took its place: it decides
        verdict = rules.versionVerdict(got[0], got[1], known);
        if (verdict === "gone") stopped = true;
        if (verdict === "changed") return fetchLive();
        return verdict !== "retry";
      })
      .catch(function () {
        return false; // offline, or given up: a failure like any other
      })
      .then(function (ok) {
        clearTimeout(giveUp);
        if (mine !== asking) return;
        aborter = null;
        if (ok) {
          failures = 0;
        } else {
          failures += 1;
          verdict = "retry";
        }
        schedule(verdict, Date.now() - started, wait);
      });
  }

  function schedule(verdict, elapsed, wait) {
    clearTimeout(timer);
    // The section is replaced with each new part: its kind and the paces are read afresh.
    var pace = rules.pace(
      section.getAttribute("data-kind"),
      parseInt(section.getAttribute("data-poll-seconds"), 10) * 1000,
      parseInt(section.getAttribute("data-playing-poll-seconds"), 10) * 1000
    );
    if (stopped) return;
    timer = setTimeout(poll, rules.nextAsk(verdict, elapsed, wait, failures, Math.random(), pace));
  }

  // A phone taken out of the pocket asks at once (a hidden page's timers are slowed down,
  // and the held ask's connection may have died with the phone's sleep).
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !stopped) poll();
  });
  if (banner) {
    banner.addEventListener("click", function () {
      banner.hidden = true;
    });
  }
  // The first ask at once when it may be held (it then waits at the server); a plain poll
  // (the player's game being played) at the page's pace.
  schedule("same", Infinity, currentWait());
})();
