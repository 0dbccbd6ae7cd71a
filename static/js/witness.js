// A witness: this phone remembers the book it has seen on the live page (each history entry's
// hash, short, with its game and time, and the newest hash in full) and, on a later visit,
// asks for the book since then (scoring.ledger.verify.witness). The server recomputes the
// hashes of the entries this phone saw from what the database holds now; each newer entry
// comes in full, and this phone chains it with its own SHA-256 (Web Crypto) from the hash it
// remembers. An entry that changed or disappeared shows a red warning naming its game and
// time; an honest book only grows, and then nothing is shown.
(function () {
  "use strict";
  var PREFIX = 16;
  var MIN_GAP_MS = 20000; // at most one question every 20 s while the board updates
  var lastAsked = 0;
  var asking = false;

  function box() {
    return document.getElementById("witness-alert");
  }
  // "2": the chain as migration 0016 re-made it (names and numbers, not row ids); what a
  // phone remembers of the chain before it is set aside rather than shown as a change.
  function key() {
    return "tl-witness:2:" + location.pathname;
  }
  function load() {
    try {
      var state = JSON.parse(localStorage.getItem(key()) || "null");
      if (state && Array.isArray(state.seen) && typeof state.head === "string") return state;
    } catch (e) {
      /* storage off or unreadable: start again */
    }
    return { seen: [], head: "", fingerprints: [], payments: {} };
  }
  function save(state) {
    try {
      localStorage.setItem(key(), JSON.stringify(state));
    } catch (e) {
      /* private mode or full: this visit still checked */
    }
  }
  function hex(buffer) {
    var bytes = new Uint8Array(buffer);
    var out = "";
    for (var i = 0; i < bytes.length; i++) out += ("0" + bytes[i].toString(16)).slice(-2);
    return out;
  }
  function sha256(text) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(hex);
  }
  function when(at) {
    var date = new Date(at);
    if (isNaN(date.getTime())) return at;
    return date.toLocaleString(document.documentElement.lang || undefined, {
      dateStyle: "short",
      timeStyle: "short",
      timeZone: (document.querySelector('meta[name="site-tz"]') || {}).content || undefined,
    });
  }
  function warn(kind, position, game, at) {
    var el = box();
    if (!el) return;
    var where =
      game === null || game === undefined
        ? el.dataset.time.replace("{at}", when(at))
        : el.dataset.game.replace("{game}", game).replace("{at}", when(at));
    var text = el.dataset[kind].replace("{n}", position).replace("{where}", where);
    el.querySelector("[data-witness-detail]").textContent = text;
    el.hidden = false;
  }

  function money(amount) {
    var english = (document.documentElement.lang || "").indexOf("en") === 0;
    // The site's one way, as scoring/text/money.py writes it: 5.000 ₫, in English 5,000 ₫.
    return Number(amount).toLocaleString(english ? "en-US" : "vi-VN") + " ₫";
  }
  function warnPayment(kind, was, now) {
    var el = box();
    if (!el) return;
    var text = el.dataset[kind]
      .replace("{payer}", was[0])
      .replace("{payee}", was[1])
      .replace("{amount}", money(was[2]))
      .replace("{now}", now ? now[0] + " → " + now[1] + " " + money(now[2]) : "");
    el.querySelector("[data-witness-detail]").textContent = text;
    el.hidden = false;
  }
  // The payments this phone saw must still be there with the same people and amount (being
  // voided is the one honest change): a payment changed in the database leaves no trace in
  // the history, so the chain alone would not see it.
  function paymentsAgree(state, listed) {
    var remembered = state.payments || {};
    var now = {};
    (listed || []).forEach(function (row) {
      now[String(row[0])] = [row[1], row[2], row[3]];
    });
    for (var id in remembered) {
      if (!Object.prototype.hasOwnProperty.call(remembered, id)) continue;
      var was = remembered[id];
      if (!now[id]) {
        warnPayment("paymentGone", was, null);
        return false;
      }
      if (now[id][0] !== was[0] || now[id][1] !== was[1] || now[id][2] !== was[2]) {
        warnPayment("paymentChanged", was, now[id]);
        return false;
      }
    }
    state.payments = now;
    return true;
  }

  async function check() {
    var el = box();
    if (!el || asking || !window.crypto || !crypto.subtle || !window.fetch) return;
    asking = true;
    lastAsked = Date.now();
    try {
      var state = load();
      var since = state.seen.length;
      var answer = await fetch(el.dataset.url + "?since=" + since, {
        headers: { Accept: "application/json" },
        credentials: "omit",
        cache: "no-store",
      });
      if (!answer.ok) return;
      var book = await answer.json();
      var seen = state.seen;
      // What this phone saw must still be there, entry for entry.
      for (var i = 0; i < since; i++) {
        if (i >= book.earlier.length) {
          warn("gone", i + 1, seen[i][1], seen[i][2]);
          return;
        }
        if (book.earlier[i] !== seen[i][0]) {
          warn("changed", i + 1, seen[i][1], seen[i][2]);
          return;
        }
      }
      // What came since must follow from it.
      var previous = state.head;
      var added = [];
      for (var j = 0; j < book.entries.length; j++) {
        var entry = book.entries[j];
        var hash = await sha256(previous + "\n" + entry.data);
        if (hash !== entry.hash) {
          warn("changed", entry.n, entry.game, entry.at);
          return;
        }
        added.push([hash.slice(0, PREFIX), entry.game, entry.at]);
        previous = hash;
      }
      if (!paymentsAgree(state, book.payments)) return;
      state.seen = seen.concat(added);
      state.head = previous;
      if (state.fingerprints.indexOf(book.fingerprint) < 0) {
        state.fingerprints = state.fingerprints.concat([book.fingerprint]).slice(-50);
      }
      save(state);
    } catch (e) {
      /* offline, or an answer cut short: the next visit asks again */
    } finally {
      asking = false;
    }
  }

  function known() {
    var mark = document.getElementById("book-mark");
    return mark ? Number(mark.dataset.count || 0) : 0;
  }
  document.addEventListener("DOMContentLoaded", check);
  // While the phone watches, new entries become part of what it has seen.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.elt || event.detail.elt.id !== "live-board") return;
    if (known() > load().seen.length && Date.now() - lastAsked > MIN_GAP_MS) check();
  });
})();
