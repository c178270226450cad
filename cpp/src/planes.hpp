// Writing observation planes and legal masks: bytes 0/1 from bit sets.
// Private to the games' sources (each game writes its own planes).
#pragma once
#include <array>
#include <cstdint>
#include <cstring>

#include "noughts/bits.hpp"

namespace noughts::planes {

// Sets byte i of `plane` for every set bit i.
inline void set_bits(std::uint8_t* plane, std::uint64_t bits_set) noexcept {
  bits::for_each(bits_set, [&](int i) { plane[i] = 1; });
}

// kSpread[m]: a 9-bit mask as nine bytes 0/1 (byte i = bit i), padded to 16
// bytes so that one row of a 9x9 plane is written by one 16-byte copy. The
// copy spills seven bytes past the row; writing rows in order, the next row
// overwrites them, and only the last row of a buffer is written exactly
// (spread_last).
struct alignas(16) SpreadRow {
  std::uint8_t bytes[16];
};
inline constexpr std::array<SpreadRow, 512> kSpread = [] {
  std::array<SpreadRow, 512> t{};
  for (int m = 0; m < 512; ++m)
    for (int i = 0; i < 9; ++i) t[m].bytes[i] = static_cast<std::uint8_t>(m >> i & 1);
  return t;
}();
inline void spread(std::uint8_t* out, unsigned mask) noexcept { std::memcpy(out, kSpread[mask].bytes, 16); }
inline void spread_last(std::uint8_t* out, unsigned mask) noexcept { std::memcpy(out, kSpread[mask].bytes, 9); }

// Writes n bytes (n <= 64): byte i = bit i of `ids`, eight at a time from the
// spread table (an 8-bit index leaves bytes 8..15 of its row zero).
inline void spread_bits(std::uint8_t* out, int n, std::uint64_t ids) noexcept {
  int i = 0;
  for (; i + 8 <= n; i += 8) std::memcpy(out + i, kSpread[ids >> i & 0xff].bytes, 8);
  if (i < n) std::memcpy(out + i, kSpread[ids >> i & 0xff].bytes, static_cast<std::size_t>(n - i));
}

}  // namespace noughts::planes
