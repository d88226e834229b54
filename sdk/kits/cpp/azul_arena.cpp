// The starter kit's implementation: one synchronous gRPC stream, read only between moves (the
// referee promises no ping while the bot owes a move: Welcome.quiet_while_thinking).
#include "azul_arena.hpp"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <iostream>
#include <memory>
#include <sstream>

#include "azul_arena/v1/bot.grpc.pb.h"

namespace azul {
namespace pb = ::azul_arena::v1;
using std::chrono::steady_clock;

namespace {

constexpr uint32_t kProtocolVersion = 1;

double ms_between(steady_clock::time_point from, steady_clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

std::string phase_name(pb::Phase phase) {
  switch (phase) {
    case pb::PHASE_TAKE: return "take";
    case pb::PHASE_WALL: return "wall";
    case pb::PHASE_OVER: return "over";
    case pb::PHASE_PLAY: return "play";
    case pb::PHASE_BONUS: return "bonus";
    default: return "unspecified";
  }
}

State read_state(const pb::GameState& s) {
  State state;
  state.ruleset = s.ruleset();
  state.players = static_cast<int>(s.players());
  state.round = static_cast<int>(s.round());
  state.turn = static_cast<int>(s.turn());
  state.phase = phase_name(s.phase());
  state.round_starter = static_cast<int>(s.round_starter());
  state.factories.assign(s.factories().begin(), s.factories().end());
  state.centre = s.centre();
  state.marker_in_centre = s.marker_in_centre();
  state.bag = s.bag();
  state.lid = s.lid();
  for (const auto& b : s.boards()) {
    Board board;
    board.score = b.score();
    board.lines.assign(b.lines().begin(), b.lines().end());
    board.wall.assign(b.wall().begin(), b.wall().end());
    board.floor = b.floor();
    board.has_marker = b.has_marker();
    state.boards.push_back(std::move(board));
  }
  state.wall_line = static_cast<int>(s.wall_line());
  state.extra_json = s.extra_json();
  return state;
}

std::string describe(const State& s) {
  std::ostringstream out;
  out << s.ruleset << ", round " << s.round << ", seat " << s.turn << " to move, phase "
      << s.phase << "; factories";
  for (const auto& f : s.factories) out << ' ' << (f.empty() ? "-" : f);
  out << "; centre " << (s.centre.empty() ? "-" : s.centre);
  return out.str();
}

// The MoveReply for the bot's answer. A bot's mistake costs it one strike at the referee, never
// the process, and is explained in its log.
void answer(Bot& bot, const State& state, const std::vector<std::string>& legal,
            const Clock& clock, pb::MoveReply* reply) {
  try {
    Answer chosen = bot.choose_move(state, legal, clock);
    if (chosen.index >= 0 || chosen.move.empty()) {
      if (chosen.index < 0 || chosen.index >= static_cast<int>(legal.size())) {
        log("WARNING choose_move returned index " + std::to_string(chosen.index) + ", but there are " +
            std::to_string(legal.size()) + " legal moves");
        reply->set_move_index(static_cast<uint32_t>(legal.size()));  // out of range: illegal
        return;
      }
      reply->set_move_index(static_cast<uint32_t>(chosen.index));
      return;
    }
    std::string move = chosen.move;
    std::transform(move.begin(), move.end(), move.begin(), ::toupper);
    auto found = std::find(legal.begin(), legal.end(), move);
    if (found != legal.end()) {
      reply->set_move_index(static_cast<uint32_t>(found - legal.begin()));
      return;
    }
    log("WARNING choose_move returned \"" + chosen.move + "\", which is not a legal move here");
    reply->set_move(chosen.move.substr(0, 40));
  } catch (const std::exception& e) {
    log(std::string("ERROR choose_move threw (the referee counts a fault): ") + e.what() +
        "\nin this position: " + describe(state));
    // MoveReply.crash: the referee counts a crash (one strike) and shows this line.
    reply->set_crash(std::string(e.what()).substr(0, 200));
  } catch (...) {
    log("ERROR choose_move threw a non-standard exception (the referee counts a fault)\n"
        "in this position: " + describe(state));
    reply->set_crash("a non-standard exception");
  }
}

std::string arg_or_env(int argc, char** argv, const char* flag, const char* env) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], flag) == 0) return argv[i + 1];
  }
  const char* value = std::getenv(env);
  return value ? value : "";
}

// The referee's environment may name grpc experiments of its own grpc (Python, 1.8x:
// referee/protocol/transport.py); an older C++ grpc logs an error line for each name it does not
// know, so they are dropped before grpc starts.
void drop_foreign_grpc_experiments() {
  int major = 0, minor = 0;
  if (std::sscanf(grpc::Version().c_str(), "%d.%d", &major, &minor) == 2 &&
      (major == 1 && minor < 80)) {
    unsetenv("GRPC_EXPERIMENTS");
  }
}

std::string lower_suffix(const std::string& name, const std::string& prefix) {
  std::string out = name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name;
  std::transform(out.begin(), out.end(), out.begin(), ::tolower);
  return out;
}

}  // namespace

double Clock::remaining_ms() const {
  return std::max(0.0, ms_between(steady_clock::now(), started + move_time + bank));
}

double Clock::budget_ms(double fraction) const {
  return std::max(0.0, ms_between(steady_clock::now(), started + move_time) * fraction);
}

void log(const std::string& message) {
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::cerr << stamp << ' ' << message << std::endl;
}

int run_bot(Bot& bot, int argc, char** argv) {
  const std::string address = arg_or_env(argc, argv, "--referee", "AZUL_ARENA_REFEREE");
  const std::string token = arg_or_env(argc, argv, "--token", "AZUL_ARENA_TOKEN");
  if (address.empty()) {
    std::cerr << "no referee address: pass --referee ADDR or set AZUL_ARENA_REFEREE" << std::endl;
    return 2;
  }
  drop_foreign_grpc_experiments();
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  auto channel = grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
  if (!channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(30))) {
    log("no referee answers at " + address);
    return 4;
  }
  auto stub = pb::BotService::NewStub(channel);
  grpc::ClientContext context;
  auto stream = stub->Connect(&context);

  pb::ConnectRequest hello;
  auto* h = hello.mutable_hello();
  h->set_protocol_version(kProtocolVersion);
  h->set_bot_name(bot.name());
  h->set_bot_version(bot.version());
  for (const auto& r : bot.rulesets()) h->add_rulesets(r);
  h->set_token(token);
  if (!stream->Write(hello)) {
    log("the referee at " + address + " closed the stream before the Hello");
    return 1;
  }

  int seat = -1;
  int code = 0;
  pb::ConnectResponse msg;
  pb::ConnectRequest out;
  std::vector<std::string> legal;
  while (stream->Read(&msg)) {
    const auto received = steady_clock::now();
    switch (msg.message_case()) {
      case pb::ConnectResponse::kMoveRequest: {
        const auto& req = msg.move_request();
        Clock clock{received, std::chrono::milliseconds(req.clock().move_time_ms()),
                    std::chrono::milliseconds(req.clock().bank_ms())};
        legal.assign(req.legal_moves().begin(), req.legal_moves().end());
        out.Clear();
        auto* reply = out.mutable_move_reply();
        reply->set_request_id(req.request_id());
        answer(bot, read_state(req.state()), legal, clock, reply);
        stream->Write(out);
        const double late = ms_between(clock.started + clock.move_time + clock.bank,
                                       steady_clock::now());
        if (late > 0) {
          log("WARNING answered " + std::to_string(static_cast<int>(late)) +
              " ms after the deadline (move limit " + std::to_string(clock.move_time.count()) +
              " ms): the referee counts a timeout; use clock.budget_ms()");
        }
        break;
      }
      case pb::ConnectResponse::kPing:
        out.Clear();
        out.mutable_pong()->set_nonce(msg.ping().nonce());
        stream->Write(out);
        break;
      case pb::ConnectResponse::kGameStart: {
        const auto& gs = msg.game_start();
        seat = static_cast<int>(gs.seat());
        GameInfo info{gs.game_id(), gs.ruleset(), static_cast<int>(gs.players()), seat,
                      {gs.names().begin(), gs.names().end()}, gs.bot_seed()};
        bot.on_game_start(info);
        break;
      }
      case pb::ConnectResponse::kGameOver: {
        const auto& go = msg.game_over();
        if (seat >= 0 && seat < go.terminations_size() &&
            go.terminations(seat) != pb::TERMINATION_OK) {
          log("WARNING game " + go.game_id() + ": the referee ended this bot's game: " +
              lower_suffix(pb::Termination_Name(go.terminations(seat)), "TERMINATION_"));
        }
        GameResult result{go.game_id(),
                          lower_suffix(pb::GameEndReason_Name(go.reason()), "GAME_END_REASON_"),
                          {go.scores().begin(), go.scores().end()},
                          {go.ranks().begin(), go.ranks().end()}};
        bot.on_game_over(result);
        break;
      }
      case pb::ConnectResponse::kWelcome:
        log("connected to " + msg.welcome().referee() + " as " + bot.name());
        if (!msg.welcome().quiet_while_thinking()) {
          log("WARNING this referee may ping while the bot thinks: a long choose_move can miss "
              "a ping");
        }
        break;
      case pb::ConnectResponse::kRejection:
        log("the referee refused this bot: " + msg.rejection().message());
        code = 3;
        context.TryCancel();
        break;
      default:
        break;
    }
  }
  grpc::Status status = stream->Finish();
  if (code == 0 && !status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
    log("the stream to the referee broke: " + status.error_message());
    code = 1;
  }
  return code;
}

// -- helpers ------------------------------------------------------------------------------------

Move parse_move(const std::string& notation) {
  Move move;
  auto at = notation.find('@');
  if (at != std::string::npos) {
    move.wall = true;
    move.line = std::atoi(notation.substr(0, at).c_str());
    move.column = std::atoi(notation.substr(at + 1).c_str());
    return move;
  }
  if (notation.size() < 3) return move;
  move.centre = notation[0] == 'C';
  move.factory = move.centre ? 0 : notation[0] - '0';
  move.colour = notation[1];
  move.line = notation[2] == 'F' ? 0 : notation[2] - '0';
  return move;
}

int wall_column(int row, char colour) {
  const char* at = std::strchr(COLOURS, colour);
  return at ? static_cast<int>((at - COLOURS) + row) % 5 : -1;
}

int placement_points(const std::vector<std::string>& wall, int row, int column) {
  auto filled = [&](int r, int c) {
    return r >= 0 && r < 5 && c >= 0 && c < 5 && wall[r][c] != '.';
  };
  int h = 1, v = 1;
  for (int c = column - 1; filled(row, c); --c) ++h;
  for (int c = column + 1; filled(row, c); ++c) ++h;
  for (int r = row - 1; filled(r, column); --r) ++v;
  for (int r = row + 1; filled(r, column); ++r) ++v;
  if (h == 1 && v == 1) return 1;
  return (h > 1 ? h : 0) + (v > 1 ? v : 0);
}

int floor_penalty(int tiles) {
  static const int penalties[] = {-1, -1, -2, -2, -2, -3, -3};
  int total = 0;
  for (int i = 0; i < std::min(tiles, 7); ++i) total += penalties[i];
  return total;
}

}  // namespace azul
