// board.js — optional progressive enhancement for the Ban Chess playground.
// Every square's destinations are already in the page (the board's ply
// field, data-dests="e2:e3,e4 g1:f3,h3"), so picking a piece happens here
// with no round trip; only the ply is posted
// (by htmx, or by the plain form when htmx is absent). Without this file
// the board still works: picking a piece is a form post.
//
// Nothing here holds on to an element: every listener is on the document
// and reads the board from the page when it fires, so htmx may swap the
// whole game or only the squares, the status or the history that changed.
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");

  var script = document.currentScript;
  var asset = script ? new URL(script.src).searchParams.get("v") || "" : "";

  var cursor = "";      // the square the board's one Tab stop is on
  var refocus = false;  // the board had the focus when a request left
  var lastPly = null;   // the ply last shown, for sounds
  var lastGame = "";    // the game it was shown in
  var drag = null;      // a piece being dragged
  var dragged = false;  // swallow the click that ends a drag
  var resize = null;    // the size handle being dragged
  var shownPicker = null; // the promotion picker last focused

  // Settings live in the banchess_view cookie, which the server reads too.
  function settings() {
    var m = document.cookie.match(/(?:^|;\s*)banchess_view=([^;]*)/);
    return new URLSearchParams(m ? m[1] : "");
  }
  function saveSetting(name, value) {
    var p = settings();
    p.set(name, value);
    document.cookie = "banchess_view=" + p.toString() + "; Path=/; Max-Age=34560000; SameSite=Lax" +
      (location.protocol === "https:" ? "; Secure" : "");
  }

  function board() { return document.getElementById("board"); }
  function game() { return document.getElementById("game"); }
  function squares(form) { return form.querySelectorAll("button[data-square]"); }
  function squareOf(form, name) {
    return form.querySelector('button[data-square="' + name + '"]');
  }
  // destsOf returns where the piece on square name can go (square names),
  // or null when it cannot be picked.
  function destsOf(form, name) {
    var field = form.querySelector("#board-ply");
    var sets = field && field.dataset.dests ? field.dataset.dests.split(" ") : [];
    for (var i = 0; i < sets.length; i++) {
      var set = sets[i].split(":");
      if (set[0] === name) return set[1].split(",");
    }
    return null;
  }
  function pickable(btn) { return !!(btn.form && destsOf(btn.form, btn.dataset.square)); }
  function label(b) {
    if (!b.dataset.label) b.dataset.label = b.getAttribute("aria-label") || "";
    return b.dataset.label;
  }

  function clear(form) {
    if (form.elements.from) form.elements.from.value = ""; // a read-only board has none
    // Only the marked squares: touching all 64 restyles the whole board.
    form.querySelectorAll("button.selected, button.dest, button.drag-origin, button.drag-over, button[formaction], button[aria-pressed]").forEach(function (b) {
      b.classList.remove("selected", "dest", "capture", "promo", "drag-origin", "drag-over");
      b.setAttribute("name", "square");
      b.removeAttribute("formaction");
      b.removeAttribute("aria-pressed");
      if (b.dataset.label) b.setAttribute("aria-label", b.dataset.label);
    });
  }

  function select(form, btn) {
    var ban = !!document.querySelector('#status[data-phase="ban"]'); // the status changes with every ply
    form.elements.from.value = btn.dataset.square;
    btn.classList.add("selected");
    btn.setAttribute("aria-pressed", "true");
    (destsOf(form, btn.dataset.square) || []).forEach(function (sq) {
      var d = squareOf(form, sq);
      if (!d) return;
      d.classList.add("dest");
      if (d.querySelector("[data-piece]")) d.classList.add("capture");
      d.setAttribute("name", "to");
      d.setAttribute("formaction", form.dataset.plyUrl);
      d.setAttribute("aria-label", label(d) + (ban ? ", ban " : ", play ") + btn.dataset.square + " to " + sq);
    });
  }

  // pick does what a click on a square does: select a piece, play to a
  // destination (true: let the click post), or clear.
  function pick(btn) {
    var form = btn.form;
    var sel = form.elements.from.value;
    if (shown) return false; // a ply is on its way: the board waits for it
    cursor = btn.dataset.square;
    if (sel && btn.classList.contains("dest")) {
      showAhead(form, sel, btn);
      return true;
    }
    clear(form);
    if (pickable(btn) && btn.dataset.square !== sel) select(form, btn);
    return false;
  }

  // --- A ply drawn at once ------------------------------------------------

  // A ply posted from the board is drawn the moment it is made, before the
  // server answers: the piece moved (with the rook when castling, without
  // the pawn taken en passant), or the ban framed with its arrow. What it
  // changed is kept, and put back just before the answer is swapped in, so
  // the answer — the ply as played, or a refusal with its reason — lands
  // on the page it was written for. A promotion waits for its picker.
  var shown = null; // the ply drawn ahead of its answer: {kept: [[element, its HTML]]}

  function keepHTML(el) {
    if (el) shown.kept.push([el, el.innerHTML]);
  }

  // unshow puts back what a ply drawn ahead changed.
  function unshow() {
    if (!shown) return;
    for (var i = shown.kept.length - 1; i >= 0; i--) shown.kept[i][0].innerHTML = shown.kept[i][1]; // the first kept of an element is how it was
    shown = null;
    var form = board();
    if (form) form.classList.remove("ahead");
  }

  // gridXY is where square name sits on the board's 8×8 grid, or null
  // (EN-Chess's x squares lie beside it).
  function gridXY(name, flipped) {
    var m = /^([a-h])([1-8])$/.exec(name);
    if (!m) return null;
    var file = m[1].charCodeAt(0) - 97, rank = +m[2] - 1;
    return flipped ? [7 - file, rank] : [file, 7 - rank];
  }

  var svgNS = "http://www.w3.org/2000/svg";

  // drawBan draws the ban from → to in the ban group, as the server does.
  function drawBan(line, from, to, flipped) {
    var a = gridXY(from, flipped), b = gridXY(to, flipped);
    if (!line || !a || !b) return false;
    keepHTML(line);
    line.textContent = "";
    [a, b].forEach(function (p) {
      var r = document.createElementNS(svgNS, "rect");
      r.setAttribute("x", p[0]);
      r.setAttribute("y", p[1]);
      line.appendChild(r);
    });
    var l = document.createElementNS(svgNS, "line");
    l.setAttribute("x1", a[0] + 0.5);
    l.setAttribute("y1", a[1] + 0.5);
    l.setAttribute("x2", b[0] + 0.5);
    l.setAttribute("y2", b[1] + 0.5);
    l.setAttribute("marker-end", "url(#ban-head)");
    line.appendChild(l);
    return true;
  }

  // movePiece draws the move from → to on the board's squares.
  function movePiece(form, from, to) {
    var a = squareOf(form, from), b = squareOf(form, to);
    var img = a && a.querySelector("img[data-piece]");
    if (!img || !b) return false;
    var kind = img.dataset.piece.charAt(1).toUpperCase();
    if (kind === "P" && /[18]$/.test(to)) return false; // the picker comes from the server
    var taken = b.querySelector("img[data-piece]");
    var also = [];
    var df = to.charCodeAt(0) - from.charCodeAt(0);
    if (kind === "K" && Math.abs(df) === 2) { // castling: the rook crosses the king
      also.push([(df > 0 ? "h" : "a") + from.charAt(1), String.fromCharCode(from.charCodeAt(0) + df / 2) + from.charAt(1)]);
    }
    var passed = kind === "P" && df !== 0 && !taken && squareOf(form, to.charAt(0) + from.charAt(1));
    keepHTML(a);
    keepHTML(b);
    if (taken) taken.remove();
    b.insertBefore(img, b.firstChild);
    if (passed) {
      keepHTML(passed);
      var p = passed.querySelector("img[data-piece]");
      if (p) p.remove();
    }
    also.forEach(function (m) {
      var ra = squareOf(form, m[0]), rb = squareOf(form, m[1]);
      var rook = ra && ra.querySelector("img[data-piece]");
      if (!rook || !rb) return;
      keepHTML(ra);
      keepHTML(rb);
      rb.insertBefore(rook, rb.firstChild);
    });
    var line = document.getElementById("ban-line"); // a move lifts the ban
    if (line && line.firstChild) {
      keepHTML(line);
      line.textContent = "";
    }
    return true;
  }

  // showAhead draws the ply the click on destination dest posts.
  function showAhead(form, from, dest) {
    if (!window.htmx || shown) return;
    var status = document.getElementById("status");
    var phase = status ? status.dataset.phase : "";
    shown = { kept: [] };
    var drawn = phase === "ban" ? drawBan(document.getElementById("ban-line"), from, dest.dataset.square, form.classList.contains("flipped")) :
      phase === "move" && movePiece(form, from, dest.dataset.square);
    if (!drawn) {
      unshow();
      return;
    }
    form.classList.add("ahead");
  }

  // --- The board's one Tab stop and its cursor --------------------------

  function setCursor(form, btn, focus) {
    squares(form).forEach(function (b) { b.tabIndex = b === btn ? 0 : -1; });
    cursor = btn.dataset.square;
    if (focus) btn.focus();
  }

  // neighbour is the square next to btn in a direction on the screen.
  function neighbour(form, btn, dx, dy) {
    var m = /^([a-h])([1-8])$/.exec(btn.dataset.square);
    if (!m) return null;
    if (form.classList.contains("flipped")) { dx = -dx; dy = -dy; }
    var file = m[1].charCodeAt(0) - 97 + dx, rank = +m[2] + dy;
    if (file < 0 || file > 7 || rank < 1 || rank > 8) return null;
    return squareOf(form, String.fromCharCode(97 + file) + rank);
  }

  var arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

  // --- Settle: what follows every swap -----------------------------------

  // settle runs after every swap (and at the start), at once: the board
  // gets its size before it is painted, so nothing moves under a click.
  function settle(ev) {
    initBoard(!ev);
    refreshExport();
    reopen();
    var status = document.getElementById("status");
    if (status && status.dataset.title) document.title = status.dataset.title;
    sound(status);
    offerNews();
    followHistory();
    fit();
  }

  // playSound plays one of the sounds, unless they are switched off.
  function playSound(name) {
    if (settings().get("sound") === "0") return;
    var a = new Audio("/static/sounds/" + name + ".wav?v=" + asset);
    a.volume = 0.6;
    var p = a.play();
    if (p && p.catch) p.catch(function () {});
  }

  // offerNews sounds when an offer of the opponent's, or the news that
  // they declined one's own, comes into the page (the page says it to a
  // screen reader: role alert or status). Not at the page's start.
  var offersSeen = null, offersGame = "";
  function offerNews() {
    var now = [];
    document.querySelectorAll("[data-offer-incoming], [data-offer-declined]").forEach(function (el) {
      now.push((el.dataset.offerIncoming ? "in:" : "declined:") + (el.dataset.offerIncoming || el.dataset.offerDeclined));
    });
    var here = location.pathname;
    if (offersSeen !== null && here === offersGame && now.some(function (k) { return offersSeen.indexOf(k) < 0; })) playSound("offer");
    offersSeen = now;
    offersGame = here;
  }

  // Open confirmations and folded panels stay open across a swap that
  // replaces them (a live ply replaces the game's actions).
  var opened = [];
  function remember() {
    opened = Array.prototype.map.call(document.querySelectorAll("#game details[open][id]"), function (d) { return d.id; });
  }
  function reopen() {
    opened.forEach(function (id) {
      var d = document.getElementById(id);
      if (d && !d.open) d.open = true;
    });
    opened = [];
  }

  // refreshExport asks again for the PGN and share link the page shows,
  // when the game has moved on since they were written.
  function refreshExport() {
    var more = document.querySelector("#export-more[data-ply]");
    var status = document.getElementById("status");
    if (!more || !status || more.dataset.ply === status.dataset.ply || !window.htmx) return;
    more.removeAttribute("data-ply"); // once per ply
    window.htmx.ajax("GET", more.dataset.url, { target: "#export-more", swap: "outerHTML" });
  }

  // initBoard sets the Tab stop, and the focus back (final: last chance,
  // unless the board's own ply is still on its way: its squares are
  // disabled until it lands, hx-disabled-elt, so the focus cannot go back
  // before, and that answer's end is the last chance).
  function initBoard(final) {
    var form = board();
    var picker = document.querySelector("#promotion button");
    if (picker && picker.form !== shownPicker) { // a picker just opened: the queen takes the focus
      picker.focus();
      refocus = false;
    }
    shownPicker = picker && picker.form;
    if (!form) return;
    var all = squares(form);
    if (!all.length) return;
    var field = (form.querySelector("#board-ply") || { dataset: {} }).dataset;
    var first = field.dests, lastTo = field.last && field.last.slice(2); // data-last="e2e4"
    var cur = (cursor && squareOf(form, cursor)) || form.querySelector("button.selected") ||
      (lastTo && squareOf(form, lastTo)) || (first && squareOf(form, first.split(":")[0])) || all[0];
    setCursor(form, cur, refocus && !picker);
    if ((final && !form.classList.contains("htmx-request")) || picker || document.activeElement === cur) refocus = false;
  }

  function sound(status) {
    if (!status) return;
    if (status.dataset.phase === "view") { // a past ply: no sound, then or on return
      lastPly = null;
      return;
    }
    var ply = +status.dataset.ply, here = location.pathname;
    var play = lastPly !== null && here === lastGame && ply > lastPly && status.dataset.sound;
    lastPly = ply;
    lastGame = here;
    if (play) playSound(status.dataset.sound);
  }

  // followHistory scrolls the move list, not the page, to keep the ply
  // shown (aria-current) in sight, or to its end.
  function followHistory() {
    var list = document.getElementById("history");
    if (!list) return;
    var cur = list.querySelector('[aria-current="step"]');
    if (!cur) {
      list.scrollTop = list.scrollHeight;
      return;
    }
    var row = cur.closest("li") || cur;
    var top = row.offsetTop; // the list is positioned (style.css): its rows' offsets are within it
    if (top < list.scrollTop) {
      list.scrollTop = top;
    } else if (top + row.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + row.offsetHeight - list.clientHeight;
    }
  }

  // fit makes the board the largest square that fits the window with the
  // players' strips above and below it, beside the side column on a wide
  // window (below it on a narrow one, where the side column follows).
  function fit() {
    var g = game(), wrap = g && g.querySelector(".board-wrap");
    if (!wrap) return;
    var cs = getComputedStyle(g);
    var wide = cs.gridTemplateColumns.trim().split(/\s+/).length > 1; // the side column beside the board
    var gap = parseFloat(cs.columnGap) || 16;
    var w = g.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (wide) {
      var side = g.querySelector(".side");
      w -= (side ? side.getBoundingClientRect().width : 360) + gap;
    }
    // What the board's column holds besides the board: the strips, an
    // imported game's heading.
    var play = wrap.parentElement, other = 0;
    Array.prototype.forEach.call(play.children, function (el) {
      if (el !== wrap) other += el.getBoundingClientRect().height;
    });
    // EN-Chess's x squares stand in margins above and below the board,
    // which pass through the wrap: the board and both margins must fit.
    var b = wrap.querySelector(".board") || wrap, bs = getComputedStyle(b);
    var r = b.getBoundingClientRect();
    var mt = parseFloat(bs.marginTop) || 0, mb = parseFloat(bs.marginBottom) || 0;
    var tall = r.width ? 1 + (mt + mb) / r.width : 1;
    var top = play.getBoundingClientRect().top + window.scrollY;
    var avail = window.innerHeight - top - other - (parseFloat(cs.paddingBottom) || 8) - 8;
    var size = Math.min(w - 8, avail / tall);
    size = Math.max(192, Math.floor(size / 8) * 8);
    root.style.setProperty("--fit-js", size + "px");
  }

  function setSize(n) {
    var g = game();
    if (!g) return;
    for (var i = 50; i <= 100; i += 5) g.classList.remove("size-" + i);
    g.classList.add("size-" + n);
    var sel = document.getElementById("board-size");
    if (sel) sel.value = String(n);
    saveSetting("size", String(n));
  }

  // --- Copy ----------------------------------------------------------------

  function copy(btn) {
    var src = document.querySelector(btn.dataset.copy);
    if (!src) return;
    if (!btn.dataset.text) btn.dataset.text = btn.textContent;
    var text = src.value || src.textContent;
    function done(msg) {
      btn.textContent = msg;
      clearTimeout(+btn.dataset.timer);
      btn.dataset.timer = String(setTimeout(function () { btn.textContent = btn.dataset.text; }, 2000));
    }
    function fallback() {
      src.focus();
      if (src.select) src.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      done(ok ? "Copied" : (/Mac|iP/.test(navigator.platform) ? "Press ⌘C" : "Press Ctrl+C"));
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done("Copied"); }, fallback);
    } else {
      fallback();
    }
  }

  // --- Events --------------------------------------------------------------

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (!t.closest) return;
    var no = t.closest("[data-close-confirm]");
    if (no) {
      ev.preventDefault();
      var d = no.closest("details");
      if (d) {
        d.open = false;
        var s = d.querySelector("summary");
        if (s) s.focus();
      }
      return;
    }
    var c = t.closest("[data-copy]");
    if (c) {
      ev.preventDefault();
      copy(c);
      return;
    }
    var btn = t.closest("form#board button[data-square]");
    if (dragged) { // the click that ends a drag was handled by the drop
      dragged = false;
      if (btn || t.closest("#board")) {
        ev.preventDefault();
        ev.stopPropagation();
        return;
      }
    }
    if (!btn) return;
    if (!pick(btn)) ev.preventDefault();
  }, true);

  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (!t.closest) return;
    var confirm = t.closest("details[data-confirm][open]");
    if (confirm && ev.key === "Escape") { // Escape answers no
      ev.preventDefault();
      confirm.open = false;
      confirm.querySelector("summary").focus();
      return;
    }
    var layer = document.querySelector(".promo-layer");
    if (layer && ev.key === "Escape") {
      ev.preventDefault();
      refocus = true;
      layer.querySelector("[data-promotion-cancel]").click();
      return;
    }
    var choice = t.closest("#promotion button");
    if (choice && (ev.key === "ArrowUp" || ev.key === "ArrowDown")) {
      ev.preventDefault();
      var list = Array.prototype.slice.call(choice.form.querySelectorAll("button"));
      var up = ev.key === "ArrowUp" !== choice.form.classList.contains("bottom");
      var i = list.indexOf(choice) + (up ? -1 : 1);
      if (i >= 0 && i < list.length) list[i].focus();
      return;
    }
    var btn = t.closest("#board button[data-square]");
    if (!btn) return;
    var d = arrows[ev.key];
    if (d && !ev.altKey && !ev.ctrlKey && !ev.metaKey) {
      ev.preventDefault();
      var next = neighbour(btn.form, btn, d[0], d[1]);
      if (next) setCursor(btn.form, next, true);
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      clear(btn.form);
    }
  });

  // Drag and drop, by mouse, pen or touch: the piece follows the pointer;
  // a drop on a destination plays it, anywhere else it goes back.
  document.addEventListener("pointerdown", function (ev) {
    var t = ev.target;
    if (!t.closest || ev.button !== 0) return;
    var h = t.closest("[data-size-handle]");
    if (h) {
      var wrap = h.parentElement;
      resize = { x: ev.clientX, y: ev.clientY, w: wrap.getBoundingClientRect().width,
        fit: parseFloat(getComputedStyle(game()).getPropertyValue("--fit")) || wrap.getBoundingClientRect().width };
      ev.preventDefault();
      return;
    }
    var btn = t.closest("form#board button[data-square]");
    if (!btn || btn.classList.contains("dest") || !pickable(btn)) return;
    var img = btn.querySelector("img[data-piece]");
    if (!img) return;
    drag = { btn: btn, img: img, x: ev.clientX, y: ev.clientY, id: ev.pointerId, ghost: null, over: null };
  });

  document.addEventListener("pointermove", function (ev) {
    if (resize) {
      var px = resize.w + Math.max(ev.clientX - resize.x, ev.clientY - resize.y);
      var n = Math.round(Math.min(1, Math.max(0.5, px / resize.fit)) * 20) * 5;
      setSize(n);
      return;
    }
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) < 6) return;
      var form = drag.btn.form;
      clear(form);
      select(form, drag.btn);
      drag.btn.classList.add("drag-origin");
      var r = drag.btn.getBoundingClientRect();
      var g = drag.img.cloneNode(false);
      g.className = "drag-ghost";
      g.removeAttribute("data-piece");
      g.style.width = r.width + "px";
      g.style.height = r.height + "px";
      document.body.appendChild(g);
      drag.ghost = g;
      root.classList.add("dragging");
    }
    ev.preventDefault();
    drag.ghost.style.left = ev.clientX + "px";
    drag.ghost.style.top = ev.clientY + "px";
    var under = document.elementFromPoint(ev.clientX, ev.clientY);
    var over = under && under.closest && under.closest("form#board button.dest");
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove("drag-over");
      if (over) over.classList.add("drag-over");
      drag.over = over;
    }
  }, { passive: false });

  function endDrag(ev, drop) {
    if (resize) {
      resize = null;
      fit();
      return;
    }
    if (!drag || ev.pointerId !== drag.id) return;
    var d = drag;
    drag = null;
    if (!d.ghost) return; // a tap: the click picks
    d.ghost.remove();
    root.classList.remove("dragging");
    d.btn.classList.remove("drag-origin");
    if (d.over) d.over.classList.remove("drag-over");
    var under = drop && document.elementFromPoint(ev.clientX, ev.clientY);
    var to = under && under.closest && under.closest("form#board button.dest");
    if (to) {
      refocus = document.activeElement && !!document.activeElement.closest("#board");
      to.click(); // posts the ply, as a click on the destination does
    }
    dragged = true;
    setTimeout(function () { dragged = false; }, 0);
  }
  document.addEventListener("pointerup", function (ev) { endDrag(ev, true); });
  document.addEventListener("pointercancel", function (ev) { endDrag(ev, false); });

  document.addEventListener("change", function (ev) {
    var s = ev.target.dataset && ev.target.dataset.setting;
    if (s === "sound") saveSetting("sound", ev.target.checked ? "1" : "0");
    if (s === "premoves") saveSetting("premoves", ev.target.checked ? "1" : "0"); // premove.js reads it
    if (s === "notation") { // the server writes the moves: the page is asked for again
      saveSetting("notation", ev.target.value);
      location.reload();
    }
    if (s === "size") {
      setSize(ev.target.value);
      fit();
    }
    if (s === "board" || s === "pieces") { // the body's class draws every board (style.css)
      var body = document.body, v = ev.target.value;
      Array.prototype.slice.call(body.classList).forEach(function (c) {
        if (c.indexOf(s + "-") === 0) body.classList.remove(c);
      });
      body.classList.add(s + "-" + v);
      saveSetting(s, v);
    }
  });

  // The ply drawn ahead leaves its marks (the piece picked, where it could
  // go) once its request has left, with what the click chose.
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var form = board();
    if (shown && form && ev.detail.elt === form) clear(form);
  });
  // What a ply drawn ahead changed is put back before an answer that
  // touches the board is swapped in, and when its request fails unanswered.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var d = ev.detail;
    if (shown && d.shouldSwap && (d.elt === board() || (d.target && d.target.id === "game") || /id="(sq-|ban-line|board)/.test(d.serverResponse || ""))) unshow();
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    if (shown && ev.detail.elt === board()) unshow();
  });
  // The focus goes back to the board after a swap if it was there when a
  // request left or when any answer (one's own, or a refresh the game's
  // stream asked for) is swapped in: a swap removes the square it was on.
  function boardHasFocus() {
    var a = document.activeElement;
    return !!(a && a.closest && a.closest("#board, #promotion, .promo-layer"));
  }
  document.addEventListener("htmx:beforeRequest", function () { refocus = refocus || boardHasFocus(); });
  document.addEventListener("htmx:beforeSwap", function (ev) { if (ev.detail.shouldSwap) refocus = refocus || boardHasFocus(); });
  // An answer describes the page without what is the page's own until
  // then (only what changed is swapped; docs/fragments.md): the piece
  // picked, a refusal or notice, the promotion picker go before it lands.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    if (!ev.detail.shouldSwap || !ev.detail.target || ev.detail.target.id !== "game") return;
    remember();
    var form = board();
    if (form) clear(form);
    document.querySelectorAll("#notes #error, #notes #notice, #promotion-slot > *").forEach(function (el) { el.remove(); });
  });
  document.addEventListener("htmx:afterRequest", function () { if (refocus) initBoard(true); });
  // A typed ply that was played leaves its form for the next one.
  document.addEventListener("htmx:afterRequest", function (ev) {
    var f = ev.detail.elt;
    if (ev.detail.successful && f && f.matches && f.matches("form.typed") && f.elements.text) f.elements.text.value = "";
  });
  document.addEventListener("htmx:afterSwap", settle); // in the swap's own task: no click lands between
  document.addEventListener("htmx:afterSettle", settle);
  document.addEventListener("htmx:load", settle);

  // premove.js is fetched only by a page that takes premoves (a player's
  // at a game between two players: #premove), the first time one shows:
  // every other page is spared it.
  var premovesLoaded = false;
  function loadPremoves() {
    if (premovesLoaded || !document.getElementById("premove")) return;
    premovesLoaded = true;
    var s = document.createElement("script");
    s.src = "/static/premove.js?v=" + asset;
    document.head.appendChild(s);
  }
  document.addEventListener("htmx:afterSettle", loadPremoves);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", loadPremoves);
  else loadPremoves();
  document.addEventListener("banchess:shown", followHistory); // steps.js showed another position in place
  window.addEventListener("resize", fit);
  settle();
})();
