// A one-ply greedy bot: the move with the best immediate outcome for itself. For a take, the
// wall points a completed pattern line will score at the end of the round, some credit for a
// line in progress, minus the floor penalty; for a wall choice (azul-gray), the best points.
// It never looks at what the opponents do next. It beats a random bot almost always.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "azul_arena.hpp"

namespace {

// What completing pattern line `row` (0-based) with `colour` scores when the round ends.
double completion_points(const azul::State& state, const std::vector<std::string>& wall, int row,
                         char colour) {
  if (state.ruleset != "azul-gray") {
    return azul::placement_points(wall, row, azul::wall_column(row, colour));
  }
  // Gray wall: the best free column that does not hold this colour yet (else it is all floor).
  double best = -(row + 1);
  for (int column = 0; column < 5; ++column) {
    bool clash = false;
    for (const auto& line : wall) clash = clash || line[column] == colour;
    if (wall[row][column] == '.' && !clash) {
      best = std::max(best, static_cast<double>(azul::placement_points(wall, row, column)));
    }
  }
  return best;
}

// The value of `notation` for the seat to move.
double value(const azul::State& state, const std::string& notation) {
  const azul::Board& board = state.boards[state.turn];
  const azul::Move move = azul::parse_move(notation);
  if (move.wall) return azul::placement_points(board.wall, move.line - 1, move.column - 1);

  const std::string& tiles = move.centre ? state.centre : state.factories[move.factory - 1];
  const int taken = static_cast<int>(std::count(tiles.begin(), tiles.end(), move.colour));
  const int on_floor = static_cast<int>(board.floor.size()) + (board.has_marker ? 1 : 0);
  int to_floor = move.centre && state.marker_in_centre ? 1 : 0;  // the start marker
  double points = 0;
  if (move.line == 0) {
    to_floor += taken;
  } else {
    const int row = move.line - 1;
    const int have = static_cast<int>(board.lines[row].size());
    const int placed = std::min(taken, move.line - have);
    to_floor += taken - placed;
    if (have + placed == move.line) {
      points += completion_points(state, board.wall, row, move.colour);
    } else {
      points += 0.5 * placed;  // a line in progress: worth something next round
    }
  }
  return points + azul::floor_penalty(on_floor + to_floor) - azul::floor_penalty(on_floor);
}

class GreedyBot : public azul::Bot {
 public:
  std::string name() const override { return "greedy-cpp"; }
  std::string version() const override { return "1.0"; }
  std::vector<std::string> rulesets() const override {
    return {"azul", "azul-mini", "azul-gray", "azul-greenbox"};
  }

  azul::Answer choose_move(const azul::State& state, const std::vector<std::string>& legal_moves,
                           const azul::Clock& clock) override {
    int best = 0;
    double best_value = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < static_cast<int>(legal_moves.size()); ++i) {
      const double v = value(state, legal_moves[i]);
      if (v > best_value) {
        best = i;
        best_value = v;
      }
    }
    return best;  // an index into legal_moves (returning the notation works too)
  }
};

}  // namespace

int main(int argc, char** argv) {
  GreedyBot bot;
  return azul::run_bot(bot, argc, argv);
}
