// Sổ Tiến Lên: the record form under real table conditions (slow 4G, a café's Wi-Fi dropping).
// No inline handlers (CSP), no eval; the words shown come from the template (translated there).
//
// 1. What the scorekeeper typed is never changed by a server reply.
//    htmx posts the form on every change and the server answers with the whole form, re-rendered
//    with what depends on the change (the loser rows after the winner tap, the legal chop
//    choices, the problems) and the preview. Swapping that answer in (what htmx does) replaced
//    every input with the value the server had seen when the request left: a reply landing while
//    the next count was being typed wiped it or left half of it ("11" became "1", then "10").
//    So the answer is never swapped in: it is MERGED into the live form (morph below), and the
//    merge does not touch the value of
//      - the focused control (the node itself stays, so the caret, the keyboard and an IME
//        composition are left alone), and
//      - any control changed since the request left (a sequence number per change).
//    Everything else (structure, attributes, messages, values the server derived such as the
//    autofilled last place) comes from the server. On top of that, htmx's hx-sync "replace"
//    aborts a request when a newer one starts, and a reply older than the newest request sent is
//    dropped: it can only be staler than the one still coming. A small purpose-made merge
//    rather than a morphing library: the form is small and server-rendered, the rule about what
//    to keep is ours, and it adds no dependency.
//
// 2. Saving never loses or doubles a game. The save is sent by this script, not by htmx: the
//    submission (every field and its token) is written to localStorage before it leaves, and
//    stays there until the server has answered it. A dropped connection, a timeout or a server
//    that is down leaves the form filled, shows "not saved yet" above the save button, marks the
//    game as pending on the board, and sends the same submission (same token) again when the
//    network comes back, every few seconds, or by the retry button; a page reloaded meanwhile
//    sends it again too. The server answers a token it has seen with the game it already made,
//    so a save that did land but whose answer was lost is not recorded twice. The queue itself
//    (stored saves, sending one, when to send again) is pending.js, shared with settle.js.
(function () {
  "use strict";
  var FORM_ID = "record-form";
  var queue = window.TienlenPending;

  function recordForm() { return document.getElementById(FORM_ID); }

  // --- what the scorekeeper touched ------------------------------------------------------------
  var changeSeq = 0;        // goes up on every input or change in the form
  var touchedAt = {};       // control key -> changeSeq of its last change
  var touchedNames = {};    // field names touched since this form (this token) was opened
  var touchedToken = null;
  var requestSeq = 0;       // goes up on every preview request sent

  function keyOf(el) {
    if (el.type === "checkbox") return el.name + "=" + el.value;
    return el.name; // a radio group is one key: picking one unchecks the others
  }
  function tokenOf(form) {
    var input = form && form.querySelector('input[name="token"]');
    return input ? input.value : "";
  }
  function resetTouchedIfNewForm(form) {
    var token = tokenOf(form);
    if (token !== touchedToken) { touchedNames = {}; touchedToken = token; }
  }
  function onTouch(event) {
    var el = event.target;
    if (!el.form || el.form.id !== FORM_ID || !el.name) return;
    resetTouchedIfNewForm(el.form);
    changeSeq += 1;
    touchedAt[keyOf(el)] = changeSeq;
    touchedNames[el.name] = true;
  }
  document.addEventListener("input", onTouch, true);
  document.addEventListener("change", onTouch, true);

  // In card-count mode the "Cóng" chip is 13 cards: ticked, the row's count says 13 before
  // the form is read (this listener runs first, on the way down); unticked, a 13 it put there
  // is cleared. The server reads the chip the same way without this script.
  document.addEventListener("change", function (event) {
    var chip = event.target;
    if (!chip.matches || !chip.matches("input[data-cong-for]")) return;
    var cards = document.getElementById(chip.getAttribute("data-cong-for"));
    if (!cards) return;
    if (chip.checked) cards.value = "13";
    else if (cards.value === "13") cards.value = "";
  }, true);

  function touchedList(form) {
    resetTouchedIfNewForm(form);
    // Once a save was tried, every problem stays in sight until the game is saved.
    return touchedNames["*"] ? "*" : Object.keys(touchedNames).join(" ");
  }

  // Every request of the record form says which fields were touched (the server shows only
  // their problems) and remembers when it left.
  document.addEventListener("htmx:configRequest", function (event) {
    var form = recordForm();
    if (!form || !form.contains(event.detail.elt)) return;
    event.detail.formData.set("touched", touchedList(form));
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = recordForm();
    if (!form || !form.contains(event.detail.elt)) return;
    requestSeq += 1;
    event.detail.xhr.tienlenRequest = requestSeq;
    event.detail.xhr.tienlenSentAt = changeSeq;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var form = recordForm();
    if (!form || detail.target !== form || !detail.xhr || !detail.xhr.tienlenRequest) return;
    detail.shouldSwap = false;
    if (detail.isError || !form.isConnected) return;
    if (detail.xhr.tienlenRequest < requestSeq) return; // a newer request is on its way
    mergeReply(form, detail.serverResponse, detail.xhr.tienlenSentAt);
  });

  // --- the merge ---------------------------------------------------------------------------------
  function parseForm(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    return doc.getElementById(FORM_ID);
  }

  function mergeReply(form, html, sentAt) {
    var next = parseForm(html);
    if (!next) return;
    var active = document.activeElement;
    var keep = function (el) {
      return el === active || (touchedAt[keyOf(el)] || 0) > sentAt;
    };
    morphNode(form, next, keep);
    htmx.process(form);
    afterMerge(form);
  }

  function nodeKey(node) {
    if (node.nodeType !== 1) return "#" + node.nodeType;
    var key = node.tagName;
    if (node.id) return key + "#" + node.id;
    var dataKey = node.getAttribute("data-key");
    if (dataKey) return key + "@" + dataKey;
    var name = node.getAttribute("name");
    if (name !== null) {
      var type = node.getAttribute("type") || (node.tagName === "BUTTON" ? "submit" : "");
      var byValue = /^(checkbox|radio|submit|button)$/.test(type);
      return key + ":" + type + ":" + name + (byValue ? "=" + (node.getAttribute("value") || "") : "");
    }
    return key;
  }

  function isControl(el) {
    return el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA";
  }

  var KEPT_ATTRS = { value: 1, checked: 1, selected: 1 };

  function syncAttributes(live, next, kept) {
    var i, attr;
    for (i = live.attributes.length - 1; i >= 0; i--) {
      attr = live.attributes[i].name;
      if (kept && KEPT_ATTRS[attr]) continue;
      // A <details> the scorekeeper opened stays open; the server may only open one.
      if (attr === "open" && live.tagName === "DETAILS") continue;
      if (!next.hasAttribute(attr)) live.removeAttribute(attr);
    }
    for (i = 0; i < next.attributes.length; i++) {
      attr = next.attributes[i];
      if (kept && KEPT_ATTRS[attr.name]) continue;
      if (live.getAttribute(attr.name) !== attr.value) live.setAttribute(attr.name, attr.value);
    }
  }

  function morphNode(live, next, keep) {
    if (live.nodeType !== 1) {
      if (live.nodeValue !== next.nodeValue) live.nodeValue = next.nodeValue;
      return;
    }
    var kept = isControl(live) && keep(live);
    if (live.tagName === "SELECT") {
      var value = live.value;
      syncAttributes(live, next, kept);
      morphChildren(live, next, keep);
      live.value = kept ? value : selectedValue(next);
      return;
    }
    syncAttributes(live, next, kept);
    if (live.tagName === "INPUT") {
      if (!kept) {
        if (live.type === "checkbox" || live.type === "radio") live.checked = next.hasAttribute("checked");
        else live.value = next.getAttribute("value") || "";
      }
      return;
    }
    if (live.tagName === "TEXTAREA") {
      if (!kept) live.value = next.textContent;
      return;
    }
    morphChildren(live, next, keep);
  }

  function selectedValue(select) {
    var options = select.querySelectorAll("option");
    for (var i = 0; i < options.length; i++) {
      if (options[i].hasAttribute("selected")) return options[i].getAttribute("value") || "";
    }
    return options.length ? options[0].getAttribute("value") || "" : "";
  }

  // Children are matched in order by key (id, data-key, or tag + name + value); a live child no
  // answer child matches is removed, an answer child with no live match is inserted.
  function morphChildren(live, next, keep) {
    var liveKids = Array.prototype.slice.call(live.childNodes);
    var nextKids = Array.prototype.slice.call(next.childNodes);
    var cursor = 0;
    for (var i = 0; i < nextKids.length; i++) {
      var wanted = nodeKey(nextKids[i]);
      var found = -1;
      for (var j = cursor; j < liveKids.length; j++) {
        if (nodeKey(liveKids[j]) === wanted) { found = j; break; }
      }
      if (found === -1) {
        live.insertBefore(document.importNode(nextKids[i], true), liveKids[cursor] || null);
        continue;
      }
      for (var r = cursor; r < found; r++) live.removeChild(liveKids[r]);
      morphNode(liveKids[found], nextKids[i], keep);
      cursor = found + 1;
    }
    for (var k = cursor; k < liveKids.length; k++) live.removeChild(liveKids[k]);
  }

  // After a merge: a chain-builder button focuses the field it added, without moving the page;
  // a refused save brings the first field to fix into view.
  function afterMerge(form) {
    var focusName = form.getAttribute("data-focus");
    if (focusName) {
      form.removeAttribute("data-focus");
      var field = form.querySelector('[name="' + focusName + '"]');
      if (field) {
        field.focus({ preventScroll: true });
        if (!inView(field)) field.scrollIntoView({ block: "center" });
      }
    }
    if (form.hasAttribute("data-save-failed")) {
      form.removeAttribute("data-save-failed");
      showFirstProblem(form);
    }
  }

  function inView(el) {
    var box = el.getBoundingClientRect();
    var bar = document.getElementById("save-bar");
    var bottom = bar && getComputedStyle(bar).position === "fixed" ? bar.getBoundingClientRect().top : window.innerHeight;
    return box.top >= 60 && box.bottom <= bottom;
  }

  function showFirstProblem(form) {
    var field = form.querySelector('[aria-invalid="true"]');
    if (!field) field = document.getElementById("preview");
    var details = field.closest("details");
    if (details && !details.open) details.open = true;
    field.focus({ preventScroll: true });
    // A chip's checkbox is a 1 px box inside its label: show the label.
    var shown = field.closest("label.chip") || field;
    var fieldset = field.closest("fieldset");
    (fieldset && fieldset.offsetHeight < window.innerHeight / 2 ? fieldset : shown).scrollIntoView({ block: "center" });
  }

  // --- faster entry: Enter / Next moves to the next loser's count ----------------------------------
  document.addEventListener("keydown", function (event) {
    var el = event.target;
    if (event.key !== "Enter" || el.tagName !== "INPUT" || !el.form || el.form.id !== FORM_ID) return;
    // Enter must not "submit" the form: that presses its first button (add a chặt chain).
    event.preventDefault();
    // The counts in page order: each loser's cards and, when their hàng is open, its counts.
    // Enter in any of them goes to the next; past the last (or from another field), to the
    // preview. Either way the change event of this one fires on the way out.
    var all = Array.prototype.filter.call(
      el.form.querySelectorAll("input[data-cards], details.hang[open] input[type=text]"),
      function (input) { return !input.closest("[hidden]"); }
    );
    var at = all.indexOf(el);
    var next = at >= 0 ? all[at + 1] : null;
    if (next) {
      next.focus(); // the change event of this one fires on the way out
      next.select();
    } else {
      // The last count: on to the preview (who pays whom), read out as it comes; the next Tab
      // is the save bar. Focus never falls back to the page itself.
      var preview = document.getElementById("preview");
      if (preview) {
        preview.focus({ preventScroll: true });
        if (!inView(preview)) preview.scrollIntoView({ block: "nearest" });
      } else {
        el.select(); // stay on the field rather than fall back to the page
      }
    }
  });

  // --- the bar's height: nothing may hide behind it ---------------------------------------------
  var barObserver = null;
  var watchedBar = null;
  function watchBar() {
    var bar = document.getElementById("save-bar");
    if (!bar || bar === watchedBar || !window.ResizeObserver) return;
    if (barObserver) barObserver.disconnect();
    watchedBar = bar;
    barObserver = new ResizeObserver(function () {
      document.documentElement.style.setProperty("--bar", bar.offsetHeight + "px");
    });
    barObserver.observe(bar);
  }

  // --- saving, and saves waiting for the network ----------------------------------------------------
  function pendingHere() {
    var form = recordForm();
    return form ? queue.forUrl(form.getAttribute("action")) : [];
  }

  var sender = queue.scheduler({
    pending: pendingHere,
    headers: { "HX-Request": "true", "HX-Target": "board-inner" },
    sending: function () { showStatus("sending"); },
    answered: answered,
    failed: failed
  });

  function summaryOf(form, fields) {
    var status = document.getElementById("save-pending");
    var first = "";
    var cards = [];
    fields.forEach(function (pair) {
      if (pair[0] === "winner" || pair[0] === "place_1") first = first || pair[1];
    });
    form.querySelectorAll(".loser[data-name]").forEach(function (row) {
      var input = row.querySelector("input[data-cards]");
      if (input && !row.hidden && input.value) cards.push(row.getAttribute("data-name") + " " + input.value);
    });
    var label = status ? status.getAttribute("data-first") : "";
    return (first ? first + " (" + label + ")" : "") + (cards.length ? " · " + cards.join(" · ") : "");
  }

  function save(form) {
    // A preview still on its way would answer for the form before this save: drop it.
    requestSeq += 1;
    resetTouchedIfNewForm(form);
    touchedNames["*"] = true;
    var data = new FormData(form);
    data.set("action", "save");
    data.set("touched", touchedList(form));
    var fields = [];
    data.forEach(function (value, name) { fields.push([name, String(value)]); });
    var entry = {
      token: tokenOf(form),
      url: form.getAttribute("action"),
      fields: fields,
      summary: summaryOf(form, fields),
      at: Date.now()
    };
    queue.put(entry);
    sender.send(entry, true);
    // The game is on the board at once, as the row a save waiting for the network shows; the
    // server's answer replaces it with the saved game.
    renderPending();
  }

  function answered(entry, response, text) {
    var form = recordForm();
    if (response.headers.get("HX-Retarget") === "#record-form") {
      // Refused for what it says (a problem to fix): nothing was saved; show the form's problems.
      // A submission sent again after a reload comes back into the form if nothing else is
      // being typed there, so the game is not lost.
      if (form && (tokenOf(form) === entry.token || !Object.keys(touchedNames).length)) {
        mergeReply(form, text, changeSeq);
      }
      renderPending();
      return;
    }
    var board = document.getElementById("board-inner");
    var current = form && tokenOf(form) === entry.token;
    if (board && (current || !form || !Object.keys(touchedNames).length)) {
      htmx.swap(board, text, { swapStyle: "outerHTML" });
      watchBar();
      document.dispatchEvent(new CustomEvent("tienlen:saved"));
      // The note "saved", the form and its winner chips, just under the top bar, the updated
      // totals in the strip there (board.js); the note takes the focus (a keyboard goes on from
      // there, a screen reader hears it).
      var note = document.getElementById("saved-note") || document.getElementById("record-card");
      if (note) note.scrollIntoView({ block: "start" });
      if (note) {
        if (!note.hasAttribute("tabindex")) note.setAttribute("tabindex", "-1");
        note.focus({ preventScroll: true });
      }
      // The page's live region says it too (the note arrives inside the swapped board).
      var said = document.getElementById("saved-note");
      if (said && window.TienlenAnnounce) window.TienlenAnnounce(said.textContent);
    } else if (board) {
      // Sent in the background while another game is being typed: refresh the totals and the
      // games, leave the form alone.
      var doc = new DOMParser().parseFromString(text, "text/html");
      ["totals", "totals-strip", "games"].forEach(function (id) {
        var fresh = doc.getElementById(id), old = document.getElementById(id);
        if (fresh && old) htmx.swap(old, fresh.outerHTML, { swapStyle: "outerHTML" });
      });
    }
    renderPending();
  }

  function failed(kind, status) {
    showStatus(kind, status);
    renderPending();
  }

  function showStatus(kind, status, force) {
    var box = document.getElementById("save-pending");
    var button = document.querySelector("#record-form button[data-save]");
    var waiting = pendingHere().length > 0;
    if (button) {
      button.disabled = kind === "sending";
      // "Đang lưu…" on the button itself while the save is on its way.
      if (!button.hasAttribute("data-label")) button.setAttribute("data-label", button.textContent);
      var sending = box ? box.getAttribute("data-sending") : "";
      button.textContent = kind === "sending" && sending ? sending : button.getAttribute("data-label");
    }
    if (!box) return;
    if (!waiting || (kind === "sending" && box.hidden && !force)) {
      box.hidden = true;
      return;
    }
    var text = box.getAttribute("data-" + kind) || "";
    box.querySelector("[data-text]").textContent = text.replace("%(status)s", status || "");
    box.classList.toggle("sending", kind === "sending");
    box.hidden = false;
  }

  // The board lists the games waiting for the network, marked as not saved yet.
  function renderPending() {
    var games = document.getElementById("games");
    var template = document.getElementById("pending-game");
    if (!games || !template) return;
    games.querySelectorAll(".game.pending").forEach(function (row) { row.remove(); });
    var heading = games.querySelector("h2");
    pendingHere().slice().reverse().forEach(function (entry) {
      var row = template.content.firstElementChild.cloneNode(true);
      row.setAttribute("data-token", entry.token);
      row.querySelector("[data-summary]").textContent = entry.summary;
      var badge = row.querySelector(".badge");
      var status = document.getElementById("save-pending");
      if (badge && sender.busy(entry.token) && status) {
        badge.textContent = status.getAttribute("data-sending");
        row.classList.add("sending");
      }
      heading.after(row);
    });
    var button = document.querySelector("#record-form button[data-save]");
    if (button && !pendingHere().length) {
      button.disabled = false;
      if (button.hasAttribute("data-label")) button.textContent = button.getAttribute("data-label");
    }
  }

  document.addEventListener("click", function (event) {
    var saveButton = event.target.closest("#record-form button[data-save]");
    if (saveButton) {
      event.preventDefault();
      save(saveButton.form);
      return;
    }
    if (event.target.closest("#record-form button[data-retry]")) {
      event.preventDefault();
      sender.resend();
    }
  });

  function start() {
    watchBar();
    document.body.addEventListener("htmx:afterSettle", watchBar);
    if (pendingHere().length) {
      renderPending();
      showStatus("sending", "", true); // a game left unsaved before the page was (re)loaded
      sender.resume();
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
