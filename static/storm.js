// Puzzle Storm's clock: counts down the time the server gave the page
// (data-remaining, in milliseconds, on #storm-clock) and, when it runs
// out, posts the run's end (data-end) so that the page shows the score.
// The server keeps the time itself: this only draws it.
(function () {
  "use strict";
  var deadline = 0, seen = null, ended = false;
  function text(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function tick() {
    var el = document.getElementById("storm-clock");
    if (!el) {
      seen = null;
      return;
    }
    if (el !== seen) {
      seen = el;
      ended = false;
      deadline = Date.now() + Number(el.getAttribute("data-remaining") || 0);
    }
    var left = deadline - Date.now();
    el.textContent = text(left);
    el.classList.toggle("low", left < 20000);
    if (left <= 0 && !ended) {
      ended = true;
      var end = el.getAttribute("data-end");
      if (end && window.htmx) {
        window.htmx.ajax("POST", end, { target: "#game", swap: "outerHTML" });
      } else if (end) {
        var f = document.createElement("form");
        f.method = "post";
        f.action = end;
        document.body.appendChild(f);
        f.submit();
      }
    }
  }
  setInterval(tick, 200);
  document.addEventListener("DOMContentLoaded", tick);
})();
