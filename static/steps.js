// steps.js — stepping through a game's positions from the keyboard, and
// keeping the current ply in sight in the history list. The step links
// (#steps) work without it.
(function () {
  "use strict";
  var keys = { ArrowLeft: "step-prev", ArrowRight: "step-next", Home: "step-first", End: "step-last" };

  document.addEventListener("keydown", function (ev) {
    var id = keys[ev.key];
    if (!id || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.defaultPrevented) return;
    // The board, the promotion picker and form fields keep their own keys.
    var t = ev.target;
    if (t.closest && t.closest("#board, #promotion, .promo-layer, input, textarea, select, [contenteditable], [data-own-keys]")) return;
    var link = document.getElementById(id);
    if (!link || link.tagName !== "A") return;
    ev.preventDefault();
    link.click();
  });

  // showCurrent scrolls the history list, not the page, to bring a past
  // ply shown into sight; at the game's last ply the list follows the game
  // as the board's script has it.
  function showCurrent() {
    var list = document.getElementById("history");
    var cur = list && list.querySelector('[aria-current="step"]');
    var next = document.getElementById("step-next");
    if (!cur || !next || next.tagName !== "A") return;
    var row = cur.closest("li") || cur;
    var top = row.offsetTop - list.offsetTop;
    if (top < list.scrollTop) {
      list.scrollTop = top;
    } else if (top + row.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + row.offsetHeight - list.clientHeight;
    }
  }
  document.addEventListener("DOMContentLoaded", showCurrent);
  document.addEventListener("htmx:afterSettle", showCurrent);
})();
