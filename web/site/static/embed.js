// Kisen embeds (docs/embeds.md): tell the page that frames this one how
// tall the content is, so it can size the <iframe>. The message carries no
// data beyond the height and the embed's kind and id.
(function () {
  "use strict";
  if (window.parent === window) {
    return;
  }
  var body = document.getElementById("embed-body");
  var last = -1;
  function post() {
    var h = document.documentElement.scrollHeight;
    if (h === last) {
      return;
    }
    last = h;
    window.parent.postMessage({
      type: "kisen-embed",
      kind: body ? body.getAttribute("data-embed-kind") : "",
      id: body ? body.getAttribute("data-embed-id") : "",
      height: h
    }, "*");
  }
  post();
  window.addEventListener("load", post);
  window.addEventListener("resize", post);
  document.body.addEventListener("htmx:afterSettle", post);
})();
