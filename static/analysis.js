// analysis.js — the live analysis beside a game's board, on its page and
// its history views. The Analysis toggle (#analysis-toggle, shown only
// when scripts run) shows the engine's view of the position on the board
// in #analysis-panel — the evaluation bar, the best ban or move, the line,
// rendered by the server (GET /g/{id}/analysis?panel=1&ply=N) — and draws
// the best action as an arrow on the board itself. It follows the
// position shown: after a ply here, a live opponent's or the computer's
// (htmx swaps in what changed, and #status's data-ply with it), and while
// stepping through the history — in place on the game's page, where the
// earlier position is #view-board (static/steps.js), or on a history view. The choice is remembered (localStorage),
// and so are the last answers, for this page: stepping back to a position
// analysed already shows it at once, without asking the engine again.
// Without this file the Analyse links lead to the analysis page instead,
// which needs no script.
//
// Nothing here holds on to an element: htmx may replace the board, the
// panel or the whole game between two events, so each is looked up when
// it is needed.
(function () {
  "use strict";
  var KEY = "banchess-analysis"; // "on" or "off"
  var WAIT = 150;   // ms without a change of position before asking
  var RETRY = 1000; // ms before asking again when the engine is busy
  var SVG = "http://www.w3.org/2000/svg";
  var KEEP = 64;    // answers kept for stepping back to

  var wanted = "";   // the position shown, as address and FEN ("" for none)
  var answers = new Map(); // position → the panel's answer, oldest first
  var ctrl = null;   // the AbortController of the request in flight
  var timer = 0;

  function $(id) { return document.getElementById(id); }

  function on() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }
  function remember(v) {
    try { localStorage.setItem(KEY, v ? "on" : "off"); } catch (e) { /* private mode: for this page only */ }
  }

  // position is the panel's address for the position the board shows,
  // with that position's FEN after a "#" (a takeback can bring back a ply
  // number with another position), or "" when the game is over.
  function position(toggle) {
    var st = $("status"), fen = $("fen") ? $("fen").value : "", view = $("view-board");
    if (!st) return "";
    var ply = toggle.dataset.viewPly;
    if (view) { // an earlier position, shown in place
      ply = view.dataset.viewPly;
      fen = view.dataset.fen;
    } else if (!ply) {
      if (st.dataset.phase === "over") return "";
      ply = st.dataset.ply;
    }
    return toggle.dataset.url + "?panel=1&ply=" + encodeURIComponent(ply) + "#" + fen;
  }

  // shownBoard is the board the page shows: an earlier position in place
  // (#view-board), or the game's own.
  function shownBoard() { return $("view-board") || $("board"); }

  function stop() {
    clearTimeout(timer);
    if (ctrl) ctrl.abort(); // the server's search ends with the request
    ctrl = null;
  }

  // update brings the toggle, the panel and the arrow in line with the
  // choice and the position shown; it runs after every swap.
  function update() {
    var toggle = $("analysis-toggle"), panel = $("analysis-panel");
    if (!toggle || !panel) { stop(); wanted = ""; return; }
    var active = on();
    toggle.setAttribute("aria-pressed", active ? "true" : "false");
    panel.hidden = !active;
    if (!active) { stop(); wanted = ""; arrow(null); return; }
    var board = shownBoard();
    panel.classList.toggle("flipped", !!board && board.classList.contains("flipped"));
    if ($("status") && $("status").dataset.engine === "locked") { // a game between two players, until it ends
      stop();
      wanted = "";
      arrow(null);
      note(said("locked", "This game is between two players: its analysis opens when it ends."));
      return;
    }
    var key = position(toggle);
    if (!key) {
      stop();
      wanted = "";
      arrow(null);
      note(said("over", "The game is over: there is nothing to analyse."));
      return;
    }
    if (key !== wanted) { // a new position: ask for it once the board rests
      wanted = key;
      stop();
      if (answers.has(key)) { show(answers.get(key), true); return; }
      arrow(null);
      note(said("waiting", "Analysing…"), true);
      timer = setTimeout(function () { load(key); }, WAIT);
      return;
    }
    // The same position after a swap: put back what it replaced.
    if (answers.has(key)) {
      if (!$("analysis-result")) show(answers.get(key), false); else draw($("analysis-result"));
    } else if ($("analysis-body") && !$("analysis-body").firstChild) {
      note(said("waiting", "Analysing…"), true);
      if (!ctrl) { // no answer on its way (the last one failed): ask again
        clearTimeout(timer);
        timer = setTimeout(function () { load(key); }, WAIT);
      }
    }
  }

  function load(key) {
    var c = new AbortController();
    ctrl = c;
    fetch(key.split("#")[0], { signal: c.signal, credentials: "same-origin" }).then(function (r) {
      return r.text().then(function (html) {
        if (ctrl !== c || wanted !== key) return; // a newer position was asked for
        ctrl = null;
        if (r.status === 429) {
          note(said("busy", "The engine is busy with other analyses; trying again in a moment…"), true);
          timer = setTimeout(function () { if (wanted === key) load(key); }, RETRY);
          return;
        }
        if (r.status < 500) keep(key, html); // a failure may not happen next time
        show(html, true);
      });
    }).catch(function () {
      if (ctrl !== c) return; // aborted for a newer position
      ctrl = null;
      note(said("failed", "The analysis could not be fetched: check the connection, then step or toggle to try again."));
    });
  }

  function keep(key, html) {
    answers.delete(key);
    answers.set(key, html);
    if (answers.size > KEEP) answers.delete(answers.keys().next().value);
  }

  // show puts an answer in the panel and its arrow on the board; say
  // tells a screen reader (only a new answer, not one put back).
  function show(html, say) {
    var body = $("analysis-body");
    if (!body) return;
    body.innerHTML = html; // the server's own templ-rendered fragment
    body.removeAttribute("aria-busy");
    var r = $("analysis-result");
    draw(r);
    var said = $("analysis-said");
    if (say && said && r) said.textContent = r.dataset.said || "";
  }

  // said is the panel's note named key (its data-note-key, in the
  // viewer's language), else fallback.
  function said(key, fallback) {
    var panel = $("analysis-panel");
    var s = panel && panel.getAttribute("data-note-" + key);
    return s || fallback;
  }

  function note(msg, busy) {
    var body = $("analysis-body");
    if (!body) return;
    var p = document.createElement("p");
    p.className = "analysis-wait";
    p.textContent = msg;
    body.replaceChildren(p);
    if (busy) body.setAttribute("aria-busy", "true"); else body.removeAttribute("aria-busy");
  }

  function draw(r) {
    var from = r && r.dataset.from, to = r && r.dataset.to;
    arrow(from && to ? { from: from, to: to, kind: r.dataset.kind } : null);
  }

  // arrow draws the best action over the board's squares (an SVG like the
  // ban's, #ban-arrow), or takes it away (a null a).
  function arrow(a) {
    var form = shownBoard(), b = form && form.querySelector(".board");
    var svg = $("analysis-arrow-board");
    if (!a || !b) {
      if (svg) svg.remove();
      return;
    }
    if (!svg || svg.parentNode !== b) {
      if (svg) svg.remove();
      svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("id", "analysis-arrow-board");
      svg.setAttribute("viewBox", "0 0 8 8");
      svg.setAttribute("aria-hidden", "true");
      svg.setAttribute("focusable", "false");
      var defs = document.createElementNS(SVG, "defs");
      var marker = document.createElementNS(SVG, "marker");
      [["id", "analysis-head"], ["viewBox", "0 0 10 10"], ["refX", "5"], ["refY", "5"], ["markerWidth", "3"],
        ["markerHeight", "3"], ["orient", "auto-start-reverse"]].forEach(function (kv) { marker.setAttribute(kv[0], kv[1]); });
      var head = document.createElementNS(SVG, "path");
      head.setAttribute("d", "M 0 0 L 10 5 L 0 10 z");
      marker.appendChild(head);
      defs.appendChild(marker);
      svg.appendChild(defs);
      var line = document.createElementNS(SVG, "line");
      line.setAttribute("marker-end", "url(#analysis-head)");
      svg.appendChild(line);
      b.appendChild(svg);
    }
    var flipped = form.classList.contains("flipped");
    function at(sq) { // the centre of a square, in squares from the top left
      var f = sq.charCodeAt(0) - 97, r = Number(sq.charAt(1)) - 1;
      return flipped ? [7 - f + 0.5, r + 0.5] : [f + 0.5, 7 - r + 0.5];
    }
    var p = at(a.from), q = at(a.to), l = svg.querySelector("line");
    l.setAttribute("x1", p[0]);
    l.setAttribute("y1", p[1]);
    l.setAttribute("x2", q[0]);
    l.setAttribute("y2", q[1]);
    svg.setAttribute("class", "analysis-arrow " + (a.kind === "ban" ? "ban" : "move"));
    svg.setAttribute("data-from", a.from);
    svg.setAttribute("data-to", a.to);
    svg.setAttribute("data-kind", a.kind);
  }

  document.addEventListener("click", function (ev) {
    if (!ev.target.closest || !ev.target.closest("#analysis-toggle")) return;
    remember(!on());
    update();
  });
  document.addEventListener("DOMContentLoaded", update);
  document.addEventListener("htmx:afterSwap", update);
  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("banchess:shown", update); // steps.js showed another position in place
  window.addEventListener("pageshow", update);
})();
