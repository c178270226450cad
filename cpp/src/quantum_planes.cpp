// Quantum's observation planes and legal mask (quantum.hpp says what they
// hold).
#include <cstring>

#include "noughts/quantum.hpp"
#include "planes.hpp"

namespace noughts {

void Quantum::observe(std::uint8_t* out, Player view) const noexcept {
  using quantum::kPair;
  constexpr int kPlane = 9;
  std::memset(out, 0, 13 * kPlane);
  const int me = static_cast<int>(view);
  planes::set_bits(out, owned_[me]);
  planes::set_bits(out + kPlane, owned_[1 - me]);
  for (int k = 1; k <= written_; ++k) {
    const int p = pair_of(k);
    if (p < 0) continue;
    out[(1 + k) * kPlane + kPair.a[p]] = 1;
    out[(1 + k) * kPlane + kPair.b[p]] = 1;
  }
  if (pending_) {
    const int p = pair_of(written_);
    if (p >= 0) {
      out[11 * kPlane + kPair.a[p]] = 1;
      out[11 * kPlane + kPair.b[p]] = 1;
    }
  }
  planes::set_bits(out + 12 * kPlane, free_cells());
}

void Quantum::write_legal_mask(std::uint8_t* out) const noexcept {
  planes::spread_bits(out, quantum::kNumActions, legal_ids());
}

}  // namespace noughts
