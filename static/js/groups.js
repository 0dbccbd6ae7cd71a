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

  // One sitting's games into its line: its summary's own request (hx-get), so site.js marks
  // it loaded or says it could not be, as for a tap.
  function load(details) {
    var summary = details.querySelector("summary[hx-get]");
    return htmx.ajax("GET", summary.getAttribute("hx-get"), {
      source: summary,
      target: details.querySelector(".games-body"),
      swap: "innerHTML"
    }).catch(function () { /* offline: the line keeps its link to the sitting's page */ });
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
