// The reception desk (issue 23 §2, docs/amateur-day-desk.md): one search
// box checks an entrant in with Enter, action keys act on the chosen row,
// every action swaps that row only (htmx), and the rows other desks change
// are fetched when the event's stream says "changed". Nothing here is
// needed for the page to work: without script every button posts and the
// page comes back. No inline script anywhere (CSP script-src 'self').
(function () {
  "use strict";
  var desk = document.getElementById("desk");
  var box = document.getElementById("desk-search");
  var list = document.getElementById("desk-list");
  if (!desk || !box || !list || !window.htmx) {
    return;
  }
  var status = document.getElementById("desk-status");
  var undoBtn = document.getElementById("desk-undo");
  var picks = document.createElement("ul");
  picks.id = "desk-matches";
  picks.className = "desk-matches";
  picks.setAttribute("role", "listbox");
  picks.setAttribute("data-testid", "desk-matches");
  picks.hidden = true;
  box.insertAdjacentElement("afterend", picks);
  box.setAttribute("aria-controls", "desk-matches");

  var MAX_SHOWN = 8;
  var matches = []; // player ids matching what is typed
  var chosen = ""; // the player id the keys act on
  var moved = false; // an arrow chose among several matches
  var last = ""; // the player id of the last action (undo)

  // fold is office.FoldName (fold.js, loaded before this script): the
  // server's search and entry matching fold the same way.
  var fold = window.kisenFold;

  function row(id) {
    return document.getElementById("desk-row-" + id);
  }

  // A number is the entrant number; anything else a prefix of the
  // reading or a part of the name (web/day deskMatches).
  function matchesRow(r, k) {
    var keys = (r.getAttribute("data-keys") || "").split(" ");
    if (keys.length !== 3) {
      return false;
    }
    if (/^[0-9]+$/.test(k)) {
      return keys[2] === k;
    }
    return keys[0].indexOf(k) === 0 || keys[1].indexOf(k) >= 0;
  }

  function say(text) {
    if (status) {
      status.textContent = text;
    }
  }

  function nameOf(r) {
    var a = r && r.querySelector(".desk-who a");
    return a ? a.textContent : "";
  }

  function mark() {
    var rs = list.querySelectorAll(".desk-row.desk-selected");
    for (var i = 0; i < rs.length; i++) {
      rs[i].classList.remove("desk-selected");
    }
    var r = chosen && row(chosen);
    if (r) {
      r.classList.add("desk-selected");
    }
    var items = picks.querySelectorAll("li");
    for (var j = 0; j < items.length; j++) {
      var on = items[j].getAttribute("data-player") === chosen;
      items[j].setAttribute("aria-selected", on ? "true" : "false");
      if (on) {
        box.setAttribute("aria-activedescendant", items[j].id);
      }
    }
  }

  function render() {
    picks.textContent = "";
    for (var i = 0; i < matches.length && i < MAX_SHOWN; i++) {
      var r = row(matches[i]);
      var li = document.createElement("li");
      li.id = "desk-match-" + matches[i];
      li.setAttribute("role", "option");
      li.setAttribute("data-player", matches[i]);
      li.setAttribute("data-testid", "desk-match");
      var no = r.querySelector(".desk-no");
      var reading = r.querySelector(".desk-reading");
      var state = r.querySelector(".desk-state");
      var cls = r.querySelector(".desk-class");
      li.textContent = [no && no.textContent, nameOf(r), reading && reading.textContent, cls && cls.textContent,
        state && state.firstElementChild ? state.firstElementChild.textContent : ""].filter(Boolean).join(" · ");
      picks.appendChild(li);
    }
    picks.hidden = matches.length === 0;
    mark();
  }

  function filter() {
    var k = fold(box.value);
    matches = [];
    moved = false;
    if (k !== "") {
      var rs = list.querySelectorAll(".desk-row[data-player]");
      for (var i = 0; i < rs.length; i++) {
        if (matchesRow(rs[i], k)) {
          matches.push(rs[i].getAttribute("data-player"));
        }
      }
      if (matches.length > 0) {
        chosen = matches[0];
      }
      if (matches.length === 0) {
        say(desk.getAttribute("data-none"));
      } else if (matches.length > 1) {
        say(desk.getAttribute("data-many").replace("{n}", String(matches.length)));
      } else {
        say("");
      }
    }
    render();
  }

  // act posts one action on a row and swaps that row (htmx.ajax: the CSRF
  // header, 409/422 rows swapped like a 200, the counts out of band).
  function act(id, url, values) {
    var r = row(id);
    if (!r || r.getAttribute("data-state") === "withdrawn") {
      return;
    }
    values.player_id = id;
    values.version = r.getAttribute("data-version");
    last = id;
    chosen = id;
    box.value = "";
    filter();
    htmx.ajax("POST", url, { source: r, target: r, swap: "outerHTML", values: values }).then(function () {
      var nr = row(id);
      mark();
      if (undoBtn) {
        undoBtn.hidden = false;
      }
      say(nr && nr.querySelector(".desk-error") ? nr.querySelector(".desk-error").textContent
        : desk.getAttribute("data-done").replace("{name}", nameOf(nr)));
    });
  }

  function undo() {
    if (last) {
      act(last, desk.getAttribute("data-undo-url"), {});
    }
  }

  function keyAction(code) {
    var r = chosen && row(chosen);
    if (!r) {
      return false;
    }
    switch (code) {
      case "KeyL":
        act(chosen, desk.getAttribute("data-checkin-url"), { state: "late" });
        return true;
      case "KeyA":
        act(chosen, desk.getAttribute("data-checkin-url"), { state: "absent" });
        return true;
      case "KeyP":
        act(chosen, desk.getAttribute("data-fee-url"), { fee_status: "paid", fee_amount: "" });
        return true;
      case "KeyR":
        if (r.getAttribute("data-fee-reduced") !== "true") {
          return true;
        }
        act(chosen, desk.getAttribute("data-category-url"),
          { fee_category: r.getAttribute("data-fee-category") === "reduced" ? "full" : "reduced" });
        return true;
      case "KeyU":
        undo();
        return true;
    }
    return false;
  }

  // A key handled here types nothing, even where the browser sends its
  // character apart from the keydown (remote-controlled browsers do).
  var swallow = false;
  box.addEventListener("beforeinput", function (e) {
    if (swallow) {
      e.preventDefault();
    }
  });
  box.addEventListener("keypress", function (e) {
    if (swallow) {
      e.preventDefault();
    }
  });
  box.addEventListener("keyup", function () {
    swallow = false;
  });
  box.addEventListener("input", filter);
  box.addEventListener("keydown", function (e) {
    swallow = false;
    if (e.isComposing || e.keyCode === 229) {
      return; // the IME is choosing kana/kanji: its Enter is not ours
    }
    var empty = box.value === "";
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (matches.length > 1) {
        var i = matches.indexOf(chosen);
        var n = Math.min(matches.length, MAX_SHOWN);
        i = e.key === "ArrowDown" ? (i + 1) % n : (i - 1 + n) % n;
        chosen = matches[i];
        moved = true;
        mark();
        e.preventDefault();
      }
      return;
    }
    if (e.key === "Enter") {
      e.preventDefault();
      if (matches.length === 1 || (matches.length > 1 && moved)) {
        act(chosen, desk.getAttribute("data-checkin-url"), { state: "present" });
      }
      return;
    }
    if (e.key === "Escape") {
      box.value = "";
      filter();
      return;
    }
    if (empty && (e.ctrlKey || e.metaKey) && e.code === "KeyZ") {
      e.preventDefault();
      swallow = true;
      undo();
      return;
    }
    if ((empty && !e.ctrlKey && !e.metaKey && !e.altKey) || (e.altKey && !e.ctrlKey && !e.metaKey)) {
      if (keyAction(e.code)) {
        e.preventDefault();
        swallow = true;
      }
    }
  });
  picks.addEventListener("mousedown", function (e) {
    var li = e.target.closest("li[data-player]");
    if (li) {
      e.preventDefault(); // keep the focus in the box
      act(li.getAttribute("data-player"), desk.getAttribute("data-checkin-url"), { state: "present" });
    }
  });
  if (undoBtn) {
    undoBtn.addEventListener("click", function () {
      undo();
      box.focus({ preventScroll: true });
    });
  }
  // A button clicked in a row is gone once the row is swapped: the focus
  // goes back to the box (without scrolling), ready for the next name.
  document.body.addEventListener("htmx:afterSwap", function () {
    var a = document.activeElement;
    if (!a || a === document.body) {
      box.focus({ preventScroll: true });
    }
    mark();
  });
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    var r = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest(".desk-row");
    var path = (e.detail.requestConfig && e.detail.requestConfig.path) || "";
    // A check-in or fee clicked in a row is an action undo reverts too (a
    // move or a withdrawal is not).
    if (r && e.detail.elt !== r && /\/(checkin|fee|fee-category)$/.test(path)) {
      last = r.getAttribute("data-player");
      if (undoBtn) {
        undoBtn.hidden = false;
      }
    }
  });

  // Other desks: on "changed", fetch the rows whose version differs from
  // the ones here (and rows not here yet), and swap those; new entrants
  // are added at the end.
  var live = document.getElementById("desk-live");
  var busy = false;
  var again = false;
  function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    var known = [];
    var rs = list.querySelectorAll(".desk-row[data-player]");
    for (var i = 0; i < rs.length; i++) {
      known.push(rs[i].getAttribute("data-player") + "." + rs[i].getAttribute("data-version"));
    }
    fetch(desk.getAttribute("data-rows-url") + "?known=" + known.join("-"), { credentials: "same-origin" })
      .then(function (resp) { return resp.ok ? resp.text() : ""; })
      .then(function (html) {
        if (html) {
          merge(html);
        }
      })
      .finally(function () {
        busy = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  }
  function merge(html) {
    var doc = new DOMParser().parseFromString("<div>" + html + "</div>", "text/html");
    var got = doc.body.firstElementChild.querySelectorAll(".desk-row[data-player]");
    for (var i = 0; i < got.length; i++) {
      var old = document.getElementById(got[i].id);
      if (old && old.getAttribute("data-version") === got[i].getAttribute("data-version")) {
        continue;
      }
      var el = document.importNode(got[i], true);
      if (old) {
        if (old.contains(document.activeElement) && document.activeElement !== document.body) {
          continue; // someone is typing in this row here: keep it until they act
        }
        old.replaceWith(el);
      } else {
        list.appendChild(el);
      }
      htmx.process(el);
    }
    ["desk-counts", "desk-fees"].forEach(function (id) {
      var n = doc.getElementById(id);
      var o = document.getElementById(id);
      if (n && o) {
        n.removeAttribute("hx-swap-oob");
        o.replaceWith(document.importNode(n, true));
      }
    });
    mark();
    if (box.value !== "") {
      filter();
    }
  }
  // #desk-live carries hx-get so that htmx and its sse extension listen
  // for "changed" on it; the request itself is replaced by refresh().
  if (live) {
    live.addEventListener("htmx:beforeRequest", function (e) {
      e.preventDefault();
      refresh();
    });
  }
  box.focus({ preventScroll: true });
})();
