/* Azul Arena replay viewer. Plain JavaScript, no library: works from file:// with no network.
 *
 * AzulViewer.mount(root, data, options) draws one game (data: what tournaments/web/replay_page.py
 * computes from a record with the engine) and returns {show(n), destroy()}. Position n is the
 * number of moves played: 0 is the start, data.plies.length the end. Each family's renderer is
 * in AzulViewer.renderers, put there by the script its view names (tournaments/families/*.js);
 * a family without one gets its state as text. AzulViewer.kit holds what renderers share.
 */
"use strict";
var AzulViewer = (function () {
  var SPEEDS = [0.5, 1, 2, 4, 8, 16, 32];  // moves per second
  var SEAT_COLOURS = ["var(--s0)", "var(--s1)", "var(--s2)", "var(--s3)"];
  var SEAT_HEX = ["#1c6e8c", "#c8553d", "#5b8c2a", "#8e5bb0"];

  /* Control characters and the bidirectional controls in a name a bot or a person chose would
   * show the text after them in another order (another seat's name reversed): shown as
   * escapes, as the server's log pages show them. */
  var HIDDEN = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c];
    }).replace(HIDDEN, function (c) {
      var code = c.charCodeAt(0);
      return code < 256 ? "\\x" + ("0" + code.toString(16)).slice(-2) :
        "\\u" + code.toString(16);
    });
  }
  function el(tag, cls, html) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (html !== undefined) e.innerHTML = html;
    return e;
  }
  function fmtTime(us) {
    if (us === null || us === undefined) return "";
    if (us < 1000) return us + " \u00b5s";
    if (us < 1e6) return (us / 1000).toFixed(1) + " ms";
    return (us / 1e6).toFixed(2) + " s";
  }
  function tile(letter, extra) {
    return "<span class=\"t t" + letter + (extra ? " " + extra : "") + "\"></span>";
  }
  function tiles(letters) {
    var out = "";
    for (var i = 0; i < letters.length; i++) out += tile(letters[i]);
    return out;
  }

  /* ---------------------------------------------------------------- for every renderer */
  /* The factories and the centre (with the start marker), as every family has them. */
  function sources(frame) {
    var html = "";
    frame.factories.forEach(function (f, i) {
      html += "<div class=\"factory" + (f ? "" : " empty") + "\" data-factory=\"" + (i + 1) +
        "\"><span class=\"lbl\">" + (i + 1) + "</span>" + tiles(f) + "</div>";
    });
    return html + "<div class=\"centre\" data-centre><span class=\"lbl\">centre</span>" +
      (frame.marker_in_centre ? "<span class=\"t tM\" title=\"start marker\">1</span>" : "") +
      tiles(frame.centre) + "</div>";
  }

  /* Set a part's HTML only when it changed: a move changes the table and one board, so most
   * of the page is left alone from one position to the next (smooth on a 4-player table). */
  function put(node, html) {
    if (node._html !== html) { node.innerHTML = html; node._html = html; }
  }
  function parts(box, players) {
    if (box._parts && box._parts.boards.length === players) return box._parts;
    box.innerHTML = "<div class=\"table-top\"></div><div class=\"boards\"></div>";
    var boards = [], holder = box.lastChild;
    for (var s = 0; s < players; s++) {
      var b = el("div", "board");
      b.setAttribute("data-seat", s);
      holder.appendChild(b);
      boards.push(b);
    }
    box._parts = {top: box.firstChild, boards: boards};
    return box._parts;
  }

  /* Until a family has its own renderer, its state is shown as text (never a blank page). */
  var fallback = {
    draw: function (box, frame) {
      var scores = frame.boards.map(function (b, s) {
        return "<span class=\"seat-score\" data-seat=\"" + s + "\">" + b.score + "</span>";
      }).join(" ");
      box._parts = null;
      box.innerHTML = "<p>scores " + scores + "</p><pre class=\"raw\">" +
        esc(JSON.stringify(frame, null, 1)) + "</pre>";
    },
    phase: function (frame) { return frame.phase === "over" ? "game over" : "round " + frame.round; }
  };

  /* Each family's renderer, by family name: its view's script (tournaments/families/*.js, put in
   * the page after this one) adds it here. */
  var renderers = {};

  /* ---------------------------------------------------------------- the charts */
  /* A chart's labels in HTML beside the stretched drawing, so that they keep their shape: the
   * value axis (top to bottom), the move axis (0, the middle, the last move) and a legend. Each
   * chart shows the game up to the position shown, never further: the result stays unknown
   * until the end is reached. */
  function moveAxis(n) {
    var last = n - 1, mid = Math.round(last / 2);
    return "<div class=\"axis x\"><span>0</span>" + (mid > 0 && mid < last ?
      "<span>" + mid + "</span>" : "") + "<span>" + last + "</span></div>" +
      "<div class=\"axis-title\">move</div>";
  }
  function seatLegend(data) {
    return data.names.map(function (name, s) {
      return "<span><span class=\"dot\" style=\"background:" + SEAT_HEX[s] + "\"></span>" +
        esc(name) + "</span>";
    }).join(" &nbsp; ");
  }

  /* The part of a chart after position `pos` hidden by a curtain in the panel's colour whose
   * left edge is the position's marker. A step moves the curtain (a transform, done by the
   * compositor) and never touches the drawing, so the lines are painted once, not on every
   * step (a clip moved over them repainted the whole chart each time). The zero line lies over
   * the curtain: the axis runs the whole width. */
  function veil(H, zero) {
    return "<div class=\"veil\"><div class=\"curtain\"></div></div><div class=\"zero\" " +
      "style=\"top:" + (100 * zero / H).toFixed(2) + "%\"></div>";
  }
  /* What moves the curtain of `box` to x (in the drawing's units, of a drawing W wide). */
  function curtainMover(box, W) {
    var curtain = box.querySelector(".curtain"), at = null;
    return function (x) {
      var to = (100 * x / W).toFixed(2);
      if (to !== at) { curtain.style.transform = "translateX(" + to + "%)"; at = to; }
    };
  }

  function chart(box, data) {
    var frames = data.frames, n = frames.length, seats = data.players;
    var W = 600, H = 180, L = 4, B = 6, T = 6, top = 0;
    var x = function (i) { return L + (W - L - 6) * (n > 1 ? i / (n - 1) : 0); };
    var y = function (v) { return T + (H - T - B) * (1 - Math.max(0, v) / top); };
    // The best score reached by each position: the scale grows with the scores shown so far
    // (the whole game's top would tell its end).
    var most = [], best = 10;
    frames.forEach(function (f) {
      f.boards.forEach(function (b) { if (b.score > best) best = b.score; });
      most.push(Math.ceil(best / 10) * 10);
    });
    var svg = "<svg viewBox=\"0 0 " + W + " " + H + "\" preserveAspectRatio=\"none\" " +
      "role=\"img\" aria-label=\"score over the game\">";
    for (var s = 0; s < seats; s++) {
      svg += "<polyline class=\"score-line\" data-seat=\"" + s + "\" fill=\"none\" " +
        "stroke-width=\"2\" vector-effect=\"non-scaling-stroke\" stroke=\"" + SEAT_HEX[s] +
        "\"/>";
    }
    svg += "</svg>";
    box.setAttribute("data-chart", "score");
    box.innerHTML = "<div class=\"plot\"><div class=\"axis y ylab\"><span class=\"top\">" +
      "</span><span>0</span></div><div class=\"area\"><div class=\"lines\">" + svg +
      veil(H, H - B) + "</div>" + moveAxis(n) + "</div></div>" +
      "<div class=\"legend\">" + seatLegend(data) + "</div>";
    var lines = box.querySelectorAll(".score-line"), topLabel = box.querySelector(".top");
    var move = curtainMover(box, W);
    function scale(to) {  // the whole game's lines at this scale (redrawn only as it grows)
      top = to;
      topLabel.textContent = top;
      for (var s = 0; s < seats; s++) {
        var pts = [];
        for (var j = 0; j < n; j++) {
          pts.push(x(j).toFixed(1) + "," + y(frames[j].boards[s].score).toFixed(1));
        }
        lines[s].setAttribute("points", pts.join(" "));
      }
    }
    return function (pos) {
      if (most[pos] !== top) scale(most[pos]);
      move(x(pos));
    };
  }

  /* ---------------------------------------------------------------- the analysis */
  var LABEL_SYMBOL = {inaccuracy: "?!", mistake: "?", blunder: "??"};
  function analysed(data, ply) {
    return data.analysis ? data.analysis.moves[String(ply)] || null : null;
  }
  function signed(v) { return (v >= 0 ? "+" : "\u2212") + Math.abs(v).toFixed(1); }

  /* The evaluation chart: each seat's expected final score margin after each of its analysed
   * moves (tournaments/domain/analysis), on the score chart's move axis; the labelled moves marked. */
  function evalChart(box, data) {
    var n = data.frames.length, seats = data.players, moves = data.analysis.moves;
    var keys = Object.keys(moves), max = 1;
    keys.forEach(function (k) { max = Math.max(max, Math.abs(moves[k].value_played)); });
    max = Math.ceil(max);
    var W = 600, H = 140, L = 4, B = 6, T = 6;
    var x = function (i) { return L + (W - L - 6) * (n > 1 ? i / (n - 1) : 0); };
    var y = function (v) { return T + (H - T - B) * (1 - (v + max) / (2 * max)); };
    var svg = "<svg viewBox=\"0 0 " + W + " " + H + "\" preserveAspectRatio=\"none\" " +
      "role=\"img\" aria-label=\"expected margin over the game\">";
    for (var s = 0; s < seats; s++) {
      var pts = [];
      keys.forEach(function (k) {
        var m = moves[k];
        if (m.seat === s) pts.push([m.ply + 1, x(m.ply + 1).toFixed(1) + "," + y(m.value_played).toFixed(1)]);
      });
      pts.sort(function (a, b) { return a[0] - b[0]; });
      svg += "<polyline class=\"eval-line\" data-seat=\"" + s + "\" fill=\"none\" " +
        "stroke-width=\"2\" vector-effect=\"non-scaling-stroke\" stroke=\"" + SEAT_HEX[s] +
        "\" points=\"" +
        pts.map(function (p) { return p[1]; }).join(" ") + "\"/>";
    }
    var marks = "", used = {};
    keys.forEach(function (k) {
      var m = moves[k];
      if (!m.label) return;
      used[m.label] = true;
      // Marks in HTML over the stretched drawing, so that they stay round.
      marks += "<span class=\"eval-mark lbl-" + m.label + "\" data-pos=\"" + (m.ply + 1) +
        "\" title=\"move " + (m.ply + 1) + ": " + m.label + ", " + m.loss.toFixed(1) +
        " points lost\" style=\"left:" + (100 * x(m.ply + 1) / W).toFixed(2) + "%;top:" +
        (100 * y(m.value_played) / H).toFixed(2) + "%\"></span>";
    });
    svg += "</svg>";
    // The legend says what every colour is: a seat's line, and each label's mark.
    var labels = ["inaccuracy", "mistake", "blunder"].map(function (label) {
      return "<span class=\"key\"><span class=\"eval-mark lbl-" + label + "\"></span>" +
        LABEL_SYMBOL[label] + " " + label + "</span>";
    }).join(" ");
    box.setAttribute("data-chart", "evaluation");
    box.innerHTML = "<div class=\"plot\"><div class=\"axis y ylab\"><span>+" + max +
      "</span><span>0</span><span>\u2212" + max + "</span></div><div class=\"area\">" +
      "<div class=\"evalplot\">" + svg + veil(H, y(0)) + marks + "</div>" + moveAxis(n) +
      "</div></div>" +
      "<div class=\"legend\">" + seatLegend(data) + "<br>" + labels + "</div>";
    var move = curtainMover(box, W);
    var markEls = Array.prototype.slice.call(box.querySelectorAll(".evalplot .eval-mark"));
    var markPos = markEls.map(function (e) { return parseInt(e.dataset.pos, 10); });
    return function (pos) {
      move(x(pos));
      for (var i = 0; i < markEls.length; i++) {
        var later = markPos[i] > pos;
        if (markEls[i].hidden !== later) markEls[i].hidden = later;
      }
    };
  }

  /* What the analysis says of move n: its label and points lost, the best move and a button
   * that draws it on the board. */
  function analysisNote(data, n) {
    var a = analysed(data, n - 1);
    if (!a) return "";
    var html = "<div class=\"analysis\">";
    if (a.label) {
      html += "<span class=\"label lbl-" + a.label + "\">" + LABEL_SYMBOL[a.label] + " " +
        a.label + "</span> " + a.loss.toFixed(1) + " points lost \u00b7 ";
    }
    if (a.best === a.played) {
      html += "<span class=\"best-note\">the engine's move (" + signed(a.value_played) + ")</span>";
    } else {
      html += "<span class=\"best-note\">best was <b class=\"best-move\">" + esc(a.best) +
        "</b> (" + signed(a.value_best) + ")" +
        (a.best_words ? ": <span class=\"words\">" + esc(a.best_words) + "</span>" : "") +
        "; the move played " + signed(a.value_played) + "</span>" +
        (a.best_frame ? " <button class=\"show-best\" data-act=\"best\">show best move</button>" : "");
    }
    html += a.exact ? "<span class=\"badge exact\" title=\"the rest of the round searched in " +
      "full\">exact</span>" : "";
    return html + "</div>";
  }

  /* ---------------------------------------------------------------- the page */
  function header(data) {
    var seats = data.seats.map(function (s, i) {
      var bot = s.bot ? " (" + esc(s.bot) + (s.version ? " " + esc(s.version) : "") + ")" : "";
      return "<span><span class=\"dot\" style=\"background:" + SEAT_COLOURS[i] + "\"></span>" +
        "<b>" + esc(s.name) + "</b>" + bot + "</span>";
    }).join(" &middot; ");
    var cfg = data.config || {};
    var bits = ["ruleset <b class=\"ruleset\">" + esc(data.ruleset) + "</b>",
                "seed <b class=\"seed\">" + (data.seed === null || data.seed === undefined ?
                                             "unknown" : esc(data.seed)) + "</b>"];
    if (data.match_id) bits.push("game <b>" + esc(data.match_id) + "</b>");
    // A record made before the clock could be chosen was timed on the wall clock.
    if (cfg.time_per_move) bits.push(cfg.time_per_move + " s per move, <b class=\"clock\">" +
                                     esc(cfg.clock || "wall") + "</b> clock");
    if (cfg.fault_policy) bits.push("faults: " + esc(cfg.fault_policy));
    if (!data.complete) bits.push("<b>unfinished game</b>");
    return "<h1>" + data.names.map(esc).join(" vs ") + "</h1><div class=\"meta seats\">" +
      seats + "</div><div class=\"meta\">" + bits.join(" &middot; ") + "</div>";
  }

  /* The seats' table at position n: their scores then, in seat order, until the end; the
   * final table (ranks, terminations, strikes, time, faults) once the last move is shown. */
  function seatsTable(data, n) {
    if (n < data.plies.length) {
      return "<table class=\"standing\"><thead><tr><th>seat</th><th>player</th>" +
        "<th class=\"num\">score</th></tr></thead><tbody>" + data.seats.map(function (s, i) {
          return "<tr data-seat=\"" + i + "\"><td class=\"num\">" + i + "</td><td>" +
            "<span class=\"dot\" style=\"background:" + SEAT_COLOURS[i] + "\"></span>" +
            esc(s.name) + "</td><td class=\"num score-now\">" + data.frames[n].boards[i].score +
            "</td></tr>";
        }).join("") + "</tbody></table><p class=\"hint\">The result shows at the end " +
        "(\u25b6| or End).</p>";
    }
    return finalTable(data);
  }

  function finalTable(data) {
    var html = "<table class=\"final\"><thead><tr><th>rank</th><th>seat</th><th>player</th>" +
      "<th>bot</th><th>score</th><th>termination</th><th>strikes</th><th>time</th></tr>" +
      "</thead><tbody>";
    var order = data.seats.map(function (s, i) { return i; });
    order.sort(function (a, b) { return data.seats[a].rank - data.seats[b].rank || a - b; });
    order.forEach(function (i) {
      var s = data.seats[i];
      html += "<tr data-seat=\"" + i + "\"><td class=\"num\">" + s.rank + "</td><td class=\"num\">" +
        i + "</td><td><span class=\"dot\" style=\"background:" + SEAT_COLOURS[i] + "\"></span>" +
        esc(s.name) + "</td><td>" + esc(s.bot || "") + " " + esc(s.version || "") +
        "</td><td class=\"num final-score\">" + s.score + "</td><td>" + esc(s.termination) +
        "</td><td class=\"num\">" + (s.strikes || 0) + "</td><td class=\"num\">" +
        (s.time_s === null || s.time_s === undefined ? "" : s.time_s.toFixed(2) + " s") +
        "</td></tr>";
    });
    html += "</tbody></table>";
    if (data.faults.length) {
      html += "<div class=\"faults\"><h2>Faults</h2>" + data.faults.map(function (f) {
        return "<div>" + esc(data.names[f.seat] || "seat " + f.seat) + ": " + esc(f.fault) +
          (f.detail ? " (" + esc(f.detail) + ")" : "") + (f.forfeited ? ", forfeited" : "") +
          "</div>";
      }).join("") + "</div>";
    }
    return html;
  }

  function mount(root, data, options) {
    options = options || {};
    var renderer = renderers[data.family] || fallback;
    var plies = data.plies, last = plies.length;
    var pos = 0, speed = 3, timer = null;
    root.classList.add("az");
    root.innerHTML = header(data) +
      "<div class=\"bar\"><button data-act=\"home\" title=\"start (Home)\">|\u25c0</button>" +
      "<button data-act=\"prev\" title=\"previous move (Left)\">\u25c0</button>" +
      "<button data-act=\"play\" class=\"play\" title=\"play / pause (Space)\">play</button>" +
      "<button data-act=\"next\" title=\"next move (Right)\">\u25b6</button>" +
      "<button data-act=\"end\" title=\"end (End)\">\u25b6|</button>" +
      "<input type=\"range\" class=\"slider\" min=\"0\" max=\"" + last + "\" value=\"0\" " +
      "aria-label=\"move\"><span class=\"pos\"></span>" +
      "<button data-act=\"slower\" title=\"slower (-)\">\u2212</button>" +
      "<span class=\"speed\"></span><button data-act=\"faster\" title=\"faster (+)\">+</button>" +
      "<div class=\"keys\">keys: \u2190 \u2192 step, space play/pause, Home/End, + \u2212 " +
      "speed</div></div><div class=\"info\"></div><div class=\"layout\"><div>" +
      "<div class=\"drawing\"></div><div class=\"panel\" style=\"margin-top:10px\"><h2 " +
      "class=\"seats-title\"></h2><div class=\"seats-table\"></div></div></div><div>" +
      "<div class=\"panel chart\">" +
      "<h2>Score</h2><div class=\"chartbox\"></div></div>" + (data.analysis ?
      "<div class=\"panel chart eval\" style=\"margin-top:10px\"><h2>Evaluation " +
      "<small>expected margin after each move</small></h2><div class=\"evalbox\"></div>" +
      "</div>" : "") + "<div class=\"panel\" " +
      "style=\"margin-top:10px\"><h2>Moves</h2><ol class=\"moves\"></ol></div></div></div>";
    var q = function (sel) { return root.querySelector(sel); };
    var slider = q(".slider"), info = q(".info"), drawing = q(".drawing"), list = q(".moves");
    var playBtn = q(".play"), posLabel = q(".pos"), speedLabel = q(".speed");
    var seatsTitle = q(".seats-title"), seatsBox = q(".seats-table");
    var setMarker = chart(q(".chartbox"), data);
    var setEvalMarker = data.analysis ? evalChart(q(".evalbox"), data) : function () {};

    var items = "", lastRound = 0;
    plies.forEach(function (p, i) {
      var cls = (p.round !== lastRound && i > 0 ? "rnd" : "") + (p.sub ? " sub" : "");
      var a = analysed(data, i), sym = "";
      if (a && a.label) {
        cls += " lbl-" + a.label;
        sym = "<span class=\"sym\" title=\"" + a.label + ": " + a.loss.toFixed(1) +
          " points lost\">" + LABEL_SYMBOL[a.label] + "</span>";
      }
      lastRound = p.round;
      items += "<li data-pos=\"" + (i + 1) + "\" class=\"" + cls + "\" title=\"" + esc(p.words) +
        "\"><span class=\"n\">" + (i + 1) + "</span><span class=\"dot\" style=\"background:" +
        SEAT_COLOURS[p.seat] + "\"></span>" + esc(p.move) + sym + " " + esc(p.words) + "</li>";
    });
    list.innerHTML = items;
    var rows = list.children, current = null;

    function describe(n) {
      if (n === 0) {
        return "<span class=\"who\">Start of the game</span>: " + esc(data.names[data.frames[0].turn]) +
          " moves first.";
      }
      var p = plies[n - 1];
      var html = "<span class=\"who\">" + esc(data.names[p.seat]) + "</span> " +
        "<span class=\"note move-notation\">" + esc(p.move) + "</span> <span class=\"words\">" +
        esc(p.words) + "</span>";
      if (p.us !== null && p.us !== undefined) html += "<span class=\"badge time\">" + fmtTime(p.us) + "</span>";
      if (p.sub) html += "<span class=\"badge sub\">substituted: the referee played it</span>";
      p.faults.forEach(function (f) {
        html += "<span class=\"badge fault\">" + esc(data.names[f.seat] || "") + " " +
          esc(f.fault) + (f.detail ? ": " + esc(f.detail) : "") +
          (f.forfeited ? " (forfeited)" : "") + "</span>";
      });
      html += analysisNote(data, n);
      if (p.round_end) {
        html += "<div class=\"round-end\">End of round " + p.round + " (scoring): " +
          p.round_end.map(function (d, s) {
            return esc(data.names[s]) + " " + (d >= 0 ? "+" : "") + d;
          }).join(", ") + "</div>";
      }
      return html;
    }

    function show(n, fromHash) {
      n = Math.max(0, Math.min(last, n | 0));
      pos = n;
      var frame = data.frames[n];
      renderer.draw(drawing, frame, data, n > 0 ? plies[n - 1] : null);
      drawing.classList.remove("showing-best");
      info.innerHTML = describe(n);
      slider.value = String(n);
      posLabel.textContent = "move " + n + " / " + last + " \u00b7 " + renderer.phase(frame);
      setMarker(n);
      setEvalMarker(n);
      put(seatsTitle, n >= last ? "Final table" : "Scores so far");
      put(seatsBox, seatsTable(data, n));
      if (current) current.classList.remove("cur");
      current = n > 0 ? rows[n - 1] : null;
      if (current) {
        current.classList.add("cur");
        var top = current.offsetTop - list.offsetTop;
        if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 20) {
          list.scrollTop = top - list.clientHeight / 2;
        }
      }
      if (!fromHash) syncHash();
      if (n >= last) stop();
    }
    // The address follows the position at most ten times a second: a slider dragged across a
    // long game would otherwise make chromium throttle (and drop) the history updates.
    var hashTimer = null, hashLast = 0;
    function syncHash() {
      if (!options.setHash || hashTimer !== null) return;  // a pending update will take pos
      var wait = 100 - (Date.now() - hashLast);
      var update = function () { hashTimer = null; hashLast = Date.now(); options.setHash(pos); };
      if (wait <= 0) update();
      else hashTimer = setTimeout(update, wait);
    }
    function stop() {
      if (timer !== null) { clearTimeout(timer); timer = null; }
      playBtn.textContent = "play";
    }
    function tick() {
      timer = null;
      if (pos >= last) { stop(); return; }
      show(pos + 1);
      if (pos < last) timer = setTimeout(tick, 1000 / SPEEDS[speed]);
    }
    function play() {
      if (timer !== null) { stop(); return; }
      if (pos >= last) show(0);
      playBtn.textContent = "pause";
      timer = setTimeout(tick, 1000 / SPEEDS[speed]);
    }
    function setSpeed(k) {
      speed = Math.max(0, Math.min(SPEEDS.length - 1, k));
      speedLabel.textContent = SPEEDS[speed] + " moves/s";
    }
    var actions = {
      home: function () { show(0); }, end: function () { show(last); },
      prev: function () { stop(); show(pos - 1); }, next: function () { stop(); show(pos + 1); },
      play: play, faster: function () { setSpeed(speed + 1); },
      slower: function () { setSpeed(speed - 1); }
    };
    root.querySelector(".bar").addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (b && actions[b.dataset.act]) { actions[b.dataset.act](); b.blur(); }
    });
    // The best move on the board: the table as it would be after it, from the position before
    // the move played (a second click, or any step, shows the game again).
    function toggleBest() {
      var a = analysed(data, pos - 1);
      if (!a || !a.best_frame) return;
      var on = !drawing.classList.contains("showing-best");
      var btn = info.querySelector(".show-best");
      if (on) {
        renderer.draw(drawing, a.best_frame, data, {seat: a.seat, move: a.best, round: plies[pos - 1].round});
      } else {
        renderer.draw(drawing, data.frames[pos], data, plies[pos - 1]);
      }
      drawing.classList.toggle("showing-best", on);
      if (btn) btn.textContent = on ? "show the game's move" : "show best move";
    }
    info.addEventListener("click", function (e) {
      var b = e.target.closest("button.show-best");
      if (b) { stop(); toggleBest(); b.blur(); }
    });
    if (data.analysis) {
      q(".evalbox").addEventListener("click", function (e) {
        var m = e.target.closest(".eval-mark");
        if (m) { stop(); show(parseInt(m.dataset.pos, 10)); }
      });
    }
    slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10)); });
    list.addEventListener("click", function (e) {
      var li = e.target.closest("li");
      if (li) { stop(); show(parseInt(li.dataset.pos, 10)); }
    });
    function onKey(e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var t = e.target, tag = t && t.tagName;
      if (tag === "TEXTAREA" || (tag === "INPUT" && t !== slider) || tag === "SELECT") return;
      var onSlider = t === slider, act = null;
      switch (e.key) {
        case "ArrowLeft": act = onSlider ? null : "prev"; break;
        case "ArrowRight": act = onSlider ? null : "next"; break;
        case "Home": act = onSlider ? null : "home"; break;
        case "End": act = onSlider ? null : "end"; break;
        case " ": act = "play"; break;
        case "+": case "=": case "]": act = "faster"; break;
        case "-": case "_": case "[": act = "slower"; break;
      }
      if (act) { e.preventDefault(); actions[act](); }
    }
    document.addEventListener("keydown", onKey);
    setSpeed(speed);
    show(options.start === undefined ? 0 : options.start, true);
    return {
      show: function (n) { show(n, true); },
      position: function () { return pos; },
      destroy: function () {
        stop();
        if (hashTimer !== null) clearTimeout(hashTimer);
        document.removeEventListener("keydown", onKey);
      }
    };
  }

  function hashMove() {
    var m = /(?:^#|&)move=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }

  /* The standalone page: the position lives in the address (#move=N). */
  function mountPage(root, data) {
    var viewer = mount(root, data, {
      start: hashMove() || 0,
      setHash: function (n) {
        try { history.replaceState(null, "", "#move=" + n); } catch (err) { /* not allowed */ }
      }
    });
    window.addEventListener("hashchange", function () {
      var n = hashMove();
      if (n !== null && n !== viewer.position()) viewer.show(n);
    });
    return viewer;
  }

  return {mount: mount, mountPage: mountPage, renderers: renderers, esc: esc,
          fmtTime: fmtTime,
          kit: {esc: esc, el: el, tile: tile, tiles: tiles, sources: sources, put: put,
                parts: parts, SEAT_COLOURS: SEAT_COLOURS}};
})();
