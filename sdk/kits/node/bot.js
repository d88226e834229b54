// A one-ply greedy bot: the move with the best immediate outcome for itself. For a take, the
// wall points a completed pattern line will score at the end of the round, some credit for a
// line in progress, minus the floor penalty; for a wall choice (azul-gray), the best points.
// It never looks at what the opponents do next. It beats a random bot almost always.
'use strict';

const { runBot, parseMove, wallColumn, placementPoints, floorPenalty } = require('./azul-arena');

// The value of `notation` for the seat to move.
function value(state, notation) {
  const board = state.boards[state.turn];
  const move = parseMove(notation);
  if (move.wall) return placementPoints(board.wall, move.line - 1, move.column - 1);

  const tiles = move.source === 'C' ? state.centre : state.factories[move.source - 1];
  const taken = tiles.split(move.colour).length - 1;
  const onFloor = board.floor.length + (board.has_marker ? 1 : 0);
  let toFloor = move.source === 'C' && state.marker_in_centre ? 1 : 0; // the start marker
  let points = 0;
  if (move.line === 'F') {
    toFloor += taken;
  } else {
    const row = move.line - 1;
    const have = board.lines[row].length;
    const placed = Math.min(taken, move.line - have);
    toFloor += taken - placed;
    if (have + placed === move.line) {
      points += completionPoints(state, board.wall, row, move.colour);
    } else {
      points += 0.5 * placed; // a line in progress: worth something next round
    }
  }
  return points + floorPenalty(onFloor + toFloor) - floorPenalty(onFloor);
}

// What completing pattern line `row` with `colour` scores when the round ends.
function completionPoints(state, wall, row, colour) {
  if (state.ruleset !== 'azul-gray') return placementPoints(wall, row, wallColumn(row, colour));
  // Gray wall: the best free column that does not hold this colour yet (else it is all floor).
  let best = -(row + 1);
  for (let column = 0; column < 5; column++) {
    const free = wall[row][column] === '.';
    const clash = wall.some((line) => line[column] === colour);
    if (free && !clash) best = Math.max(best, placementPoints(wall, row, column));
  }
  return best;
}

function chooseMove(state, legalMoves, clock) {
  let best = 0;
  let bestValue = -Infinity;
  legalMoves.forEach((notation, index) => {
    const v = value(state, notation);
    if (v > bestValue) {
      best = index;
      bestValue = v;
    }
  });
  return best; // an index into legalMoves (returning the notation works too)
}

if (require.main === module) {
  runBot({ name: 'greedy-js', version: '1.0', chooseMove,
    rulesets: ['azul', 'azul-mini', 'azul-gray', 'azul-greenbox'] });
}

module.exports = { chooseMove, value };
