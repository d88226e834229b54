/* The Summer Pavilion renderer for the replay viewer (tournaments/web/viewer.js): the wild colour,
 * the supply, each seat's stars and hand. Named by the family's view (tournaments/families/pavilion.py). */
"use strict";
(function () {
  var k = AzulViewer.kit, esc = k.esc, tile = k.tile, tiles = k.tiles, sources = k.sources;
  var put = k.put, parts = k.parts, SEAT_COLOURS = k.SEAT_COLOURS;

  // Stars on a board: the centre star in the middle, the six others around it (1 at the top).
  var STAR_SPOTS = [[1, 1], [0, 1], [0, 2], [1, 2], [2, 1], [1, 0], [0, 0]];
  AzulViewer.renderers.pavilion = {
    draw: function (box, frame, data, ply) {
      var layout = data.layout, names = data.names, p = parts(box, frame.boards.length);
      var html = "<div class=\"wild\">wild " + tile(frame.wild) + " <b>" +
        esc(layout.colours[frame.wild]) + "</b><br><small>round " + frame.round +
        " of 6</small></div>";
      html += sources(frame) + "<div class=\"supply\"><span class=\"lbl\">supply</span>";
      for (var i = 0; i < frame.supply.length; i++) {
        var ch = frame.supply[i];
        html += ch === "." ? "<span class=\"t slot\"></span>" : tile(ch);
      }
      put(p.top, html + "</div><div class=\"bag\">bag " + frame.bag + "<br>depot " +
          frame.depot + "</div>");
      frame.boards.forEach(function (b, s) {
        var turn = frame.phase !== "over" && frame.turn === s;
        var moved = ply && ply.seat === s;
        var cls = "board pav" + (turn ? " turn" : "") + (moved ? " moved" : "");
        if (p.boards[s].className !== cls) p.boards[s].className = cls;
        html = "<div class=\"head\"><span><span class=\"dot\" style=\"background:" +
          SEAT_COLOURS[s] + "\"></span><b>" + esc(names[s]) + "</b>" +
          (turn ? " <small>to " + (frame.phase === "take" ? "take" : frame.phase === "bonus" ?
                                   "take a bonus tile" : "place or pass") + "</small>" : "") +
          (b.passed ? " <small class=\"passed\">passed</small>" : "") +
          (b.has_marker ? " <span class=\"t tM\" title=\"start token\">1</span>" : "") +
          "</span><span class=\"score seat-score\" data-seat=\"" + s + "\">" + b.score +
          "</span></div><div class=\"stars\">";
        b.stars.forEach(function (cells, star) {
          var info = layout.stars[star], spot = STAR_SPOTS[star];
          html += "<div class=\"star" + (info.colour ? " s" + info.colour : "") +
            "\" style=\"grid-row:" + (spot[0] + 1) + ";grid-column:" + (spot[1] + 1) +
            "\" title=\"" + esc(info.name) + "\">";
          for (var k = 0; k < 6; k++) {
            var c = cells[k];
            html += "<span class=\"sp k" + k + "\">" + (c === "." ?
              "<span class=\"t free" + (info.colour ? " t" + info.colour : "") + "\">" +
              info.costs[k] + "</span>" : tile(c)) + "</span>";
          }
          html += "</div>";
        });
        html += "</div><div class=\"hand\">tiles " + (b.tiles ? tiles(b.tiles) : "\u2013") +
          "</div><div class=\"hand\">kept " + (b.kept ? tiles(b.kept) : "\u2013") + "</div>";
        put(p.boards[s], html);
      });
    },
    phase: function (frame) {
      if (frame.phase === "over") return "game over";
      return "round " + frame.round + " \u00b7 " + frame.phase;
    }
  };
})();
