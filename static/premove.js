// premove.js — premoves and pre-bans at a game between two players
// (board.js fetches it when a page first shows the player's #premove).
// While the opponent acts, the board is read-only; with this file a click
// (or a drag) from one of the player's own pieces to a square queues the
// move to make when the turn comes, and then one from an opponent's piece
// queues the ban to make after it. The queue is the server's: the page's
// #premove carries it (data-premove, "m:c2c4 b:c7c5"), where to post
// (data-premove-url) and the player's side (data-side); this file marks
// the queued squares after every swap and posts what is picked, and the
// server answers the game as it stands (played at once if the turn came).
// Escape or a click off the board drops a half-made pick; the panel's
// button cancels the queue. The Premoves setting (banchess_view cookie,
// premoves=0) turns it off. Without this file the panel's form queues a
// premove typed as squares.
(function () {
  "use strict";

  var picked = null; // the square name of the piece picked, or null
  var down = null;   // the square a pointer went down on, for a drag
  var dragged = false;

  function $(id) { return document.getElementById(id); }
  function panel() { return $("premove"); }
  function off() { return /(?:^|;\s*)banchess_view=[^;]*premoves=0/.test(document.cookie); }
  // active: the viewer may queue now — seated, the board read-only (the
  // opponent acts), premoves on.
  function active() {
    var p = panel(), b = $("board");
    return !!(p && p.dataset.premoveUrl && b && b.classList.contains("readonly") && !off());
  }
  function square(name) { return document.querySelector('#board [data-square="' + name + '"]'); }
  function pieceOn(el) {
    var img = el && el.querySelector("img[data-piece]");
    return img ? img.dataset.piece : "";
  }
  function squareAt(x, y) {
    var el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest("#board [data-square]") : null;
  }

  function mark() {
    document.querySelectorAll("#board .premove, #board .preban, #board .premove-picked").forEach(function (el) {
      el.classList.remove("premove", "preban", "premove-picked");
    });
    var p = panel();
    if (!p || off()) return;
    (p.dataset.premove || "").split(" ").forEach(function (a) {
      if (a.length < 6) return;
      var kind = a.charAt(0) === "b" ? "preban" : "premove";
      [a.slice(2, 4), a.slice(4, 6)].forEach(function (n) {
        var el = square(n);
        if (el) el.classList.add(kind);
      });
    });
    if (picked && square(picked)) square(picked).classList.add("premove-picked");
  }

  function unpick() {
    picked = null;
    mark();
  }

  // queue posts the pick from→to: a move from the player's own piece, a
  // ban from the opponent's (a pawn reaching the last rank becomes a
  // queen, as lichess premoves do).
  function queue(from, to) {
    var p = panel(), piece = pieceOn(square(from));
    picked = null;
    if (!p || !piece || from === to) return mark();
    var own = piece.charAt(0) === p.dataset.side.charAt(0);
    var values = { from: from, to: to, kind: own ? "move" : "ban" };
    if (own && piece.charAt(1) === "P" && (to.charAt(1) === "8" || to.charAt(1) === "1")) values.promotion = "q";
    mark();
    window.htmx.ajax("POST", p.dataset.premoveUrl, { target: "#game", swap: "outerHTML", values: values });
  }

  function pick(el) {
    var name = el.dataset.square;
    if (picked === null) {
      if (!pieceOn(el)) return;
      picked = name;
      mark();
      return;
    }
    if (picked === name) return unpick();
    queue(picked, name);
  }

  document.addEventListener("click", function (ev) {
    if (dragged) { dragged = false; return; }
    var el = ev.target.closest && ev.target.closest("#board [data-square]");
    if (!el) {
      if (picked !== null && !(ev.target.closest && ev.target.closest("#premove"))) unpick();
      return;
    }
    if (!active()) return;
    ev.preventDefault();
    pick(el);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && picked !== null) unpick();
  });
  document.addEventListener("pointerdown", function (ev) {
    var el = ev.target.closest && ev.target.closest("#board [data-square]");
    down = el && active() && pieceOn(el) ? el.dataset.square : null;
  });
  document.addEventListener("pointerup", function (ev) {
    if (down === null) return;
    var el = squareAt(ev.clientX, ev.clientY), from = down;
    down = null;
    if (el && el.dataset.square !== from && active()) {
      dragged = true; // the click that follows is the drag's
      queue(from, el.dataset.square);
    }
  });
  document.addEventListener("htmx:afterSettle", mark);
  document.addEventListener("DOMContentLoaded", mark);
  if (document.readyState !== "loading") mark();
})();
