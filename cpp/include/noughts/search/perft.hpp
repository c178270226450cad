// perft: the number of legal move sequences of exactly `depth` moves
// (docs/rules.md "Counting moves"). The first correctness test of every game.
#pragma once
#include <cstdint>

#include "noughts/game.hpp"

namespace noughts {

template <Game G>
std::uint64_t perft(const G& position, int depth) {
  if (depth <= 0) return 1;
  typename G::MoveList moves;
  position.legal_moves(moves);
  // Bulk counting: at the last ply the moves themselves are the count.
  if (depth == 1) return static_cast<std::uint64_t>(moves.size());
  std::uint64_t nodes = 0;
  for (Move m : moves) {
    G child = position;
    child.play(m);
    nodes += perft(child, depth - 1);
  }
  return nodes;
}

}  // namespace noughts
