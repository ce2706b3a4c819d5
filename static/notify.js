// notify.js: loaded only by the pages of a player with a name (the
// header's bell). Every 10 seconds it reads /inbox/poll and keeps the
// bell's count and the tab title's "(n)" prefix live; once the player
// turned "Notify me in this browser" on (on /inbox, which alone asks
// Notification.requestPermission), a new "your turn" shows the browser's
// own notification while any page of the site is open.
(function () {
  "use strict";
  if (window.banchessNotify) return; // once, though htmx swaps pages in
  window.banchessNotify = true;
  var KEY = "banchess-notify", SEEN = "banchess-notified";
  function on() {
    try { return localStorage.getItem(KEY) === "on" && window.Notification && Notification.permission === "granted"; } catch (e) { return false; }
  }
  function seen() {
    try { return JSON.parse(localStorage.getItem(SEEN) || "[]"); } catch (e) { return []; }
  }
  function show(n) {
    var bell = document.getElementById("bell-count");
    if (bell) {
      bell.textContent = String(n.unread);
      bell.hidden = n.unread === 0;
    }
    document.title = (n.unread > 0 ? "(" + n.unread + ") " : "") + document.title.replace(/^\(\d+\) /, "");
    if (!on()) return;
    var first = localStorage.getItem(SEEN) === null, old = seen(), now = [];
    (n.notifications || []).forEach(function (x) {
      now.push(x.id);
      if (first || x.kind !== "yourTurn" || old.indexOf(x.id) >= 0) return;
      var note = new Notification("Ban Chess", { body: x.text, tag: x.id });
      note.onclick = function () { window.focus(); location.href = x.link; };
    });
    try { localStorage.setItem(SEEN, JSON.stringify(now)); } catch (e) {}
  }
  function poll() {
    fetch("/inbox/poll", { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (n) { if (n) show(n); })
      .catch(function () {});
  }
  function setup() {
    var box = document.getElementById("notify-browser-box"), btn = document.getElementById("notify-browser");
    var status = document.getElementById("notify-browser-status");
    if (box && btn && window.Notification) {
      box.hidden = false;
      // Its words are the page's, in the reader's language.
      if (on()) status.textContent = status.dataset.on;
      btn.addEventListener("click", function () {
        Notification.requestPermission().then(function (p) {
          if (p === "granted") poll();
          try { localStorage.setItem(KEY, p === "granted" ? "on" : "off"); } catch (e) {}
          status.textContent = p === "granted" ? status.dataset.on : status.dataset.refused;
        });
      });
    }
    poll();
    setInterval(poll, 10000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
