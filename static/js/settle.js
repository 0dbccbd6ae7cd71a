// Sổ Tiến Lên: the pay buttons of the settle-up pages (a sitting's and a group's), through the
// same pending-save queue as the record form (pending.js). No inline handlers (CSP), no eval;
// the words shown come from the template (translated there).
//
// A tap stores the payment with its token and sends it. Its button turns into the row's
// "sending" line at once (disabled: a second tap on the same spot does nothing), and the
// server's answer puts "✓ Đã ghi … · Hoàn tác" in that same row, the rest of the plan below.
// Offline or a server that does not answer: the payment stays stored, the "Chưa lưu" banner
// says so, and the same token is sent again on reconnect, every few seconds, by the banner's
// button, or after a reload. The server answers a token it has seen with the payment it
// already made, so however many times it is sent, one payment is recorded.
(function () {
  "use strict";
  var queue = window.TienlenPending;
  var inFlight = {};
  var retryTimer = null;
  var retryDelay = 2000;
  var lastKind = "sending";

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
    var forms = box.querySelectorAll("form[data-pay]");
    for (var i = 0; i < forms.length; i++) {
      var data = new FormData(forms[i]);
      if (data.get("token") === entry.token) return forms[i];
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
      var button = form && form.querySelector("button");
      if (!button) return;
      button.disabled = true;
      button.classList.add("waiting");
      button.textContent = kind === "sending" && !button.dataset.failed
        ? button.dataset.sending : button.dataset.pending;
      if (kind !== "sending") button.dataset.failed = "1";
    });
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
  }

  function send(entry) {
    if (inFlight[entry.token]) return;
    inFlight[entry.token] = true;
    queue.post(entry, { "HX-Request": "true", "HX-Target": "settle" }).then(function (reply) {
      delete inFlight[entry.token];
      answered(entry, reply.response, reply.text);
    }, function () {
      delete inFlight[entry.token];
      failed(navigator.onLine === false ? "offline" : "server");
    });
  }

  function answered(entry, response, text) {
    if (response.status >= 500) { failed("server"); return; }
    if (!response.ok) { failed("refused", response.status); return; }
    // Recorded, or refused for what it says (a changed ledger, a closed period): either way
    // the answer is the settle-up as it now is, and this tap is done.
    queue.drop(entry.token);
    retryDelay = 2000;
    var box = settle();
    var id = "suggestion-" + field(entry, "row");
    var row = document.getElementById(id);
    var height = row ? row.offsetHeight : 0;
    var top = row ? row.getBoundingClientRect().top : null;
    if (box) htmx.swap(box, text, { swapStyle: "outerHTML" });
    // The payment takes its suggestion's place at no less than its height, and the page
    // scrolls by what grew above it (the balances now say who paid): the row stays on the
    // screen where the finger left it, and the rows below stay where they were.
    var paid = document.getElementById(id);
    if (paid && paid.classList.contains("paid")) {
      if (height) paid.style.minHeight = height + "px";
      if (top !== null) window.scrollBy(0, paid.getBoundingClientRect().top - top);
    }
    showStatus(pendingHere().length ? lastKind : "sending");
    if (pendingHere().length) schedule(0);
  }

  function failed(kind, status) {
    showStatus(kind, status);
    if (kind !== "refused") schedule(retryDelay);
    retryDelay = Math.min(retryDelay * 2, 30000);
  }

  function schedule(delay) {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(resendAll, delay);
  }
  function resendAll() { pendingHere().forEach(send); }

  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-pay]");
    if (!form || !queue) return;
    event.preventDefault();
    var button = form.querySelector("button");
    if (button && button.disabled) return;
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var entry = {
      token: String(new FormData(form).get("token") || ""),
      url: form.getAttribute("action"),
      fields: fields,
      summary: button ? button.dataset.pending : "",
      at: Date.now()
    };
    if (!entry.token) return;
    queue.put(entry);
    showStatus("sending");
    send(entry);
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("button[data-pay-retry]")) {
      retryDelay = 2000;
      resendAll();
    }
  });
  window.addEventListener("online", function () { retryDelay = 2000; schedule(0); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && pendingHere().length) schedule(0);
  });
  window.addEventListener("beforeunload", function (event) {
    if (pendingHere().length) event.preventDefault();
  });
  // A swap of the settle-up (another plan, a refused form) keeps the waiting rows marked.
  document.body.addEventListener("htmx:afterSettle", function () { markRows(lastKind); });

  function start() {
    if (pendingHere().length) {
      showStatus("server"); // a payment left unsent before the page was (re)loaded
      schedule(0);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
