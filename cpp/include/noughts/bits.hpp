// Bit tricks and hashing shared by the bitboard games.
#pragma once
#include <array>
#include <bit>
#include <cstdint>

namespace noughts::bits {

// One in every byte: multiplying a word of byte counts by it gives their
// running totals (byte i: the sum of bytes 0..i), when no total passes 255.
inline constexpr std::uint64_t kEachByte = 0x0101010101010101ULL;

// Byte i: the number of set bits in byte i of b.
constexpr std::uint64_t byte_counts(std::uint64_t b) noexcept {
  b -= (b >> 1) & 0x5555555555555555ULL;
  b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
  return (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
}

// The number of set bits. Wheels target baseline x86-64, which has no POPCNT
// instruction: there std::popcount becomes a call into libgcc, in the
// solver's innermost loops, so the bit-parallel sum is inlined instead.
constexpr int count(std::uint64_t b) noexcept {
#if defined(__x86_64__) && !defined(__POPCNT__)
  return static_cast<int>((byte_counts(b) * kEachByte) >> 56);
#else
  return std::popcount(b);
#endif
}

// Where the r-th item falls, given running byte totals (byte i: the items in
// groups 0..i, every total below 128) and r below the total of all groups
// (the eight bytes and possibly a ninth group after them): the group and the
// items before it. No loop and no branch: a bytewise compare of r with every
// total at once, summed by a multiply. Random playouts and random actions
// pick a uniform move with it, where a loop's exit mispredicts.
struct ByteSelect {
  int group;            // 0..8 (8: past the eight bytes)
  std::uint32_t before;  // items in groups 0..group-1
};
constexpr ByteSelect select_byte(std::uint64_t totals, std::uint32_t r) noexcept {
  constexpr std::uint64_t kHigh = kEachByte << 7;
  // Byte i's high bit: whether r lies past groups 0..i (r >= total_i; both
  // are below 128, so no byte borrows from the next).
  const std::uint64_t past = ((std::uint64_t{r} * kEachByte | kHigh) - totals) & kHigh;
  const int group = static_cast<int>(((past >> 7) * kEachByte) >> 56);
  // Byte group - 1 of the totals, or for group 8 the top byte.
  const auto before = static_cast<std::uint32_t>(((totals << 8) >> (8 * (group & 7)) & 0xff) +
                                                 ((totals >> 56) & (0u - static_cast<unsigned>(group >> 3))));
  return {group, before};
}
// For every set of up to nine bits (a 3x3 board, or one byte of a word):
// its size and its members, lowest first. Tables, because baseline x86-64
// has no POPCNT or PDEP, and random moves pick a member by rank every move.
struct SmallSets {
  std::array<std::uint8_t, 512> count{};
  std::array<std::array<std::uint8_t, 9>, 512> member{};  // [set][r]: the r-th set bit
};
inline constexpr SmallSets kSmallSets = [] {
  SmallSets t;
  for (int set = 0; set < 512; ++set)
    for (int i = 0; i < 9; ++i)
      if (set >> i & 1) t.member[set][t.count[set]++] = static_cast<std::uint8_t>(i);
  return t;
}();

// Byte i: the set bits of x in bytes 0..i (so the top byte is the count).
constexpr std::uint64_t byte_totals(std::uint64_t x) noexcept {
  return byte_counts(x) * kEachByte;  // each total is at most 64: no carry between bytes
}
constexpr int count_of(std::uint64_t totals) noexcept { return static_cast<int>(totals >> 56); }

// The index of the r-th (0-based, lowest first) set bit of x, where
// totals = byte_totals(x) and r < count_of(totals): the byte holding it by
// select_byte, then the table within that byte. Move lists are in ascending
// id order, so the r-th set bit of a set of legal ids is what list[r] is.
constexpr int nth_set_bit(std::uint64_t x, std::uint64_t totals, std::uint32_t r) noexcept {
  const ByteSelect at = select_byte(totals, r);  // a byte of x (0..7, as r < the count)
  return 8 * at.group + kSmallSets.member[x >> (8 * at.group) & 0xff][r - at.before];
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
