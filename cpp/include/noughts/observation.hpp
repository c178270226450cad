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

#include "noughts/bits.hpp"
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

// Ultimate's mask from the boards' cell masks, not from a move list.
void legal_mask(const Ultimate& g, std::uint8_t* out, int num_actions) noexcept;

// Whether the move id m (0 <= m < num_actions) is legal: what
// why_illegal(m).empty() says, without building the message. VectorGame
// tests every action of a batch; Ultimate's and Quantum's why_illegal build
// strings even for a legal move (about 125 ns a game in Ultimate, twice what
// the rest of its step costs with the row-wise planes). The overloads below read the same state legal_moves() reads (tests compare
// them with legal_actions() over random positions).
template <Game G>
bool legal_action(const G& g, Move m) {
  return g.why_illegal(m).empty();
}

// The small boards the mover may play in (none once the game is over).
inline unsigned playable_boards(const Ultimate& g) noexcept {
  if (g.outcome().over()) return 0;
  const int forced = g.forced_board();
  return forced >= 0 ? 1u << forced : g.open_boards();
}

inline bool legal_action(const Ultimate& g, Move m) noexcept {
  const int b = m / 9, c = m - 9 * b;
  return (playable_boards(g) >> b & 1) && (g.empty_cells(b) >> c & 1);
}

inline bool legal_action(const Quantum& g, Move m) noexcept {
  using namespace quantum;
  if (g.outcome().over()) return false;
  if (g.collapse_pending()) {  // the pending mark lands in one of its two cells
    const int p = g.spooky_pair(g.marks());
    return p >= 0 && (m == kCollapse + kPair.a[p] || m == kCollapse + kPair.b[p]);
  }
  const unsigned free = g.free_cells();
  if ((free & (free - 1)) == 0) return m == kLastCell + bits::lowest(free);  // one free cell left
  return m < kPairs && (free >> kPair.a[m] & 1) && (free >> kPair.b[m] & 1);
}

template <class G>
concept Observable = requires(const G& g, std::uint8_t* out) {
  { observation_shape(g) } -> std::same_as<ObservationShape>;
  observe(g, out);
};

}  // namespace noughts
