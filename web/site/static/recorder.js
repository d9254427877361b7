// The recorder's page (web/recorder, docs/recorder.md): tap a piece and a
// square or type a move; every move goes into a queue kept on the device
// (localStorage) and is sent in order with its ply and the record version
// seen, so a lost connection never loses a move: what is still queued is
// resent when the connection is back (the server answers a move it
// already has as done). The clock counts the move being played and calls
// the byoyomi, spoken in Japanese unless silenced. Time comes from
// window.kisenRecorderNow when a test sets it (else Date.now), and
// window.kisenRecorderTick() advances the display by hand.
(function () {
  "use strict";
  var panel = function () { return document.getElementById("rec-panel"); };
  if (!panel()) { return; }
  var words = document.getElementById("rec-words").dataset;
  var game = panel().dataset.game;
  var base = panel().dataset.base;
  var qKey = "kisen.recorder.queue." + game;
  var startKey = "kisen.recorder.start." + game;
  var silentKey = "kisen.recorder.silent";
  var sending = false;
  var selected = null; // {from: "7g"} or {drop: "P"}
  var pending = null; // moves waiting for 成/不成
  var called = {};

  function now() { return window.kisenRecorderNow ? window.kisenRecorderNow() : Date.now(); }
  function token() {
    var m = document.querySelector('meta[name="csrf-token"]');
    return m ? m.getAttribute("content") : "";
  }
  function load() {
    try { return JSON.parse(localStorage.getItem(qKey) || "[]"); } catch (e) { return []; }
  }
  function save(q) { localStorage.setItem(qKey, JSON.stringify(q)); }
  function status(text) { document.getElementById("rec-status").textContent = text; }
  function showQueue() {
    var q = load();
    status(q.length ? words.waiting.replace("{n}", String(q.length)) : "");
  }
  function dropped(moves) {
    var p = document.getElementById("rec-dropped");
    if (!moves.length) { return; }
    p.textContent = words.dropped.replace("{moves}", moves.join(" "));
    p.hidden = false;
  }

  // The move being played started when the last move was recorded (or
  // the page first showed this ply); kept per ply so a reload keeps it.
  function moveStart() {
    var plies = panel().dataset.plies;
    var s = {};
    try { s = JSON.parse(localStorage.getItem(startKey) || "{}"); } catch (e) { s = {}; }
    if (s.ply !== plies) {
      s = {ply: plies, at: now()};
      localStorage.setItem(startKey, JSON.stringify(s));
    }
    return s.at;
  }
  function elapsed() { return Math.max(0, Math.floor((now() - moveStart()) / 1000)); }

  function enqueue(move) {
    var q = load();
    var d = panel().dataset;
    var ply = Number(d.plies) + q.length + 1;
    var c = document.getElementById("rec-comment");
    q.push({ply: ply, move: move, elapsed: elapsed(), comment: c ? c.value : ""});
    if (c) { c.value = ""; }
    save(q);
    localStorage.setItem(startKey, JSON.stringify({ply: String(ply), at: now()}));
    called = {};
    showQueue();
    flush();
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("rec-panel");
    if (!fresh) { return false; }
    panel().replaceWith(fresh);
    ["rec-move-form", "rec-undo-form"].forEach(function (id) {
      var f = doc.getElementById(id);
      var cur = document.getElementById(id);
      if (f && cur) {
        ["ply", "version"].forEach(function (n) { cur.elements[n].value = f.elements[n].value; });
      }
    });
    selected = null;
    return true;
  }

  function post(path, fields) {
    var body = new URLSearchParams();
    Object.keys(fields).forEach(function (k) { body.set(k, fields[k]); });
    return fetch(path, {method: "POST", body: body, credentials: "same-origin",
      headers: {"X-CSRF-Token": token(), "Content-Type": "application/x-www-form-urlencoded"}});
  }

  // flush sends the queue's first move; each answer decides the next.
  function flush() {
    var q = load();
    if (sending || !q.length) { showQueue(); return; }
    sending = true;
    var m = q[0];
    post(base + "/moves", {ply: m.ply, move: m.move, elapsed: m.elapsed, comment: m.comment || "", version: panel().dataset.version})
      .then(function (r) { return r.text().then(function (t) { return {status: r.status, text: t}; }); })
      .then(function (r) {
        sending = false;
        if (r.status === 200) {
          q = load(); q.shift(); save(q);
          swap(r.text);
          status(words.sent);
          flush();
        } else if (r.status === 409 || r.status === 422) {
          // The record as it stands (409) or the refusal (422) is shown
          // in words; the moves after it were built on it: not sent.
          q = load(); save([]);
          swap(r.text);
          dropped(q.map(function (x) { return x.move; }));
          showQueue();
        } else {
          showQueue(); // a server error: keep the queue, try again later
        }
      }, function () { sending = false; showQueue(); });
  }

  // Tapping: a square is file digit + rank letter (7g); the board is
  // drawn from sente's side in a 420-unit square with a 20-unit margin.
  function squareAt(svg, ev) {
    var r = svg.getBoundingClientRect();
    var x = (ev.clientX - r.left) * 420 / r.width, y = (ev.clientY - r.top) * 420 / r.height;
    var col = Math.floor((x - 20) / 40), row = Math.floor((y - 20) / 40);
    if (col < 0 || col > 8 || row < 0 || row > 8) { return null; }
    return String(9 - col) + "abcdefghi".charAt(row);
  }
  function legal() { return (panel().dataset.legal || "").split(" ").filter(Boolean); }
  function mark(sq, cls) {
    var svg = panel().querySelector(".board-svg");
    var f = Number(sq.charAt(0)), r = "abcdefghi".indexOf(sq.charAt(1));
    var rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    rect.setAttribute("x", String(20 + (9 - f) * 40));
    rect.setAttribute("y", String(20 + r * 40));
    rect.setAttribute("width", "40");
    rect.setAttribute("height", "40");
    rect.setAttribute("class", cls);
    rect.setAttribute("data-mark", sq);
    svg.insertBefore(rect, svg.querySelector("line"));
  }
  function clearMarks() {
    panel().querySelectorAll("[data-mark]").forEach(function (e) { e.remove(); });
  }
  function choose(from) {
    var ms = legal().filter(function (m) { return m.indexOf(from) === 0; });
    clearMarks();
    if (!ms.length || load().length) { selected = null; return; }
    selected = from;
    if (from.charAt(1) !== "*") { mark(from, "rec-sel"); }
    ms.forEach(function (m) { mark(m.substr(2, 2), "rec-target"); });
  }
  function tapSquare(sq) {
    if (selected) {
      var ms = legal().filter(function (m) { return m.indexOf(selected + sq) === 0; });
      if (ms.length === 1) { clearMarks(); selected = null; enqueue(ms[0]); return; }
      if (ms.length === 2) {
        clearMarks(); selected = null;
        pending = ms;
        document.getElementById("rec-promote").hidden = false;
        return;
      }
    }
    choose(sq);
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    var drop = t.closest && t.closest("[data-drop]");
    if (drop) { choose(drop.getAttribute("data-drop") + "*"); return; }
    var pr = t.closest && t.closest("[data-promote]");
    if (pr && pending) {
      var want = pr.getAttribute("data-promote") === "yes";
      var m = pending.filter(function (x) { return (x.charAt(4) === "+") === want; })[0];
      pending = null;
      document.getElementById("rec-promote").hidden = true;
      if (m) { enqueue(m); }
      return;
    }
    var svg = t.closest && t.closest("#rec-panel .board-svg");
    if (svg) {
      var sq = squareAt(svg, ev);
      if (sq) { tapSquare(sq); }
    }
  });

  document.getElementById("rec-move-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var input = document.getElementById("rec-move");
    var v = input.value.trim();
    if (!v) { return; }
    input.value = "";
    enqueue(v);
  });

  // Undo waits for the queue: it names the last move the server has.
  document.getElementById("rec-undo-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (sending || load().length) { showQueue(); return; }
    var f = ev.target;
    sending = true;
    post(base + "/undo", {ply: f.elements.ply.value, version: f.elements.version.value, reason: f.elements.reason.value})
      .then(function (r) { return r.text(); })
      .then(function (html) { sending = false; swap(html); localStorage.removeItem(startKey); },
        function () { sending = false; showQueue(); });
  });

  // The clock: seconds on this move, and the byoyomi calls once the side
  // to move's allowance is gone (data-offset seconds from the move's start).
  function calls() {
    return (panel().dataset.calls || "").split(";").filter(Boolean).map(function (c) {
      var i = c.indexOf("=");
      return {at: Number(c.substr(0, i)), word: c.substr(i + 1)};
    });
  }
  function speak(word) {
    if (localStorage.getItem(silentKey) === "1" || !window.speechSynthesis) { return; }
    var u = new SpeechSynthesisUtterance(word);
    u.lang = "ja-JP";
    window.speechSynthesis.speak(u);
  }
  function tick() {
    if (!panel()) { return; }
    var e = elapsed();
    document.getElementById("rec-elapsed").textContent = Math.floor(e / 60) + ":" + ("0" + (e % 60)).slice(-2);
    var off = panel().dataset.offset;
    if (off === undefined) { return; }
    var key = panel().dataset.plies + "/" + load().length;
    calls().forEach(function (c) {
      var at = Number(off) + c.at;
      var id = key + "@" + at;
      if (e >= at && !called[id]) {
        called[id] = true;
        if (e - at < 2) { // a call missed while the page slept is not read late
          document.getElementById("rec-call").textContent = c.word;
          speak(c.word);
        }
      }
    });
  }
  window.kisenRecorderTick = tick;

  var silent = document.getElementById("rec-silent");
  silent.checked = localStorage.getItem(silentKey) === "1";
  silent.addEventListener("change", function () {
    localStorage.setItem(silentKey, silent.checked ? "1" : "0");
    if (silent.checked && window.speechSynthesis) { window.speechSynthesis.cancel(); }
  });

  window.addEventListener("online", flush);
  setInterval(tick, 250);
  setInterval(flush, 5000);
  tick();
  flush();
})();
