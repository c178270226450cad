// The 3x3 board that Ultimate (each small board, and the big board of small
// boards) and Quantum are played on: cells 0..8 in reading order, a set of
// cells as a 9-bit mask (bit i = cell i). Its lines, symmetries and mask
// tables live here once.
#pragma once
#include <array>
#include <cstdint>

namespace noughts::board3 {

inline constexpr int kCells = 9;
// All nine cells.
inline constexpr std::uint16_t kFull = 0x1ff;

// The eight lines: rows, columns, the diagonals a1-c3 and c1-a3.
inline constexpr std::array<std::uint16_t, 8> kLines = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};

// kHasLine[mask]: whether a mask contains a line (one look-up instead of
// eight mask tests).
inline constexpr std::array<bool, 512> kHasLine = [] {
  std::array<bool, 512> t{};
  for (int m = 0; m < 512; ++m)
    for (auto line : kLines)
      if ((m & line) == line) t[m] = true;
  return t;
}();

// kWinningCells[own]: the cells that would complete a line of a player who
// holds the mask `own` (whether they are empty is checked apart).
inline constexpr std::array<std::uint16_t, 512> kWinningCells = [] {
  std::array<std::uint16_t, 512> t{};
  for (int m = 0; m < 512; ++m)
    for (int c = 0; c < kCells; ++c)
      if (!(m >> c & 1) && kHasLine[m | 1 << c]) t[m] |= static_cast<std::uint16_t>(1 << c);
  return t;
}();

// kLineFree[theirs]: whether some line holds none of the mask `theirs`, i.e.
// the other player can still complete a line.
inline constexpr std::array<bool, 512> kLineFree = [] {
  std::array<bool, 512> t{};
  for (int m = 0; m < 512; ++m)
    for (auto line : kLines)
      if ((m & line) == 0) t[m] = true;
  return t;
}();

// The dihedral group of the square: kSymmetry[s][i] is the image of cell i
// under symmetry s. The numbering is Classic's on a square board (a C++
// test checks it against Classic 3x3), so symmetry s means the same map in
// every game.
inline constexpr int kSymmetries = 8;
inline constexpr std::array<std::array<std::uint8_t, kCells>, kSymmetries> kSymmetry = [] {
  std::array<std::array<std::uint8_t, kCells>, kSymmetries> t{};
  for (int s = 0; s < kSymmetries; ++s)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        int ir = r, ic = c;
        switch (s) {
          case 0: break;
          case 1: ir = c, ic = 2 - r; break;      // rotate 90 degrees clockwise
          case 2: ir = 2 - r, ic = 2 - c; break;  // rotate 180
          case 3: ir = 2 - c, ic = r; break;      // rotate 270
          case 4: ic = 2 - c; break;              // mirror left-right
          case 5: ir = 2 - r; break;              // mirror top-bottom
          case 6: ir = c, ic = r; break;          // main diagonal
          default: ir = 2 - c, ic = 2 - r; break; // anti-diagonal
        }
        t[s][r * 3 + c] = static_cast<std::uint8_t>(ir * 3 + ic);
      }
  return t;
}();

// kMapMask[s][mask]: the image of a mask under symmetry s.
inline constexpr std::array<std::array<std::uint16_t, 512>, kSymmetries> kMapMask = [] {
  std::array<std::array<std::uint16_t, 512>, kSymmetries> t{};
  for (int s = 0; s < kSymmetries; ++s)
    for (int m = 0; m < 512; ++m)
      for (int i = 0; i < kCells; ++i)
        if (m >> i & 1) t[s][m] |= static_cast<std::uint16_t>(1u << kSymmetry[s][i]);
  return t;
}();
constexpr unsigned map_mask(int s, unsigned mask) noexcept { return kMapMask[s][mask]; }

}  // namespace noughts::board3
