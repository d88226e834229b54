/* Azul Arena tournament report: tables and plots from the embedded data; every embedded game
 * opens in the replay viewer (AzulViewer) inside the page, and #game=N&move=M points at it.
 */
"use strict";
var AzulReport = (function () {
  var esc = AzulViewer.esc;
  var LINE_COLOURS = ["#1c6e8c", "#c8553d", "#5b8c2a", "#8e5bb0", "#d19a1f", "#2a9d8f",
                      "#7a5c3e", "#e07a9f", "#4b5563", "#9c6644", "#3a86ff", "#8d99ae"];
  var HISTORY_SHOWN = 8;  // entries drawn in the rating history at first (the best ones)

  function num(v, digits) {
    return v === null || v === undefined ? "" : Number(v).toFixed(digits);
  }
  function interval(lo, hi, digits, scale) {
    if (lo === null || lo === undefined || hi === null || hi === undefined) return "";
    scale = scale || 1;
    return " <span class=\"iv\">(" + (lo * scale).toFixed(digits) + "\u2013" +
      (hi * scale).toFixed(digits) + ")</span>";
  }
  /* A mean score's interval, or "too few games" below the sample size where one says
   * anything (data.interval_min_games; the t interval of 2 games spans every score). */
  function meanInterval(data, games, lo, hi) {
    if (games && games < (data.interval_min_games || 0)) {
      return " <span class=\"iv few\" title=\"an interval needs at least " +
        data.interval_min_games + " games\">(too few games)</span>";
    }
    return interval(lo, hi, 1);
  }
  function faultsText(kinds) {
    var keys = Object.keys(kinds || {});
    return keys.map(function (k) { return k + " " + kinds[k]; }).join(", ");
  }

  /* The accuracy of an entry's analysed games (`replay analyse --save`), beside its rating. */
  function accuracyCell(a) {
    if (!a) return "<td class=\"num accuracy\"></td>";
    return "<td class=\"num accuracy\" title=\"mean over " + a.games +
      " analysed games (100: the engine's move every time)\">" + num(a.accuracy, 1) + "</td>";
  }

  function leaderboard(data) {
    var accuracy = data.accuracy || {};
    var analysed = Object.keys(accuracy).length > 0;
    var html = "<div class=\"scroll\"><table class=\"leaderboard\"><thead><tr><th>#</th>" +
      "<th>entry</th><th title=\"TrueSkill mean\">rating \u03bc</th>" +
      "<th title=\"uncertainty\">\u03c3</th><th title=\"\u03bc - 3\u03c3: sorts the table\">" +
      "conservative</th>" + (analysed ? "<th title=\"game analysis: replay analyse --save\">" +
      "accuracy</th>" : "") + "<th>games</th><th>wins</th><th>win rate (95%)</th>" +
      "<th>mean score (95%)</th><th>faults</th>" +
      "<th title=\"probability that this entry is truly better than the next one\">" +
      "P(better than next)</th></tr></thead><tbody>";
    data.leaderboard.forEach(function (r) {
      html += "<tr data-entry=\"" + esc(r.entry) + "\"><td class=\"num\">" + r.rank +
        "</td><td class=\"entry\">" + esc(r.entry) + "</td><td class=\"num mu\">" +
        num(r.mu, 2) + "</td><td class=\"num sigma\">" + num(r.sigma, 2) +
        "</td><td class=\"num conservative\">" + num(r.conservative, 2) + "</td>" +
        (analysed ? accuracyCell(Object.prototype.hasOwnProperty.call(accuracy, r.entry) ?
                                 accuracy[r.entry] : null) : "") + "<td class=\"num games\">" + r.games + "</td><td class=\"num wins\">" + r.wins +
        (r.ties ? " <span class=\"iv\">+" + r.ties + " shared</span>" : "") +
        "</td><td class=\"num\">" + (100 * r.win_rate).toFixed(0) + "%" +
        interval(r.win_rate_low, r.win_rate_high, 0, 100) + "</td><td class=\"num\">" +
        num(r.mean_score, 1) + meanInterval(data, r.games, r.mean_score_low, r.mean_score_high) +
        "</td><td class=\"num faults\" title=\"" + esc(faultsText(r.fault_kinds)) + "\">" +
        r.faults + "</td><td class=\"num\">" +
        (r.p_better_than_next === null ? "" : (100 * r.p_better_than_next).toFixed(0) + "%") +
        "</td></tr>";
    });
    return html + "</tbody></table></div>";
  }

  function seats(data) {
    var html = "<table class=\"seats\"><thead><tr><th>seat</th><th>games</th><th>wins</th>" +
      "<th>win rate (95%)</th><th>mean score (95%)</th><th>mean rank</th></tr></thead><tbody>";
    data.seats.forEach(function (s) {
      html += "<tr><td>" + (s.seat === 0 ? "0 (first)" : s.seat) + "</td><td class=\"num\">" +
        s.games + "</td><td class=\"num\">" + s.wins + "</td><td class=\"num\">" +
        (100 * s.win_rate).toFixed(0) + "%" + interval(s.win_rate_low, s.win_rate_high, 0, 100) +
        "</td><td class=\"num\">" + num(s.mean_score, 1) +
        meanInterval(data, s.games, s.mean_score_low, s.mean_score_high) +
        "</td><td class=\"num\">" +
        s.mean_rank.toFixed(2) + "</td></tr>";
    });
    return html + "</tbody></table>";
  }

  function heat(share) {
    // 0 -> red, 0.5 -> pale, 1 -> green
    var r, g, b;
    if (share < 0.5) { var t = share / 0.5; r = 214; g = Math.round(92 + 150 * t); b = Math.round(80 + 150 * t); }
    else { var u = (share - 0.5) / 0.5; r = Math.round(240 - 150 * u); g = Math.round(242 - 60 * u); b = Math.round(230 - 150 * u); }
    return "rgb(" + r + "," + g + "," + b + ")";
  }

  function crosstable(data) {
    var names = data.leaderboard.map(function (r) { return r.entry; });
    if (names.length > 40) {
      return "<p class=\"note\">The crosstable of " + names.length + " entries is not drawn; " +
        "`azul-arena tournament show --json` has it.</p>";
    }
    var cells = {};
    data.crosstable.forEach(function (c) { cells[c.a + "\u0000" + c.b] = c; });
    var html = "<div class=\"scroll\"><table class=\"heat\"><thead><tr><th>row vs column</th>";
    names.forEach(function (n) { html += "<th class=\"col\">" + esc(n) + "</th>"; });
    html += "</tr></thead><tbody>";
    names.forEach(function (a) {
      html += "<tr><th>" + esc(a) + "</th>";
      names.forEach(function (b) {
        if (a === b) { html += "<td class=\"cell\">\u2013</td>"; return; }
        var c = cells[a + "\u0000" + b];
        if (!c) { html += "<td class=\"cell\"></td>"; return; }
        var games = c.wins + c.losses + c.draws;
        var share = (c.wins + c.draws / 2) / games;
        html += "<td class=\"cell\" style=\"background:" + heat(share) + "\" title=\"" +
          esc(a) + " finished ahead of " + esc(b) + " in " + c.wins + " of " + games +
          " games\">" + c.wins + "-" + c.losses + (c.draws ? "-" + c.draws : "") + "</td>";
      });
      html += "</tr>";
    });
    return html + "</tbody></table></div><p class=\"note\">A cell is the row entry's record " +
      "against the column entry: finished ahead - behind (- level), green when ahead more " +
      "often.</p>";
  }

  function ratingHistory(box, data) {
    var names = data.leaderboard.map(function (r) { return r.entry; });
    var shown = {};
    names.slice(0, HISTORY_SHOWN).forEach(function (n) { shown[n] = true; });
    var maxX = 1, lo = Infinity, hi = -Infinity;
    names.forEach(function (n) {
      (data.history[n] || []).forEach(function (p) {
        if (p[0] > maxX) maxX = p[0];
        lo = Math.min(lo, p[1] - p[2]); hi = Math.max(hi, p[1] + p[2]);
      });
    });
    if (!isFinite(lo)) { box.innerHTML = "<p class=\"note\">No rated game yet.</p>"; return; }
    // The labels are HTML beside the stretched drawing, so that they keep their shape at any
    // width (text inside it would be squeezed on a phone and stretched on a wide screen).
    var W = 1000, H = 320, L = 4, R = 6, T = 6, B = 6;
    var x = function (v) { return L + (W - L - R) * v / maxX; };
    var y = function (v) { return T + (H - T - B) * (1 - (v - lo) / (hi - lo || 1)); };
    var mid = Math.round(maxX / 2), yLabels = "";
    for (var k = 4; k >= 0; k--) {
      yLabels += "<span>" + (lo + (hi - lo) * k / 4).toFixed(0) + "</span>";
    }
    box.setAttribute("data-chart", "rating");
    function draw() {
      var svg = "<svg viewBox=\"0 0 " + W + " " + H + "\" preserveAspectRatio=\"none\" " +
        "role=\"img\" aria-label=\"rating history\">";
      for (var k = 0; k <= 4; k++) {
        var v = lo + (hi - lo) * k / 4;
        svg += "<line x1=\"" + L + "\" x2=\"" + (W - R) + "\" y1=\"" + y(v) + "\" y2=\"" + y(v) +
          "\" stroke=\"#e3ddd0\" vector-effect=\"non-scaling-stroke\"/>";
      }
      names.forEach(function (n, i) {
        if (!shown[n]) return;
        var pts = data.history[n] || [], colour = LINE_COLOURS[i % LINE_COLOURS.length];
        if (!pts.length) return;
        var up = pts.map(function (p) { return x(p[0]).toFixed(1) + "," + y(p[1] + p[2]).toFixed(1); });
        var down = pts.slice().reverse().map(function (p) {
          return x(p[0]).toFixed(1) + "," + y(p[1] - p[2]).toFixed(1);
        });
        svg += "<polygon fill=\"" + colour + "\" fill-opacity=\"0.12\" points=\"" +
          up.concat(down).join(" ") + "\"/>";
        svg += "<polyline fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\" " +
          "vector-effect=\"non-scaling-stroke\" points=\"" + pts.map(function (p) {
            return x(p[0]).toFixed(1) + "," + y(p[1]).toFixed(1);
          }).join(" ") + "\"><title>" + esc(n) + "</title></polyline>";
      });
      svg += "</svg>";
      var pick = names.map(function (n, i) {
        return "<label><input type=\"checkbox\" data-name=\"" + esc(n) + "\"" +
          (shown[n] ? " checked" : "") + "> <span class=\"dot\" style=\"background:" +
          LINE_COLOURS[i % LINE_COLOURS.length] + "\"></span>" + esc(n) + "</label>";
      }).join("");
      box.innerHTML = "<div class=\"plot\"><div class=\"axis y\">" + yLabels + "</div>" +
        "<div class=\"area\">" + svg + "<div class=\"axis x\"><span>0</span>" +
        (mid > 0 && mid < maxX ? "<span>" + mid + "</span>" : "") + "<span>" + maxX +
        "</span></div><div class=\"axis-title\">games, in schedule order</div></div></div>" +
        "<div class=\"pick legend\">" + pick + "</div>";
    }
    box.addEventListener("change", function (e) {
      var name = e.target.getAttribute("data-name");
      if (name !== null) { shown[name] = e.target.checked; draw(); }
    });
    draw();
  }

  function faults(data) {
    var by = data.faults.by_entry, entries = Object.keys(by);
    if (!data.games_done) return "<p class=\"faults-none\">No game played yet.</p>";
    if (!entries.length) return "<p class=\"faults-none\">No faults: every bot answered every " +
      "move legally and in time.</p>";
    var kinds = {};
    entries.forEach(function (e) { Object.keys(by[e]).forEach(function (k) { kinds[k] = 1; }); });
    kinds = Object.keys(kinds).sort();
    var html = "<table class=\"faults\"><thead><tr><th>entry</th>" + kinds.map(function (k) {
      return "<th>" + esc(k) + "</th>";
    }).join("") + "</tr></thead><tbody>";
    entries.forEach(function (e) {
      html += "<tr><td>" + esc(e) + "</td>" + kinds.map(function (k) {
        return "<td class=\"num\">" + (by[e][k] || "") + "</td>";
      }).join("") + "</tr>";
    });
    html += "</tbody></table>";
    if (data.faults.log.length) {
      html += "<div class=\"scroll\" style=\"margin-top:8px;max-height:240px\"><table>" +
        "<thead><tr><th>game</th><th>entry</th><th>fault</th><th>at move</th><th>detail</th>" +
        "</tr></thead><tbody>";
      data.faults.log.forEach(function (f) {
        html += "<tr><td>" + esc(f.game) + "</td><td>" + esc(f.entry) + "</td><td>" +
          esc(f.fault) + (f.forfeited ? " (forfeited)" : "") + "</td><td class=\"num\">" +
          (f.ply === null || f.ply === undefined ? "" : f.ply + 1) + "</td><td>" +
          esc(f.detail || "") + "</td></tr>";
      });
      html += "</tbody></table></div>";
      if (data.faults.log_total > data.faults.log.length) {
        html += "<p class=\"note\">The first " + data.faults.log.length + " of " +
          data.faults.log_total + " faults.</p>";
      }
    }
    return html;
  }

  function games(data) {
    var html = "<div class=\"scroll\"><table class=\"games\"><thead><tr><th>#</th><th>game</th>" +
      "<th>seats (score)</th><th>seed</th><th></th></tr></thead><tbody>";
    data.games.forEach(function (g) {
      var seats = g.seats.map(function (s) {
        var text = esc(s.entry) + " " + s.score + (s.termination !== "ok" ? " (" +
          esc(s.termination) + ")" : "");
        return s.rank === 1 ? "<b class=\"win\">" + text + "</b>" : text;
      }).join(" \u00b7 ");
      html += "<tr data-game=\"" + g.index + "\"><td class=\"num\">" + g.index + "</td><td>" +
        esc(g.id) + "</td><td>" + seats + "</td><td class=\"num\">" + g.seed + "</td><td>" +
        (g.viewer ? "<button class=\"watch\" data-game=\"" + g.index + "\">watch</button>" :
         "<span class=\"note\">not embedded</span>") + "</td></tr>";
    });
    return html + "</tbody></table></div>";
  }

  function mount(root, data) {
    var byIndex = {};
    data.games.forEach(function (g) { byIndex[g.index] = g; });
    var cfg = data.config || {};
    var best = data.best_game === null ? null : byIndex[data.best_game];
    var html = "<h1>Tournament report</h1><div class=\"meta\">" +
      esc(cfg.ruleset || "azul") + " \u00b7 " + (cfg.players || 2) + " players \u00b7 " +
      data.games_done + " of " + data.games_total + " games played \u00b7 seed " +
      esc(cfg.seed === undefined ? "?" : cfg.seed) +
      (cfg.time_per_move ? " \u00b7 " + cfg.time_per_move + " s per move, " +
                           esc(cfg.clock || "wall") + " clock" : "") +
      (cfg.gauntlet ? " \u00b7 gauntlet of " + esc(cfg.gauntlet) : "") + "</div>";
    if (best && best.viewer) {
      html += "<div class=\"best\">The game to watch: <b>" + best.seats.map(function (s) {
        return esc(s.entry) + " " + s.score;
      }).join(" \u2013 ") + "</b>, the closest game between the leaders. " +
        "<button class=\"watch\" data-game=\"" + best.index + "\">watch it</button></div>";
    }
    html += "<h2>Leaderboard</h2>" + leaderboard(data) +
      "<p class=\"note\">Sorted by the conservative rating \u03bc \u2212 3\u03c3 (TrueSkill); " +
      "win rate with its 95% Wilson interval, mean score with its 95% t interval; a win is an " +
      "outright first place.</p>";
    if (data.unrated_games.length) {
      html += "<p class=\"note\">" + data.unrated_games.length + " game(s) could not be rated.</p>";
    }
    html += "<h2>Results by seat</h2>" + seats(data) +
      "<p class=\"note\">Does the first seat win more? Seat rotation over shared deals gives " +
      "every entry every seat equally often.</p>";
    html += "<h2>Crosstable</h2>" + crosstable(data);
    html += "<h2>Rating history</h2><div class=\"hist\"></div><p class=\"note\">Each entry's " +
      "\u03bc after each of its games, with its \u03c3 band, in schedule order (the order the " +
      "ratings are computed in).</p>";
    html += "<h2>Faults</h2>" + faults(data);
    html += "<h2>Games</h2>" + games(data);
    if (data.games_embedded < data.games.length) {
      html += "<p class=\"note\">" + data.games_embedded + " of " + data.games.length +
        " games can be watched here (see `tournament report --games`).</p>";
    }
    root.innerHTML = html;
    ratingHistory(root.querySelector(".hist"), data);

    var modal = document.getElementById("modal"), box = document.getElementById("modal-viewer");
    var viewer = null, openGame = null;
    function setHash(text) {
      try { history.replaceState(null, "", text); } catch (err) { /* not allowed here */ }
    }
    function open(index, move) {
      var g = byIndex[index];
      if (!g || !g.viewer) return;
      close(true);
      var game = JSON.parse(document.getElementById(g.viewer).textContent);
      modal.hidden = false;
      openGame = index;
      viewer = AzulViewer.mount(box, game, {
        start: move || 0,
        setHash: function (n) { setHash("#game=" + index + "&move=" + n); }
      });
      setHash("#game=" + index + "&move=" + (move || 0));
    }
    function close(keepHash) {
      if (viewer) { viewer.destroy(); viewer = null; }
      box.innerHTML = "";
      box.className = "";
      modal.hidden = true;
      openGame = null;
      if (!keepHash) setHash("#");
    }
    root.addEventListener("click", function (e) {
      var b = e.target.closest("button.watch");
      if (b) open(parseInt(b.getAttribute("data-game"), 10), 0);
    });
    modal.querySelector(".rp-close").addEventListener("click", function () { close(false); });
    modal.addEventListener("click", function (e) { if (e.target === modal) close(false); });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && viewer) close(false);
    });
    function fromHash() {
      var m = /#game=(\d+)(?:&move=(\d+))?/.exec(location.hash);
      if (m && parseInt(m[1], 10) !== openGame) open(parseInt(m[1], 10), parseInt(m[2] || "0", 10));
    }
    window.addEventListener("hashchange", fromHash);
    fromHash();
    return {open: open, close: close};
  }

  return {mount: mount};
})();
