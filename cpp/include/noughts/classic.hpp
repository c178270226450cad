// Classic: m x n boards, k in a row, with misere, free choice and gravity
// in any combination (docs/rules.md section 1).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "noughts/bits.hpp"
#include "noughts/game.hpp"
#include "noughts/move_list.hpp"
#include "noughts/player.hpp"
#include "noughts/rng.hpp"

namespace noughts {

struct ClassicOptions {
  int rows = 3;
  int cols = 3;
  int k = 0;  // 0 takes the default of docs/rules.md (see default_k)
  bool misere = false;
  bool free_choice = false;
  bool gravity = false;
  friend bool operator==(const ClassicOptions&, const ClassicOptions&) = default;
};

// docs/rules.md: 3 when the shorter side is at most 3, 4 when it is 4 or 5, else
// 5, and never more than the longer side.
int default_k(int rows, int cols);

// Everything precomputed for one configuration. Rules are interned: get()
// returns the one instance for a set of options, alive until the program
// ends, so a position holds a plain pointer and copying it stays cheap.
class ClassicRules {
 public:
  static constexpr int kMaxCells = 64;
  static constexpr int kMaxSymmetries = 8;

  // Validates the options (throws InvalidOptionError) and resolves k = 0.
  static const ClassicRules& get(ClassicOptions options);

  const ClassicOptions& options() const noexcept { return options_; }
  int rows() const noexcept { return options_.rows; }
  int cols() const noexcept { return options_.cols; }
  int k() const noexcept { return options_.k; }
  int cells() const noexcept { return cells_; }
  bool misere() const noexcept { return options_.misere; }
  bool free_choice() const noexcept { return options_.free_choice; }
  bool gravity() const noexcept { return options_.gravity; }
  // Gravity, played in turn, won by a line (neither option): one flag for
  // the solver's hot path.
  bool gravity_in_turn() const noexcept { return gravity_in_turn_; }
  int num_actions() const noexcept { return (gravity() ? cols() : cells_) * (free_choice() ? 2 : 1); }
  // Misere's mirror strategy: a symmetry of the board (0: none) under which
  // a player can answer every move at cell c with the mirror cell in the
  // other symbol and never complete a line. It holds when each line either
  // shares no cell with its image, so a line the answer would complete is
  // the image of one the move before it completed (which lost already), or
  // holds a cell and its image, which then hold different symbols, so no
  // one ever completes it. The symmetry fixes at most one cell,
  // mirror_centre() (0 when none): the board's centre, which the player to
  // move takes first. So where the marks are each other's images in the
  // other symbol (the centre aside), the player who just moved cannot lose
  // if the centre is filled or there is none, and the player to move cannot
  // lose if it is empty. With gravity only the left-right mirror keeps the
  // bottom (an even number of columns); without it, a mirror between two
  // halves of an even side, or the half turn of an odd-by-odd board whose
  // lines through the centre pass over it (k - 2 cells or fewer on each
  // side of it, or lines too short to fit).
  int mirror() const noexcept { return mirror_; }
  std::uint64_t mirror_centre() const noexcept { return mirror_centre_; }

  std::uint64_t board_mask() const noexcept { return board_mask_; }
  std::uint64_t top_row() const noexcept { return top_row_; }
  std::uint64_t column(int c) const noexcept { return columns_[c]; }
  // The column of a cell (a table: a division costs more in the solver's hot loop).
  int column_of(int cell) const noexcept { return column_of_[cell]; }
  // The lines (k cells in a row) through a cell, as bit masks.
  const std::uint64_t* lines_begin(int cell) const noexcept { return cell_lines_.data() + cell_first_[cell]; }
  const std::uint64_t* lines_end(int cell) const noexcept { return cell_lines_.data() + cell_first_[cell + 1]; }
  const std::vector<std::uint64_t>& all_lines() const noexcept { return lines_; }
  // Boards of up to 64 lines: bit i is line i of all_lines(); line_bits(cell)
  // the lines through the cell, all_line_bits() every line. Larger boards: 0.
  std::uint64_t line_bits(int cell) const noexcept { return line_bits_[cell]; }
  std::uint64_t all_line_bits() const noexcept { return all_line_bits_; }
  // Boards of up to kMaxTableCells cells keep a bit per set of cells: does it
  // hold a line? One load then answers what a loop over lines would.
  static constexpr int kMaxTableCells = 16;
  bool has_line_table() const noexcept { return !has_line_.empty(); }
  bool has_line(std::uint64_t cells) const noexcept { return has_line_[cells >> 6] >> (cells & 63) & 1; }

  // Where the gravity tactics keep a symbol's marks, a word each: the cells
  // (bit row * cols + col, row 0 at the top), or the columns, on gravity
  // boards whose columns fit a word with a bit to spare each ((rows + 1) *
  // cols <= 64): the cell at height h of column c (h = 0 at the bottom) is
  // bit (rows + 1) * c + h. The spare bit above each column stops a shift
  // along any direction from running on into the next column, so that
  // completions and line tests in the columns need no masks against
  // wrapping, and the empty cells a mark can drop into are one addition.
  enum class Layout { Cells, Columns };
  bool column_layout() const noexcept { return column_layout_; }
  // The cell's bit in the columns (0 on boards without them).
  std::uint64_t column_bit(int cell) const noexcept { return column_bits_[cell]; }

  // The board's cells, and those of column c, in a layout.
  template <Layout L>
  std::uint64_t board() const noexcept {
    return L == Layout::Cells ? board_mask_ : column_board_;
  }
  template <Layout L>
  std::uint64_t column_in(int c) const noexcept {
    return L == Layout::Cells ? columns_[c] : column_cells_[c];
  }
  // With gravity: the empty cells a mark can drop into, given the occupied ones.
  template <Layout L>
  std::uint64_t playable(std::uint64_t occupied) const noexcept {
    if constexpr (L == Layout::Cells) return board_mask_ & ~occupied & (bottom_row_ | occupied >> cols());
    else return (occupied + column_bottom_) & column_board_;  // each column's lowest empty cell
  }
  // The cells whose height has the parity of the board's (h = 0 at the
  // bottom): where every column has an even number of empty cells, the
  // lowest empty cell of each column and every second one above it. The
  // player to move there gets exactly these of the empty cells if the
  // opponent answers each move with the cell right above it (Allis'
  // "claimeven"), and the opponent gets the others.
  template <Layout L>
  std::uint64_t follow_up_cells() const noexcept {
    return L == Layout::Cells ? follow_up_cells_ : column_follow_up_cells_;
  }
  // The cells right under `cells`.
  template <Layout L>
  std::uint64_t below(std::uint64_t cells) const noexcept {
    if constexpr (L == Layout::Cells) return (cells << cols()) & board_mask_;
    else return (cells >> 1) & column_board_;
  }
  // The cells of column c under `cell` (a cell of that column).
  template <Layout L>
  std::uint64_t under(std::uint64_t cell, int c) const noexcept {
    // Heights grow with the bit in the columns, and shrink in the cells (row 0 at the top).
    if constexpr (L == Layout::Cells) return column_in<L>(c) & ~((cell << 1) - 1);
    else return column_in<L>(c) & (cell - 1);
  }
  // The lowest of `cells` (some cells of one column).
  template <Layout L>
  static std::uint64_t lowest_of(std::uint64_t cells) noexcept {
    if constexpr (L == Layout::Cells) return cells ? bits::bit(bits::highest(cells)) : 0;
    else return cells & (0 - cells);
  }
  // The column of the cell at bit b of a layout.
  template <Layout L>
  int column_at(int b) const noexcept {
    return L == Layout::Cells ? column_of_[b] : column_at_[b];
  }
  // The columns holding a cell of `cells`, as bit c for column c.
  template <Layout L = Layout::Cells>
  std::uint64_t columns_of(std::uint64_t cells) const noexcept {
    std::uint64_t out = 0;
    if constexpr (L == Layout::Cells) {
      for (int row = 0; row < rows(); ++row) out |= cells >> (row * cols());
      return out & top_row_;
    } else {
      for (; cells; cells &= cells - 1) out |= bits::bit(column_at_[std::countr_zero(cells)]);
      return out;
    }
  }

  // The empty or filled cells that would complete a line for a symbol
  // holding `own` (the caller keeps the empty ones), by shifts of the whole
  // board along each direction instead of a visit of every line: a cell
  // completes a line when, along one direction, the a cells before it and
  // the k - 1 - a cells after it are own, for some a. A few dozen word
  // operations for any board, where the lines of a large board number in
  // the dozens. Always inlined (as holds_line), so that the hot callers'
  // x86-64-v3 clones (hot_clones.hpp) have them in their instruction set.
  template <Layout L = Layout::Cells>
  [[gnu::always_inline]] std::uint64_t completions(std::uint64_t own) const noexcept {
    // The usual k as constants, so the compiler unrolls the shifts.
    // Boards with all four directions (most), where the compiler has vector
    // extensions, take them at once as the lanes of one vector.
    const bool lanes = kHasLanes && num_directions_ == 4;
    switch (options_.k) {
      case 3: return lanes ? lanes_completions<3, L>(own) : completions_of<3, L>(own);
      case 4: return lanes ? lanes_completions<4, L>(own) : completions_of<4, L>(own);
      case 5: return lanes ? lanes_completions<5, L>(own) : completions_of<5, L>(own);
      default: return completions_of<0, L>(own);
    }
  }
  // Whether the cells `open` hold a whole line (open: free of a symbol's
  // opponent, so that symbol can still complete a line there).
  template <Layout L = Layout::Cells>
  [[gnu::always_inline]] bool holds_line(std::uint64_t open) const noexcept {
    if (kHasLanes && num_directions_ == 4) {
      switch (options_.k) {
        case 3: return lanes_hold_line<3, L>(open);
        case 4: return lanes_hold_line<4, L>(open);
        case 5: return lanes_hold_line<5, L>(open);
        default: break;
      }
    }
    const Directions& dirs = directions_[static_cast<int>(L)];
    for (int d = 0; d < num_directions_; ++d) {
      const std::uint64_t step = dirs.step[d];
      // pair: open cells whose next cell along the direction is open too;
      // a run of j + 1 open cells is j pairs in a row.
      std::uint64_t pair = open & (open >> step);
      if constexpr (L == Layout::Cells) pair &= dirs.ahead[d];
      std::uint64_t run = open;
      for (int j = 1; j < options_.k && run; ++j) run &= pair >> ((j - 1) * step);
      if (run) return true;
    }
    return false;
  }

  int num_symmetries() const noexcept { return num_symmetries_; }
  // Gravity boards of more than 32 cells whose columns fit one word with a
  // bit to spare each: a column of height h is written as 2^h plus 2^i for
  // each O at height i, so a word per image tells the position exactly.
  // stack_bits(cell)[s]: 2^(height of the cell) in its column's field under
  // symmetry s; a mark of symbol y there adds (1 + y) times it (the column's
  // top marker moves up one, and an O sets its own bit).
  bool stacked_keys() const noexcept { return stacked_keys_; }
  // Whether the solver's key merges dead cells (Classic::key_of): boards
  // without gravity, of up to 64 lines, whose exact key has 6 bits to spare
  // for the count of empty dead cells (up to 26 cells).
  static constexpr int kMaxDeadMergingCells = 26;
  bool merges_dead_cells() const noexcept { return merges_dead_cells_; }
  std::uint64_t empty_stacks() const noexcept { return column_bottom_; }
  const std::array<std::uint64_t, 2>& stack_bits(int cell) const noexcept { return stack_bits_[cell]; }
  int map_cell(int symmetry, int cell) const noexcept { return symmetry_map_[symmetry][cell]; }
  // [s]: the cell's image under symmetry s, as a bit (0 past the symmetries).
  const std::array<std::uint64_t, kMaxSymmetries>& image_bits(int cell) const noexcept { return image_bits_[cell]; }
  std::uint64_t map_bits(int symmetry, std::uint64_t b) const noexcept {
    if (symmetry == 0) return b;
    // Byte-wise lookup: eight table reads instead of a loop over the bits.
    const std::uint64_t* t = byte_maps_.data() + static_cast<std::size_t>(symmetry) * 8 * 256;
    std::uint64_t out = 0;
    for (int byte = 0; byte < 8 && b; ++byte, b >>= 8) out |= t[byte * 256 + (b & 0xff)];
    return out;
  }

  // Cell naming: column letters (a, b, ..., z, aa, ab, ...) and row numbers
  // from 1 at the top, so names sort like ids.
  std::string cell_name(int cell) const;

 private:
  explicit ClassicRules(const ClassicOptions& resolved);

  ClassicOptions options_;
  int cells_ = 0;
  std::uint64_t board_mask_ = 0;
  std::uint64_t top_row_ = 0;
  std::array<std::uint64_t, kMaxCells> columns_{};
  std::array<std::uint8_t, kMaxCells> column_of_{};
  std::vector<std::uint64_t> lines_;
  std::array<std::uint64_t, kMaxCells> line_bits_{};
  std::uint64_t all_line_bits_ = 0;
  std::vector<std::uint64_t> cell_lines_;
  std::array<std::uint16_t, kMaxCells + 1> cell_first_{};
  int num_symmetries_ = 1;
  std::array<std::array<std::uint8_t, kMaxCells>, kMaxSymmetries> symmetry_map_{};
  std::array<std::array<std::uint64_t, kMaxSymmetries>, kMaxCells> image_bits_{};
  std::vector<std::uint64_t> byte_maps_;  // [symmetry][byte][value] -> mapped bits
  bool stacked_keys_ = false;
  bool merges_dead_cells_ = false;
  int mirror_ = 0;
  std::uint64_t mirror_centre_ = 0;
  std::array<std::array<std::uint64_t, 2>, kMaxCells> stack_bits_{};
  bool column_layout_ = false;
  bool gravity_in_turn_ = false;
  std::uint64_t bottom_row_ = 0;
  std::uint64_t column_board_ = 0, column_bottom_ = 0;
  std::uint64_t follow_up_cells_ = 0, column_follow_up_cells_ = 0;
  std::array<std::uint64_t, kMaxCells> column_bits_{};
  std::array<std::uint64_t, kMaxCells> column_cells_{};  // [c]: column c's cells in the columns
  std::array<std::uint8_t, 64> column_at_{};
  // completions() for k = K, or any k with K = 0.
  template <int K, Layout L>
  [[gnu::always_inline]] std::uint64_t completions_of(std::uint64_t own) const noexcept {
    const int k = K ? K : options_.k;
    std::uint64_t out = 0;
    const Directions& dirs = directions_[static_cast<int>(L)];
    for (int d = 0; d < num_directions_; ++d) {
      const std::uint64_t step = dirs.step[d];
      // ahead[a]: cells whose a next cells along the direction are own;
      // behind[b] the same backwards. In the cells only the first step needs
      // the mask against wrapping round a row: a longer run is a chain of
      // first steps, each from a cell the run has already reached on the
      // board. In the columns no step needs it.
      std::array<std::uint64_t, K ? K : kMaxCells> ahead, behind;
      ahead[0] = behind[0] = board<L>();
      if (k > 1) {
        ahead[1] = own >> step;
        behind[1] = own << step;
        if constexpr (L == Layout::Cells) ahead[1] &= dirs.ahead[d], behind[1] &= dirs.behind[d];
      }
      for (int j = 2; j < k; ++j) {
        ahead[j] = ahead[j - 1] & (ahead[1] >> ((j - 1) * step));
        behind[j] = behind[j - 1] & (behind[1] << ((j - 1) * step));
      }
      for (int a = 0; a < k; ++a) out |= ahead[a] & behind[k - 1 - a];
    }
    // In the columns a run can pass over a column's spare bit (its two
    // sides are cells of two columns): never a cell.
    return L == Layout::Cells ? out : out & column_board_;
  }

#if defined(__GNUC__)  // GCC and Clang: vector extensions
  static constexpr bool kHasLanes = true;
  using Lanes = std::uint64_t __attribute__((vector_size(32)));
  // completions_of() over the four directions at once, lane d for direction
  // d: the same steps, each one vector instruction for all four directions
  // in the hot clones (AVX2) where the loop takes four.
  template <int K, Layout L>
  [[gnu::always_inline]] std::uint64_t lanes_completions(std::uint64_t own) const noexcept {
    const Directions& dl = directions_[static_cast<int>(L)];
    Lanes step, ahead_mask, behind_mask;
    std::memcpy(&step, dl.step.data(), sizeof step);
    std::memcpy(&ahead_mask, dl.ahead.data(), sizeof ahead_mask);
    std::memcpy(&behind_mask, dl.behind.data(), sizeof behind_mask);
    const Lanes x = {own, own, own, own};
    // run[j - 1]: ahead[j] of completions_of() (ahead[0], every cell of the
    // board, is left out: the final mask has it); back[j - 1]: behind[j].
    std::array<Lanes, K - 1> run, back;
    run[0] = (x >> step) & ahead_mask;
    back[0] = (x << step) & behind_mask;
    for (int j = 2; j < K; ++j) {
      const Lanes by = step * static_cast<std::uint64_t>(j - 1);
      run[j - 1] = run[j - 2] & (run[0] >> by);
      back[j - 1] = back[j - 2] & (back[0] << by);
    }
    Lanes lanes = run[K - 2] | back[K - 2];
    for (int a = 1; a < K - 1; ++a) lanes |= run[a - 1] & back[K - 2 - a];
    return (lanes[0] | lanes[1] | lanes[2] | lanes[3]) & board<L>();
  }
  // holds_line() the same way.
  template <int K, Layout L>
  [[gnu::always_inline]] bool lanes_hold_line(std::uint64_t open) const noexcept {
    const Directions& dl = directions_[static_cast<int>(L)];
    Lanes step, ahead_mask;
    std::memcpy(&step, dl.step.data(), sizeof step);
    std::memcpy(&ahead_mask, dl.ahead.data(), sizeof ahead_mask);
    const Lanes x = {open, open, open, open};
    const Lanes pair = x & (x >> step) & ahead_mask;
    Lanes run = pair;
    for (int j = 2; j < K; ++j) run &= pair >> (step * static_cast<std::uint64_t>(j - 1));
    return ((run[0] | run[1]) | (run[2] | run[3])) != 0;
  }
#else
  static constexpr bool kHasLanes = false;
  template <int K, Layout L>
  std::uint64_t lanes_completions(std::uint64_t own) const noexcept { return completions_of<K, L>(own); }
  template <int K, Layout L>
  bool lanes_hold_line(std::uint64_t) const noexcept { return false; }  // never called
#endif

  // The directions that hold a line, in each layout, for completions(): the
  // step of a bit along direction d, and in the cells those whose next
  // neighbour along it (ahead) or against it (behind) is on the board, since
  // a shift by one step must not wrap round a row (all ones in the columns,
  // which need no mask). Each field an array by direction, so that the
  // four directions load as the lanes of one vector.
  struct Directions {
    std::array<std::uint64_t, 4> step{}, ahead{}, behind{};
  };
  std::array<Directions, 2> directions_{};  // [layout]
  int num_directions_ = 0;
  std::vector<std::uint64_t> has_line_;   // bit m: the cells m hold a line (small boards only)
};

class Classic {
 public:
  static constexpr int kMaxActions = 2 * ClassicRules::kMaxCells;
  using MoveList = noughts::MoveList<kMaxActions>;

  explicit Classic(const ClassicOptions& options = {}) : Classic(ClassicRules::get(options)) {}
  explicit Classic(const ClassicRules& rules) noexcept : rules_(&rules) {}

  const ClassicRules& rules() const noexcept { return *rules_; }
  // Whether another position is of the same rules (interned: one object per set of options).
  bool same_rules(const Classic& other) const noexcept { return rules_ == other.rules_; }

  // ---- the game concept (hot paths, inline) ----
  Player to_move() const noexcept { return static_cast<Player>(ply_ & 1); }
  int ply() const noexcept { return ply_; }
  Outcome outcome() const noexcept { return outcome_; }
  std::uint64_t occupied() const noexcept { return marks_[0] | marks_[1]; }
  // Cells holding the symbol X (0) or O (1). Without free choice the symbol
  // is the player's; with it either player may have written either.
  std::uint64_t marks(int symbol) const noexcept { return marks_[symbol]; }

  // What legal_moves() lists, as a bit set of bases: without gravity the
  // empty cells, with it the columns whose top cell is empty (the top row's
  // cells are 0..cols-1, so bit c is column c). The move ids are the bases,
  // or with free choice 2 * base + symbol. Empty once the game is over.
  std::uint64_t legal_bases() const noexcept {
    if (outcome_.over()) return 0;
    const auto& r = *rules_;
    return (r.gravity() ? r.top_row() : r.board_mask()) & ~occupied();
  }
  // The cells a move can write now: empty cells, or with gravity the lowest
  // empty cell of each column.
  std::uint64_t playable_cells() const noexcept;

  void legal_moves(MoveList& out) const noexcept {
    out.clear();
    const std::uint64_t bases = legal_bases();
    if (rules_->free_choice()) {
      bits::for_each(bases, [&](int b) { out.push(2 * b); out.push(2 * b + 1); });
    } else {
      bits::for_each(bases, [&](int b) { out.push(b); });
    }
  }

  void play(Move m) noexcept {
    const auto& r = *rules_;
    const int symbol = r.free_choice() ? (m & 1) : (ply_ & 1);
    const int base = r.free_choice() ? (m >> 1) : m;
    const int cell = r.gravity() ? bits::highest(r.column(base) & ~occupied()) : base;
    marks_[symbol] |= bits::bit(cell);
    const Player mover = to_move();
    ++ply_;
    if (completes_line(cell, marks_[symbol])) {
      outcome_ = r.misere() ? Outcome::win(opponent(mover), Termination::MisereLine)
                            : Outcome::win(mover, Termination::Line);
    } else if (ply_ == r.cells()) {
      outcome_ = Outcome::draw();
    }
  }

  std::uint64_t hash() const noexcept { return bits::combine(bits::mix(marks_[0]), marks_[1]); }
  // The same for every symmetric image of the position, and with free
  // choice for its image with X and O swapped (the solver's table key;
  // key_of below says how it is made).
  std::uint64_t canonical_hash() const noexcept { return key_of(search_state()); }
  // What the solver carries down its search path for a position (optional
  // hook, search/hooks.hpp), kept by a few ORs a move instead of being
  // recomputed at every node: the position's images under the symmetries
  // (its canonical key is key_of(state)), and
  // which lines each symbol has entered, so the tactics visit only the lines
  // still live (boards of up to 64 lines).
  struct SearchState {
    // Up to 32 cells: [s] holds image s of both symbols (X in bits 0..31,
    // O in 32..63), and where dead cells merge (merges_dead_cells())
    // [kMaxSymmetries + s] image s of the dead cells; larger gravity boards with stacked keys: [s] the
    // columns of image s (ClassicRules::stack_bits), [2 + s] the same with
    // X and O swapped (what free choice's keys also read); other larger boards:
    // [2s] X's image, [2s + 1] O's.
    std::array<std::uint64_t, 2 * ClassicRules::kMaxSymmetries> images;
    // Bit i of [symbol]: line i of the rules holds that symbol.
    std::array<std::uint64_t, 2> entered;
    // [symbol]: its marks in the columns (ClassicRules::Layout::Columns) on
    // boards that have them, for the gravity tactics; else 0.
    std::array<std::uint64_t, 2> columns;
  };
  SearchState search_state() const noexcept {
    const auto& r = *rules_;
    SearchState state;
    for (int s = 0; s < r.num_symmetries(); ++s) {
      if (r.stacked_keys()) {
        // [2 + s]: image s with the symbols swapped (free choice's keys).
        state.images[s] = state.images[2 + s] = r.empty_stacks();
        for (int symbol = 0; symbol < 2; ++symbol)
          bits::for_each(marks_[symbol], [&](int cell) {
            state.images[s] += r.stack_bits(cell)[s] << symbol;
            state.images[2 + s] += r.stack_bits(cell)[s] << (symbol ^ 1);
          });
        continue;
      }
      const std::uint64_t x = r.map_bits(s, marks_[0]), o = r.map_bits(s, marks_[1]);
      if (r.cells() <= 32) state.images[s] = x | o << 32;
      else state.images[2 * s] = x, state.images[2 * s + 1] = o;
    }
    state.entered = state.columns = {0, 0};
    for (int symbol = 0; symbol < 2; ++symbol)
      bits::for_each(marks_[symbol], [&](int cell) {
        state.entered[symbol] |= r.line_bits(cell);
        state.columns[symbol] |= r.column_bit(cell);
      });
    if (r.merges_dead_cells()) {
      const std::uint64_t dead = dead_cells(state.entered);
      for (int s = 0; s < ClassicRules::kMaxSymmetries; ++s)  // past the symmetries 0, as image_bits()
        state.images[kDeadImages + s] = s < r.num_symmetries() ? r.map_bits(s, dead) : 0;
    }
    return state;
  }
  // The state after the legal move m, from this position's.
  SearchState search_state_after(const SearchState& state, Move m) const noexcept {
    const auto& r = *rules_;
    const int symbol = r.free_choice() ? (m & 1) : (ply_ & 1);
    const int cell = target_cell(m);
    SearchState after = state;
    if (r.cells() <= 32) {
      // All eight words, used or not (unused symmetries add nothing): a
      // fixed count the compiler unrolls.
      const int shift = 32 * symbol;
      for (int s = 0; s < ClassicRules::kMaxSymmetries; ++s) after.images[s] |= r.image_bits(cell)[s] << shift;
    } else if (r.stacked_keys()) {
      // (1 + symbol) times the cell's bit: both images and their swaps,
      // a fixed count (the swaps are read only with free choice).
      after.images[0] += r.stack_bits(cell)[0] << symbol;
      after.images[1] += r.stack_bits(cell)[1] << symbol;
      after.images[2] += r.stack_bits(cell)[0] << (symbol ^ 1);
      after.images[3] += r.stack_bits(cell)[1] << (symbol ^ 1);
    } else {
      for (int s = 0; s < r.num_symmetries(); ++s) after.images[2 * s + symbol] |= bits::bit(r.map_cell(s, cell));
    }
    after.entered[symbol] |= r.line_bits(cell);
    after.columns[symbol] |= r.column_bit(cell);
    if (r.merges_dead_cells()) {
      // Cells only die (marks stay), and only where a line through this
      // cell has just taken its second symbol: those lines' cells whose
      // every line now holds both die with them.
      const std::uint64_t closed = after.entered[0] & after.entered[1];
      if (const std::uint64_t newly = r.line_bits(cell) & closed & ~(state.entered[0] & state.entered[1])) {
        std::uint64_t candidates = 0;
        for (std::uint64_t i = newly; i; i &= i - 1) candidates |= r.all_lines()[bits::lowest(i)];
        bits::for_each(candidates & ~state.images[kDeadImages], [&](int c) {
          if ((r.line_bits(c) & ~closed) == 0)
            for (int s = 0; s < ClassicRules::kMaxSymmetries; ++s) after.images[kDeadImages + s] |= r.image_bits(c)[s];
        });
      }
    }
    return after;
  }
  // The canonical key of the state's position. Up to 32 cells both marks fit
  // one word, and the smallest image of that word, mixed (a bijection), is
  // an exact key: no two positions share it; so are the stacked keys of
  // larger gravity boards. Other boards take the smallest hash() of the
  // images. With free choice the images with X and O swapped count too:
  // either player may write either symbol and a line of either is credited
  // to whoever completes it, so swapping every mark changes nothing of the
  // game (the same player is to move, with the same moves and lines), and a
  // first move and its swap (b2=X, b2=O) lead to one subtree, not two.
  // Without gravity, dead cells are merged too (merges_dead_cells()): a
  // cell is dead when every line through it holds both symbols, so no mark
  // there can ever count. What such a cell holds is then irrelevant, and an
  // empty one is a pure tempo move that any other empty dead cell replaces;
  // positions alike but for the marks in their dead cells, with as many of
  // them empty, have the same value and distance, and share one key. In the
  // long avoidance endgames of misere and free choice most cells die, and
  // merging them finds two to four times as many transpositions.
  std::uint64_t key_of(const SearchState& state) const noexcept {
    const auto& r = *rules_;
    const bool swaps = r.free_choice();
    if (r.cells() <= 32) {
      if (r.merges_dead_cells())
        if (const std::uint64_t dead = state.images[kDeadImages]) {
          // A dead cell in the word is both bits (which no mark writes),
          // whatever it holds; the count of empty ones goes above the
          // cells, the same for every image.
          const std::uint64_t marked = (state.images[0] | state.images[0] >> 32) & 0xffffffffu;
          const auto empty_dead = static_cast<std::uint64_t>(std::popcount(dead & ~marked));
          std::uint64_t best = ~std::uint64_t{0};
          for (int s = 0; s < r.num_symmetries(); ++s) {
            const std::uint64_t d = state.images[kDeadImages + s], both = d | d << 32;
            const std::uint64_t word = state.images[s] | both;
            best = std::min(best, word);
            if (swaps) best = std::min(best, std::rotl(word, 32));
          }
          return bits::mix(best | empty_dead << ClassicRules::kMaxDeadMergingCells);
        }
      std::uint64_t best = state.images[0];
      for (int s = 1; s < r.num_symmetries(); ++s) best = std::min(best, state.images[s]);
      if (swaps)  // X in the low half, O in the high: the swap is a rotation by 32
        for (int s = 0; s < r.num_symmetries(); ++s) best = std::min(best, std::rotl(state.images[s], 32));
      return bits::mix(best);
    }
    if (r.stacked_keys()) {
      std::uint64_t best = std::min(state.images[0], state.images[1]);
      if (swaps) best = std::min({best, state.images[2], state.images[3]});
      return bits::mix(best);
    }
    std::uint64_t best = bits::combine(bits::mix(state.images[0]), state.images[1]);
    for (int s = 1; s < r.num_symmetries(); ++s)
      best = std::min(best, bits::combine(bits::mix(state.images[2 * s]), state.images[2 * s + 1]));
    if (swaps)
      for (int s = 0; s < r.num_symmetries(); ++s)
        best = std::min(best, bits::combine(bits::mix(state.images[2 * s + 1]), state.images[2 * s]));
    return best;
  }
  // Where the search state keeps the dead cells' images (boards of up to
  // 32 cells, whose images take the first kMaxSymmetries words).
  static constexpr int kDeadImages = ClassicRules::kMaxSymmetries;
  // The dead cells of a position whose symbols have entered these lines:
  // those on no line free of one symbol (boards of up to 64 lines).
  std::uint64_t dead_cells(const std::array<std::uint64_t, 2>& entered) const noexcept {
    const auto& r = *rules_;
    std::uint64_t live_cells = 0;
    for (std::uint64_t i = r.all_line_bits() & ~(entered[0] & entered[1]); i; i &= i - 1)
      live_cells |= r.all_lines()[bits::lowest(i)];
    return r.board_mask() & ~live_cells;
  }
  // The solver's tactical hook (Tactics in game.hpp), from one pass over the
  // lines: immediate wins, forced blocks and moves that lose at once or let
  // the opponent win at once, found from the cells that complete a line
  // rather than by playing every move; `moves` keeps the order of
  // legal_moves(). The hint of a move (0..kMaxHint, higher first): the lines
  // through its cell still open to a symbol, each counting more the fuller
  // it is (2^marks), so cells that extend or block the most advanced lines
  // come first. In misere completing a line loses, and the order is reversed
  // (quiet cells first), but for misere with free choice on boards without
  // gravity, where the marks that kill the most live lines come first, and
  // then the cells on the most advanced lines (classic.cpp says why).
  // Doubling per mark orders best: steeper weights
  // over-value one advanced line, flatter ones (or counting open lines
  // alone) lose the threats, and the search grows several times larger.
  static constexpr int kMaxHint = (1 << 14) - 1;
  // The state must be this position's (search_state() or kept along the path).
  // On gravity boards played in turn (not misere, not free choice) the hint
  // of a move is the number of completion cells it gives the mover, then its
  // nearness to the centre, and it is left to order_hints(): the solver asks
  // for it only where the table does not settle the node.
  Tactics tactics(MoveList& moves, int* hints, const SearchState& state) const noexcept;
  void order_hints(const MoveList& moves, int* hints, const SearchState& state) const noexcept;
  int num_symmetries() const noexcept { return rules_->num_symmetries(); }
  Classic symmetric(int s) const noexcept {
    Classic g = *this;
    g.marks_[0] = rules_->map_bits(s, marks_[0]);
    g.marks_[1] = rules_->map_bits(s, marks_[1]);
    return g;
  }

  friend bool operator==(const Classic& a, const Classic& b) noexcept {
    return a.rules_ == b.rules_ && a.marks_[0] == b.marks_[0] && a.marks_[1] == b.marks_[1];
  }

  // ---- text and ids (not hot) ----
  int num_actions() const noexcept { return rules_->num_actions(); }
  // Every move fills a cell.
  int max_game_length() const noexcept { return rules_->cells(); }
  // Whether the move id m is legal: what why_illegal(m).empty() says,
  // without building the message (VectorGame tests every action of a batch).
  bool is_legal(Move m) const noexcept {
    if (m < 0 || m >= num_actions()) return false;
    return legal_bases() >> (rules_->free_choice() ? m >> 1 : m) & 1;
  }
  // A uniformly random legal move of a game that is not over: the move
  // legal_moves()[rng.below(size)] would give, drawn from the bit set of
  // bases without building the list. With free choice each base lists two
  // ids, 2 * base (X) then 2 * base + 1 (O): the r-th id is base r / 2 with
  // symbol r % 2.
  Move random_move(Rng& rng) const noexcept {
    const std::uint64_t bases = legal_bases(), totals = bits::byte_totals(bases);
    const auto n = static_cast<std::uint32_t>(bits::count_of(totals));
    if (!rules_->free_choice()) return bits::nth_set_bit(bases, totals, rng.below(n));
    const std::uint32_t r = rng.below(2 * n);
    return 2 * bits::nth_set_bit(bases, totals, r >> 1) + static_cast<Move>(r & 1);
  }
  std::string why_illegal(Move m) const;
  std::string move_name(Move m) const;
  Move parse_move(std::string_view text) const;
  // The cell a move writes in (gravity: where the mark lands now).
  int target_cell(Move m) const noexcept {
    const auto& r = *rules_;
    const int base = r.free_choice() ? (m >> 1) : m;
    if (!r.gravity()) return base;
    const std::uint64_t empty = r.column(base) & ~occupied();
    return empty ? bits::highest(empty) : -1;
  }
  // The cells of a line of the deciding symbol, or 0 while no line exists.
  std::uint64_t winning_line() const;
  // Every line (k cells) held by one symbol: the lines the deciding move
  // completed, as a move may complete several at once.
  std::vector<CompletedLine> completed_lines() const;
  // The cell holding the mark of move m when m is the last move played
  // (gravity: the top mark of its column; none for an empty column).
  std::vector<int> move_cells(Move m) const;

  // ---- learning (cpp/src/classic_planes.cpp) ----
  // Three planes of rows x cols, seen by `view`: the cells holding view's
  // symbol, the cells holding the other symbol, and the cells a move can
  // write now (gravity: the landing cells; none once the game is over).
  ObservationShape observation_shape() const noexcept { return {3, rules_->rows(), rules_->cols()}; }
  void observe(std::uint8_t* out, Player view) const noexcept;
  // num_actions() bytes: 1 where the move id is legal.
  void write_legal_mask(std::uint8_t* out) const noexcept;
  std::string to_string() const;
  static Classic from_string(std::string_view text);
  std::string render() const;
  // One line for people: whose turn it is and what they play, or the result
  // and why (render() of Ultimate and Quantum ends with it).
  std::string status() const;
  // A finished game's result in full sentences: who won and why, in the
  // rules' terms, with the cells or boards that decided it. A game still
  // being played gets its status().
  std::string explanation() const;

 private:
  // tactics() for gravity boards played in turn and won by a line: every
  // set of cells by shifts of the board (ClassicRules::completions), in the
  // columns where the board has them (the state keeps them), else in the
  // cells; the hints are left to order_hints(). `own` and `other`: the
  // marks of the player to move and of the other, in layout L.
  bool gravity_path() const noexcept { return rules_->gravity_in_turn(); }
  template <ClassicRules::Layout L>
  Tactics gravity_tactics(std::uint64_t own, std::uint64_t other, MoveList& moves) const noexcept;
  template <ClassicRules::Layout L>
  void gravity_hints(std::uint64_t own, std::uint64_t other, const MoveList& moves, int* hints) const noexcept;
  // The id of writing `symbol` at `cell` (a playable cell).
  Move move_at(int cell, int symbol) const noexcept {
    const auto& r = *rules_;
    const int base = r.gravity() ? r.column_of(cell) : cell;
    return r.free_choice() ? 2 * base + symbol : base;
  }
  // Calls f(cell) for the cells of `cells` (playable: one per column with
  // gravity) in the order of their move ids.
  template <class F>
  void for_each_in_id_order(std::uint64_t cells, F&& f) const {
    const auto& r = *rules_;
    if (!r.gravity()) return bits::for_each(cells, f);
    for (int c = 0; c < r.cols(); ++c)
      if (const std::uint64_t in = cells & r.column(c)) f(bits::lowest(in));
  }

  bool completes_line(int cell, std::uint64_t own) const noexcept {
    if (rules_->has_line_table()) return rules_->has_line(own);
    for (auto* l = rules_->lines_begin(cell); l != rules_->lines_end(cell); ++l)
      if ((own & *l) == *l) return true;
    return false;
  }

  const ClassicRules* rules_;
  std::array<std::uint64_t, 2> marks_{};
  std::uint8_t ply_ = 0;
  Outcome outcome_{};
};

static_assert(TextGame<Classic>);

}  // namespace noughts
