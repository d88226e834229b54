// A kit bot that misbehaves once, on its second decision: `node faulty.js slow` thinks 450 ms
// (the test's move limit is far less), `node faulty.js throw` throws. Otherwise it plays the
// first legal move. At each game start it writes its seed to its log (the tests read it).
'use strict';

const { runBot } = require('./azul-arena');

const mode = process.argv[2];
let decisions = 0;

function chooseMove(state, legalMoves, clock) {
  decisions += 1;
  if (decisions === 2 && mode === 'slow') {
    const until = Date.now() + 450;
    while (Date.now() < until) { /* a long think that never reads the stream */ }
  }
  if (decisions === 2 && mode === 'throw') {
    throw new Error('deliberate failure in chooseMove');
  }
  return 0;
}

function onGameStart(info) {
  console.error(`game ${info.gameId} seat ${info.seat} seed ${info.seed}`);
}

runBot({ name: `faulty-${mode}`, chooseMove, onGameStart }, process.argv.slice(3));
