// A small, fast, seedable generator (xoshiro256**) for playouts and MCTS.
// std::mt19937 is slower and its distributions differ across standard
// libraries; this one gives the same sequence on every platform.
#pragma once
#include <cstdint>

#include "noughts/bits.hpp"

namespace noughts {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) noexcept {
    std::uint64_t z = seed;
    for (auto& w : s_) w = z = bits::mix(z);
  }
  std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n) by Lemire's multiply-shift (the bias is below 2^-32 for
  // the tiny n of move lists).
  std::uint32_t below(std::uint32_t n) noexcept {
    return static_cast<std::uint32_t>(((next() >> 32) * std::uint64_t{n}) >> 32);
  }
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept {
    return (x << k) | (x >> (64 - k));
  }
  std::uint64_t s_[4];
};

}  // namespace noughts
