// Classic's observation planes and legal mask (classic.hpp says what they
// hold).
#include <algorithm>
#include <cstring>

#include "noughts/classic.hpp"
#include "planes.hpp"

namespace noughts {

namespace {

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

void Classic::observe(std::uint8_t* out, Player view) const noexcept {
  const int cells = rules_->cells();
  std::memset(out, 0, static_cast<std::size_t>(3 * cells));
  const int me = static_cast<int>(view);
  planes::set_bits(out, marks_[me]);
  planes::set_bits(out + cells, marks_[1 - me]);
  if (outcome_.over()) return;
  planes::set_bits(out + 2 * cells, playable_cells());
}

// Ids are the bases, or with free choice 2 * base + symbol: up to 128 ids,
// written 64 at a time from the bases doubled 32 at a time.
void Classic::write_legal_mask(std::uint8_t* out) const noexcept {
  const int n = num_actions();
  const std::uint64_t bases = legal_bases();
  if (!rules_->free_choice()) return planes::spread_bits(out, n, bases);
  planes::spread_bits(out, std::min(n, 64), twice(bases));
  if (n > 64) planes::spread_bits(out + 64, n - 64, twice(bases >> 32));
}

}  // namespace noughts
