/* Azul Arena: a person plays a bot from the board (the `play --web` page and the contest
 * server's play page). Draws with the replay viewer's family renderers (AzulViewer.renderers).
 *
 * AzulPlay.mount(root, config): config.state is the URL of the table's state (GET, JSON), and
 * config.move the URL a move is POSTed to ({"move": "1B3"}); config.title, if given, is the
 * page's heading until the table's names arrive; config.csrf, if given, is sent as the
 * X-CSRFToken header when given. The server lists the legal moves and checks every answer: the
 * page only helps pick one (click a source's tile for its colour, then a pattern line or the
 * floor of your board; or click a move in the list). Once the game is over the page says who
 * won and how the person did, with the replay and, when config.again is given, another game.
 */
"use strict";
var AzulPlay = (function () {
  var V = AzulViewer, esc = V.esc;
  // Quick polls while the bot answers (it usually does within a second), slower ones after.
  var POLL_FAST = 150, POLL_SLOW = 1000, FAST_FOR = 5000;

  function mount(root, config) {
    var snap = null, picked = null, busy = false, timer = null, changedAt = Date.now();
    var pollFailed = false, inflight = false;
    root.classList.add("az", "az-play");
    root.innerHTML = "<h1 class=\"title\"></h1><div class=\"meta status\" role=\"status\" " +
      "aria-live=\"polite\"></div><div class=\"info error\" hidden></div>" +
      "<div class=\"layout\"><div><div class=\"drawing\"></div></div><div>" +
      "<div class=\"panel result\" hidden><h2>Result</h2><p class=\"verdict\"></p>" +
      "<p class=\"links\"></p></div>" +
      "<div class=\"panel yours\"><h2>Your moves</h2><div class=\"hint\"></div>" +
      "<ol class=\"legal\"></ol></div><div class=\"panel\" style=\"margin-top:10px\">" +
      "<h2>Latest moves</h2><ol class=\"moves recent\"></ol></div></div></div>";
    var q = function (sel) { return root.querySelector(sel); };
    var drawing = q(".drawing"), status = q(".status"), errorBox = q(".error");
    var legalList = q(".legal"), recent = q(".recent"), hint = q(".hint");
    var yours = q(".yours"), resultBox = q(".result");
    // Until the table's first state arrives: said, not left blank.
    q(".title").textContent = config.title || "Azul Arena";
    status.textContent = "Loading the table...";
    hint.textContent = "your legal moves show here on your turn";
    recent.innerHTML = "<li class=\"none\">No move yet.</li>";

    function showError(text) {
      errorBox.hidden = !text;
      errorBox.textContent = text || "";
    }
    function prefix() { return picked ? picked.source + picked.colour : ""; }

    function drawLegal() {
      var moves = snap && snap.your_turn ? snap.legal : [];
      var p = prefix();
      legalList.innerHTML = moves.filter(function (m) {
        return !p || m.move.toUpperCase().indexOf(p) === 0;
      }).map(function (m) {
        return "<li><button type=\"button\" class=\"move\" data-move=\"" + esc(m.move) + "\">" +
          "<b>" + esc(m.move) + "</b> " + esc(m.words) + "</button></li>";
      }).join("");
      hint.textContent = !moves.length ? "your legal moves show here on your turn" : p ?
        "now click a pattern line or the floor of your board (or a move below)" :
        "click a tile on a factory or the centre, then a line of your board";
      // The lines the picked tiles may go to, marked on the person's board.
      var board = drawing.querySelector(".board[data-seat=\"" + (snap ? snap.seat : -1) + "\"]");
      if (!board) return;
      var ok = {};
      moves.forEach(function (m) {
        if (p && m.move.toUpperCase().indexOf(p) === 0) ok[m.move.slice(p.length).toUpperCase()] = 1;
      });
      board.querySelectorAll(".pl").forEach(function (line, d) {
        line.classList.toggle("target", !!ok[String(d + 1)]);
      });
      var floor = board.querySelector(".floor");
      if (floor) floor.classList.toggle("target", !!ok.F);
      drawing.querySelectorAll(".picked").forEach(function (e) { e.classList.remove("picked"); });
      if (picked && picked.node && drawing.contains(picked.node)) picked.node.classList.add("picked");
    }

    function draw() {
      snap.plies = snap.plies || [];
      snap.notes = snap.notes || [];
      snap.legal = snap.legal || [];
      snap.names = snap.names || [];
      var data = {names: snap.names, layout: snap.layout, family: snap.family};
      var renderer = V.renderers[snap.family];
      var last = snap.plies.length ? snap.plies[snap.plies.length - 1] : null;
      if (!snap.frame) drawing.textContent = "";
      else if (renderer) renderer.draw(drawing, snap.frame, data, last);
      else drawing.innerHTML = "<pre>" + esc(JSON.stringify(snap.frame, null, 1)) + "</pre>";
      if (snap.names.length) {
        q(".title").textContent = snap.names.join(" vs ") + " (" + snap.ruleset + ")";
      }
      var mine = snap.names[snap.seat];
      if (snap.result) {
        status.innerHTML = "<b class=\"over\">Game over.</b> " + esc(snap.result.text || "") +
          (snap.result.replay ? " <a class=\"replay\" href=\"" + esc(snap.result.replay) +
           "\">watch the replay</a>" : "");
        showResult(snap.result);
      } else if (snap.your_turn) {
        status.innerHTML = "<b class=\"your-turn\">Your move</b>, " + esc(mine) + ".";
      } else {
        status.textContent = snap.ply === 0 && !snap.your_turn && snap.frame.turn === snap.seat ?
          "Starting the game..." : "The bot is thinking...";
      }
      recent.innerHTML = snap.plies.map(function (p) {
        return "<li class=\"" + (p.sub ? "sub" : "") + "\"><span class=\"n\">" + p.ply +
          "</span><span class=\"dot\" style=\"background:" + V.kit.SEAT_COLOURS[p.seat] +
          "\"></span>" + esc(snap.names[p.seat]) + ": " + esc(p.move) + " " + esc(p.words) +
          "</li>";
      }).join("") + snap.notes.map(function (n) {
        return "<li class=\"sub\">" + esc(n) + "</li>";
      }).join("") || "<li class=\"none\">No move yet.</li>";
      recent.scrollTop = recent.scrollHeight;
      drawLegal();
    }

    /* Over: the moves box gives way to the result, said from the person's side. */
    function showResult(result) {
      var ranks = result.ranks || [], mine = ranks[snap.seat], verdict = "";
      if (mine !== undefined) {
        var shared = ranks.filter(function (r) { return r === mine; }).length > 1;
        verdict = mine === 1 ? (shared ? "A draw: you share first place." : "You won.") :
          "You lost.";
      }
      q(".verdict").innerHTML = (verdict ? "<b>" + esc(verdict) + "</b> " : "") +
        esc(result.text || "");
      var links = [];
      if (result.replay) links.push("<a href=\"" + esc(result.replay) + "\">watch the replay</a>");
      if (config.again) links.push("<a class=\"again\" href=\"" + esc(config.again) + "\">play again</a>");
      q(".links").innerHTML = links.join(" \u00b7 ");
      yours.hidden = true;
      resultBox.hidden = false;
    }

    function poll() {
      timer = null;
      if (inflight) return;  // one request at a time; the one on its way polls again
      inflight = true;
      fetch(config.state, {credentials: "same-origin", cache: "no-store"})
        .then(function (r) {
          if (!r.ok) throw new Error("the table answered " + r.status);
          return r.json();
        })
        .then(function (s) {
          inflight = false;
          if (snap && snap.result) return;
          if (s.starting) {  // the game's process has not written the table yet
            status.textContent = "Starting the game...";
            timer = setTimeout(poll, POLL_SLOW / 2);
            return;
          }
          var changed = !snap || s.ply !== snap.ply || s.your_turn !== snap.your_turn ||
            !!s.result !== !!snap.result;
          snap = s;
          if (changed) { picked = null; changedAt = Date.now(); draw(); }
          if (pollFailed) { showError(""); pollFailed = false; }
          if (!s.result) {
            timer = setTimeout(poll, Date.now() - changedAt < FAST_FOR ? POLL_FAST : POLL_SLOW);
          }
        })
        .catch(function (err) {
          inflight = false;
          if (snap && snap.result) return;  // over: the local page may be gone, as it should
          pollFailed = true;
          showError(String(err.message || err) + "; trying again");
          timer = setTimeout(poll, POLL_SLOW * 2);
        });
    }

    function send(move) {
      if (busy || !snap || !snap.your_turn) return;
      busy = true;
      var headers = {"Content-Type": "application/json"};
      if (config.csrf) headers["X-CSRFToken"] = config.csrf;
      fetch(config.move, {method: "POST", credentials: "same-origin", headers: headers,
                          body: JSON.stringify({move: move})})
        .then(function (r) { return r.json().then(function (body) { return [r.ok, body]; }); })
        .then(function (res) {
          busy = false;
          if (!res[0]) { showError(res[1].error || "the move was refused"); return; }
          showError("");
          snap.your_turn = false;
          snap.legal = [];
          picked = null;
          changedAt = Date.now();
          draw();
          if (timer !== null) clearTimeout(timer);
          timer = null;
          if (!inflight) poll();
        })
        .catch(function (err) { busy = false; showError(String(err.message || err)); });
    }

    // A tile of a source picks the source and the colour; a line of your board ends the move.
    drawing.addEventListener("click", function (e) {
      if (!snap || !snap.your_turn) return;
      var t = e.target.closest(".t"), src = e.target.closest("[data-factory],[data-centre]");
      if (src && t && !t.classList.contains("tM")) {
        var colour = (/\bt([A-Z])\b/.exec(t.className) || [])[1];
        var source = src.hasAttribute("data-centre") ? "C" : src.getAttribute("data-factory");
        picked = colour ? {source: source, colour: colour, node: src} : null;
        showError("");
        drawLegal();
        return;
      }
      var board = e.target.closest(".board");
      if (!picked || !board || board.getAttribute("data-seat") !== String(snap.seat)) return;
      var line = e.target.closest(".pl"), dest = null;
      if (line) dest = String(Array.prototype.indexOf.call(board.querySelectorAll(".pl"), line) + 1);
      else if (e.target.closest(".floor")) dest = "F";
      if (!dest) return;
      var move = prefix() + dest;
      var ok = snap.legal.some(function (m) { return m.move.toUpperCase() === move; });
      if (ok) send(move);
      else showError(move + " is not a legal move: pick a highlighted line");
    });
    legalList.addEventListener("click", function (e) {
      var b = e.target.closest("button.move");
      if (b) send(b.getAttribute("data-move"));
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && picked) { picked = null; drawLegal(); }
    });
    poll();
    return {snapshot: function () { return snap; }};
  }

  return {mount: mount};
})();
