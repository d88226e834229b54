// Azul Arena starter kit for C++17: the referee's stream, the handshake, pings and the clock, so
// that a bot is one method, choose_move(state, legal_moves, clock).
//
//   #include "azul_arena.hpp"
//   struct MyBot : azul::Bot {
//     std::string name() const override { return "my-bot"; }
//     azul::Answer choose_move(const azul::State& state, const std::vector<std::string>& legal_moves,
//                              const azul::Clock& clock) override { return 0; }
//   };
//   int main(int argc, char** argv) { MyBot bot; return azul::run_bot(bot, argc, argv); }
//
// The protocol is proto/azul_arena/v1/bot.proto (compiled by CMakeLists.txt); this header hides
// it: the state is plain structs. The referee's address and this bot's token come from
// --referee/--token or, as the referee's launcher sets them, AZUL_ARENA_REFEREE and
// AZUL_ARENA_TOKEN.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace azul {

// One seat's board, as every player sees it.
struct Board {
  int score = 0;
  std::vector<std::string> lines;  // pattern lines 1-5: the tiles on each, e.g. "RR"
  std::vector<std::string> wall;   // wall rows 1-5: a colour letter where a tile is, '.' if empty
  std::string floor;               // tiles on the floor line
  bool has_marker = false;         // the start-player marker is on this floor line
};

// The full public state (docs/engine.md): everything every player may see, nothing hidden.
struct State {
  std::string ruleset;  // "azul", "azul-mini", "azul-gray", "azul-greenbox"
  int players = 0;
  int round = 0;  // 1-based
  int turn = 0;   // the seat to move: this bot's (0-based)
  std::string phase;  // "take" (take tiles) or "wall" (azul-gray: choose a wall column)
  int round_starter = 0;
  std::vector<std::string> factories;  // tiles on each factory; "" for an empty one
  std::string centre;
  bool marker_in_centre = false;
  std::string bag, lid;  // contents, as letters in colour order (counts are public)
  std::vector<Board> boards;  // one per seat
  int wall_line = 0;  // azul-gray, phase "wall": the pattern line (1-5) being placed; 0 if none
  std::string extra_json;  // state keys the message does not model, as JSON ("" if none)
};

// The time for one decision, as the referee granted it.
struct Clock {
  std::chrono::steady_clock::time_point started;  // when the request arrived
  std::chrono::milliseconds move_time{0};         // the limit for this move
  std::chrono::milliseconds bank{0};              // the time bank left beyond it
  // Milliseconds left for this move, bank included (never negative).
  double remaining_ms() const;
  // A safe thinking budget: `fraction` of this move's limit, not touching the bank.
  double budget_ms(double fraction = 0.8) const;
};

// What choose_move returns: an index into legal_moves, or a move in notation.
struct Answer {
  Answer(int index) : index(index) {}
  Answer(std::string move) : index(-1), move(std::move(move)) {}
  Answer(const char* move) : index(-1), move(move) {}
  int index;
  std::string move;
};

struct GameInfo {
  std::string game_id, ruleset;
  int players = 0, seat = 0;
  std::vector<std::string> names;
  // This seat's seed for this game (0: the referee sent none): seed your generator with it
  // (std::mt19937_64 rng(info.seed)) and the game replays move for move.
  std::uint64_t seed = 0;
};

struct GameResult {
  std::string game_id, reason;  // reason: "completed", "forfeit" or "aborted"
  std::vector<int> scores, ranks;
};

// Subclass it: name() and choose_move() are all a bot needs.
class Bot {
 public:
  virtual ~Bot() = default;
  virtual std::string name() const = 0;
  virtual std::string version() const { return "0.1"; }
  // The rulesets this bot plays; empty means every ruleset of the classic family. The referee
  // seats it in no others.
  virtual std::vector<std::string> rulesets() const { return {}; }
  // Called for every decision. An exception costs one strike (its message goes to the log);
  // answering after clock.remaining_ms() is a timeout: a random move is played for you.
  virtual Answer choose_move(const State& state, const std::vector<std::string>& legal_moves,
                             const Clock& clock) = 0;
  virtual void on_game_start(const GameInfo&) {}
  virtual void on_game_over(const GameResult&) {}
};

// Connect to the referee and play until it ends the stream. Returns the process exit code.
int run_bot(Bot& bot, int argc, char** argv);

// Writes a line to stderr (the bot's log file), with the time.
void log(const std::string& message);

// -- helpers for reading moves and boards (classic family) -------------------------------------

inline constexpr const char* COLOURS = "BYRKW";  // blue, yellow, red, black, white

// "4K2" -> {factory 4, 'K', line 2}; "CRF" -> {centre, 'R', floor}; "3@2" (azul-gray,
// wall-tiling) -> {wall, line 3, column 2}. Numbers are 1-based.
struct Move {
  bool wall = false;    // a wall column choice (azul-gray)
  bool centre = false;  // taken from the centre
  int factory = 0;      // 1-9 when not from the centre
  char colour = 0;      // B Y R K W
  int line = 0;         // pattern line 1-5; 0 = the floor line
  int column = 0;       // wall moves: the column 1-5
};
Move parse_move(const std::string& notation);

// The coloured wall's column (0-based) of `colour` in `row` (0-based).
int wall_column(int row, char colour);
// What a tile placed at (row, column), 0-based, scores on `wall`.
int placement_points(const std::vector<std::string>& wall, int row, int column);
// The total floor penalty (negative) of `tiles` tiles on a floor line.
int floor_penalty(int tiles);

}  // namespace azul
