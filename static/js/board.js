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
})();
