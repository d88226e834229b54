/* The classic family's renderer for the replay viewer (tournaments/web/viewer.js): the factories,
 * each seat's pattern lines, wall and floor. Named by the family's view (tournaments/families/classic.py). */
"use strict";
(function () {
  var k = AzulViewer.kit, esc = k.esc, tile = k.tile, tiles = k.tiles, sources = k.sources;
  var put = k.put, parts = k.parts, SEAT_COLOURS = k.SEAT_COLOURS;

  AzulViewer.renderers.classic = {
    draw: function (box, frame, data, ply) {
      var layout = data.layout, names = data.names, p = parts(box, frame.boards.length);
      var html = sources(frame);
      put(p.top, html + "<div class=\"bag\">bag " + frame.bag + "<br>lid " + frame.lid + "</div>");
      var hitLine = -1;
      if (ply && /^[1-9C][BYRKW][1-5]$/i.test(ply.move)) hitLine = parseInt(ply.move[2], 10) - 1;
      frame.boards.forEach(function (b, s) {
        var turn = frame.phase !== "over" && frame.turn === s;
        var moved = ply && ply.seat === s;
        var cls = "board" + (turn ? " turn" : "") + (moved ? " moved" : "");
        if (p.boards[s].className !== cls) p.boards[s].className = cls;
        html = "<div class=\"head\"><span><span class=\"dot\" " +
          "style=\"background:" + SEAT_COLOURS[s] + "\"></span><b>" + esc(names[s]) + "</b>" +
          (turn ? " <small>to move</small>" : "") + "</span><span class=\"score seat-score\" " +
          "data-seat=\"" + s + "\">" + b.score + "</span></div><div class=\"rows\">";
        for (var d = 0; d < 5; d++) {
          var line = b.lines[d], pl = "";
          for (var k = 0; k < d + 1 - line.length; k++) pl += "<span class=\"t slot\"></span>";
          pl += tiles(line);
          var wl = "";
          for (var c = 0; c < 5; c++) {
            var ch = b.wall[d][c];
            if (ch !== ".") wl += tile(ch);
            else if (layout.wall) wl += tile(layout.wall[d][c], "ghost");
            else wl += "<span class=\"t gray\"></span>";
          }
          html += "<div class=\"pl" + (moved && d === hitLine ? " hit" : "") + "\">" + pl +
            "</div><div class=\"wl\">" + wl + "</div>";
        }
        html += "</div><div class=\"floor\">";
        var floor = (b.has_marker ? "M" : "") + b.floor;
        for (var f = 0; f < layout.floor_slots; f++) {
          var pen = layout.floor_loss[f + 1] - layout.floor_loss[f];
          var t = f < floor.length ? (floor[f] === "M" ? "<span class=\"t tM\">1</span>"
                                                       : tile(floor[f])) :
            "<span class=\"t slot\"></span>";
          html += "<span class=\"cell\">" + t + "-" + pen + "</span>";
        }
        if (floor.length > layout.floor_slots) {
          html += "<span class=\"cell\">+" + (floor.length - layout.floor_slots) + "</span>";
        }
        put(p.boards[s], html + "</div>");
      });
    },
    phase: function (frame) {
      if (frame.phase === "over") return "game over";
      if (frame.phase === "wall") return "wall-tiling, line " + frame.wall_line;
      return "round " + frame.round;
    }
  };
})();
