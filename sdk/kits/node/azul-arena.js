// Azul Arena starter kit for Node.js: the referee's stream, the handshake, pings and the clock,
// so that a bot is one function, chooseMove(state, legalMoves, clock).
//
//   const { runBot } = require('./azul-arena');
//   runBot({ name: 'my-bot', chooseMove: (state, legalMoves, clock) => 0 });
//
// The protocol is proto/azul_arena/v1/bot.proto, loaded at start-up by protobufjs (the library
// under @grpc/proto-loader), which also decodes each message: proto-loader's extra pass that
// turns every message into a plain object cost about a fifth of a move's round trip. The stream
// is @grpc/grpc-js's. The referee's address and this bot's token come from --referee/--token
// or, as the referee's launcher sets them, AZUL_ARENA_REFEREE and AZUL_ARENA_TOKEN.
'use strict';

const fs = require('fs');
const path = require('path');
const { performance } = require('perf_hooks');
const grpc = requireInstalled('@grpc/grpc-js');
const protobuf = requireInstalled('protobufjs');

// A package from package.json, or a message that says the one command that installs it.
function requireInstalled(name) {
  try {
    return require(name);
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND') throw err;
    console.error(`${name} is not installed: run "npm install" in the bot's folder (beside package.json)`);
    return process.exit(2);
  }
}

const PROTOCOL_VERSION = 1;
const CONNECT_TIMEOUT_MS = 10000; // a launched bot's referee listens already; a remote one may not
const CLASSIC_RULESETS = ['azul', 'azul-mini', 'azul-gray', 'azul-greenbox'];
const TERMINATIONS = ['unspecified', 'ok', 'timeout', 'illegal', 'malformed', 'crash',
  'disconnect', 'no_hello', 'version_mismatch', 'bad_token', 'memory', 'unsupported_ruleset'];

// The .proto files: a bot folder's own proto/ (bot new copies them there), else the kit's.
function protoDir() {
  for (const dir of [path.join(__dirname, 'proto'), path.join(__dirname, '..', 'proto')]) {
    if (fs.existsSync(path.join(dir, 'azul_arena', 'v1', 'bot.proto'))) return dir;
  }
  throw new Error(`azul_arena/v1/bot.proto not found in ${__dirname}/proto: copy the proto/ ` +
    'folder of Azul Arena next to azul-arena.js');
}

// The protocol's messages, decoded by protobufjs itself: a decoded message reads like a plain
// object (unset fields read as their defaults), so no conversion pass runs per message.
function loadProtocol() {
  const root = new protobuf.Root();
  const dir = protoDir();
  root.resolvePath = (origin, target) => path.join(dir, target);
  root.loadSync('azul_arena/v1/bot.proto', { keepCase: true });
  return {
    Request: root.lookupType('azul_arena.v1.ConnectRequest'),
    Response: root.lookupType('azul_arena.v1.ConnectResponse'),
    Phase: root.lookupEnum('azul_arena.v1.Phase'),
    Termination: root.lookupEnum('azul_arena.v1.Termination'),
    GameEndReason: root.lookupEnum('azul_arena.v1.GameEndReason'),
  };
}

// The time for one decision, as the referee granted it. Times in milliseconds.
class Clock {
  constructor(moveTimeMs, bankMs, started) {
    this.moveTimeMs = moveTimeMs; // the limit for this move
    this.bankMs = bankMs; // the time bank left beyond it (spent only by overrunning)
    this.started = started; // performance.now() when the request arrived
  }

  // performance.now() value by which the answer must be sent (bank included).
  get deadline() {
    return this.started + this.moveTimeMs + this.bankMs;
  }

  // Milliseconds left for this move, bank included (never negative).
  remainingMs() {
    return Math.max(0, this.deadline - performance.now());
  }

  // A safe thinking budget: `fraction` of this move's limit, not touching the bank.
  budgetMs(fraction = 0.8) {
    return Math.max(0, (this.started + this.moveTimeMs - performance.now()) * fraction);
  }
}

// An enum value's name without its prefix, lower case: PHASE_TAKE -> "take".
function enumName(type, value, prefix) {
  const name = type.valuesById[value];
  return name === undefined ? String(value) : name.slice(prefix.length).toLowerCase();
}

// The public state as docs/engine.md describes it, a plain object: phase as "take"/"wall"/...,
// keys the message does not model (extra_json) merged in.
function readState(s, protocol) {
  const state = {
    ruleset: s.ruleset, players: s.players, round: s.round, turn: s.turn,
    phase: enumName(protocol.Phase, s.phase, 'PHASE_'), round_starter: s.round_starter,
    factories: s.factories, centre: s.centre, marker_in_centre: s.marker_in_centre, bag: s.bag,
    lid: s.lid, wall_line: s.wall_line,
    boards: s.boards.map((b) => ({ score: b.score, lines: b.lines, wall: b.wall, floor: b.floor,
      has_marker: b.has_marker })),
  };
  if (s.pavilion) {
    state.pavilion = protocol.Response.lookupType('azul_arena.v1.PavilionState').toObject(
      s.pavilion, { defaults: true });
  }
  if (s.extra_json) Object.assign(state, JSON.parse(s.extra_json));
  return state;
}

function parseArgs(argv) {
  const args = { referee: process.env.AZUL_ARENA_REFEREE, token: process.env.AZUL_ARENA_TOKEN || '' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--referee') args.referee = argv[++i];
    else if (argv[i] === '--token') args.token = argv[++i];
  }
  return args;
}

function log(...parts) {
  // stderr: the referee's launcher writes it to this bot's log file.
  console.error(new Date().toISOString(), ...parts);
}

// The MoveReply for what chooseMove returned: an index into legalMoves, or a move in notation.
// A bot's mistake costs it one strike at the referee, never the process, and is explained here.
function answer(bot, state, legalMoves, clock) {
  let move;
  try {
    move = bot.chooseMove(state, legalMoves, clock);
  } catch (err) {
    log('ERROR chooseMove threw (the referee counts a fault):', err && err.stack ? err.stack : err,
      '\nin this position:', JSON.stringify(state));
    // MoveReply.crash: the referee counts a crash (one strike) and shows this line.
    return { crash: String(err && err.message !== undefined ? err.message : err).slice(0, 200) };
  }
  if (typeof move === 'number' && Number.isInteger(move)) {
    if (move < 0 || move >= legalMoves.length) {
      log(`WARNING chooseMove returned index ${move}, but there are ${legalMoves.length} legal moves`);
      return { move_index: legalMoves.length }; // out of range: an illegal move
    }
    return { move_index: move };
  }
  if (typeof move === 'string') {
    const index = legalMoves.indexOf(move.trim().toUpperCase());
    if (index >= 0) return { move_index: index };
    log(`WARNING chooseMove returned ${JSON.stringify(move)}, which is not a legal move here`);
    return { move: move.slice(0, 40) };
  }
  log(`WARNING chooseMove returned ${JSON.stringify(move)}; return an index into legalMoves or one of them`);
  return { move: 'none' };
}

// Play with `bot` until the referee ends the stream. `bot` has chooseMove(state, legalMoves,
// clock) and may have name, version, rulesets, onGameStart(info) and onGameOver(result).
function runBot(bot, argv = process.argv.slice(2)) {
  if (typeof bot.chooseMove !== 'function') throw new TypeError('runBot: bot.chooseMove is not a function');
  const args = parseArgs(argv);
  if (!args.referee) {
    console.error('no referee address: pass --referee ADDR or set AZUL_ARENA_REFEREE');
    process.exit(2);
  }
  const name = bot.name || 'node-bot';
  const protocol = loadProtocol();
  let seat = null;

  // One long stream, never retried; no channelz bookkeeping on every message.
  const client = new grpc.Client(args.referee, grpc.credentials.createInsecure(),
    { 'grpc.enable_retries': 0, 'grpc.enable_channelz': 0 });
  let ended = false;
  const finish = (code, why) => {
    if (ended) return;
    ended = true;
    if (why) log(why);
    client.close();
    process.exit(code);
  };
  let call = null;
  const send = (message) => call.write(message);

  const onMessage = (bytes) => {
    const received = performance.now();
    const msg = protocol.Response.decode(bytes);
    switch (msg.message) {
      case 'move_request': {
        const req = msg.move_request;
        const clock = new Clock(req.clock.move_time_ms, req.clock.bank_ms, received);
        const reply = answer(bot, readState(req.state, protocol), req.legal_moves, clock);
        reply.request_id = req.request_id;
        send({ move_reply: reply });
        const late = performance.now() - clock.deadline;
        if (late > 0) {
          log(`WARNING answered ${late.toFixed(0)} ms after the deadline (move limit ` +
            `${clock.moveTimeMs} ms): the referee counts a timeout; use clock.budgetMs()`);
        }
        break;
      }
      case 'ping':
        send({ pong: { nonce: msg.ping.nonce } });
        break;
      case 'game_start': {
        const gs = msg.game_start;
        seat = gs.seat;
        // seed: this seat's seed for this game as a decimal string (a uint64 does not fit a JS
        // number); seed your generator with it and the game replays move for move. "0": none.
        if (bot.onGameStart) bot.onGameStart({ gameId: gs.game_id, ruleset: gs.ruleset,
          players: gs.players, seat: gs.seat, names: gs.names,
          seed: String(gs.bot_seed ?? 0) });
        break;
      }
      case 'game_over': {
        const go = msg.game_over;
        const termination = seat !== null && go.terminations.length > seat
          ? enumName(protocol.Termination, go.terminations[seat], 'TERMINATION_') : '';
        if (termination && termination !== 'ok') {
          log(`WARNING game ${go.game_id}: the referee ended this bot's game: ${termination}`);
        }
        if (bot.onGameOver) bot.onGameOver({ gameId: go.game_id, scores: go.scores, ranks: go.ranks,
          reason: enumName(protocol.GameEndReason, go.reason, 'GAME_END_REASON_') });
        break;
      }
      case 'welcome':
        log(`connected to ${msg.welcome.referee} as ${name}`);
        if (!msg.welcome.quiet_while_thinking) {
          log('WARNING this referee may ping while the bot thinks: a long chooseMove can miss a ping');
        }
        break;
      case 'rejection':
        finish(3, `the referee refused this bot: ${msg.rejection.message || msg.rejection.reason}`);
        break;
      default:
        break;
    }
  };

  client.waitForReady(Date.now() + CONNECT_TIMEOUT_MS, (error) => {
    if (error) return finish(4, `no referee answers at ${args.referee}: ${error.message}`);
    call = client.makeBidiStreamRequest('/azul_arena.v1.BotService/Connect',
      (request) => protocol.Request.encode(request).finish(), (bytes) => bytes);
    send({ hello: { protocol_version: PROTOCOL_VERSION, bot_name: name,
      bot_version: String(bot.version || '0.1'), rulesets: bot.rulesets || [], token: args.token } });
    call.on('data', onMessage);
    call.on('end', () => finish(0));
    call.on('error', (err) => finish(err.code === grpc.status.CANCELLED ? 0 : 1,
      `the stream to the referee broke: ${err.message}`));
  });
}

// -- helpers for reading moves and boards (classic family; docs/engine.md) ----------------------

const COLOURS = 'BYRKW'; // blue, yellow, red, black, white: the colour order everywhere
const FLOOR_PENALTIES = [-1, -1, -2, -2, -2, -3, -3];

// "4K2" -> {source: 4, colour: 'K', line: 2}; "CRF" -> {source: 'C', colour: 'R', line: 'F'};
// "3@2" (azul-gray, wall-tiling) -> {wall: true, line: 3, column: 2}. Numbers are 1-based.
function parseMove(notation) {
  const at = notation.indexOf('@');
  if (at >= 0) return { wall: true, line: Number(notation.slice(0, at)), column: Number(notation.slice(at + 1)) };
  const source = notation[0] === 'C' ? 'C' : Number(notation[0]);
  const line = notation[2] === 'F' ? 'F' : Number(notation[2]);
  return { wall: false, source, colour: notation[1], line };
}

// The wall column (0-based) of `colour` in `row` (0-based) on the coloured wall.
function wallColumn(row, colour) {
  return (COLOURS.indexOf(colour) + row) % 5;
}

// The points a tile placed at (row, column), 0-based, scores on `wall` (five strings, '.' empty).
function placementPoints(wall, row, column) {
  const filled = (r, c) => r >= 0 && r < 5 && c >= 0 && c < 5 && wall[r][c] !== '.';
  let h = 1;
  for (let c = column - 1; filled(row, c); c--) h++;
  for (let c = column + 1; filled(row, c); c++) h++;
  let v = 1;
  for (let r = row - 1; filled(r, column); r--) v++;
  for (let r = row + 1; filled(r, column); r++) v++;
  if (h === 1 && v === 1) return 1;
  return (h > 1 ? h : 0) + (v > 1 ? v : 0);
}

// The total floor penalty (a negative number) of `count` tiles on a floor line.
function floorPenalty(count) {
  let total = 0;
  for (let i = 0; i < Math.min(count, FLOOR_PENALTIES.length); i++) total += FLOOR_PENALTIES[i];
  return total;
}

module.exports = { runBot, Clock, readState, answer, parseMove, wallColumn, placementPoints,
  floorPenalty, COLOURS, CLASSIC_RULESETS, TERMINATIONS };
