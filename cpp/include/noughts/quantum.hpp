// Quantum tic-tac-toe: Allan Goff's game played to a single result
// (RULES.md section 3; the corner cases are argued in docs/quantum.md).
//
// Marks are numbered 1..9 by the move that wrote them: X writes the odd
// ones, O the even ones. A mark is spooky (in two cells at once: an edge of
// the entanglement graph) until a collapse makes it classical (in one cell).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "noughts/bits.hpp"
#include "noughts/game.hpp"
#include "noughts/move_list.hpp"
#include "noughts/player.hpp"
#include "noughts/rng.hpp"

namespace noughts {

namespace quantum {

inline constexpr int kCells = 9;
inline constexpr int kPairs = 36;                // ids 0..35: spooky pair {a, b}, a < b, lexicographic
inline constexpr Move kCollapse = 36;            // 36 + c: the pending mark lands in cell c
inline constexpr Move kLastCell = 45;            // 45 + c: the single classical mark in the last free cell
inline constexpr int kNumActions = 54;
inline constexpr std::uint16_t kBoard = 0x1ff;   // all nine cells
inline constexpr int kNoLine = 10;               // "no line": later than any move number

struct PairTable {
  std::array<std::uint8_t, kPairs> a{}, b{};                    // the cells of pair id p
  std::array<std::array<std::uint8_t, kCells>, kCells> id{};  // the pair id of cells a != b
};
constexpr PairTable make_pair_table() {
  PairTable t;
  int p = 0;
  for (int a = 0; a < kCells; ++a)
    for (int b = a + 1; b < kCells; ++b, ++p) {
      t.a[p] = static_cast<std::uint8_t>(a);
      t.b[p] = static_cast<std::uint8_t>(b);
      t.id[a][b] = t.id[b][a] = static_cast<std::uint8_t>(p);
    }
  return t;
}
inline constexpr PairTable kPair = make_pair_table();

inline constexpr std::array<std::uint16_t, 8> kLines = {
    0007, 0070, 0700,  // rows
    0111, 0222, 0444,  // columns
    0421, 0124,        // diagonals a1-c3 and c1-a3
};

// The eight symmetries of the square, numbered as Classic numbers them on a
// square board, so symmetry s means the same map in every game.
constexpr std::array<std::array<std::uint8_t, kCells>, 8> make_symmetries() {
  std::array<std::array<std::uint8_t, kCells>, 8> map{};
  for (int s = 0; s < 8; ++s)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        int ir = r, ic = c;
        switch (s) {
          case 1: ir = c, ic = 2 - r; break;
          case 2: ir = 2 - r, ic = 2 - c; break;
          case 3: ir = 2 - c, ic = r; break;
          case 4: ic = 2 - c; break;
          case 5: ir = 2 - r; break;
          case 6: ir = c, ic = r; break;
          case 7: ir = 2 - c, ic = 2 - r; break;
          default: break;
        }
        map[s][r * 3 + c] = static_cast<std::uint8_t>(ir * 3 + ic);
      }
  return map;
}
inline constexpr auto kSymmetry = make_symmetries();

// [s][p]: the pair id of pair p's image under symmetry s.
constexpr std::array<std::array<std::uint8_t, kPairs>, 8> make_pair_images() {
  std::array<std::array<std::uint8_t, kPairs>, 8> image{};
  for (int s = 0; s < 8; ++s)
    for (int p = 0; p < kPairs; ++p) image[s][p] = kPair.id[kSymmetry[s][kPair.a[p]]][kSymmetry[s][kPair.b[p]]];
  return image;
}
inline constexpr auto kPairImage = make_pair_images();

// For each set of cells (9 bits): how many there are, and the n-th of them
// (lowest first). Tables, because portable builds have no popcnt or pdep
// instruction and random playouts pick cells by rank on every move.
struct CellSets {
  std::array<std::uint8_t, 512> count{};
  std::array<std::array<std::uint8_t, kCells>, 512> nth{};
};
constexpr CellSets make_cell_sets() {
  CellSets t;
  for (int set = 0; set < 512; ++set)
    for (int c = 0; c < kCells; ++c)
      if (set >> c & 1) t.nth[set][t.count[set]++] = static_cast<std::uint8_t>(c);
  return t;
}
inline constexpr CellSets kCellSets = make_cell_sets();

// The player who writes mark k (1..9).
constexpr Player mark_owner(int k) noexcept { return (k & 1) ? Player::X : Player::O; }

}  // namespace quantum

class Quantum {
 public:
  static constexpr int kMaxActions = quantum::kNumActions;
  static constexpr const char* kName = "quantum";
  using MoveList = noughts::MoveList<kMaxActions>;

  Quantum() noexcept {
    for (int c = 0; c < quantum::kCells; ++c) component_[c] = static_cast<std::uint16_t>(bits::bit(c));
  }

  // ---- the game concept (hot paths, inline) ----

  // The player who writes the next mark. While a collapse is pending that is
  // the chooser too: the player who did not close the cycle is the one whose
  // mark comes next, so to_move never needs a special case.
  Player to_move() const noexcept { return (marks_ & 1) ? Player::O : Player::X; }
  int ply() const noexcept { return ply_; }
  Outcome outcome() const noexcept { return outcome_; }

  void legal_moves(MoveList& out) const noexcept {
    out.clear();
    if (outcome_.over()) return;
    if (pending_) {
      const int p = pair_of(marks_);
      out.push(quantum::kCollapse + quantum::kPair.a[p]);
      out.push(quantum::kCollapse + quantum::kPair.b[p]);
      return;
    }
    const std::uint16_t free = free_cells();
    if ((free & (free - 1)) == 0) {  // one free cell (there is always at least one)
      out.push(quantum::kLastCell + bits::lowest(free));
      return;
    }
    // Pair ids are lexicographic in (a, b), so this order is ascending.
    bits::for_each(free, [&](int a) {
      bits::for_each(free & ~(bits::bit(a + 1) - 1), [&](int b) { out.push(quantum::kPair.id[a][b]); });
    });
  }

  void play(Move m) noexcept {
    if (m < quantum::kPairs) {
      write_pair(quantum::kPair.a[m], quantum::kPair.b[m]);
    } else if (m < quantum::kLastCell) {
      collapse(m - quantum::kCollapse);
    } else {
      ++marks_;
      land(marks_, m - quantum::kLastCell);
      decide();
    }
    ++ply_;
  }

  // One uniformly random legal move, without building the move list: the
  // same distribution as picking from legal_moves().
  void play_random(Rng& rng) noexcept {
    if (pending_) {
      const int p = pair_of(marks_);
      collapse(rng.below(2) ? quantum::kPair.b[p] : quantum::kPair.a[p]);
    } else {
      const std::uint16_t free = free_cells();
      const int f = quantum::kCellSets.count[free];
      if (f == 1) {
        ++marks_;
        land(marks_, bits::lowest(free));
        decide();
      } else {
        // An ordered pair of distinct free cells, uniform; each unordered
        // pair comes up twice, so pairs are uniform too.
        const auto r = rng.below(static_cast<std::uint32_t>(f * (f - 1)));
        const int i = static_cast<int>(r) / (f - 1);
        int j = static_cast<int>(r) % (f - 1);
        if (j >= i) ++j;
        write_pair(quantum::kCellSets.nth[free][i], quantum::kCellSets.nth[free][j]);
      }
    }
    ++ply_;
  }

  // Two positions are equal when their marks are: the rest of the state
  // (entanglement, pending collapse, result) follows from them.
  std::uint64_t hash() const noexcept { return bits::combine(bits::mix(classical_), spooky_); }
  int num_symmetries() const noexcept { return 8; }
  Quantum symmetric(int s) const noexcept;
  // The smallest hash() of the eight symmetric images: the solver's table
  // key, the same for every image. Computed from the marks alone, without
  // building the images (building them took 44 % of a solve).
  std::uint64_t canonical_hash() const noexcept;

  friend bool operator==(const Quantum& a, const Quantum& b) noexcept {
    return a.classical_ == b.classical_ && a.spooky_ == b.spooky_;
  }

  // ---- reading the position ----

  // Marks written so far: the number of the newest mark (0 at the start).
  int marks() const noexcept { return marks_; }
  // The number of the classical mark in a cell, 0 if the cell has none.
  int classical(int cell) const noexcept { return static_cast<int>((classical_ >> (4 * cell)) & 15); }
  // Cells holding a classical mark of X (0) or O (1).
  std::uint16_t classical_cells(int player) const noexcept { return owned_[player]; }
  std::uint16_t free_cells() const noexcept { return quantum::kBoard & ~(owned_[0] | owned_[1]); }
  // The pair id of mark k while it is spooky, -1 once classical or not yet written.
  int spooky_pair(int k) const noexcept { return pair_of(k); }
  // Whether the newest mark closed a cycle that its chooser must collapse.
  bool collapse_pending() const noexcept { return pending_; }
  // For each player, the earliest completion of a classical line of theirs:
  // the smallest over their lines of the highest mark in the line, or
  // quantum::kNoLine. This is what decides a game with lines for both.
  std::array<int, 2> line_times() const noexcept;

  // ---- text and ids (not hot) ----
  int num_actions() const noexcept { return quantum::kNumActions; }
  bool is_legal(Move m) const noexcept { return why_illegal(m).empty(); }
  std::string why_illegal(Move m) const;
  std::string move_name(Move m) const;
  Move parse_move(std::string_view text) const;
  std::string to_string() const;
  static Quantum from_string(std::string_view text);
  std::string render() const;

 private:
  int pair_of(int k) const noexcept {
    if (k < 1 || k > 9) return -1;
    return static_cast<int>((spooky_ >> (6 * (k - 1))) & 63) - 1;
  }

  // The next mark, spooky in cells a and b. A pair whose cells are already
  // entangled closes a cycle: the collapse waits for the chooser's move.
  void write_pair(int a, int b) noexcept {
    const int k = ++marks_;
    spooky_ |= std::uint64_t(quantum::kPair.id[a][b] + 1) << (6 * (k - 1));
    if (component_[a] & bits::bit(b)) {
      pending_ = true;
      return;
    }
    const auto joined = static_cast<std::uint16_t>(component_[a] | component_[b]);
    bits::for_each(joined, [&](int c) { component_[c] = joined; });
  }

  // Mark k becomes classical in cell c.
  void land(int k, int c) noexcept {
    classical_ |= std::uint64_t(k) << (4 * c);
    owned_[(k & 1) ? 0 : 1] |= static_cast<std::uint16_t>(bits::bit(c));
  }

  // The newest mark lands in `cell`; every other spooky mark in a cell that
  // has just become classical is forced into its other cell, and so on. The
  // component holds exactly one cycle (the newest mark closed it), so each
  // of its cells receives exactly one mark: removing the newest edge leaves
  // a tree, and every other mark lands at its end away from `cell`.
  void collapse(int cell) noexcept {
    // The component's other spooky marks, gathered once: marks outside it
    // touch none of its cells and stay spooky.
    const std::uint16_t component = component_[cell];
    std::array<std::uint8_t, quantum::kCells> mark, a, b;
    int m = 0;
    for (int k = 1; k < marks_; ++k) {
      const int p = pair_of(k);
      if (p < 0 || !(component >> quantum::kPair.a[p] & 1)) continue;
      mark[m] = static_cast<std::uint8_t>(k);
      a[m] = quantum::kPair.a[p];
      b[m] = quantum::kPair.b[p];
      spooky_ &= ~(std::uint64_t{63} << (6 * (k - 1)));
      ++m;
    }
    spooky_ &= ~(std::uint64_t{63} << (6 * (marks_ - 1)));
    land(marks_, cell);
    // Sweep until every gathered mark has landed: a mark with one end
    // classical goes to the other end. Each sweep lands at least one.
    std::uint16_t filled = static_cast<std::uint16_t>(bits::bit(cell));
    for (std::uint32_t waiting = (1u << m) - 1; waiting;) {
      bits::for_each(waiting, [&](int i) {
        const bool at_a = filled >> a[i] & 1, at_b = filled >> b[i] & 1;
        if (!at_a && !at_b) return;
        const int target = at_a ? b[i] : a[i];
        land(mark[i], target);
        filled |= static_cast<std::uint16_t>(bits::bit(target));
        waiting &= ~(1u << i);
      });
    }
    pending_ = false;
    decide();
  }

  // The end test after classical marks were added (a collapse or the last cell).
  void decide() noexcept {
    bool line = false;
    for (auto l : quantum::kLines) line |= (owned_[0] & l) == l || (owned_[1] & l) == l;
    if (!line) {
      if ((owned_[0] | owned_[1]) == quantum::kBoard) outcome_ = Outcome::draw();
      return;
    }
    const auto t = line_times();
    // X's numbers are odd and O's even, so the two times never tie.
    const bool both = t[0] != quantum::kNoLine && t[1] != quantum::kNoLine;
    outcome_ = Outcome::win(t[0] < t[1] ? Player::X : Player::O, both ? Termination::EarlierLine : Termination::Line);
  }

  // The position: classical_ and spooky_ (equality and hash use only these).
  std::uint64_t classical_ = 0;  // 4 bits per cell c (at 4c): its classical mark's number, 0 if none
  std::uint64_t spooky_ = 0;     // 6 bits per mark k (at 6(k-1)): 1 + its pair id while spooky, else 0
  // Derived, kept for speed.
  std::array<std::uint16_t, quantum::kCells> component_{};  // each free cell's entangled cells, itself included
  std::array<std::uint16_t, 2> owned_{};                    // classical cells of X and of O
  std::uint8_t marks_ = 0;
  std::uint8_t ply_ = 0;
  bool pending_ = false;
  Outcome outcome_{};
};

inline std::array<int, 2> Quantum::line_times() const noexcept {
  std::array<int, 2> t = {quantum::kNoLine, quantum::kNoLine};
  for (int p = 0; p < 2; ++p) {
    for (auto line : quantum::kLines) {
      if ((owned_[p] & line) != line) continue;
      int last = 0;
      bits::for_each(line, [&](int c) { last = std::max(last, classical(c)); });
      t[p] = std::min(t[p], last);
    }
  }
  return t;
}

static_assert(TextGame<Quantum>);

}  // namespace noughts
