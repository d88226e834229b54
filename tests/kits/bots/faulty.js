// A kit bot that misbehaves once, on its second decision: `node faulty.js slow` thinks 450 ms
// (the test's move limit is far less), `node faulty.js throw` throws. Otherwise it plays the
// first legal move.
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

runBot({ name: `faulty-${mode}`, chooseMove }, process.argv.slice(3));
