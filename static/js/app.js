// Sổ Tiến Lên as an installed app: registers the service worker (/sw.js), and when the page
// is the worker's kept copy of the last sitting (opened without a connection), says so and
// makes it read-only until the connection is back. No inline handlers (CSP), no eval.
(function () {
  "use strict";
  var root = document.documentElement;
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }
  // Signed out (or another account next): the kept sitting page is forgotten.
  if (document.body.hasAttribute("data-signed-out") && window.caches) {
    caches.keys().then(function (keys) {
      keys.forEach(function (key) {
        if (key.indexOf("tienlen-pages-") === 0) caches.delete(key);
      });
    }).catch(function () {});
  }
  function siteZone() {
    var meta = document.querySelector('meta[name="site-tz"]');
    return (meta && meta.content) || undefined;
  }
  var kept = root.getAttribute("data-offline");
  if (kept === null) return;

  var template = document.getElementById("offline-note");
  if (template) {
    var note = template.content.firstElementChild.cloneNode(true);
    var time = note.querySelector("time");
    var at = new Date(kept);
    if (time && !isNaN(at.getTime())) {
      time.setAttribute("datetime", kept);
      // In the site's time zone, as every other time on the page (not the phone's).
      time.textContent = at.toLocaleTimeString(root.lang || "vi", {
        hour: "2-digit", minute: "2-digit", hour12: false,
        timeZone: siteZone()
      });
    } else if (note.querySelector(".kept")) {
      note.querySelector(".kept").remove();
    }
    document.body.insertBefore(note, document.body.firstChild);
  }
  // Read-only: nothing can be typed or sent from a copy (the saves waiting in the queue stay
  // queued, and are sent by the live page once the connection is back).
  root.classList.add("offline");
  document.querySelectorAll("main form").forEach(function (form) {
    form.setAttribute("aria-disabled", "true");
    form.querySelectorAll("input, select, textarea, button").forEach(function (control) {
      control.disabled = true;
    });
  });
  document.querySelectorAll("[hx-trigger]").forEach(function (element) {
    element.removeAttribute("hx-trigger");
  });
  window.addEventListener("online", function () { window.location.reload(); });
})();
