// live.js — follows the game on the page live: a server-sent event stream
// says when the game changed (event "change", its id the revision), who
// watches ("presence") and each line said in the viewer's chat room
// ("chat", added to the chat log); the page then asks for what changed,
// through htmx, and swaps it in. EventSource reconnects by itself and sends the last
// revision it heard, so a page that lost the connection catches up. Clocks
// count down between updates. Without this file a waiting player's page
// reloads itself (a <noscript> refresh) instead.
(function () {
  "use strict";
  var source = null, sourceURL = "", busy = false, again = false;
  var rematchAtLoad = "";

  function game() { return document.getElementById("game"); }

  function follow() {
    var g = game();
    var url = g && g.dataset.events;
    if (url === sourceURL) return;
    if (source) source.close();
    source = null;
    sourceURL = url || "";
    rematchAtLoad = rematch();
    if (!url || !window.EventSource) return;
    var log = document.getElementById("chat-log");
    if (log) url += (url.indexOf("?") < 0 ? "?" : "&") + "chat=" + encodeURIComponent(log.dataset.after || "0");
    source = new EventSource(url);
    source.addEventListener("chat", function (ev) { chatLine(JSON.parse(ev.data)); });
    source.addEventListener("change", function (ev) {
      if (Number(ev.lastEventId) > rev()) refresh();
    });
    source.addEventListener("presence", function (ev) { presence(JSON.parse(ev.data)); });
    source.addEventListener("gone", function () { source.close(); });
  }

  // rev is the revision the page shows, on #status (a delta replaces
  // #status and #table, not #game).
  function rev() {
    var st = document.getElementById("status");
    return Number((st && st.dataset.rev) || 0);
  }

  // rematch is the address of the accepted rematch the page shows, if any.
  function rematch() {
    var t = document.getElementById("table");
    return (t && t.dataset.rematch) || "";
  }

  // refresh asks for what changed since the ply the page shows (GET
  // /g/{id}/delta, docs/fragments.md), one request at a time; the server
  // answers out-of-band swaps, or the whole #game.
  function refresh() {
    var g = game();
    if (!g || !g.dataset.refresh) return;
    if (!window.htmx) { location.reload(); return; }
    if (busy) { again = true; return; }
    busy = true;
    var url = g.dataset.refresh, st = document.getElementById("status");
    if (g.dataset.delta && st && st.dataset.ply) {
      url = g.dataset.delta + (g.dataset.delta.indexOf("?") < 0 ? "?" : "&") + "ply=" + st.dataset.ply;
    }
    window.htmx.ajax("GET", url, { target: "#game", swap: "outerHTML" }).then(done, done);
  }

  function done() {
    busy = false;
    var r = rematch();
    if (r && r !== rematchAtLoad) {
      location.assign(r); // the rematch was accepted: both players move to it
      return;
    }
    if (again) { again = false; refresh(); }
  }

  // counted is n in the words of el's plural forms (data-forms: CLDR's
  // form names to texts with {{.Count}}), in the page's language.
  function counted(el, n) {
    var forms = {};
    try { forms = JSON.parse(el.dataset.forms || "{}"); } catch (e) { /* keep none */ }
    var lang = document.documentElement.lang || "en";
    var form = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang).select(n) : (n === 1 ? "one" : "other");
    var text = forms[form] || forms.other || "{{.Count}}";
    return text.replace("{{.Count}}", n.toLocaleString(lang));
  }

  function presence(p) {
    ["white", "black"].forEach(function (side) {
      var el = document.querySelector('[data-player="' + side + '"] .presence');
      if (!el || el.dataset.seated !== "true") return;
      var said = p[side] ? el.dataset.online : el.dataset.offline;
      el.dataset.connected = String(p[side]);
      el.title = said;
      var sr = el.querySelector(".sr-only");
      if (sr) sr.textContent = said;
    });
    var sp = document.querySelector("[data-spectators]");
    if (sp) {
      sp.dataset.spectators = String(p.spectators);
      sp.textContent = counted(sp, p.spectators);
    }
  }

  // chatLine adds a line of the viewer's room to the chat log, once: a
  // stream that reconnected says again the lines since the page loaded.
  // The text is set as text: markup and links stay words.
  function chatLine(l) {
    var log = document.getElementById("chat-log");
    if (!log || l.seq <= Number(log.dataset.after || 0)) return;
    log.dataset.after = String(l.seq);
    var atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    var li = document.createElement("li"), name = document.createElement("span"), text = document.createElement("span");
    li.className = "chat-line";
    li.dataset.seq = String(l.seq);
    name.className = "chat-name";
    name.textContent = l.name === null ? (log.dataset.anonymous || "Anonymous") : l.name;
    text.className = "chat-text";
    text.textContent = l.text;
    li.appendChild(name);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(text);
    if (log.dataset.report && l.name !== log.dataset.me) {
      var a = document.createElement("a");
      a.className = "chat-report";
      a.href = log.dataset.report + l.seq;
      a.textContent = log.dataset.reportText || "report"; // said in the page's language
      a.setAttribute("aria-label", (log.dataset.reportLabel || "Report {name}'s line").replace("{name}", name.textContent));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(a);
    }
    log.appendChild(li);
    while (log.children.length > 200) log.removeChild(log.firstElementChild);
    if (atEnd) log.scrollTop = log.scrollHeight;
  }

  // A line said through htmx (the chat form posts in place): once the
  // server took it, the field is emptied for the next; the line itself
  // comes back over the stream.
  document.addEventListener("htmx:afterRequest", function (ev) {
    var form = ev.detail.elt;
    if (!form || form.id !== "chat-form" || !ev.detail.successful) return;
    var input = document.getElementById("chat-text");
    if (input) { input.value = ""; input.focus(); }
  });

  // Clocks: each shows the time left when the page was rendered; the
  // running one counts down from the moment it appeared.
  var seen = new WeakMap();
  function clockText(ms) {
    if (ms < 0) ms = 0;
    if (ms < 10000) return "0:" + String(Math.floor(ms / 1000)).padStart(2, "0") + "." + Math.floor(ms % 1000 / 100);
    var s = Math.ceil(ms / 1000);
    var m = Math.floor(s / 60);
    if (m >= 60) return Math.floor(m / 60) + ":" + String(m % 60).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
    return m + ":" + String(s % 60).padStart(2, "0");
  }
  // The clocks tick only while a page shows one counting: a page without
  // (most of them) keeps no timer waking it ten times a second.
  var RUNNING = '[data-clock][data-running="true"], [data-first-ms]';
  var ticking = null;
  function tick() {
    var now = performance.now(), counting = 0;
    document.querySelectorAll('[data-clock][data-running="true"]').forEach(function (el) {
      if (!seen.has(el)) seen.set(el, now);
      var left = Number(el.dataset.ms) - (now - seen.get(el));
      el.textContent = clockText(left);
      el.classList.toggle("low", left < 20000);
      counting++;
    });
    // The time left for a side's first action, before the game is aborted.
    document.querySelectorAll("[data-first-ms]").forEach(function (el) {
      if (!seen.has(el)) seen.set(el, now);
      var left = Math.max(0, Number(el.dataset.firstMs) - (now - seen.get(el)));
      el.textContent = el.textContent.replace(/^\d+/, String(Math.ceil(left / 1000)));
      counting++;
    });
    if (!counting && ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
  }
  function startClocks() {
    if (ticking === null && document.querySelector(RUNNING)) ticking = setInterval(tick, 100);
  }

  // A delta applies to the page at the ply it was made from (its
  // Delta-Ply header), in the #game it was asked for. One that crossed
  // another answer on the way (a player's own ply and the change it
  // caused, say), or whose #game was replaced meanwhile, is not swapped;
  // the page asks again from where it stands only if it is behind the
  // revision the delta brought (Delta-Rev): the other answer usually
  // brought the same. htmx tells the answer's target, which may have left
  // the page by then (an event there does not reach the document), so
  // each #game listens itself.
  var guarded = new WeakSet();
  function guard(ev) {
    var xhr = ev.detail.xhr, from = xhr && xhr.getResponseHeader("Delta-Ply");
    if (!from) return;
    var st = document.getElementById("status");
    if (ev.currentTarget.isConnected && st && st.dataset.ply === from) return;
    ev.detail.shouldSwap = false;
    if (Number(xhr.getResponseHeader("Delta-Rev")) > rev()) setTimeout(refresh, 0);
  }
  function watch() {
    var g = game();
    if (g && !guarded.has(g)) {
      g.addEventListener("htmx:beforeSwap", guard);
      guarded.add(g);
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    watch();
    follow();
    startClocks();
  });
  document.addEventListener("htmx:load", function () {
    watch();
    startClocks();
  });
  document.addEventListener("htmx:afterSettle", function () {
    watch();
    follow();
    startClocks();
  });
  document.addEventListener("banchess:shown", startClocks); // steps.js showed another position in place
})();
