// board.js — optional progressive enhancement for the Ban Chess playground.
// Every square's destinations are already in the page (data-dests), so
// picking a piece happens here with no round trip; only the ply is posted
// (by htmx, or by the plain form when htmx is absent). Without this file
// the board still works: picking a piece is a form post.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function squares(form) {
    return form.querySelectorAll("button[data-square]");
  }

  function clear(form) {
    form.elements.from.value = "";
    squares(form).forEach(function (b) {
      b.classList.remove("selected", "dest", "capture");
      b.setAttribute("name", "square");
      b.removeAttribute("formaction");
      b.removeAttribute("aria-pressed");
    });
  }

  function select(form, btn) {
    form.elements.from.value = btn.dataset.square;
    btn.classList.add("selected");
    btn.setAttribute("aria-pressed", "true");
    btn.dataset.dests.split(" ").forEach(function (sq) {
      var d = form.querySelector('button[data-square="' + sq + '"]');
      if (!d) return;
      d.classList.add("dest");
      if (d.querySelector("[data-piece]")) d.classList.add("capture");
      d.setAttribute("name", "to");
      d.setAttribute("formaction", form.dataset.plyUrl);
    });
  }

  // copyText copies src's text: with the Clipboard API where the page has
  // one (a secure context), else by selecting it and the copy command (plain
  // http from another device), else it leaves it selected and says how.
  function copyText(button, src) {
    if (!src) return;
    var text = src.value || src.textContent;
    var label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    function say(msg) {
      button.textContent = msg;
      clearTimeout(button._reset);
      button._reset = setTimeout(function () { button.textContent = label; }, 2000);
    }
    function fallback() {
      if (src.select) src.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      say(ok ? "Copied" : "Press Ctrl+C");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { say("Copied"); }, fallback);
    } else {
      fallback();
    }
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    var copy = t.closest && t.closest("[data-copy]");
    if (copy) {
      copyText(copy, document.querySelector(copy.dataset.copy));
      ev.preventDefault();
      return;
    }
    var btn = t.closest && t.closest("form#board button[data-square]");
    if (!btn) return;
    var form = btn.form;
    var sel = form.elements.from.value;
    if (sel && btn.classList.contains("dest")) return; // post the ply
    ev.preventDefault();
    clear(form);
    if (btn.dataset.dests && btn.dataset.square !== sel) select(form, btn);
  }, true);
})();
