// editor.js — dragging in the board editor: a palette piece onto a square
// puts it there, a piece from one square to another moves it. Each drop is
// the editor's form submitted (by htmx when it runs); without this file
// the editor works by clicks. "Analyse this position" opens the analysis
// of the form's fields as they stand, a field being typed in included
// (without this file the link carries the position last rendered).
(function () {
  "use strict";
  var draggable = "#editor-form [data-pick], #editor-form button[data-square]";

  function arm() {
    document.querySelectorAll(draggable).forEach(function (el) { el.draggable = true; });
  }
  document.addEventListener("DOMContentLoaded", arm);
  document.addEventListener("htmx:afterSettle", arm);

  function squareOf(ev) {
    return ev.target.closest && ev.target.closest("#editor-form button[data-square]");
  }

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("#editor-form [data-analyse]");
    if (!link || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    ev.preventDefault();
    var q = new URLSearchParams(new FormData(link.closest("form")));
    location.assign("/analysis?" + q.toString()); // the server answers the address of its FEN
  });

  document.addEventListener("dragstart", function (ev) {
    var el = ev.target.closest && ev.target.closest(draggable);
    if (!el) return;
    ev.dataTransfer.setData("text/plain", el.dataset.pick ? "pick:" + el.dataset.pick : "from:" + el.dataset.square);
    ev.dataTransfer.effectAllowed = "copyMove";
  });
  document.addEventListener("dragover", function (ev) {
    if (squareOf(ev)) ev.preventDefault();
  });
  document.addEventListener("drop", function (ev) {
    var sq = squareOf(ev);
    if (!sq) return;
    ev.preventDefault();
    var data = ev.dataTransfer.getData("text/plain"), form = sq.form;
    if (data.indexOf("pick:") === 0) {
      form.elements.cur.value = data.slice(5);
      sq.click(); // submits the square with the piece dropped
    } else if (data.indexOf("from:") === 0 && data.slice(5) !== sq.dataset.square) {
      var move = document.createElement("input");
      move.type = "hidden";
      move.name = "move";
      move.value = data.slice(5) + sq.dataset.square;
      form.appendChild(move);
      form.requestSubmit();
    }
  });
})();
