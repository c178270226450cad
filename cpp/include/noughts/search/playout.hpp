// Uniformly random games to the end: the speed test of an engine and the
// rollout of MCTS.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

#include "noughts/game.hpp"
#include "noughts/hot_clones.hpp"
#include "noughts/rng.hpp"
#include "noughts/search/hooks.hpp"

namespace noughts {

// A uniformly random legal move of a game that is not over:
// list[rng.below(list.size())] of its legal_moves() list. A game's
// random_move (observation.hpp) draws the same move from a bit set; inside a
// playout, where the next move follows at once, generating the list and
// indexing it is the cheaper of the two for Classic.
template <Game G>
Move random_action(const G& g, Rng& rng) {
  typename G::MoveList moves;
  g.legal_moves(moves);
  return moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))];
}

// Plays one uniformly random legal move of a game that is not over; returns
// whether the game is over after it. A game may offer a faster
// `play_random(Rng&)` of the same distribution.
template <Game G>
bool random_step(G& game, Rng& rng) {
  if constexpr (HasPlayRandom<G>) {
    game.play_random(rng);
  } else {
    game.play(random_action(game, rng));
  }
  return game.outcome().over();
}

// Plays uniformly random legal moves until the game ends; returns the outcome.
template <Game G>
Outcome random_playout(G game, Rng& rng) {
  if (!game.outcome().over())
    while (!random_step(game, rng)) {
    }
  return game.outcome();
}

struct PlayoutCounts {
  std::uint64_t x_wins = 0, o_wins = 0, draws = 0;
  void add(Outcome o, std::uint64_t n = 1) noexcept {
    switch (o.result) {
      case Result::XWins: x_wins += n; break;
      case Result::OWins: o_wins += n; break;
      default: draws += n; break;
    }
  }
};

// n random games from `start`, counted by result; the same counts for the
// same seed on every platform. `stop`, when given, is read every few
// thousand moves: once it is true the function returns early with counts
// that are meaningless (the caller drops them).
//
// A game may ask for its games to run G::kPlayoutLanes at a time,
// interleaved move by move (drawing from one generator in a fixed order, so
// the counts stay a function of the seed). When one
// game's moves form a chain of dependent loads (each move reads what the one
// before wrote) that leaves most of the core idle, independent games in
// flight fill it (Ultimate runs four). Classic and Quantum do more work a
// move, enough to keep the core busy, and lanes only slow them: they keep
// one.
template <class G>
constexpr int playout_lanes() {
  if constexpr (HasPlayoutLanes<G>) return G::kPlayoutLanes;
  else return 1;
}

template <Game G>
NOUGHTS_HOT_CLONES PlayoutCounts random_playouts(const G& start, std::uint64_t n, std::uint64_t seed,
                                                   const std::atomic<bool>* stop = nullptr) {
  constexpr int kLanes = playout_lanes<G>();
  PlayoutCounts counts;
  if (start.outcome().over()) {
    counts.add(start.outcome(), n);
    return counts;
  }
  Rng rng(seed);
  std::array<G, kLanes> games;
  games.fill(start);
  const int lanes = static_cast<int>(std::min<std::uint64_t>(n, kLanes));
  // Each lane holds a started game; a finished one is counted and its lane
  // starts the next. While a whole round of restarts fits in n, the round
  // needs no test of the count (a loop the compiler unrolls over the lanes)...
  std::uint64_t started = static_cast<std::uint64_t>(lanes);
  auto restart_if_over = [&](G& game) {
    if (!game.outcome().over()) return false;
    counts.add(game.outcome());
    game = start;
    ++started;
    return true;
  };
  std::uint32_t rounds = 0;
  while (started + kLanes <= n) {
    if (stop && (++rounds & 4095) == 0 && stop->load(std::memory_order_relaxed)) return counts;
    for (auto& game : games) {
      restart_if_over(game);
      random_step(game, rng);
    }
  }
  // ...then the last few games start one by one...
  while (started < n)
    for (int k = 0; k < kLanes && started < n; ++k)
      if (!restart_if_over(games[k])) random_step(games[k], rng);
  // ...and each lane plays its game to the end.
  for (int k = 0; k < lanes; ++k) counts.add(random_playout(games[k], rng));
  return counts;
}

}  // namespace noughts
