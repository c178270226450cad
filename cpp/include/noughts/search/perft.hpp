// perft: the number of legal move sequences of exactly `depth` moves
// (docs/rules.md "Counting moves"). The first correctness test of every game.
#pragma once
#include <atomic>
#include <cstdint>

#include "noughts/game.hpp"

namespace noughts {

//
// `stop`, when given, is read at every node above the last two plies: once it
// is true the count returns early and is meaningless (the caller drops it).
template <Game G>
std::uint64_t perft(const G& position, int depth, const std::atomic<bool>* stop = nullptr) {
  if (depth <= 0) return 1;
  typename G::MoveList moves;
  position.legal_moves(moves);
  // Bulk counting: at the last ply the moves themselves are the count.
  if (depth == 1) return static_cast<std::uint64_t>(moves.size());
  if (stop && depth > 2 && stop->load(std::memory_order_relaxed)) return 0;
  std::uint64_t nodes = 0;
  for (Move m : moves) {
    G child = position;
    child.play(m);
    nodes += perft(child, depth - 1, stop);
  }
  return nodes;
}

}  // namespace noughts
