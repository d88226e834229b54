// A kit bot that misbehaves once, on its second decision: `faulty slow` thinks 450 ms (the
// test's move limit is far less), `faulty throw` throws. Otherwise it plays the first legal move.
// At each game start it writes its seed to its log (the tests read it).
#include <chrono>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "azul_arena.hpp"

class FaultyBot : public azul::Bot {
 public:
  explicit FaultyBot(std::string mode) : mode_(std::move(mode)) {}
  std::string name() const override { return "faulty-" + mode_; }

  azul::Answer choose_move(const azul::State&, const std::vector<std::string>&,
                           const azul::Clock&) override {
    if (++decisions_ == 2 && mode_ == "slow") {
      std::this_thread::sleep_for(std::chrono::milliseconds(450));
    }
    if (decisions_ == 2 && mode_ == "throw") {
      throw std::runtime_error("deliberate failure in chooseMove");
    }
    return 0;
  }

  void on_game_start(const azul::GameInfo& info) override {
    std::cerr << "game " << info.game_id << " seat " << info.seat << " seed " << info.seed
              << std::endl;
  }

 private:
  std::string mode_;
  int decisions_ = 0;
};

int main(int argc, char** argv) {
  FaultyBot bot(argc > 1 ? argv[1] : "");
  return azul::run_bot(bot, argc, argv);
}
