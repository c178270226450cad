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

// The masks below are written from bit sets of legal ids, not from a move
// list (building the list was most of the cost of a VectorGame mask).
// Ultimate's from the boards' cell masks.
void legal_mask(const Ultimate& g, std::uint8_t* out, int num_actions) noexcept;
void legal_mask(const Classic& g, std::uint8_t* out, int num_actions) noexcept;
void legal_mask(const Quantum& g, std::uint8_t* out, int num_actions) noexcept;

namespace detail {
// kPairsWithin[free]: the pair ids (bit p) whose two cells are both in the
// 9-bit set `free`: Quantum's legal spooky moves.
inline constexpr std::array<std::uint64_t, 512> kPairsWithin = [] {
  std::array<std::uint64_t, 512> t{};
  for (int f = 0; f < 512; ++f)
    for (int p = 0; p < quantum::kPairs; ++p)
      if ((f >> quantum::kPair.a[p] & 1) && (f >> quantum::kPair.b[p] & 1)) t[f] |= std::uint64_t{1} << p;
  return t;
}();
}  // namespace detail

// What Quantum's legal_moves() lists, as a bit set of ids (all 54 fit a word).
inline std::uint64_t legal_ids(const Quantum& g) noexcept {
  using namespace quantum;
  if (g.outcome().over()) return 0;
  if (g.collapse_pending()) {  // the pending mark lands in one of its two cells
    const int p = g.spooky_pair(g.marks());
    return p < 0 ? 0 : bits::bit(kCollapse + kPair.a[p]) | bits::bit(kCollapse + kPair.b[p]);
  }
  const unsigned free = g.free_cells();
  if ((free & (free - 1)) == 0) return bits::bit(kLastCell + bits::lowest(free));  // one free cell left
  return detail::kPairsWithin[free];
}

// Picking the r-th set bit of a word, as a uniform draw from a bit set of
// legal moves. Move lists are in ascending id order, so the r-th set bit is
// what list[r] would be. Without BMI2 (wheels target baseline x86-64) there
// is no pdep; this is a broadword select: running byte totals by one
// multiply, the byte holding the r-th bit by a bytewise compare, then a
// table look-up within that byte.
namespace detail {
// kNthInByte[byte][r]: the r-th set bit of a byte.
inline constexpr std::array<std::array<std::uint8_t, 8>, 256> kNthInByte = [] {
  std::array<std::array<std::uint8_t, 8>, 256> t{};
  for (int m = 0; m < 256; ++m)
    for (int i = 0, n = 0; i < 8; ++i)
      if (m >> i & 1) t[m][n++] = static_cast<std::uint8_t>(i);
  return t;
}();
}  // namespace detail

// Byte i: the set bits of x in bytes 0..i (so the top byte is the count).
inline std::uint64_t byte_totals(std::uint64_t x) noexcept {
  return bits::byte_counts(x) * bits::kEachByte;  // each total is at most 64: no carry between bytes
}
inline int count_of(std::uint64_t totals) noexcept { return static_cast<int>(totals >> 56); }

// The index of the r-th (0-based, lowest first) set bit of x, where
// totals = byte_totals(x) and r < count_of(totals).
inline int nth_set_bit(std::uint64_t x, std::uint64_t totals, std::uint32_t r) noexcept {
  const bits::ByteSelect at = bits::select_byte(totals, r);  // a byte of x (0..7, as r < the count)
  return 8 * at.group + detail::kNthInByte[x >> (8 * at.group) & 0xff][r - at.before];
}

// Whether the move id m (0 <= m < num_actions) is legal: what
// why_illegal(m).empty() says, without building the message. VectorGame
// tests every action of a batch; Ultimate's and Quantum's why_illegal build
// strings even for a legal move (about 125 ns a game in Ultimate, twice what
// the rest of its step costs with the row-wise planes). The overloads below
// read the same state legal_moves() reads (tests compare them with
// legal_actions() over random positions).
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

inline bool legal_action(const Quantum& g, Move m) noexcept { return legal_ids(g) >> m & 1; }

template <class G>
concept Observable = requires(const G& g, std::uint8_t* out) {
  { observation_shape(g) } -> std::same_as<ObservationShape>;
  observe(g, out);
};

}  // namespace noughts
