// A small, fast, seedable generator (wyrand) for playouts, MCTS and
// VectorGame. std::mt19937 is slower and its distributions differ across
// standard libraries; this one gives the same sequence on every platform.
// wyrand is one add and one 64x64->128-bit multiply a number (it passes
// BigCrush and PractRand); in a random playout the generator is a large share
// of the work per move, so its cost shows directly in playouts per second.
#pragma once
#include <cstdint>

#include "noughts/bits.hpp"

#if !defined(__SIZEOF_INT128__) && defined(_MSC_VER) && defined(_M_X64)
#include <intrin.h>
#endif

namespace noughts {

namespace detail {
// The high and low halves of the 128-bit product a*b, xored together.
inline std::uint64_t multiply_fold(std::uint64_t a, std::uint64_t b) noexcept {
#if defined(__SIZEOF_INT128__)
  const unsigned __int128 t = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(t >> 64) ^ static_cast<std::uint64_t>(t);
#elif defined(_MSC_VER) && defined(_M_X64)
  std::uint64_t high;
  const std::uint64_t low = _umul128(a, b, &high);
  return high ^ low;
#else
  // Portable schoolbook product from 32-bit halves (same result).
  const std::uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const std::uint64_t middle = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  const std::uint64_t low = (middle << 32) | (p00 & 0xffffffffu);
  const std::uint64_t high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
  return high ^ low;
#endif
}
}  // namespace detail

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) noexcept : state_(bits::mix(seed)) {}
  std::uint64_t next() noexcept {
    state_ += 0xa0761d6478bd642fULL;
    return detail::multiply_fold(state_, state_ ^ 0xe7037ed1a0b428dbULL);
  }
  // Uniform in [0, n) by Lemire's multiply-shift (the bias is below 2^-32 for
  // the tiny n of move lists).
  std::uint32_t below(std::uint32_t n) noexcept {
    return static_cast<std::uint32_t>(((next() >> 32) * std::uint64_t{n}) >> 32);
  }
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

}  // namespace noughts
