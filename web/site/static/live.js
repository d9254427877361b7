// Live pages (docs/live.md). htmx's sse extension fetches a live region
// again on "changed"; this file keeps that from replacing a form someone is
// filling in (the "changed" note is shown instead), and turns the pages of
// the projector view. No inline script anywhere (CSP script-src 'self').
(function () {
  "use strict";
  // A form inside a live region that has been typed into, or holds the
  // focus, is not replaced.
  document.addEventListener("input", function (e) {
    var f = e.target && e.target.form;
    if (f) {
      f.setAttribute("data-dirty", "");
    }
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var el = e.detail.elt;
    if (!el || !el.classList || !el.classList.contains("live")) {
      return;
    }
    var a = document.activeElement;
    var busy = a && a !== document.body && el.contains(a) && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName);
    if (busy || el.querySelector("form[data-dirty]")) {
      e.preventDefault();
      var n = document.querySelector("[data-live-stale]");
      if (n) {
        n.hidden = false;
      }
    }
  });
  // A region's answer that does not hold the region (a sign-in page after
  // the session ended, an error page) is not swapped in: the region would
  // vanish. The note offers a reload instead.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var el = e.detail.elt;
    if (!el || !el.classList || !el.classList.contains("live") || !el.id) {
      return;
    }
    var body = e.detail.serverResponse || "";
    if (e.detail.xhr.status !== 200 || body.indexOf('id="' + el.id + '"') < 0) {
      e.detail.shouldSwap = false;
      var n = document.querySelector("[data-live-stale]");
      if (n) {
        n.hidden = false;
      }
    }
  });
  // Close the page's streams when it is left. A browser keeps a page it
  // may come back to (back/forward cache) with its EventSource open, and
  // allows only six connections to one server over HTTP/1.1: after six
  // pages the seventh would wait for a free connection. A page brought
  // back from that cache has missed changes, so it is loaded afresh.
  var sources = [];
  if (window.htmx && typeof htmx.createEventSource === "function") {
    var create = htmx.createEventSource;
    htmx.createEventSource = function (url) {
      var es = create(url);
      sources.push(es);
      return es;
    };
  }
  window.addEventListener("pagehide", function () {
    for (var i = 0; i < sources.length; i++) {
      sources[i].close();
    }
    sources = [];
  });
  window.addEventListener("pageshow", function (e) {
    if (e.persisted && document.body.hasAttribute("sse-connect")) {
      window.location.reload();
    }
  });
  // Tests and the curious can tell when the stream is open.
  document.addEventListener("htmx:sseOpen", function () {
    document.body.setAttribute("data-live-open", "");
  });

  // The projector: one page shown at a time, the next every data-every
  // seconds; a live refresh keeps the page being shown.
  var shown = 0;
  function pages() {
    return document.querySelectorAll("[data-projector] .projector-page");
  }
  function show() {
    var ps = pages();
    if (ps.length === 0) {
      return;
    }
    shown = shown % ps.length;
    for (var i = 0; i < ps.length; i++) {
      ps[i].hidden = i !== shown;
    }
  }
  function start() {
    var m = document.querySelector("[data-projector]");
    if (!m) {
      return;
    }
    var every = parseInt(m.getAttribute("data-every"), 10) || 15;
    window.setInterval(function () {
      shown++;
      show();
    }, every * 1000);
    document.addEventListener("htmx:afterSettle", show);
    show();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
