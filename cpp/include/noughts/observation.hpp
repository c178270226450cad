// What a learner sees of a game, asked of the game itself: each game
// describes its planes where it is defined (observation_shape() and
// observe() in classic.hpp, ultimate.hpp, quantum.hpp), so adding a game
// never touches this file or VectorGame.
#pragma once
#include <concepts>
#include <cstdint>

#include "noughts/game.hpp"
#include "noughts/rng.hpp"

namespace noughts {

// A game that VectorGame and the learning bindings can serve:
//   observation_shape()     the planes, rows and columns of observe()
//   observe(out, view)      writes observation_shape().size() bytes (0 or 1),
//                           planes first, as `view` sees the position: the
//                           planes each player owns (their marks, ...) are
//                           view's first; the rest are the same for both
//   write_legal_mask(out)   writes num_actions() bytes: 1 where an id is legal
//   is_legal(m)             why_illegal(m).empty(), without building a message
//   random_move(rng)        a uniformly random legal move of a game not over,
//                           the same as legal_moves()[rng.below(size)]
template <class G>
concept Observable = TextGame<G> && requires(const G& g, std::uint8_t* out, Move m, Player view, Rng& rng) {
  { g.observation_shape() } -> std::same_as<ObservationShape>;
  { g.observe(out, view) } -> std::same_as<void>;
  { g.write_legal_mask(out) } -> std::same_as<void>;
  { g.is_legal(m) } -> std::same_as<bool>;
  { g.random_move(rng) } -> std::same_as<Move>;
};

}  // namespace noughts
