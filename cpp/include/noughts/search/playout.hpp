// Uniformly random games to the end: the speed test of an engine and the
// rollout of MCTS.
#pragma once
#include <array>
#include <cstdint>

#include "noughts/game.hpp"
#include "noughts/rng.hpp"

namespace noughts {

// Plays uniformly random legal moves until the game ends; returns the outcome.
// A game may offer a faster `play_random(Rng&)` of the same distribution.
template <Game G>
Outcome random_playout(G game, Rng& rng) {
  if constexpr (requires { game.play_random(rng); }) {
    while (!game.outcome().over()) game.play_random(rng);
  } else {
    typename G::MoveList moves;
    while (true) {
      game.legal_moves(moves);
      if (moves.empty()) break;
      game.play(moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))]);
    }
  }
  return game.outcome();
}

struct PlayoutCounts {
  std::uint64_t x_wins = 0, o_wins = 0, draws = 0;
};

template <Game G>
PlayoutCounts random_playouts(const G& start, std::uint64_t n, std::uint64_t seed) {
  Rng rng(seed);
  PlayoutCounts counts;
  for (std::uint64_t i = 0; i < n; ++i) {
    switch (random_playout(start, rng).result) {
      case Result::XWins: ++counts.x_wins; break;
      case Result::OWins: ++counts.o_wins; break;
      default: ++counts.draws; break;
    }
  }
  return counts;
}

}  // namespace noughts
