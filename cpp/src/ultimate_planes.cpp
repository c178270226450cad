// Ultimate's observation planes and legal mask (ultimate.hpp says what
// they hold). Each 9x9 plane is written row by row, one 16-byte copy per
// row of nine cells.
#include "noughts/ultimate.hpp"
#include "planes.hpp"

namespace noughts {

namespace {

using planes::spread;
using planes::spread_last;

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

void Ultimate::observe(std::uint8_t* out, Player view) const noexcept {
  constexpr int kPlane = 81;
  const Player them = opponent(view);
  const unsigned playable = playable_boards();
  unsigned mine[kBoards], theirs[kBoards], legal[kBoards];
  for (int b = 0; b < kBoards; ++b) {
    mine[b] = marks(view, b);
    theirs[b] = marks(them, b);
    legal[b] = (playable >> b & 1) ? empty_cells(b) : 0u;
  }
  const unsigned won_me = won_boards(view), won_them = won_boards(them);
  grid_plane(out, mine);
  grid_plane(out + kPlane, theirs);
  grid_plane(out + 2 * kPlane, legal);
  board_plane(out + 3 * kPlane, won_me, false);
  board_plane(out + 4 * kPlane, won_them, false);
  board_plane(out + 5 * kPlane, decided_boards() & ~won_me & ~won_them, true);
}

// Ids are board * 9 + cell: board b's legal cells are bytes 9b .. 9b + 8.
void Ultimate::write_legal_mask(std::uint8_t* out) const noexcept {
  const unsigned playable = playable_boards();
  for (int b = 0; b < kBoards; ++b) {
    const unsigned cells = (playable >> b & 1) ? empty_cells(b) : 0u;
    if (b + 1 < kBoards)
      spread(out + 9 * b, cells);
    else
      spread_last(out + 9 * b, cells);
  }
}

}  // namespace noughts
