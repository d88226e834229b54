// Azul Arena starter kit for Node.js: the referee's stream, the handshake, pings and the clock,
// so that a bot is one function, chooseMove(state, legalMoves, clock).
//
//   const { runBot } = require('./azul-arena');
//   runBot({ name: 'my-bot', chooseMove: (state, legalMoves, clock) => 0 });
//
// The protocol is proto/azul_arena/v1/bot.proto, loaded at start-up by protobufjs (the library
// under @grpc/proto-loader), which also decodes each message: proto-loader's extra pass that
// turns every message into a plain object cost about a fifth of a move's round trip. The stream
// is gRPC's wire format spoken on Node's own http2 module (see openStream). The referee's
// address and this bot's token come from --referee/--token or, as the referee's launcher sets
// them, AZUL_ARENA_REFEREE and AZUL_ARENA_TOKEN.
'use strict';

const fs = require('fs');
const http2 = require('http2');
const net = require('net');
const path = require('path');
const { performance } = require('perf_hooks');
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
    return { move: 'error' }; // not notation: a malformed answer, one strike
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

const CONNECT_PATH = '/azul_arena.v1.BotService/Connect';
const GRPC_STATUS = ['OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED',
  'NOT_FOUND', 'ALREADY_EXISTS', 'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION',
  'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS',
  'UNAUTHENTICATED'];

// The bot's one gRPC stream to the referee (BotService.Connect), in gRPC's wire format over
// Node's own http2: each message is a 5-byte prefix (flag, big-endian length) and its bytes, on
// one HTTP/2 stream whose trailers carry grpc-status. @grpc/grpc-js does the same through a
// dozen layers (resolver, retries, load balancing, filters, a promise per message, two Node
// streams), which made the kit's round trip 1.2-1.5x the Python SDK's; this one is about 1.0x
// (docs/protocol.md). `address` is HOST:PORT or unix:PATH. Calls onMessage(bytes) for each
// message and onEnd(code, why) once: code 0 when the referee closed the stream normally.
function openStream(address, onMessage, onEnd) {
  const unix = address.startsWith('unix:') ? address.slice('unix:'.length) : null;
  const session = http2.connect(unix ? 'http://localhost' : `http://${address}`,
    unix ? { createConnection: () => net.connect(unix) } : {});
  let done = false;
  const end = (code, why) => {
    if (done) return;
    done = true;
    session.destroy();
    onEnd(code, why);
  };
  session.on('error', () => {}); // the stream's 'close' reports it
  const stream = session.request({ ':method': 'POST', ':path': CONNECT_PATH,
    'content-type': 'application/grpc', te: 'trailers' });
  let status = null; // grpc-status and grpc-message, from the trailers (or a headers-only answer)
  const noteStatus = (headers) => {
    if (headers['grpc-status'] !== undefined) {
      status = { code: Number(headers['grpc-status']), message: headers['grpc-message'] || '' };
    }
  };
  stream.on('response', noteStatus);
  stream.on('trailers', noteStatus);
  let pending = null; // the start of a message split across reads
  stream.on('data', (chunk) => {
    let bytes = pending === null ? chunk : Buffer.concat([pending, chunk]);
    while (bytes.length >= 5) {
      const length = bytes.readUInt32BE(1);
      if (bytes.length < 5 + length) break;
      if (bytes[0] !== 0) return end(1, 'the referee sent a compressed message, which this kit does not read');
      onMessage(bytes.subarray(5, 5 + length));
      if (done) return;
      bytes = bytes.subarray(5 + length);
    }
    pending = bytes.length > 0 ? bytes : null;
  });
  let connected = false;
  session.on('connect', () => { connected = true; });
  let failure = null; // the stream's error, if any: its 'close' follows and says what happened
  stream.on('error', (err) => { failure = err; });
  stream.on('close', () => {
    if (status !== null && status.code !== 0) {
      const name = GRPC_STATUS[status.code] || status.code;
      end(1, `the referee ended the stream: ${name} ${decodeURIComponent(status.message)}`);
    } else if (status !== null || stream.rstCode === http2.constants.NGHTTP2_CANCEL) {
      end(0);
    } else if (!connected) {
      end(4, `no referee answers at ${address}: ${failure ? failure.message : 'connection closed'}`);
    } else {
      end(1, 'the stream to the referee broke: ' +
        (failure ? failure.message : `HTTP/2 code ${stream.rstCode}`));
    }
  });
  return (bytes) => {
    const frame = Buffer.allocUnsafe(5 + bytes.length);
    frame[0] = 0;
    frame.writeUInt32BE(bytes.length, 1);
    frame.set(bytes, 5);
    stream.write(frame);
  };
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

  const finish = (code, why) => {
    if (why) log(why);
    process.exit(code);
  };

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
        if (bot.onGameStart) bot.onGameStart({ gameId: gs.game_id, ruleset: gs.ruleset,
          players: gs.players, seat: gs.seat, names: gs.names });
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

  const write = openStream(args.referee, onMessage, finish);
  const send = (message) => write(protocol.Request.encode(message).finish());
  send({ hello: { protocol_version: PROTOCOL_VERSION, bot_name: name,
    bot_version: String(bot.version || '0.1'), rulesets: bot.rulesets || [], token: args.token } });
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

module.exports = { runBot, openStream, Clock, readState, answer, parseMove, wallColumn, placementPoints,
  floorPenalty, COLOURS, CLASSIC_RULESETS, TERMINATIONS };
