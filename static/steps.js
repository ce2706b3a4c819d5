// steps.js — stepping through a game's positions. On a game's page the
// step buttons (« ◀ ▶ »), the arrow keys, Home and End and the links of
// the move list show an earlier position in place: the address stays the
// game's, and so do the orientation, the players' strips and the clocks.
// The position comes from the server as a read-only board
// (GET /g/{id}/view/{N}, #view-board), shown where the game's own board
// was; that board stays in the page, hidden, and the live game goes on
// under it — plies played meanwhile join the list (with their sound), a
// "Back to the game" button says so, and acting is possible only back at
// the game's position. On a history view (/g/{id}/history/N) and without
// this file the same links lead from page to page.
(function () {
  "use strict";
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  var browsing = -1;   // the plies the position shown in place has played (-1: the game's own)
  var seenLast = -1;   // the game's plies when browsing began, or last looked at
  var loading = null;  // the AbortController of the view on its way
  var pending = -1;    // the plies of the position on its way (-1: none)
  var liveMaterial = new WeakMap(); // a strip's material element → its own content, while it shows the view's

  function $(id) { return document.getElementById(id); }
  function game() { return $("game"); }

  // live reports whether the page is a game's own page (not a history
  // view), where positions are shown in place.
  function live() {
    var g = game();
    return !!(g && g.dataset.view && $("board-ply"));
  }

  // last is how many plies the game has played (the game's own board
  // shows them all).
  function last() {
    var f = $("board-ply");
    return f ? Number(f.dataset.shownPly) : 0;
  }

  // query is the page's view options (flip, auto), as its delta's address
  // carries them: the view is oriented as the page's board is.
  function query() {
    var d = game().dataset.delta || "", i = d.indexOf("?");
    return i < 0 ? "" : d.slice(i);
  }

  // show shows the position after n plies in place, or the game's own
  // board when n is its last.
  function show(n) {
    var end = last();
    n = Math.max(0, Math.min(n, end));
    if (n === end) { back(); return; }
    if (loading) loading.abort();
    var c = new AbortController();
    loading = c;
    pending = n;
    fetch(game().dataset.view + n + query(), { signal: c.signal, credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("view " + r.status);
      return r.text();
    }).then(function (html) {
      if (loading !== c) return;
      loading = null;
      pending = -1;
      if (browsing < 0) seenLast = end;
      browsing = n;
      place(html);
    }).catch(function () {
      if (loading === c) { loading = null; pending = -1; }
    });
  }

  // place puts the view's board in the board's place.
  function place(html) {
    var wrap = $("board-wrap");
    if (!wrap) return;
    var old = $("view-board");
    if (old) old.remove();
    var t = document.createElement("template");
    t.innerHTML = html; // the server's own templ-rendered fragment
    var view = t.content.getElementById("view-board");
    if (!view) return;
    wrap.insertBefore(view, wrap.firstChild);
    mark();
  }

  // back shows the game's own board again.
  function back() {
    if (loading) { loading.abort(); loading = null; }
    pending = -1;
    var had = browsing >= 0;
    browsing = -1;
    var old = $("view-board");
    if (old) old.remove();
    mark();
    if (had) {
      var sq = document.querySelector("#board button[data-square][tabindex='0']");
      if (sq && document.activeElement && document.activeElement.closest && document.activeElement.closest("#browse-bar")) sq.focus();
    }
  }

  // mark brings the page in line with the position shown: the game's
  // class (which hides its own board and the typed form while browsing),
  // the list's current ply (a delta leaves it to us), the strips'
  // material, the step buttons and the bar that leads back. It runs
  // after every swap too: a delta may have replaced the list, the strips
  // or the steps.
  function mark() {
    var g = game();
    if (!g || !live()) return; // a history view is the server's alone
    var view = $("view-board");
    if (browsing >= 0 && !view) { // the whole game was replaced: show the position again
      var n = browsing;
      browsing = -1;
      show(n);
      return;
    }
    var on = browsing >= 0;
    g.classList.toggle("browsing", on);
    var end = last();
    document.querySelectorAll("#history a[data-ply]").forEach(function (a) {
      var here = on ? Number(a.dataset.ply) === browsing : Number(a.dataset.ply) === end;
      a.classList.toggle("viewing", on && here);
      if (here) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current");
    });
    ["white", "black"].forEach(function (side) {
      var el = document.querySelector('.strip[data-player="' + side + '"] .material');
      var mat = view && view.querySelector('template[data-view-material="' + side + '"]');
      if (!el) return;
      if (on && mat) {
        if (!liveMaterial.has(el)) liveMaterial.set(el, Array.prototype.slice.call(el.childNodes));
        el.replaceChildren(mat.content.cloneNode(true));
      } else if (!on && liveMaterial.has(el)) {
        el.replaceChildren.apply(el, liveMaterial.get(el));
        liveMaterial.delete(el);
      }
    });
    var bar = $("browse-bar");
    if (bar) {
      bar.hidden = !on;
      if (on) {
        var cap = $("browse-caption");
        if (cap) cap.textContent = view ? view.dataset.caption : "";
        bar.classList.toggle("news", end > seenLast);
      }
    }
    var pos = on ? browsing : end;
    step("step-first", pos > 0);
    step("step-prev", pos > 0);
    step("step-next", pos < end);
    step("step-last", pos < end);
    // The position shown changed, or may have: the list keeps it in
    // sight (board.js), the analysis follows it (analysis.js).
    document.dispatchEvent(new CustomEvent("banchess:shown"));
  }

  // step enables or disables a step button (a link, or a span where the
  // server rendered none).
  function step(id, enabled) {
    var el = $(id);
    if (!el) return;
    if (enabled) el.removeAttribute("aria-disabled"); else el.setAttribute("aria-disabled", "true");
  }

  // go does what a step does: to the start, one ply back or on, or the
  // game now; it reports whether it did anything.
  function go(where) {
    if (!live()) return false;
    // A step taken while a position is on its way steps from that one.
    var end = last(), pos = pending >= 0 ? pending : browsing >= 0 ? browsing : end;
    var to = { first: 0, prev: pos - 1, next: pos + 1, last: end }[where];
    if (to < 0 || to > end || to === pos) return true;
    if (to === end) back(); else show(to);
    return true;
  }

  document.addEventListener("keydown", function (ev) {
    var where = keys[ev.key];
    if (!where || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.defaultPrevented) return;
    // The board, the promotion picker and form fields keep their own keys.
    var t = ev.target;
    if (t.closest && t.closest("#board, #promotion, .promo-layer, input, textarea, select, [contenteditable], [data-own-keys]")) return;
    if (live()) {
      ev.preventDefault();
      go(where);
      return;
    }
    var link = $("step-" + where);
    if (!link || link.tagName !== "A") return;
    ev.preventDefault();
    link.click();
  });

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (!t.closest || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    if (t.closest("[data-back-to-game]")) {
      ev.preventDefault();
      go("last");
      return;
    }
    if (!live()) return;
    var stepEl = t.closest("#steps [id^='step-']");
    if (stepEl) {
      ev.preventDefault();
      ev.stopPropagation(); // not htmx's request for the history view
      go(stepEl.id.slice(5));
      return;
    }
    var ply = t.closest("#history a[data-ply]");
    if (ply) {
      ev.preventDefault();
      ev.stopPropagation();
      var n = Number(ply.dataset.ply);
      if (n === last()) go("last"); else show(n);
    }
  }, true);

  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", mark);
})();
