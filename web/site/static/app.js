// Kisen's only script: send the CSRF token with htmx requests and confirm
// destructive actions. No inline script anywhere (CSP script-src 'self').
(function () {
  "use strict";
  function token() {
    var m = document.querySelector('meta[name="csrf-token"]');
    return m ? m.getAttribute("content") : "";
  }
  document.addEventListener("htmx:configRequest", function (e) {
    e.detail.headers["X-CSRF-Token"] = token();
  });
  // htmx drops 4xx/5xx answers by default; a preview refused (422: what
  // is wrong with the form), a stale version (409: what is stored now)
  // and an unavailable database (503) are pages meant to be read, so they
  // are swapped into the preview slot like a 200 (issue 13). Every other
  // 4xx and 5xx answers an htmx request with a short message (an expired
  // form, a file too large, a page gone): it is shown in place too, except
  // in a live region, which keeps what it showed until the next change.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var s = e.detail.xhr.status;
    var live = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest(".live");
    if (s === 422 || s === 409 || s === 503 || (s >= 400 && !live)) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  document.addEventListener("submit", function (e) {
    var msg = e.target.getAttribute("data-confirm");
    if (msg && !window.confirm(msg)) {
      e.preventDefault();
    }
  });
})();
