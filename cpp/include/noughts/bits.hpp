// Bit tricks and hashing shared by the bitboard games.
#pragma once
#include <bit>
#include <cstdint>

namespace noughts::bits {

// The number of set bits. Wheels target baseline x86-64, which has no POPCNT
// instruction: there std::popcount becomes a call into libgcc (measured at 9%
// of the solver's time), so the bit-parallel sum below is inlined instead.
constexpr int count(std::uint64_t b) noexcept {
#if defined(__x86_64__) && !defined(__POPCNT__)
  b -= (b >> 1) & 0x5555555555555555ULL;
  b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
  b = (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((b * 0x0101010101010101ULL) >> 56);
#else
  return std::popcount(b);
#endif
}
constexpr int lowest(std::uint64_t b) noexcept { return std::countr_zero(b); }
constexpr int highest(std::uint64_t b) noexcept { return 63 - std::countl_zero(b); }
constexpr std::uint64_t bit(int i) noexcept { return std::uint64_t{1} << i; }

// Calls f(index) for every set bit, lowest first.
template <class F>
constexpr void for_each(std::uint64_t b, F&& f) {
  while (b) {
    f(std::countr_zero(b));
    b &= b - 1;
  }
}

// SplitMix64's finaliser: a strong, cheap 64-bit mixer. Hashing a position
// by mixing its few words costs about what an incremental Zobrist update
// does, needs no tables and cannot drift out of sync with the state.
constexpr std::uint64_t mix(std::uint64_t z) noexcept {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
constexpr std::uint64_t combine(std::uint64_t h, std::uint64_t word) noexcept {
  return mix(h ^ (word + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2)));
}

}  // namespace noughts::bits
