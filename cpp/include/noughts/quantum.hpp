// Quantum tic-tac-toe: Allan Goff's game played to a single result
// (docs/rules.md section 3; the corner cases are argued in docs/quantum.md).
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
#include <vector>

#include "noughts/bits.hpp"
#include "noughts/board3.hpp"
#include "noughts/game.hpp"
#include "noughts/move_list.hpp"
#include "noughts/player.hpp"
#include "noughts/rng.hpp"

namespace noughts {

namespace quantum {

inline constexpr int kCells = board3::kCells;
inline constexpr int kPairs = 36;                // ids 0..35: spooky pair {a, b}, a < b, lexicographic
inline constexpr Move kCollapse = 36;            // 36 + c: the pending mark lands in cell c
inline constexpr Move kLastCell = 45;            // 45 + c: the single classical mark in the last free cell
inline constexpr int kNumActions = 54;
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

// [s][p]: the pair id of pair p's image under symmetry s.
constexpr std::array<std::array<std::uint8_t, kPairs>, 8> make_pair_images() {
  std::array<std::array<std::uint8_t, kPairs>, 8> image{};
  for (int s = 0; s < 8; ++s)
    for (int p = 0; p < kPairs; ++p)
      image[s][p] = kPair.id[board3::kSymmetry[s][kPair.a[p]]][board3::kSymmetry[s][kPair.b[p]]];
  return image;
}
inline constexpr auto kPairImage = make_pair_images();

// kPairsWithin[free]: the pair ids (bit p) whose two cells are both in the
// 9-bit set `free`: the legal spooky moves.
inline constexpr std::array<std::uint64_t, 512> kPairsWithin = [] {
  std::array<std::uint64_t, 512> t{};
  for (int f = 0; f < 512; ++f)
    for (int p = 0; p < kPairs; ++p)
      if ((f >> kPair.a[p] & 1) && (f >> kPair.b[p] & 1)) t[f] |= std::uint64_t{1} << p;
  return t;
}();

// The player who writes mark k (1..9).
constexpr Player mark_owner(int k) noexcept { return (k & 1) ? Player::X : Player::O; }

}  // namespace quantum

class Quantum {
 public:
  static constexpr int kMaxActions = quantum::kNumActions;
  using MoveList = noughts::MoveList<kMaxActions>;

  Quantum() noexcept {
    for (int c = 0; c < quantum::kCells; ++c) component_[c] = static_cast<std::uint16_t>(bits::bit(c));
  }

  // ---- the game concept (hot paths, inline) ----

  // The player who writes the next mark. While a collapse is pending that is
  // the chooser too: the player who did not close the cycle is the one whose
  // mark comes next, so to_move never needs a special case.
  Player to_move() const noexcept { return (written_ & 1) ? Player::O : Player::X; }
  int ply() const noexcept { return ply_; }
  Outcome outcome() const noexcept { return outcome_; }

  void legal_moves(MoveList& out) const noexcept {
    out.clear();
    if (outcome_.over()) return;
    if (pending_) {
      const int p = pair_of(written_);
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
      ++written_;
      land(written_, m - quantum::kLastCell);
      decide();
    }
    ++ply_;
  }

  // One uniformly random legal move, without building the move list: the
  // same distribution as picking from legal_moves().
  void play_random(Rng& rng) noexcept {
    if (pending_) {
      const int p = pair_of(written_);
      collapse(rng.below(2) ? quantum::kPair.b[p] : quantum::kPair.a[p]);
    } else {
      const std::uint16_t free = free_cells();
      const int f = bits::kSmallSets.count[free];
      if (f == 1) {
        ++written_;
        land(written_, bits::lowest(free));
        decide();
      } else {
        // An ordered pair of distinct free cells, uniform; each unordered
        // pair comes up twice, so pairs are uniform too.
        const auto r = rng.below(static_cast<std::uint32_t>(f * (f - 1)));
        const int i = static_cast<int>(r) / (f - 1);
        int j = static_cast<int>(r) % (f - 1);
        if (j >= i) ++j;
        write_pair(bits::kSmallSets.member[free][i], bits::kSmallSets.member[free][j]);
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
  // key, the same for every image. Computed from the marks alone: building
  // the images at every node would cost more than the rest of the search.
  std::uint64_t canonical_hash() const noexcept { return key_of(search_state()); }

  // ---- solver hooks (search/hooks.hpp) ----
  // What the solver carries down its search path: the two words hash()
  // reads, under each of the eight symmetries, so that a spooky move (most
  // moves) updates the canonical key by eight ORs.
  struct SearchState {
    std::array<std::uint64_t, 8> classical, spooky;
  };
  SearchState search_state() const noexcept;
  // The state after the legal move m, from this position's: a spooky pair
  // adds its image to each word; a collapse or the last cell is played out.
  SearchState search_state_after(const SearchState& state, Move m) const noexcept {
    if (m >= quantum::kPairs) {
      Quantum child = *this;
      child.play(m);
      return child.search_state();
    }
    SearchState after = state;
    const int shift = 6 * written_;  // the new mark is number written_ + 1
    for (int s = 0; s < 8; ++s) after.spooky[s] |= std::uint64_t(quantum::kPairImage[s][m] + 1) << shift;
    return after;
  }
  // The smallest hash() over the images (canonical_hash()).
  std::uint64_t key_of(const SearchState& state) const noexcept {
    std::uint64_t best = ~std::uint64_t{0};
    for (int s = 0; s < 8; ++s) best = std::min(best, bits::combine(bits::mix(state.classical[s]), state.spooky[s]));
    return best;
  }
  // Whether p can still make a line of classical marks: a line with no
  // classical mark of the opponent whose free cells are no more than p's
  // marks that may still land somewhere (p's spooky marks and p's marks not
  // yet written). False: at best a draw for p.
  bool can_still_win(Player p) const noexcept;
  // The solver's tactical hook (Tactics in game.hpp). A spooky move never
  // ends the game; one that closes a cycle lets the opponent choose the
  // collapse, so it loses at once when landing the new mark in either of
  // its cells gives the opponent the game (dropped, 2 plies). Where the
  // mark lands decides the whole collapse (the rest of the component is a
  // tree hanging from that cell), so the outcome is played out once per
  // cell, not once per move. A collapse choice or the last cell is played
  // out: it wins, loses (dropped, 1 ply) or goes on. The hint of a spooky
  // pair: cycles first (quantum.cpp says in which order), then the lines
  // through its cells still open to a player, each counting more the more
  // classical marks of that player it holds.
  Tactics tactics(MoveList& moves, int* hints, const SearchState& state) const noexcept;

  friend bool operator==(const Quantum& a, const Quantum& b) noexcept {
    return a.classical_ == b.classical_ && a.spooky_ == b.spooky_;
  }

  // ---- reading the position ----

  // Marks written so far: the number of the newest mark (0 at the start).
  int marks_written() const noexcept { return written_; }
  // The number of the classical mark in a cell, 0 if the cell has none.
  int classical(int cell) const noexcept { return static_cast<int>((classical_ >> (4 * cell)) & 15); }
  // Cells holding a classical mark of X (0) or O (1).
  std::uint16_t classical_cells(int player) const noexcept { return owned_[player]; }
  std::uint16_t free_cells() const noexcept { return board3::kFull & ~(owned_[0] | owned_[1]); }
  // The pair id of mark k while it is spooky, -1 once classical or not yet written.
  int spooky_pair(int k) const noexcept { return pair_of(k); }
  // Whether the newest mark closed a cycle that its chooser must collapse.
  bool collapse_pending() const noexcept { return pending_; }
  // For each player, the earliest completion of a classical line of theirs:
  // the smallest over their lines of the highest mark in the line, or
  // quantum::kNoLine. This is what decides a game with lines for both.
  std::array<int, 2> line_times() const noexcept;

  // What legal_moves() lists, as a bit set of ids (all 54 fit a word).
  std::uint64_t legal_ids() const noexcept {
    using namespace quantum;
    if (outcome_.over()) return 0;
    if (pending_) {  // the pending mark lands in one of its two cells
      const int p = pair_of(written_);
      return p < 0 ? 0 : bits::bit(kCollapse + kPair.a[p]) | bits::bit(kCollapse + kPair.b[p]);
    }
    const unsigned free = free_cells();
    if ((free & (free - 1)) == 0) return bits::bit(kLastCell + bits::lowest(free));  // one free cell left
    return kPairsWithin[free];
  }
  // The lines of classical marks of one player (after a collapse that gave
  // both players lines, both players' lines).
  std::vector<CompletedLine> completed_lines() const;

  // ---- text and ids (not hot) ----
  int num_actions() const noexcept { return quantum::kNumActions; }
  // Nine marks at most, and each collapse makes at least two cells
  // classical, so at most four collapse choices: 13 moves.
  static constexpr int max_game_length() noexcept { return 13; }
  // Whether the move id m is legal: what why_illegal(m).empty() says,
  // without building the message (VectorGame tests every action of a batch).
  bool is_legal(Move m) const noexcept { return m >= 0 && m < quantum::kNumActions && (legal_ids() >> m & 1); }
  // A uniformly random legal move of a game that is not over: the move
  // legal_moves()[rng.below(size)] would give, without building the list.
  Move random_move(Rng& rng) const noexcept {
    const std::uint64_t ids = legal_ids(), totals = bits::byte_totals(ids);
    return bits::nth_set_bit(ids, totals, rng.below(static_cast<std::uint32_t>(bits::count_of(totals))));
  }
  // The cells a move marks: both cells of a spooky pair, the cell a
  // collapse choice puts the pending mark in, or the last free cell.
  std::vector<int> move_cells(Move m) const;
  std::string why_illegal(Move m) const;
  std::string move_name(Move m) const;
  Move parse_move(std::string_view text) const;
  std::string to_string() const;
  static Quantum from_string(std::string_view text);
  std::string render() const;
  // One line for people: whose turn it is and what they play, or the result
  // and why (render() of Ultimate and Quantum ends with it).
  std::string status() const;
  // A finished game's result in full sentences: who won and why, in the
  // rules' terms, with the cells or boards that decided it. A game still
  // being played gets its status().
  std::string explanation() const;

  // ---- learning (cpp/src/quantum_planes.cpp) ----
  // Thirteen 3x3 planes, seen by `view`: classical marks of view, of the
  // other player; for t = 1..9 the cells holding spooky mark t (planes
  // 2..10; odd t are X's); the two cells of a pending collapse; cells
  // without a classical mark.
  static constexpr ObservationShape observation_shape() noexcept { return {13, 3, 3}; }
  void observe(std::uint8_t* out, Player view) const noexcept;
  // num_actions() bytes: 1 where the move id is legal.
  void write_legal_mask(std::uint8_t* out) const noexcept;

 private:
  int pair_of(int k) const noexcept {
    if (k < 1 || k > 9) return -1;
    return static_cast<int>((spooky_ >> (6 * (k - 1))) & 63) - 1;
  }

  // The next mark, spooky in cells a and b. A pair whose cells are already
  // entangled closes a cycle: the collapse waits for the chooser's move.
  void write_pair(int a, int b) noexcept {
    const int k = ++written_;
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
    for (int k = 1; k < written_; ++k) {
      const int p = pair_of(k);
      if (p < 0 || !(component >> quantum::kPair.a[p] & 1)) continue;
      mark[m] = static_cast<std::uint8_t>(k);
      a[m] = quantum::kPair.a[p];
      b[m] = quantum::kPair.b[p];
      spooky_ &= ~(std::uint64_t{63} << (6 * (k - 1)));
      ++m;
    }
    spooky_ &= ~(std::uint64_t{63} << (6 * (written_ - 1)));
    land(written_, cell);
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
    for (auto l : board3::kLines) line |= (owned_[0] & l) == l || (owned_[1] & l) == l;
    if (!line) {
      if ((owned_[0] | owned_[1]) == board3::kFull) outcome_ = Outcome::draw();
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
  std::uint8_t written_ = 0;
  std::uint8_t ply_ = 0;
  bool pending_ = false;
  Outcome outcome_{};
};

inline std::array<int, 2> Quantum::line_times() const noexcept {
  std::array<int, 2> t = {quantum::kNoLine, quantum::kNoLine};
  for (int p = 0; p < 2; ++p) {
    for (auto line : board3::kLines) {
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
