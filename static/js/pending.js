// Sổ Tiến Lên: saves waiting for the network, shared by the record form (record.js) and the
// pay buttons of the settle-up pages (settle.js). No inline handlers (CSP), no eval.
//
// A submission (every field and its token) is written to localStorage before it leaves and
// stays there until the server has answered it, so a dropped connection, a timeout or a
// reload loses nothing; the page sends the same submission (same token) again when the
// network comes back. The server answers a token it has seen with what that submission
// already made, so a save that landed but whose answer was lost is not recorded twice.
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
  window.TienlenPending = { put: put, drop: drop, list: list, forUrl: forUrl, post: post };
})();
