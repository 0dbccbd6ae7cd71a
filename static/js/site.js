// Sổ Tiến Lên: the little the server cannot do. No inline handlers (CSP), no eval.
(function () {
  "use strict";
  // Words for screen readers, said once through the page's one live region (#announce in
  // base.html: in the page from the start and outside anything htmx swaps, so every change
  // of its text is heard). Emptied first, so the same words twice are said twice.
  window.TienlenAnnounce = function (text) {
    var region = document.getElementById("announce");
    if (!region || !text) return;
    region.textContent = "";
    window.setTimeout(function () { region.textContent = String(text).replace(/\s+/g, " ").trim(); }, 60);
  };
  // Reflow: each table of the page sits in a box that scrolls sideways when the table is
  // wider than the screen (the page itself never does). While it scrolls, the box is a
  // region of its own, a stop of the keyboard (so arrows scroll it), named after its heading
  // and its columns (so it is told apart from the section around it).
  function regionName(table) {
    var caption = table.querySelector("caption");
    var section = table.closest("section, article, .card, main");
    var heading = section && section.querySelector("h1, h2, h3");
    var head = [].map.call(table.querySelectorAll("thead th, tr:first-child th"), function (cell) {
      return cell.textContent.trim();
    }).filter(Boolean).join(", ");
    var name = caption ? caption.textContent : (heading ? heading.textContent : document.title);
    return (head ? name + " · " + head : name).replace(/\s+/g, " ").trim();
  }
  function fitTables(root) {
    var used = {};
    (root || document).querySelectorAll("main table").forEach(function (table) {
      var wrap = table.parentNode;
      if (!wrap.classList || !wrap.classList.contains("table-scroll")) {
        wrap = document.createElement("div");
        wrap.className = "table-scroll";
        table.parentNode.insertBefore(wrap, table);
        wrap.appendChild(table);
      }
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        var name = regionName(table), n = 2;
        while (used[name]) name = regionName(table) + " (" + n++ + ")";
        used[name] = true;
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", name);
        wrap.setAttribute("tabindex", "0");
      } else {
        ["role", "aria-label", "tabindex"].forEach(function (a) { wrap.removeAttribute(a); });
      }
    });
  }
  fitTables();
  window.addEventListener("resize", function () { fitTables(); });
  document.addEventListener("htmx:load", function () { fitTables(); });
  // The sticky top bar's height as --top, so whatever scrolls "just under the bar" clears it
  // even when the links wrap onto a second row (a narrow phone, the longer English).
  var topbar = document.querySelector(".topbar");
  if (topbar) {
    var measure = function () {
      document.documentElement.style.setProperty("--top", topbar.offsetHeight + "px");
    };
    measure();
    if (window.ResizeObserver) new ResizeObserver(measure).observe(topbar);
  }
  // − / + steppers beside a number input; the change event lets htmx refresh the preview.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step]");
    if (!button) return;
    var input = document.getElementById(button.dataset.for);
    if (!input) return;
    var min = Number(input.min || 0), max = Number(input.dataset.max || input.max || 99);
    var value = Math.min(max, Math.max(min, (Number(input.value) || 0) + Number(button.dataset.step)));
    if (String(value) !== input.value) {
      input.value = value;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });
  // Finishing order: tapping a player for one rank takes them out of any other rank, before
  // htmx (listening on the form, in the bubbling phase) posts the form.
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.name || input.name.indexOf("place_") !== 0 || !input.checked) return;
    var form = input.form;
    form.querySelectorAll('input[type=radio][name^="place_"]').forEach(function (other) {
      if (other !== input && other.value === input.value) other.checked = false;
    });
  }, true);
  // Ask before leaving a record form that has unsaved taps.
  var dirty = false;
  document.addEventListener("change", function (event) {
    if (event.target.closest("#record-form")) dirty = true;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var el = event.detail.elt;
    if (el && el.name === "action" && el.value === "save" && event.detail.successful) dirty = false;
  });
  document.addEventListener("submit", function () { dirty = false; });
  document.addEventListener("tienlen:saved", function () { dirty = false; });
  window.addEventListener("beforeunload", function (event) {
    if (dirty && document.getElementById("record-form")) { event.preventDefault(); }
  });
  // "Vì sao?" and "Từng ván": a <summary> whose hx-get loads its <details>' body when it is
  // opened. The body is loaded once. A load that fails (offline, the server down or refusing)
  // says so in the body, and opening it again tries again.
  function loadsOnOpen(elt) {
    return elt instanceof Element && elt.matches("details > summary[hx-get]");
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var summary = event.detail.elt;
    if (!loadsOnOpen(summary)) return;
    var details = summary.parentElement;
    // A tap on an open one closes it; one whose body is in needs nothing more. (A request
    // with no tap behind it, such as the statement's print loader, asks whether open or not.)
    var tapped = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if ((tapped && details.open) || details.dataset.loaded) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var summary = event.detail.elt;
    if (!loadsOnOpen(summary)) return;
    var details = summary.parentElement;
    if (event.detail.successful) {
      details.dataset.loaded = "1";
      return;
    }
    var body = event.detail.target;
    if (!body || body.querySelector(".load-failed")) return;
    var note = document.createElement("p");
    note.className = "field-error load-failed";
    note.setAttribute("role", "alert");
    note.textContent = summary.dataset.loadFailed || "";
    body.prepend(note);
  });
  // The print page's button (an inline onclick would break the CSP).
  document.addEventListener("click", function (event) {
    if (event.target.closest("button[data-print]")) window.print();
  });
  // Share buttons (a player's year): the phone's share sheet, or the link copied. A
  // settle-up's "Chia sẻ" (data-share names its text's element, no data-share-text) is
  // settle.js's alone: answered here too, it opened a second share sheet with the element's
  // id for a link and wrote the "copied" note over the button's own name.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-share][data-share-text]");
    if (!button) return;
    var data = { title: document.title, text: button.dataset.shareText || "", url: button.dataset.share };
    if (navigator.share) {
      navigator.share(data).catch(function () {});
    } else if (navigator.clipboard) {
      navigator.clipboard.writeText(data.url).then(function () {
        button.textContent = button.dataset.copied || "✓";
      });
    }
  });
  // Copy buttons (live link).
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button || !navigator.clipboard) return;
    navigator.clipboard.writeText(button.dataset.copy).then(function () {
      button.dataset.done = "1";
      button.textContent = button.dataset.copied || "✓";
    });
  });
})();
