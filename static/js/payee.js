// A player's own link: "Gửi…" hands it to the phone's share sheet (Zalo, Messenger…), or
// copies it where there is none. No inline handlers (CSP).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-share-url]");
    if (!button) return;
    var url = button.dataset.shareUrl;
    var copied = function () { button.textContent = button.dataset.copied || "✓"; };
    if (navigator.share) {
      navigator.share({ title: button.dataset.shareTitle || "", url: url }).catch(function () {});
    } else if (navigator.clipboard) {
      navigator.clipboard.writeText(url).then(copied);
    }
  });
})();
