// The sitting page: keep the totals and games current while another scorekeeper saves.
// The poll element asks with the ETag the board was rendered with; 304 means nothing is new
// and must leave the page alone. A changed board arrives as out-of-band swaps of the totals
// and the games list only; the record form is never replaced by a poll.
(function () {
  "use strict";
  function isPoll(event) {
    return event.detail.elt && event.detail.elt.id === "board-poll";
  }
  document.addEventListener("htmx:configRequest", function (event) {
    if (!isPoll(event)) return;
    // Refresh the page of games being looked at, not always the newest.
    var games = document.getElementById("games");
    if (games && games.dataset.page) event.detail.parameters.page = games.dataset.page;
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    // A phone in a pocket need not poll; the next tick after it is back catches up.
    if (isPoll(event) && document.hidden) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (isPoll(event) && event.detail.xhr.status === 304) event.detail.shouldSwap = false;
  });

  // The totals strip: shown once the totals go under the top bar, its height as --strip
  // so a focused control scrolls clear of it too.
  // Right after a save it shows before the page scrolls to the note, so the note lands below it.
  var queued = false;
  function placeStrip(force) {
    queued = false;
    var strip = document.getElementById("totals-strip");
    var totals = document.getElementById("totals");
    var topbar = document.querySelector(".topbar");
    var line = strip && strip.firstElementChild;
    if (!line || !totals || !topbar) return;
    // Shown as soon as part of the totals is under the top bar (a short page may not scroll
    // them away whole).
    var shown = force === true || totals.getBoundingClientRect().top < topbar.getBoundingClientRect().bottom - 1;
    strip.classList.toggle("shown", shown);
    document.documentElement.style.setProperty("--strip", (shown ? line.offsetHeight : 0) + "px");
  }
  function queueStrip() {
    if (!queued) { queued = true; window.requestAnimationFrame(placeStrip); }
  }
  window.addEventListener("scroll", queueStrip, { passive: true });
  window.addEventListener("resize", queueStrip);
  document.addEventListener("htmx:afterSettle", queueStrip);
  document.addEventListener("tienlen:saved", function () { placeStrip(true); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", queueStrip);
  else queueStrip();
})();
