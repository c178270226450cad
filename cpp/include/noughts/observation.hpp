// What a learner sees: each game as planes of 0/1 cells, always from the
// view of the player to move, plus the legal-move mask over the id space.
// Shapes (planes, rows, cols):
//   Classic  (3, rows, cols): marks of the mover's symbol, marks of the other
//            symbol, cells a move can write now (gravity: landing cells).
//   Ultimate (6, 9, 9) on the 9x9 grid: mover's marks, opponent's marks,
//            cells of legal moves, boards won by the mover, boards won by the
//            opponent, drawn boards (every cell of such a board set).
//   Quantum  (13, 3, 3): classical marks of the mover, of the opponent; for
//            t = 1..9 the cells holding spooky mark t (planes 2..10; odd t are
//            X's); the two cells of a pending collapse; cells without a
//            classical mark.
#pragma once
#include <array>
#include <cstdint>

#include "noughts/classic.hpp"
#include "noughts/quantum.hpp"
#include "noughts/ultimate.hpp"

namespace noughts {

struct ObservationShape {
  int planes, rows, cols;
  int size() const noexcept { return planes * rows * cols; }
};

inline ObservationShape observation_shape(const Classic& g) noexcept { return {3, g.rules().rows(), g.rules().cols()}; }
inline ObservationShape observation_shape(const Ultimate&) noexcept { return {6, 9, 9}; }
inline ObservationShape observation_shape(const Quantum&) noexcept { return {13, 3, 3}; }

// Writes observation_shape(g).size() bytes (0 or 1), planes first.
void observe(const Classic& g, std::uint8_t* out) noexcept;
void observe(const Ultimate& g, std::uint8_t* out) noexcept;
void observe(const Quantum& g, std::uint8_t* out) noexcept;

// Writes num_actions() bytes: 1 where the move id is legal.
template <Game G>
void legal_mask(const G& g, std::uint8_t* out, int num_actions) noexcept {
  for (int i = 0; i < num_actions; ++i) out[i] = 0;
  typename G::MoveList moves;
  g.legal_moves(moves);
  for (Move m : moves) out[m] = 1;
}

template <class G>
concept Observable = requires(const G& g, std::uint8_t* out) {
  { observation_shape(g) } -> std::same_as<ObservationShape>;
  observe(g, out);
};

}  // namespace noughts
