// Sổ Tiến Lên: saves waiting for the network, shared by the record form (record.js) and the
// pay buttons and typed payment form of the settle-up pages (settle.js). No inline handlers
// (CSP), no eval.
//
// A submission (every field and its token) is written to localStorage before it leaves and
// stays there until the server has answered it, so a dropped connection, a timeout or a
// reload loses nothing; the page sends the same submission (same token) again when the
// network comes back. The server answers a token it has seen with what that submission
// already made, so a save that landed but whose answer was lost is not recorded twice.
//
// One scheduler (below) decides when a stored submission is sent again, for every page that
// queues: at once when the browser says the network is back or the page is shown again,
// otherwise after a delay that doubles from 2 s to 30 s while the server cannot be reached;
// a refusal (a 4xx: logged out, forbidden) waits for the user. Leaving a page with something
// unsent asks first. The page says what to do with an answer and how to show the waiting.
(function () {
  "use strict";
  var STORE = "tienlen.pending.v1";
  var TIMEOUT_MS = 15000;
  var memory = null; // private mode (no localStorage): the queue lives as long as the page

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function store(list) {
    try { localStorage.setItem(STORE, JSON.stringify(list)); } catch (e) { /* memory only */ }
    memory = list;
  }
  function list() {
    var stored = load();
    return stored.length || memory === null ? stored : memory;
  }
  function put(entry) {
    var kept = list().filter(function (other) { return other.token !== entry.token; });
    kept.push(entry);
    store(kept);
  }
  function drop(token) {
    store(list().filter(function (other) { return other.token !== token; }));
  }
  function forUrl(url) {
    return list().filter(function (entry) { return entry.url === url; });
  }
  function csrfToken() {
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }
  // Send a submission as it was stored (with this page's CSRF token: a reload renews it).
  // Resolves with {response, text} for any answer; rejects when none came (offline, timeout).
  function post(entry, headers) {
    var body = new URLSearchParams();
    var csrf = csrfToken();
    entry.fields.forEach(function (pair) {
      body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && csrf ? csrf : pair[1]);
    });
    var controller = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, TIMEOUT_MS);
    var sent = Object.assign({ "X-CSRFToken": csrf }, headers || {});
    return fetch(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: sent,
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      return response.text().then(function (text) {
        clearTimeout(timer);
        return { response: response, text: text };
      });
    }, function (error) {
      clearTimeout(timer);
      throw error;
    });
  }

  var FIRST_DELAY_MS = 2000;
  var LAST_DELAY_MS = 30000;

  // The scheduler of one page's queue. ``options``:
  //   pending()                 the submissions this page sends (forUrl of its form's action);
  //   headers                   sent with each (the htmx target the answer is rendered for);
  //   sending(entry)            called as a submission leaves (optional);
  //   answered(entry, response, text, extra)  a 2xx answer: the submission is out of the
  //                             queue already; ``extra`` is what send() was given;
  //   failed(kind, status)      no answer ("offline", "server": sent again by itself) or a
  //                             refusal ("refused", with the HTTP status: left for the user).
  // Returns send(entry, extra), resend() (now, delay reset: a "send again" button),
  // resume() (after a load: send what an earlier page left) and busy(token) (on its way now).
  function scheduler(options) {
    var inFlight = {};
    var timer = null;
    var delay = FIRST_DELAY_MS;

    function send(entry, extra) {
      if (inFlight[entry.token]) return;
      inFlight[entry.token] = true;
      if (options.sending) options.sending(entry);
      post(entry, options.headers).then(function (reply) {
        delete inFlight[entry.token];
        var status = reply.response.status;
        if (status >= 500) { fail("server"); return; }
        if (!reply.response.ok) { fail("refused", status); return; }
        drop(entry.token);
        delay = FIRST_DELAY_MS;
        options.answered(entry, reply.response, reply.text, extra);
        if (options.pending().length) later(0);
      }, function () {
        delete inFlight[entry.token];
        fail(navigator.onLine === false ? "offline" : "server");
      });
    }
    function fail(kind, status) {
      options.failed(kind, status);
      if (kind !== "refused") later(delay);
      delay = Math.min(delay * 2, LAST_DELAY_MS);
    }
    function later(ms) {
      clearTimeout(timer);
      timer = setTimeout(sendAll, ms);
    }
    function sendAll() { options.pending().forEach(function (entry) { send(entry); }); }
    function resend() { delay = FIRST_DELAY_MS; sendAll(); }
    function resume() { if (options.pending().length) later(0); }

    window.addEventListener("online", function () { delay = FIRST_DELAY_MS; later(0); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") resume();
    });
    window.addEventListener("beforeunload", function (event) {
      if (options.pending().length) event.preventDefault();
    });
    function busy(token) { return Boolean(inFlight[token]); }
    return { send: send, resend: resend, resume: resume, busy: busy };
  }

  window.TienlenPending = {
    put: put, drop: drop, list: list, forUrl: forUrl, post: post, scheduler: scheduler
  };
})();
