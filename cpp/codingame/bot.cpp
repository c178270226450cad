// noughts' Ultimate player as one CodinGame bot: the referee's protocol on
// stdin/stdout around the engine's MCTS (the same search and rollout policy
// as `noughts engine --codingame`). `noughts export codingame` prints this
// file with the engine's headers inlined, so that it compiles alone:
//   g++ -std=c++20 -O2 -o bot bot.cpp
// Time is kept by noughts::TurnClock, as in `noughts engine --codingame`:
// from the arrival of each turn's first line (the first turn from the start
// of the program if its line was already waiting), stopping
// NOUGHTS_BOT_MARGIN_MS before the turn's limit, or longer after an answer
// that went out later than planned.
#include <chrono>
#include <cstdio>
#include <span>
#include <vector>

#include "noughts/search/mcts.hpp"
#include "noughts/search/turn_clock.hpp"
#include "noughts/ultimate.hpp"

#ifndef NOUGHTS_BOT_MS
#define NOUGHTS_BOT_MS 100.0  // CodinGame's limit on a turn
#endif
#ifndef NOUGHTS_BOT_FIRST_MS
#define NOUGHTS_BOT_FIRST_MS 1000.0  // and on the first turn
#endif
#ifndef NOUGHTS_BOT_MARGIN_MS
#define NOUGHTS_BOT_MARGIN_MS noughts::TurnClock::kDefaultMarginMs
#endif
#ifndef NOUGHTS_BOT_TIEBREAK
#define NOUGHTS_BOT_TIEBREAK 1  // score a full big board by small boards won, as CodinGame's referee does
#endif
#ifndef NOUGHTS_BOT_SEED
#define NOUGHTS_BOT_SEED 0
#endif

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point kStarted = Clock::now();

bool on_grid(int row, int col) { return 0 <= row && row < 9 && 0 <= col && col < 9; }

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

int main() {
  using namespace noughts;
  const Ultimate start(NOUGHTS_BOT_TIEBREAK != 0);
  Ultimate game = start;
  std::vector<Move> played;  // from the start: the search keeps its tree along this line
  MctsConfig config;
  config.seed = NOUGHTS_BOT_SEED;
  Mcts<Ultimate> mcts(config);
  TurnClock clock(NOUGHTS_BOT_MS, NOUGHTS_BOT_FIRST_MS, NOUGHTS_BOT_MARGIN_MS);
  int row, col;
  for (;;) {
    const Clock::time_point ready = Clock::now();
    if (std::scanf("%d %d", &row, &col) != 2) break;
    const Clock::time_point arrived = Clock::now();
    const double before = clock.began_before_read_ms(ms_between(ready, arrived), ms_between(kStarted, arrived));
    const Clock::time_point began =
        arrived - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(before));
    if (row != -1 || col != -1) {
      if (!on_grid(row, col) || !game.is_legal(noughts::Ultimate::grid_to_id(row, col))) {
        std::fprintf(stderr, "noughts: the opponent's move %d %d is not legal here\n", row, col);
        return 2;
      }
      game.play(noughts::Ultimate::grid_to_id(row, col));
      played.push_back(noughts::Ultimate::grid_to_id(row, col));
    }
    int count = 0;
    if (std::scanf("%d", &count) != 1) return 2;
    std::vector<int> valid;
    for (int i = 0; i < count; ++i) {
      int r, c;
      if (std::scanf("%d %d", &r, &c) != 2 || !on_grid(r, c)) return 2;
      valid.push_back(noughts::Ultimate::grid_to_id(r, c));
    }
    auto ms_since_began = [&] { return ms_between(began, Clock::now()); };
    const double margin = clock.margin_ms();
    MctsBudget budget;
    budget.seconds = clock.search_ms(ms_since_began()) / 1000.0;
    const MctsResult r = mcts.search(start, std::span<const Move>(played), budget);
    int move = r.best_move;
    if (!valid.empty() && std::find(valid.begin(), valid.end(), move) == valid.end()) {
      move = valid.front();  // trust the referee's list if the rules ever differ
      for (const auto& s : r.moves)
        if (std::find(valid.begin(), valid.end(), s.move) != valid.end()) {
          move = s.move;
          break;
        }
    }
    const auto square = Ultimate::id_to_grid(move);
    std::printf("%d %d\n", square.row, square.col);
    std::fflush(stdout);
    clock.answered(ms_since_began());
    // The answer first: the referee's clock does not wait for the diagnostics.
    std::fprintf(stderr, "noughts: margin=%.1f iterations=%llu value=%+.3f\n", margin,
                 static_cast<unsigned long long>(r.iterations), r.value);
    game.play(move);
    played.push_back(move);
  }
  return 0;
}
