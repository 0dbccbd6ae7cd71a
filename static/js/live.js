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
  function onScreen(box) {
    return box.height > 0 && box.bottom > 0 && box.top < window.innerHeight;
  }
  // What the reader has: the focused control (by its nearest id and its rank inside it) and,
  // when it is on screen, its distance from the top; else the first element with an id that
  // starts on screen (one that starts above it, e.g. a list that grows, would let what is read
  // below it move) and its distance from the top; open details.
  function keep(board) {
    var state = { anchor: null, top: 0, focus: null, rank: -1, focusTop: null, open: [] };
    var nodes = board.querySelectorAll("[id]");
    var partly = null;
    for (var i = 0; i < nodes.length; i++) {
      var box = nodes[i].getBoundingClientRect();
      if (!onScreen(box)) continue;
      if (!partly) partly = { id: nodes[i].id, top: box.top };
      if (box.top >= 0) {
        state.anchor = nodes[i].id;
        state.top = box.top;
        break;
      }
    }
    if (!state.anchor && partly) {
      state.anchor = partly.id;
      state.top = partly.top;
    }
    var active = document.activeElement;
    if (active && active !== board && board.contains(active)) {
      var holder = active.closest("[id]");
      if (holder) {
        state.focus = holder.id;
        state.rank = Array.prototype.indexOf.call(holder.querySelectorAll(FOCUSABLE), active);
        if (holder === active) state.rank = -1;
        var seen = active.getBoundingClientRect();
        if (onScreen(seen)) state.focusTop = seen.top;
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
    var target = null;
    if (state.focus) {
      var holder = document.getElementById(state.focus);
      target = holder;
      if (holder && state.rank >= 0) target = holder.querySelectorAll(FOCUSABLE)[state.rank];
    }
    if (target && state.focusTop !== null) {
      window.scrollBy(0, target.getBoundingClientRect().top - state.focusTop);
    } else if (state.anchor) {
      var anchor = document.getElementById(state.anchor);
      if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - state.top);
    }
    if (target && target.focus) target.focus({ preventScroll: true });
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
