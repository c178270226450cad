#include "noughts/observation.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace noughts {

namespace {
void set_bits(std::uint8_t* plane, std::uint64_t bits_set) noexcept {
  bits::for_each(bits_set, [&](int i) { plane[i] = 1; });
}
}  // namespace

void observe(const Classic& g, std::uint8_t* out) noexcept {
  const auto& r = g.rules();
  const int cells = r.cells();
  std::memset(out, 0, static_cast<std::size_t>(3 * cells));
  const int me = static_cast<int>(g.to_move());
  set_bits(out, g.marks(me));
  set_bits(out + cells, g.marks(1 - me));
  if (g.outcome().over()) return;
  set_bits(out + 2 * cells, g.playable_cells());
}

namespace {
// kSpread[m]: a 9-bit mask as nine bytes 0/1 (byte i = bit i), padded to 16
// bytes so that one row of a plane (nine cells) is written by one 16-byte
// copy. The copy spills seven bytes past the row; writing rows in order, the
// next row overwrites them, and only the last row of a buffer is written
// exactly (spread_last).
struct alignas(16) SpreadRow {
  std::uint8_t bytes[16];
};
constexpr std::array<SpreadRow, 512> kSpread = [] {
  std::array<SpreadRow, 512> t{};
  for (int m = 0; m < 512; ++m)
    for (int i = 0; i < 9; ++i) t[m].bytes[i] = static_cast<std::uint8_t>(m >> i & 1);
  return t;
}();
void spread(std::uint8_t* out, unsigned mask) noexcept { std::memcpy(out, kSpread[mask].bytes, 16); }
void spread_last(std::uint8_t* out, unsigned mask) noexcept { std::memcpy(out, kSpread[mask].bytes, 9); }

// Writes a 9x9 plane from the 9-bit masks of the nine small boards. Grid row
// 3 * br + sr is small row sr of boards 3 * br .. 3 * br + 2, side by side:
// three 3-bit chunks gathered from one word holding the three boards.
void grid_plane(std::uint8_t* out, const unsigned (&boards)[Ultimate::kBoards]) noexcept {
  for (int br = 0; br < 3; ++br) {
    const unsigned three = boards[3 * br] | boards[3 * br + 1] << 9 | boards[3 * br + 2] << 18;
    for (int sr = 0; sr < 3; ++sr, out += 9) {
      const unsigned x = three >> (3 * sr);
      spread(out, (x & 07) | (x >> 6 & 070) | (x >> 12 & 0700));
    }
  }
}

// Writes a 9x9 plane where every cell of a small board is that board's bit
// in `boards`: each grid row repeats each of its three boards' bits thrice.
// The last plane of an observation writes its last row exactly.
void board_plane(std::uint8_t* out, unsigned boards, bool last) noexcept {
  static constexpr unsigned kTriple[8] = {0, 07, 070, 077, 0700, 0707, 0770, 0777};
  for (int br = 0; br < 3; ++br) {
    const unsigned row = kTriple[boards >> (3 * br) & 7];
    spread(out + 27 * br, row);
    spread(out + 27 * br + 9, row);
    if (last && br == 2)
      spread_last(out + 27 * br + 18, row);
    else
      spread(out + 27 * br + 18, row);
  }
}
}  // namespace

// Each 9x9 plane row by row, one 16-byte copy per row of nine cells.
void observe(const Ultimate& g, std::uint8_t* out) noexcept {
  constexpr int kPlane = 81;
  const Player me = g.to_move(), them = opponent(me);
  const unsigned playable = playable_boards(g);
  unsigned mine[Ultimate::kBoards], theirs[Ultimate::kBoards], legal[Ultimate::kBoards];
  for (int b = 0; b < Ultimate::kBoards; ++b) {
    mine[b] = g.marks(me, b);
    theirs[b] = g.marks(them, b);
    legal[b] = (playable >> b & 1) ? g.empty_cells(b) : 0u;
  }
  const unsigned won_me = g.won_boards(me), won_them = g.won_boards(them);
  grid_plane(out, mine);
  grid_plane(out + kPlane, theirs);
  grid_plane(out + 2 * kPlane, legal);
  board_plane(out + 3 * kPlane, won_me, false);
  board_plane(out + 4 * kPlane, won_them, false);
  board_plane(out + 5 * kPlane, g.decided_boards() & ~won_me & ~won_them, true);
}

// Ids are board * 9 + cell: board b's legal cells are bytes 9b .. 9b + 8.
void legal_mask(const Ultimate& g, std::uint8_t* out, int) noexcept {
  const unsigned playable = playable_boards(g);
  for (int b = 0; b < Ultimate::kBoards; ++b) {
    const unsigned cells = (playable >> b & 1) ? g.empty_cells(b) : 0u;
    if (b + 1 < Ultimate::kBoards)
      spread(out + 9 * b, cells);
    else
      spread_last(out + 9 * b, cells);
  }
}

namespace {
// Writes n bytes (n <= 64): byte i = bit i of `ids`, eight at a time from the
// spread table (an 8-bit index leaves bytes 8..15 of its row zero).
void spread_bits(std::uint8_t* out, int n, std::uint64_t ids) noexcept {
  int i = 0;
  for (; i + 8 <= n; i += 8) std::memcpy(out + i, kSpread[ids >> i & 0xff].bytes, 8);
  if (i < n) std::memcpy(out + i, kSpread[ids >> i & 0xff].bytes, static_cast<std::size_t>(n - i));
}

// Bit i of the 32-bit x as bits 2i and 2i + 1: free choice's two ids of a
// base (interleaving x with itself by the usual mask-and-shift ladder).
std::uint64_t twice(std::uint64_t x) noexcept {
  x &= 0xffffffffull;
  x = (x | x << 16) & 0x0000ffff0000ffffull;
  x = (x | x << 8) & 0x00ff00ff00ff00ffull;
  x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
  x = (x | x << 2) & 0x3333333333333333ull;
  x = (x | x << 1) & 0x5555555555555555ull;
  return x | x << 1;
}
}  // namespace

// Ids are the bases, or with free choice 2 * base + symbol: up to 128 ids,
// written 64 at a time from the bases doubled 32 at a time.
void legal_mask(const Classic& g, std::uint8_t* out, int num_actions) noexcept {
  const std::uint64_t bases = g.legal_bases();
  if (!g.rules().free_choice()) return spread_bits(out, num_actions, bases);
  spread_bits(out, std::min(num_actions, 64), twice(bases));
  if (num_actions > 64) spread_bits(out + 64, num_actions - 64, twice(bases >> 32));
}

void legal_mask(const Quantum& g, std::uint8_t* out, int num_actions) noexcept {
  spread_bits(out, num_actions, legal_ids(g));
}

void observe(const Quantum& g, std::uint8_t* out) noexcept {
  constexpr int kPlane = 9;
  std::memset(out, 0, 13 * kPlane);
  const int me = static_cast<int>(g.to_move());
  set_bits(out, g.classical_cells(me));
  set_bits(out + kPlane, g.classical_cells(1 - me));
  for (int k = 1; k <= g.marks(); ++k) {
    const int p = g.spooky_pair(k);
    if (p < 0) continue;
    out[(1 + k) * kPlane + quantum::kPair.a[p]] = 1;
    out[(1 + k) * kPlane + quantum::kPair.b[p]] = 1;
  }
  if (g.collapse_pending()) {
    const int p = g.spooky_pair(g.marks());
    if (p >= 0) {
      out[11 * kPlane + quantum::kPair.a[p]] = 1;
      out[11 * kPlane + quantum::kPair.b[p]] = 1;
    }
  }
  set_bits(out + 12 * kPlane, g.free_cells());
}

}  // namespace noughts
