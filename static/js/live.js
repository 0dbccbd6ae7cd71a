// The pages that follow the table: a sitting's and a group's live page, and a player's own
// page. htmx polls the board with the ETag it was rendered with; the server answers 304 when
// nothing is new, which must leave the board alone (htmx would otherwise swap in the empty
// body). A new board is swapped in without moving what the reader is reading: the element at
// the top of the screen stays where it was, focus stays on the same control, open <details>
// stay open.
(function () {
  "use strict";
  var FOCUSABLE = "a[href], button, input, select, textarea, summary";
  var kept = null;
  function isBoard(event) {
    return event.detail.elt && event.detail.elt.id === "live-board";
  }
  // What the reader has: the first element with an id still on screen and its distance from
  // the top, the focused control (by its nearest id and its rank inside it), open details.
  function keep(board) {
    var state = { anchor: null, top: 0, focus: null, rank: -1, open: [] };
    var nodes = board.querySelectorAll("[id]");
    for (var i = 0; i < nodes.length; i++) {
      var box = nodes[i].getBoundingClientRect();
      if (box.bottom > 0 && box.height > 0) {
        state.anchor = nodes[i].id;
        state.top = box.top;
        break;
      }
    }
    var active = document.activeElement;
    if (active && active !== board && board.contains(active)) {
      var holder = active.closest("[id]");
      if (holder) {
        state.focus = holder.id;
        state.rank = Array.prototype.indexOf.call(holder.querySelectorAll(FOCUSABLE), active);
        if (holder === active) state.rank = -1;
      }
    }
    board.querySelectorAll("details[open][id]").forEach(function (d) { state.open.push(d.id); });
    return state;
  }
  function restore(state) {
    state.open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details) details.open = true;
    });
    if (state.anchor) {
      var anchor = document.getElementById(state.anchor);
      if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - state.top);
    }
    if (state.focus) {
      var holder = document.getElementById(state.focus);
      var target = holder;
      if (holder && state.rank >= 0) target = holder.querySelectorAll(FOCUSABLE)[state.rank];
      if (target && target.focus) target.focus({ preventScroll: true });
    }
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!isBoard(event)) return;
    var status = event.detail.xhr.status;
    if (status === 304) {
      event.detail.shouldSwap = false;
    } else if (status === 404 || status === 410) {
      // The link was turned off or replaced: stop polling and say so instead of showing
      // totals that will never change again.
      var gone = document.getElementById("live-gone");
      if (gone) gone.hidden = false;
      event.detail.elt.remove();
    } else if (event.detail.shouldSwap) {
      kept = keep(event.detail.elt);
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!kept) return;
    var state = kept;
    kept = null;
    restore(state);
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
