// lobby.js — keeps the lobby live: a server-sent event stream says when
// the seeks or the pools' counts changed (event "lobby", whose data sums
// them up; when it differs from what the page shows, the page asks for
// /lobby/list and swaps it in) and when the viewer was paired
// into a game (event "paired"; the page goes there). While the stream is
// open the viewer's seeks stay alive. Without this file the lobby is
// plain forms, and a page with a seek open reloads itself (a <noscript>
// refresh) until the seek is accepted.
(function () {
  "use strict";
  var lobby = document.getElementById("lobby");
  if (!lobby || !lobby.dataset.events || !window.EventSource) return;
  var busy = false, again = false;

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    // The page of seeks the viewer looks at (?page=2) stays in view.
    var page = new URLSearchParams(location.search).get("page");
    fetch("/lobby/list" + (page ? "?page=" + encodeURIComponent(page) : ""), { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then(function (res) { return res.ok ? res.text() : null; })
      .then(function (html) {
        var live = document.getElementById("lobby-live");
        if (html && live) live.outerHTML = html;
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  var source = new EventSource(lobby.dataset.events);
  source.addEventListener("lobby", function (ev) {
    var key = JSON.parse(ev.data);
    if (key === lobby.dataset.key) return;
    lobby.dataset.key = key;
    refresh();
  });
  source.addEventListener("paired", function (ev) {
    source.close();
    location.assign(JSON.parse(ev.data).url);
  });
  window.addEventListener("pagehide", function () { source.close(); });
})();
