// steps.js — stepping through a game's positions from the keyboard, and
// keeping the current ply in sight in the history list. The step links
// (#steps) work without it.
(function () {
  "use strict";
  var keys = { ArrowLeft: "step-prev", ArrowRight: "step-next", Home: "step-first", End: "step-last" };

  document.addEventListener("keydown", function (ev) {
    var id = keys[ev.key];
    if (!id || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.defaultPrevented) return;
    // The board, form fields and the editor keep their own keys.
    var t = ev.target;
    if (t.closest && t.closest("#board, input, textarea, select, [contenteditable], [data-own-keys]")) return;
    var link = document.getElementById(id);
    if (!link || link.tagName !== "A") return;
    ev.preventDefault();
    link.click();
  });

  // showCurrent scrolls the history list, not the page, to the current ply.
  function showCurrent() {
    var list = document.getElementById("history");
    var cur = list && list.querySelector('[aria-current="step"], a.current');
    if (!cur) return;
    var top = cur.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
  document.addEventListener("DOMContentLoaded", showCurrent);
  document.addEventListener("htmx:afterSettle", showCurrent);
})();
