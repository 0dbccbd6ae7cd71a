// Group statement: each sitting's games load when its "Từng ván" is opened (htmx). A printed
// statement shows every sitting's games, so "In" loads the ones not opened yet, then prints;
// around any printing each sitting's games open (a closed <details> prints only its summary)
// and close again afterwards.
(function () {
  "use strict";
  var opened = [];
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details.games-of:not([open])").forEach(function (d) {
      d.open = true;
      opened.push(d);
    });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });

  // One sitting's games into its line, as its summary's hx-get loads them (site.js).
  function load(details) {
    var summary = details.querySelector("summary[hx-get]");
    var body = details.querySelector(".games-body");
    var headers = { "HX-Request": "true" };
    return fetch(summary.getAttribute("hx-get"), { headers: headers, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        body.innerHTML = html;
        details.dataset.loaded = "1";
      })
      .catch(function () { /* offline: the line keeps its link to the sitting's page */ });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-print-statement]");
    if (!button) return;
    var waiting = [];
    document.querySelectorAll("details.games-of:not([data-loaded])").forEach(function (details) {
      waiting.push(load(details));
    });
    button.disabled = true;
    Promise.all(waiting).then(function () {
      button.disabled = false;
      window.print();
    });
  });
})();
