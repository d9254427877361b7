// Kisen live board (docs/recorder.md "The live board"): the arrow keys step
// through the moves by following the board's own step links (which work
// without this script, as ?ply=N links, and swap the board with htmx).
(function () {
  "use strict";
  var keys = { ArrowLeft: "board-prev", ArrowRight: "board-next", Home: "board-first", End: "board-last" };
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) {
      return;
    }
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) {
      return;
    }
    var id = keys[e.key];
    var board = document.getElementById("liveboard");
    if (!id || !board) {
      return;
    }
    var link = board.querySelector('a[data-testid="' + id + '"]');
    if (link) {
      e.preventDefault();
      link.click();
    }
  });
})();
