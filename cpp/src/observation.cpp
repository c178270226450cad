#include "noughts/observation.hpp"

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
  const std::uint64_t empty = r.board_mask() & ~g.occupied();
  if (r.gravity()) {
    const std::uint64_t bottom = r.top_row() << ((r.rows() - 1) * r.cols());
    set_bits(out + 2 * cells, empty & (bottom | (g.occupied() >> r.cols())));
  } else {
    set_bits(out + 2 * cells, empty);
  }
}

void observe(const Ultimate& g, std::uint8_t* out) noexcept {
  constexpr int kPlane = 81;
  // kRow[bits]: three bytes 0/1 for a 3-bit row of a small board.
  static constexpr std::uint8_t kRow[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                              {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
  // Writes a small board's 9-bit mask into its 3x3 block of a 9x9 plane.
  auto block = [](std::uint8_t* plane, int b, unsigned mask) {
    std::uint8_t* corner = plane + (b / 3) * 27 + (b % 3) * 3;
    for (int r = 0; r < 3; ++r) std::memcpy(corner + 9 * r, kRow[mask >> (3 * r) & 7], 3);
  };
  const Player me = g.to_move(), them = opponent(me);
  const unsigned won_me = g.won_boards(me), won_them = g.won_boards(them), decided = g.decided_boards();
  const int forced = g.forced_board();
  const unsigned playable = g.outcome().over() ? 0u : forced >= 0 ? 1u << forced : g.open_boards();
  for (int b = 0; b < Ultimate::kBoards; ++b) {
    const unsigned bit = 1u << b;
    block(out, b, g.marks(me, b));
    block(out + kPlane, b, g.marks(them, b));
    block(out + 2 * kPlane, b, (playable & bit) ? g.empty_cells(b) : 0u);
    block(out + 3 * kPlane, b, (won_me & bit) ? 0x1ffu : 0u);
    block(out + 4 * kPlane, b, (won_them & bit) ? 0x1ffu : 0u);
    block(out + 5 * kPlane, b, (decided & ~won_me & ~won_them & bit) ? 0x1ffu : 0u);
  }
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
