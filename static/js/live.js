// The live table page. htmx polls the board with the ETag it was rendered with; the server
// answers 304 when nothing is new, which must leave the board alone (htmx would otherwise
// swap in the empty body).
(function () {
  "use strict";
  function isBoard(event) {
    return event.detail.elt && event.detail.elt.id === "live-board";
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!isBoard(event)) return;
    var status = event.detail.xhr.status;
    if (status === 304) {
      event.detail.shouldSwap = false;
    } else if (status === 404) {
      // The link was turned off or replaced: stop polling and say so instead of showing
      // totals that will never change again.
      var gone = document.getElementById("live-gone");
      if (gone) gone.hidden = false;
      event.detail.elt.remove();
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    // A phone in a pocket need not poll; the next tick after it is back catches up.
    if (isBoard(event) && document.hidden) event.preventDefault();
  });
  function offline(on) {
    var note = document.getElementById("live-offline");
    if (note) note.hidden = !on;
  }
  document.addEventListener("htmx:sendError", function (event) {
    if (isBoard(event)) offline(true);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (isBoard(event) && event.detail.xhr && event.detail.xhr.status) offline(false);
  });
})();
