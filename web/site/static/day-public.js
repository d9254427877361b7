// The public round page's name filter (docs/amateur-day-public.md): the
// lines by name whose name or reading holds what is typed stay shown. It
// runs again after the live region is replaced, so a result arriving keeps
// the filter. No inline script anywhere (CSP script-src 'self').
(function () {
  "use strict";
  // office.FoldName (fold.js, loaded before this script): katakana typed
  // for a reading in hiragana match, and 髙橋 finds 高橋.
  var fold = window.kisenFold;
  function apply() {
    var inputs = document.querySelectorAll("input[data-name-filter]");
    for (var i = 0; i < inputs.length; i++) {
      var q = fold(inputs[i].value);
      var table = document.getElementById(inputs[i].getAttribute("data-name-filter"));
      if (!table) {
        continue;
      }
      var rows = table.querySelectorAll("tbody tr[data-name]");
      var shown = 0;
      for (var j = 0; j < rows.length; j++) {
        var hit = q === "" || fold(rows[j].getAttribute("data-name")).indexOf(q) >= 0;
        rows[j].hidden = !hit;
        if (hit) {
          shown++;
        }
      }
      var none = document.querySelector("[data-testid=day-filter-none]");
      if (none) {
        none.hidden = shown > 0;
      }
    }
  }
  document.addEventListener("input", function (e) {
    if (e.target && e.target.hasAttribute && e.target.hasAttribute("data-name-filter")) {
      apply();
    }
  });
  // At the swap (no flash of every line) and again once settled.
  document.addEventListener("htmx:afterSwap", apply);
  document.addEventListener("htmx:afterSettle", apply);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", apply);
  } else {
    apply();
  }
})();
