/* azul-tiny's renderer for the replay viewer: each seat's 3-space wall and score. */
"use strict";
(function () {
  var k = AzulViewer.kit;
  AzulViewer.renderers.tiny = {
    draw: function (box, frame, data) {
      box._parts = null;
      box.innerHTML = "<div class=\"tiny-table\">" + k.sources(frame) + "</div>" +
        frame.boards.map(function (b, s) {
          return "<div class=\"board tiny\" data-seat=\"" + s + "\"><b>" + k.esc(data.names[s]) +
            "</b> <span class=\"seat-score\" data-seat=\"" + s + "\">" + b.score +
            "</span> <span class=\"tiny-wall\">" + k.esc(b.wall) + "</span></div>";
        }).join("");
    },
    phase: function (frame) { return frame.phase === "over" ? "game over" : "round " + frame.round; }
  };
})();
