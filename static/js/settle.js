// Sổ Tiến Lên: the pay buttons and the typed payment form of the settle-up pages (a sitting's
// and a group's), through the same pending-save queue and scheduler as the record form
// (pending.js); and the "Chia sẻ" button. No inline handlers (CSP), no eval; the words shown
// come from the template (translated there).
//
// A tap stores the payment with its token and sends it. Its button turns into the row's
// "sending" line at once (disabled: a second tap on the same spot does nothing), and the
// server's answer puts "✓ Đã ghi … · Hoàn tác" in that same row, the rest of the plan below.
// Offline or a server that does not answer: the payment stays stored, the "Chưa lưu" banner
// says so, and the same token is sent again on reconnect, every few seconds, by the banner's
// button, or after a reload. The server answers a token it has seen with the payment it
// already made, so however many times it is sent, one payment is recorded; a second tap on
// the same suggestion (another token, queued from the same plan) is refused as a changed
// ledger. The typed form ("Ghi một khoản đã trả") is queued the same way, its token with it;
// its button waits, the form keeps what was typed until the answer comes.
(function () {
  "use strict";
  var queue = window.TienlenPending;
  var lastKind = "sending";
  var sender = queue.scheduler({
    pending: pendingHere,
    headers: { "HX-Request": "true", "HX-Target": "settle" },
    answered: answered,
    failed: failed
  });

  function settle() { return document.getElementById("settle"); }
  function payUrl() {
    var box = settle();
    var form = box && box.querySelector("form[data-pay]");
    return (box && box.getAttribute("data-pay-url")) || (form ? form.getAttribute("action") : "");
  }
  function pendingHere() {
    var url = payUrl();
    return url ? queue.forUrl(url) : [];
  }
  function field(entry, name) {
    var found = entry.fields.filter(function (pair) { return pair[0] === name; })[0];
    return found ? found[1] : "";
  }
  function formFor(entry) {
    var box = settle();
    if (!box) return null;
    var forms = box.querySelectorAll("form[data-pay], form[data-pay-form]");
    for (var i = 0; i < forms.length; i++) {
      var data = new FormData(forms[i]);
      if (data.get("token") === entry.token) return forms[i];
      if (forms[i].hasAttribute("data-pay-form") || field(entry, "kind") !== "suggestion") continue;
      if (["payer", "payee", "amount"].every(function (n) { return data.get(n) === field(entry, n); })) {
        return forms[i];
      }
    }
    return null;
  }

  // Each payment still waiting keeps its row: the button stays disabled, saying so.
  function markRows(kind) {
    pendingHere().forEach(function (entry) {
      var form = formFor(entry);
      var button = form && form.querySelector("button[data-pending]");
      if (!button) return;
      // A disabled button drops the keyboard's focus onto the page: the row keeps it instead.
      var hadFocus = document.activeElement === button;
      button.disabled = true;
      if (hadFocus) holdOnRow(button);
      button.classList.add("waiting");
      button.textContent = kind === "sending" && !button.dataset.failed
        ? button.dataset.sending : button.dataset.pending;
      if (kind !== "sending") button.dataset.failed = "1";
    });
  }

  function holdOnRow(button) {
    var row = button.closest("article.suggestion") || button.closest("form");
    if (!row) return;
    if (!row.hasAttribute("tabindex")) row.setAttribute("tabindex", "-1");
    row.focus({ preventScroll: true });
  }

  function showStatus(kind, status) {
    lastKind = kind;
    var box = document.getElementById("pay-pending");
    var waiting = pendingHere();
    markRows(kind);
    if (!box) return;
    if (!waiting.length || kind === "sending") { box.hidden = true; return; }
    var text = box.getAttribute("data-" + kind) || "";
    box.querySelector("[data-text]").textContent = text.replace("%(status)s", status || "");
    var list = box.querySelector("[data-list]");
    list.textContent = "";
    waiting.forEach(function (entry) {
      var item = document.createElement("li");
      item.textContent = entry.summary;
      list.appendChild(item);
    });
    box.hidden = false;
    // Its height keeps a focused control of the page clear of it (site.css).
    document.documentElement.style.setProperty("--pending", box.offsetHeight + "px");
  }

  // The tapped row keeps its height while a finger may still rest on it (a second tap lands
  // in the row's empty lower part, not on the next suggestion slid up into its place), and
  // gives the space back once the page is moved by hand (a wheel, a drag, a key): a finger
  // moving the page is not about to tap, and no row moves under one that rests.
  function keepHeight(row, height) {
    row.style.minHeight = height + "px";
    var events = ["wheel", "touchmove", "keydown"];
    function release() {
      row.style.minHeight = "";
      events.forEach(function (name) { window.removeEventListener(name, release, true); });
    }
    events.forEach(function (name) { window.addEventListener(name, release, true); });
  }

  function answered(entry, response, text) {
    // Recorded, or refused for what it says (a changed ledger, a closed period, a typed
    // amount to fix): either way the answer is the settle-up as it now is, with the form's
    // problems if any, and this submission is done.
    var box = settle();
    var id = "suggestion-" + field(entry, "row");
    var row = document.getElementById(id);
    var height = row ? row.offsetHeight : 0;
    var top = row ? row.getBoundingClientRect().top : null;
    // Where the keyboard was: on the tapped button (or anywhere in the settle-up), it stays on
    // that row after the swap, on its "Hoàn tác".
    var active = document.activeElement;
    var hadFocus = !!(box && active && active !== document.body && box.contains(active));
    if (box) htmx.swap(box, text, { swapStyle: "outerHTML" });
    // The payment takes its suggestion's place at no less than its height, and the page
    // scrolls by what grew above it (the balances now say who paid): the row stays on the
    // screen where the finger left it, and the rows below stay where they were.
    var paid = document.getElementById(id);
    if (paid && paid.classList.contains("paid")) {
      if (height) keepHeight(paid, height);
      if (top !== null) window.scrollBy(0, paid.getBoundingClientRect().top - top);
    }
    var told = announced(response);
    if (told) window.TienlenAnnounce && window.TienlenAnnounce(told);
    else say((paid && paid.querySelector(".paid-row")) || document.querySelector("#settle .alert"));
    if (hadFocus || document.activeElement === document.body) keepFocus(paid);
    showStatus(pendingHere().length ? lastKind : "sending");
  }

  // The words the server gives the live region (its HX-Trigger header), if any.
  function announced(response) {
    try {
      var trigger = JSON.parse(response.headers.get("HX-Trigger") || "{}");
      return trigger["tienlen:announce"] || "";
    } catch (error) {
      return "";
    }
  }
  document.body.addEventListener("tienlen:announce", function (event) {
    var words = event.detail && event.detail.value;
    if (words && window.TienlenAnnounce) window.TienlenAnnounce(words);
  });

  function say(element) {
    if (element && window.TienlenAnnounce) window.TienlenAnnounce(element.textContent);
  }

  // The keyboard's place after a swap of the settle-up: the row's first button (a paid row's
  // "Hoàn tác", an unpaid one's pay button), else the row itself, else the plan's heading.
  function keepFocus(where) {
    var target = where ? where.querySelector(".paid-row button, button.pay") || where
      : document.getElementById("plan-h");
    if (!target) return;
    if (target.tagName !== "BUTTON" && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }

  // "Hoàn tác" and the other htmx swaps of the settle-up (another plan, a void): the keyboard
  // stays on the same row (its pay button again after an undo), or on the same link. Noted
  // when the request is made: by the time the answer comes, the disabled button has lost it.
  var swapped = null;
  document.body.addEventListener("htmx:configRequest", function (event) {
    var target = event.detail.target, elt = event.detail.elt;
    if (!target || target.id !== "settle" || !elt) { swapped = null; return; }
    var active = document.activeElement;
    var row = elt.closest ? elt.closest("article.suggestion") : null;
    swapped = {
      focused: !!(active && active !== document.body && target.contains(active)),
      row: row ? row.id : "",
      href: elt.tagName === "A" ? elt.getAttribute("href") : ""
    };
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    var box = document.getElementById("settle");
    var was = swapped;
    swapped = null;
    if (!was || !box) return;
    var active = document.activeElement;
    if (!was.focused && active !== document.body) return;
    if (active && active !== document.body && box.contains(active)) return;
    var link = was.href ? box.querySelector('a[href="' + was.href.replace(/"/g, "") + '"]') : null;
    if (link) { link.focus({ preventScroll: true }); return; }
    keepFocus((was.row && document.getElementById(was.row)) || null);
  });

  function failed(kind, status) {
    showStatus(kind, status);
  }

  // The typed form's line in the banner: "Chưa lưu: Anh Hai → Bé Năm 30000" from what was
  // picked and typed (the template gives the words).
  function typedSummary(form) {
    var names = ["payer", "payee"].map(function (name) {
      var select = form.querySelector('select[name="' + name + '"]');
      var option = select && select.selectedIndex >= 0 ? select.options[select.selectedIndex] : null;
      return option ? option.textContent.trim() : "";
    });
    var amount = form.querySelector('input[name="amount"]');
    var button = form.querySelector("button[data-pending]");
    var words = button ? button.getAttribute("data-summary") || "" : "";
    return words.replace("%(payer)s", names[0]).replace("%(payee)s", names[1])
      .replace("%(amount)s", amount ? amount.value.trim() : "");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-pay], form[data-pay-form]");
    if (!form || !queue) return;
    event.preventDefault();
    var button = form.querySelector("button[data-pending]");
    if (button && button.disabled) return;
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var entry = {
      token: String(new FormData(form).get("token") || ""),
      url: form.getAttribute("action"),
      fields: fields,
      summary: form.hasAttribute("data-pay-form") ? typedSummary(form) : (button ? button.dataset.pending : ""),
      at: Date.now()
    };
    if (!entry.token) return;
    queue.put(entry);
    showStatus("sending");
    sender.send(entry);
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("button[data-pay-retry]")) sender.resend();
    var share = event.target.closest("button[data-share]");
    if (share) shareNight(share);
  });

  // "Chia sẻ": the night as plain text (written by the server, in the page's language) to the
  // phone's share sheet (Zalo, Messenger…); where there is none, to the clipboard.
  function shareNight(button) {
    var source = document.getElementById(button.getAttribute("data-share"));
    var text = source ? source.value : "";
    var note = button.parentNode.querySelector("[data-share-note]");
    function say(words) {
      if (!note) return;
      note.textContent = words || "";
      note.hidden = !words;
    }
    if (navigator.share) {
      navigator.share({ text: text }).then(function () { say(""); }, function (error) {
        if (!error || error.name !== "AbortError") copy();
      });
      return;
    }
    copy();
    function copy() {
      var copied = navigator.clipboard && window.isSecureContext
        ? navigator.clipboard.writeText(text)
        : Promise.reject(new Error("no clipboard"));
      copied.then(function () { say(button.getAttribute("data-copied")); }, function () {
        // No clipboard either (a plain-http page): show the text, selected, to copy by hand.
        if (source) {
          source.hidden = false;
          source.focus();
          source.select();
        }
        say(button.getAttribute("data-select"));
      });
    }
  }
  // A swap of the settle-up (another plan, a refused form) keeps the waiting rows marked.
  document.body.addEventListener("htmx:afterSettle", function () { markRows(lastKind); });

  function start() {
    if (pendingHere().length) {
      showStatus("server"); // a payment left unsent before the page was (re)loaded
      sender.resume();
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
