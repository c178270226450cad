#include "noughts/classic.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <unordered_set>

#include "noughts/errors.hpp"
#include "noughts/hot_clones.hpp"
#include "noughts/notation.hpp"

namespace noughts {

using notation::quote;

int default_k(int rows, int cols) {
  const int shorter = std::min(rows, cols), longer = std::max(rows, cols);
  const int k = shorter <= 3 ? 3 : shorter <= 5 ? 4 : 5;
  return std::min(k, longer);
}

namespace {

ClassicOptions resolve(ClassicOptions o) {
  // rows and cols are bounded before they are multiplied (no int overflow).
  if (o.rows < 1 || o.cols < 1 || o.rows > 64 || o.cols > 64 || o.rows * o.cols > ClassicRules::kMaxCells) {
    throw InvalidOptionError("board " + std::to_string(o.rows) + "x" + std::to_string(o.cols) +
                             " is not allowed: rows and cols must be at least 1 and rows*cols at most 64");
  }
  if (o.k == 0) o.k = default_k(o.rows, o.cols);
  const int longer = std::max(o.rows, o.cols);
  if (o.k < 1 || o.k > longer) {
    throw InvalidOptionError("k=" + std::to_string(o.k) + " is not allowed on a " + std::to_string(o.rows) + "x" +
                             std::to_string(o.cols) + " board: k must be between 1 and " + std::to_string(longer) +
                             " (max(rows, cols))");
  }
  return o;
}

}  // namespace

const ClassicRules& ClassicRules::get(ClassicOptions options) {
  const ClassicOptions o = resolve(options);
  // Interned for the life of the program: at most a few thousand option sets
  // exist, and positions can then keep a plain pointer.
  static std::mutex mutex;
  static std::map<std::tuple<int, int, int, bool, bool, bool>, std::unique_ptr<ClassicRules>> interned;
  std::lock_guard lock(mutex);
  auto& slot = interned[{o.rows, o.cols, o.k, o.misere, o.free_choice, o.gravity}];
  if (!slot) slot.reset(new ClassicRules(o));
  return *slot;
}

ClassicRules::ClassicRules(const ClassicOptions& o) : options_(o), cells_(o.rows * o.cols) {
  const int R = o.rows, C = o.cols, k = o.k;
  board_mask_ = cells_ == 64 ? ~std::uint64_t{0} : bits::bit(cells_) - 1;
  for (int c = 0; c < C; ++c) {
    top_row_ |= bits::bit(c);
    for (int r = 0; r < R; ++r) columns_[c] |= bits::bit(r * C + c), column_of_[r * C + c] = static_cast<std::uint8_t>(c);
  }
  // Every run of k cells in the four directions, without duplicates (with
  // k = 1 the four directions give the same one-cell line).
  const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (int r = 0; r < R; ++r) {
    for (int c = 0; c < C; ++c) {
      for (auto& d : dirs) {
        const int er = r + d[0] * (k - 1), ec = c + d[1] * (k - 1);
        if (er < 0 || er >= R || ec < 0 || ec >= C) continue;
        std::uint64_t line = 0;
        for (int i = 0; i < k; ++i) line |= bits::bit((r + d[0] * i) * C + (c + d[1] * i));
        if (std::find(lines_.begin(), lines_.end(), line) == lines_.end()) lines_.push_back(line);
      }
    }
  }
  for (int cell = 0; cell < cells_; ++cell) {
    cell_first_[cell] = static_cast<std::uint16_t>(cell_lines_.size());
    for (auto line : lines_)
      if (line & bits::bit(cell)) cell_lines_.push_back(line);
  }
  cell_first_[cells_] = static_cast<std::uint16_t>(cell_lines_.size());
  for (auto& d : dirs) {
    // Only directions with room for a line: the shifts by up to k - 1 steps
    // then stay inside the 64-bit word.
    if (k > (d[0] ? R : C) || k > (d[1] ? C : R) || (k == 1 && &d != &dirs[0])) continue;
    const int i = num_directions_++;
    auto& cells = directions_[0];
    auto& columns = directions_[1];
    cells.step[i] = static_cast<std::uint64_t>(d[0] * C + d[1]);
    // In the columns: right is one field up, down one bit down.
    columns.step[i] = static_cast<std::uint64_t>(std::abs(d[1] * (R + 1) - d[0]));
    columns.ahead[i] = columns.behind[i] = ~std::uint64_t{0};
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) {
        auto on = [&](int rr, int cc) { return rr >= 0 && rr < R && cc >= 0 && cc < C; };
        if (on(r + d[0], c + d[1])) cells.ahead[i] |= bits::bit(r * C + c);
        if (on(r - d[0], c - d[1])) cells.behind[i] |= bits::bit(r * C + c);
      }
  }
  if (lines_.size() <= 64) {
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      all_line_bits_ |= bits::bit(static_cast<int>(i));
      bits::for_each(lines_[i], [&](int cell) { line_bits_[cell] |= bits::bit(static_cast<int>(i)); });
    }
  }
  // Small boards: whether a set of cells holds a line, for every set. Built
  // from the minimal sets (the lines) upwards: a set holds a line if it is
  // one or drops a cell to a set that does.
  if (cells_ <= kMaxTableCells) {
    const std::size_t sets = std::size_t{1} << cells_;
    has_line_.assign((sets + 63) / 64, 0);
    auto set = [&](std::uint64_t m) { has_line_[m >> 6] |= std::uint64_t{1} << (m & 63); };
    for (auto line : lines_) set(line);
    for (std::uint64_t m = 1; m < sets; ++m)
      for (std::uint64_t rest = m; rest && !has_line(m); rest &= rest - 1)
        if (has_line(m & ~(rest & (~rest + 1)))) set(m);
  }

  // Symmetries that map lines to lines and keep the rules: the dihedral group
  // of a square (8), of a rectangle (4), and with gravity only the mirror,
  // since the bottom must stay the bottom.
  auto image = [&](int s, int r, int c) -> std::pair<int, int> {
    if (o.gravity || R != C) {
      switch (s) {
        case 0: return {r, c};
        case 1: return {r, C - 1 - c};
        case 2: return {R - 1 - r, c};
        default: return {R - 1 - r, C - 1 - c};
      }
    }
    const int n = R;
    switch (s) {
      case 0: return {r, c};
      case 1: return {c, n - 1 - r};
      case 2: return {n - 1 - r, n - 1 - c};
      case 3: return {n - 1 - c, r};
      case 4: return {r, n - 1 - c};
      case 5: return {n - 1 - r, c};
      case 6: return {c, r};
      default: return {n - 1 - c, n - 1 - r};
    }
  };
  num_symmetries_ = o.gravity ? 2 : (R == C ? 8 : 4);
  for (int s = 0; s < num_symmetries_; ++s)
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) {
        auto [ir, ic] = image(s, r, c);
        symmetry_map_[s][r * C + c] = static_cast<std::uint8_t>(ir * C + ic);
        image_bits_[r * C + c][s] = bits::bit(ir * C + ic);
      }
  bottom_row_ = top_row_ << ((R - 1) * C);
  gravity_in_turn_ = o.gravity && !o.free_choice && !o.misere;
  for (int h = R % 2; h < R; h += 2) follow_up_cells_ |= top_row_ << ((R - 1 - h) * C);
  if (o.gravity && (R + 1) * C <= 64) {
    column_layout_ = true;
    for (int c = 0; c < C; ++c) {
      column_bottom_ |= bits::bit(c * (R + 1));
      column_cells_[c] = (bits::bit(R) - 1) << (c * (R + 1));
      for (int h = 0; h <= R; ++h) column_at_[c * (R + 1) + h] = static_cast<std::uint8_t>(c);
      for (int h = 0; h < R; ++h) column_bits_[(R - 1 - h) * C + c] = bits::bit(c * (R + 1) + h);
      for (int h = R % 2; h < R; h += 2) column_follow_up_cells_ |= bits::bit(c * (R + 1) + h);
    }
    for (std::uint64_t b : column_bits_) column_board_ |= b;
  }
  if (column_layout_ && cells_ > 32) {
    stacked_keys_ = true;
    for (int s = 0; s < num_symmetries_; ++s)
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
          const auto [ir, ic] = image(s, r, c);
          stack_bits_[r * C + c][s] = bits::bit(ic * (R + 1) + (R - 1 - ir));
        }
  }
  merges_dead_cells_ = !o.gravity && cells_ <= kMaxDeadMergingCells && all_line_bits_ != 0;
  byte_maps_.assign(static_cast<std::size_t>(num_symmetries_) * 8 * 256, 0);
  for (int s = 0; s < num_symmetries_; ++s)
    for (int byte = 0; byte < 8; ++byte)
      for (int v = 0; v < 256; ++v) {
        std::uint64_t out = 0;
        for (int b = 0; b < 8; ++b) {
          const int cell = byte * 8 + b;
          if ((v >> b & 1) && cell < cells_) out |= bits::bit(symmetry_map_[s][cell]);
        }
        byte_maps_[(static_cast<std::size_t>(s) * 8 + byte) * 256 + v] = out;
      }
  // The mirror strategy (mirror() says when it holds): the first symmetry
  // that is its own inverse, fixes at most one cell, and leaves no line
  // that meets its image without holding a cell and that cell's image.
  for (int s = 1; o.misere && s < num_symmetries_ && !mirror_; ++s) {
    std::uint64_t fixed = 0;
    bool involution = true;
    for (int cell = 0; cell < cells_; ++cell) {
      const int image = symmetry_map_[s][cell];
      involution = involution && symmetry_map_[s][image] == cell;
      if (image == cell) fixed |= bits::bit(cell);
    }
    if (!involution || bits::count(fixed) > 1) continue;
    const bool holds = std::all_of(lines_.begin(), lines_.end(), [&](std::uint64_t line) {
      const std::uint64_t image = map_bits(s, line);
      return !(line & image) || ((line & image) & ~fixed);
    });
    if (holds) mirror_ = s, mirror_centre_ = fixed;
  }
}


std::string ClassicRules::cell_name(int cell) const {
  return notation::column_name(cell % cols()) + std::to_string(cell / cols() + 1);
}

// ---------------------------------------------------------------- moves

std::string Classic::why_illegal(Move m) const {
  const auto& r = *rules_;
  if (m < 0 || m >= r.num_actions()) return move_id_out_of_range(m, r.num_actions());
  if (outcome_.over()) return "the game is over";
  const int base = r.free_choice() ? (m >> 1) : m;
  if (r.gravity()) {
    if (occupied() & bits::bit(base)) return "column " + notation::column_name(base) + " is full";
  } else if (occupied() & bits::bit(base)) {
    return "cell " + r.cell_name(base) + " is occupied";
  }
  return {};
}

std::string Classic::move_name(Move m) const {
  const auto& r = *rules_;
  if (m < 0 || m >= r.num_actions()) throw IllegalMoveError(move_id_out_of_range(m, r.num_actions()));
  const int base = r.free_choice() ? (m >> 1) : m;
  std::string name = r.gravity() ? notation::column_name(base) : r.cell_name(base);
  if (r.free_choice()) name += (m & 1) ? "=O" : "=X";
  return name;
}

Move Classic::parse_move(std::string_view text) const {
  const auto& r = *rules_;
  const std::string_view t = notation::trim(text);
  const std::string form = r.gravity() ? "a column letter such as 'b'" : "a cell such as 'b2'";
  const std::string expected = r.free_choice() ? form + " followed by =X or =O (free choice), e.g. '" +
                                                     (r.gravity() ? std::string("b") : std::string("b2")) + "=O'"
                                               : form;
  auto fail = [&]() -> Move {
    throw InvalidMoveError("cannot read move " + quote(text) + ": expected " + expected);
  };
  std::string_view where = t;
  int symbol = -1;
  if (auto eq = t.find('='); eq != std::string_view::npos) {
    const std::string s = notation::lower(notation::trim(t.substr(eq + 1)));
    if (s == "x") symbol = 0;
    else if (s == "o") symbol = 1;
    else return fail();
    where = notation::trim(t.substr(0, eq));
  }
  if (r.free_choice() != (symbol >= 0)) return fail();
  auto cell = notation::parse_cell(where);
  if (!cell || r.gravity() != (cell->row < 0)) return fail();
  if (cell->col >= r.cols() || cell->row >= r.rows())
    throw IllegalMoveError("move " + quote(text) + " is off the " + std::to_string(r.rows()) + "x" +
                           std::to_string(r.cols()) + " board");
  const int base = r.gravity() ? cell->col : cell->row * r.cols() + cell->col;
  return r.free_choice() ? 2 * base + symbol : base;
}

std::uint64_t Classic::playable_cells() const noexcept {
  const auto& r = *rules_;
  return r.gravity() ? r.playable<ClassicRules::Layout::Cells>(occupied()) : r.board_mask() & ~occupied();
}

// Inlined into their callers, which are compiled once per instruction set.
template <ClassicRules::Layout L>
[[gnu::always_inline]] inline Tactics Classic::gravity_tactics(std::uint64_t own, std::uint64_t other,
                                                              MoveList& moves) const noexcept {
  const auto& r = *rules_;
  const std::uint64_t board = r.board<L>(), occupied = own | other;
  const std::uint64_t empty = board & ~occupied, playable = r.playable<L>(occupied);
  Tactics t;
  t.fastest_win = 3, t.fastest_loss = 4;  // the opponent cannot win at once after any move listed
  const std::uint64_t mine = r.completions<L>(own) & empty;
  if (const std::uint64_t win = mine & playable)
    return t.kind = Tactics::WinNow, t.move = r.column_at<L>(bits::lowest(win)), t;
  const std::uint64_t theirs = r.completions<L>(other) & empty, threats = theirs & playable;
  // Two threats cannot both be blocked; one must be; and a move right under
  // a completion cell of theirs opens it to them.
  if (threats & (threats - 1)) return t.kind = Tactics::LossNext, t.move = r.column_at<L>(bits::lowest(playable)), t;
  const std::uint64_t safe = (threats ? threats : playable) & ~r.below<L>(theirs);
  if (!safe) return t.kind = Tactics::LossNext, t.move = r.column_at<L>(bits::lowest(playable)), t;
  // Which empty cells each player can still get: any, unless the follow-up
  // decides it. Where every column has an even number of empty cells, the
  // opponent can answer each move with the cell right above it to the end
  // of the game (Allis' claimeven), and the mover then only ever gets the
  // empty cells of follow_up_cells(); where one column alone has an odd
  // number of them, the mover can play there and follow up in turn, and the
  // opponent only gets those cells. (The playable cells outside
  // follow_up_cells() are the lowest empty cells of the columns with an odd
  // number of them.) A player wins only by a line of their marks and cells
  // they can get, and one who cannot loses if the other then has a line in
  // the cells left to them, or a completion cell among them: the follower's
  // completion cell is the upper cell of a pair, which the follower takes
  // as soon as the other player takes the one under it, and once the other
  // columns are full someone has to. So a follower's completion cell also
  // ends its column for the other player: they get nothing at or above it.
  const std::uint64_t half = r.follow_up_cells<L>(), odd = playable & ~half;
  const int odd_columns = bits::count(odd);
  const bool followed = odd_columns == 0, follows = odd_columns == 1;
  // The follower's completion cells, upper cells of pairs.
  const std::uint64_t their_pairs_tops = theirs & ~half, my_pairs_tops = mine & ~half;
  auto short_of = [&](std::uint64_t cells, std::uint64_t tops) {
    for (std::uint64_t cols = tops ? r.columns_of<L>(tops) : 0; cols; cols &= cols - 1) {
      const int c = bits::lowest(cols);
      const std::uint64_t column = r.column_in<L>(c);
      cells &= ~column | r.under<L>(r.lowest_of<L>(tops & column), c);
    }
    return cells;
  };
  const std::uint64_t mover_cells = followed ? short_of(empty & half, their_pairs_tops) : empty;
  const std::uint64_t opponent_cells = follows ? short_of(empty & half, my_pairs_tops) : empty;
  // A completion cell is a line still open to its symbol: the whole-board
  // test is needed only without one (or where the follow-up decides).
  t.mover_can_win = (mine && !followed) || r.holds_line<L>(own | mover_cells);
  t.opponent_can_win = (theirs && !follows) || r.holds_line<L>(other | opponent_cells);
  if (followed && !t.mover_can_win && (their_pairs_tops || r.holds_line<L>(other | (empty & ~half))))
    t.loses_within = bits::count(empty);
  if (follows && !t.opponent_can_win && (my_pairs_tops || r.holds_line<L>(own | (empty & ~half))))
    t.wins_within = bits::count(empty);
  // With more such columns, an odd number, the mover may play in one and
  // pair the lowest empty cells of the others (as the opponent does below).
  if (t.opponent_can_win && !follows && (odd_columns & 1)) {
    const std::uint64_t pairs = short_of(empty & half, my_pairs_tops);
    for (std::uint64_t rest = odd; rest; rest &= rest - 1) {
      const std::uint64_t taken = rest & (0 - rest);
      if (r.holds_line<L>(other | pairs | (odd & ~taken))) continue;
      t.opponent_can_win = false;
      if (my_pairs_tops || r.holds_line<L>(own | taken | (empty & ~half & ~odd))) t.wins_within = bits::count(empty);
      break;
    }
  }
  // More columns with an odd number of empty cells (Allis' baseinverse and
  // odd threat): the opponent pairs their lowest empty cells two by two,
  // answering a move at one with the other, and follows up everywhere
  // else, so the mover gets one cell of each pair (taken here as both:
  // one test for every choice) and, above them as elsewhere, the lower
  // cells of the pairs. Where their number is odd, one column is left out
  // of the pairs, and the opponent follows up in it too if they have a
  // completion cell there at an odd distance above its lowest empty cell:
  // the columns fill in pairs, the mover's cell under each, and in that
  // column the pairs end under the cell right below the completion cell,
  // which the mover must take in the end (the odd threat, Allis'
  // zugzwang). Without a line in their cells the mover then cannot win,
  // and loses by the time that completion cell is reached; with an even
  // number, the mover loses if the opponent has a line in the cells left
  // to them or a completion cell among them.
  if (!followed && !(odd_columns & 1)) {
    const std::uint64_t tops = their_pairs_tops & ~odd;  // not the paired cells: the mover may take either
    if (t.mover_can_win && !r.holds_line<L>(own | short_of(empty & half, tops) | odd)) {
      t.mover_can_win = false;
      if (tops || r.holds_line<L>(other | (empty & ~half & ~odd))) t.loses_within = bits::count(empty);
    }
  } else if (!followed && !t.wins_within) {
    for (std::uint64_t rest = odd; rest; rest &= rest - 1) {
      const std::uint64_t left_out = rest & (0 - rest), paired = odd & ~left_out;
      const int c = r.column_at<L>(bits::lowest(left_out));
      const std::uint64_t column = r.column_in<L>(c);
      const std::uint64_t threat = r.lowest_of<L>(theirs & column & half);
      if (!threat) continue;
      const std::uint64_t below_threat = r.under<L>(threat, c);
      const std::uint64_t mover_gets = short_of(empty & half & ~column, their_pairs_tops & ~column & ~odd) |
                                       (empty & ~half & below_threat) | paired;
      if (!r.holds_line<L>(own | mover_gets)) {
        t.mover_can_win = false;
        t.loses_within = bits::count(empty & ~column) + bits::count(empty & below_threat) + 1;
        break;
      }
    }
  }
  if (safe != playable) t.dropped = 2, t.dropped_move = r.column_at<L>(bits::lowest(playable & ~safe));
  moves.push_each(r.columns_of<L>(safe));
  return t;
}

template <ClassicRules::Layout L>
[[gnu::always_inline]] inline void Classic::gravity_hints(std::uint64_t own, std::uint64_t other,
                                                         const MoveList& moves, int* hints) const noexcept {
  // The completion cells the move gives the mover (their threats after it),
  // then the nearer the centre the better: moves that make threats come
  // first, so quick wins are proven in a few nodes.
  const auto& r = *rules_;
  const std::uint64_t empty = r.board<L>() & ~(own | other), playable = r.playable<L>(own | other);
  for (int i = 0; i < moves.size(); ++i) {
    const int c = moves[i];
    const std::uint64_t in = playable & r.column_in<L>(c);
    const int made = bits::count(r.completions<L>(own | in) & empty & ~in);
    hints[i] = std::min(made, 127) << 7 | (r.cols() - std::abs(2 * c - (r.cols() - 1)));
  }
}

NOUGHTS_HOT_CLONES void Classic::order_hints(const MoveList& moves, int* hints, const SearchState& state) const noexcept {
  if (!gravity_path() || moves.size() < 2) return;  // the other paths' hints come with their tactics
  const int me = ply_ & 1;
  if (rules_->column_layout())
    gravity_hints<ClassicRules::Layout::Columns>(state.columns[me], state.columns[1 - me], moves, hints);
  else
    gravity_hints<ClassicRules::Layout::Cells>(marks_[me], marks_[1 - me], moves, hints);
}

NOUGHTS_HOT_CLONES Tactics Classic::tactics(MoveList& moves, int* hints, const SearchState& state) const noexcept {
  const auto& r = *rules_;
  moves.clear();
  if (gravity_path()) {
    const int me = ply_ & 1;
    return rules_->column_layout()
               ? gravity_tactics<ClassicRules::Layout::Columns>(state.columns[me], state.columns[1 - me], moves)
               : gravity_tactics<ClassicRules::Layout::Cells>(marks_[me], marks_[1 - me], moves);
  }
  const std::uint64_t playable = playable_cells();

  // One pass over the lines. A line is live for a symbol while it holds none
  // of the other; a live line one mark short completes at its empty cell.
  // The hints come from the same pass, which is cheaper than a second pass
  // only for the nodes that search their moves.
  std::uint64_t done[2] = {0, 0};  // cells completing a line of X, of O
  // Per symbol, the empty cells on a line live for it.
  std::uint64_t open[2] = {0, 0};
  std::array<int, ClassicRules::kMaxCells> weight;  // per cell: the hint before clamping
  std::fill_n(weight.begin(), r.cells(), 0);
  const int k = r.k();
  // Misere with free choice on an open board: per cell and symbol, the live
  // lines that a mark of it there kills (lines holding the other symbol).
  const bool kill_first = r.misere() && r.free_choice() && !r.gravity();
  std::array<std::array<std::uint8_t, ClassicRules::kMaxCells>, 2> kills;
  if (kill_first) for (auto& per_cell : kills) std::fill_n(per_cell.begin(), r.cells(), 0);
  const bool avoidance = r.misere() && r.free_choice();
  std::uint64_t short_at[2] = {0, 0}, short_crossed = 0;
  std::uint64_t never[2] = {0, 0};  // with avoidance: per symbol, the cells it is never marked on
  // A line's contribution to short_at for each symbol (see below).
  auto add_short = [&](std::uint64_t line, std::uint64_t x, std::uint64_t o) {
    std::uint64_t gap = line & ~(x | o);
    if (r.gravity() && (line & r.column(r.column_of(bits::lowest(line)))) == line)
      gap &= 0 - gap;  // along a column: its top cell, which has the lowest index
    auto may = [&](int s) {
      const std::uint64_t blocked = line & ~(x | o) & never[s];
      return !blocked ? gap : (blocked & (blocked - 1)) ? 0 : blocked & gap;
    };
    const std::uint64_t for_x = o ? 0 : may(0), for_o = x ? 0 : may(1);
    short_crossed |= (short_at[0] | short_at[1]) & (for_x | for_o);
    short_at[0] |= for_x, short_at[1] |= for_o;
  };
  // One live line, given its marks of each symbol (one of them empty).
  auto visit = [&](std::uint64_t line, std::uint64_t x, std::uint64_t o) {
    // A live line holds marks of one symbol at most: they are the k cells
    // but its gap, so one count serves both.
    const std::uint64_t gap = line & ~(x | o);
    const int empty = bits::count(gap);
    // With avoidance the quick pass (further down, run first) found them.
    const std::uint64_t completes = !avoidance && empty == 1 ? gap : 0;
    if (!o) open[0] |= gap, done[0] |= completes;
    if (!x) open[1] |= gap, done[1] |= completes;
    if (avoidance) add_short(line, x, o);
    // Open to X: 2^(X's marks); open to O: 2^(O's marks); an empty line is
    // open to both.
    const int w = (x | o) ? 1 << std::min(k - empty, 5) : 2;
    bits::for_each(gap & playable, [&](int c) { weight[c] += w; });
    if (kill_first) {
      if (x) bits::for_each(gap & playable, [&](int c) { ++kills[1][c]; });
      if (o) bits::for_each(gap & playable, [&](int c) { ++kills[0][c]; });
    }
  };
  // Each live line, with its marks of each symbol (one of them empty).
  auto each_live_line = [&](auto&& f) {
    if (const std::uint64_t all = r.all_line_bits()) {
      // Only the lines not yet entered by both symbols: in the solver's
      // positions most lines are dead, and skipping them one by one would be
      // a large part of this function.
      // The state also tells who holds each live line, so each group has a
      // loop of its own where the other symbol's marks are a known zero.
      const auto& lines = r.all_lines();
      const std::uint64_t x_only = state.entered[0] & ~state.entered[1], o_only = state.entered[1] & ~state.entered[0];
      for (std::uint64_t i = x_only; i; i &= i - 1) {
        const std::uint64_t line = lines[bits::lowest(i)];
        f(line, line & marks_[0], std::uint64_t{0});
      }
      for (std::uint64_t i = o_only; i; i &= i - 1) {
        const std::uint64_t line = lines[bits::lowest(i)];
        f(line, std::uint64_t{0}, line & marks_[1]);
      }
      for (std::uint64_t i = all & ~(state.entered[0] | state.entered[1]); i; i &= i - 1)
        f(lines[bits::lowest(i)], std::uint64_t{0}, std::uint64_t{0});
    } else {
      for (auto line : r.all_lines()) {
        const std::uint64_t x = line & marks_[0], o = line & marks_[1];
        if (!(x && o)) f(line, x, o);
      }
    }
  };
  // Misere with free choice: the cells where a line may still come to be
  // one mark short, of each symbol (short_at), and those on two such lines
  // (short_crossed). A cell where either mark completes a line (poisoned)
  // stays so, and only a loser marks it; with gravity nothing above it is
  // marked either: these cells are closed. A line of X's needs an X on
  // each of its empty cells but one, and no X goes where it completes a
  // line (done[0]) nor on a closed cell: with one such cell the line can
  // be one short there alone, with two nowhere. With gravity a column
  // fills from the bottom, so a line along it can be one short at its top
  // cell alone. The completion cells come first, from the lines one mark
  // short (a quick pass: no cell of theirs is visited, and the main pass
  // does not find them again), then the closed cells, then the main pass.
  std::uint64_t poisoned = 0, closed = 0;
  if (avoidance) {
    each_live_line([&](std::uint64_t line, std::uint64_t x, std::uint64_t o) {
      const std::uint64_t gap = line & ~(x | o);
      if (gap & (gap - 1)) return;  // more than one mark short
      if (!o) done[0] |= gap;  // an empty line too, when k is 1
      if (!x) done[1] |= gap;
    });
    closed = poisoned = done[0] & done[1];
    if (poisoned && r.gravity()) {
      for (int c = 0; c < r.cols(); ++c) {
        // A column fills from its highest cell index: the cells at and
        // above its lowest poisoned cell have that index or a lower one.
        if (const std::uint64_t in = poisoned & r.column(c)) {
          const std::uint64_t lowest = bits::bit(bits::highest(in));
          closed |= r.column(c) & (lowest | (lowest - 1));
        }
      }
    }
    never[0] = done[0] | closed, never[1] = done[1] | closed;
  }
  each_live_line(visit);

  const int me = ply_ & 1;
  Tactics t;
  // In turn, a line ends the game on its maker's move. In normal play the
  // mover wins on their own move (3 plies at the soonest once none wins at
  // once) and no move listed lets the opponent win at once (a loss in 4 at
  // the soonest); in misere the mover wins when the opponent makes a line
  // (2) and no move listed makes the mover's own (3).
  t.fastest_win = r.misere() ? 2 : 3;
  t.fastest_loss = r.misere() ? 3 : 4;
  // Without free choice each player wins by their own symbol (misere: by the
  // opponent's); with it anyone may complete any live line.
  // A live line always has an empty cell (a full one would have ended the
  // game), so a symbol's lines are alive while open[symbol] is not empty.
  if (r.free_choice() && r.misere()) {
    // Nobody makes a line unless forced: a player loses when every mark
    // they could make completes a line, so each cell they could mark must
    // then be poisoned. Once no empty cell may come to be poisoned (one
    // short for X on one line and for O on another), no one can ever be
    // forced, and the board fills: a draw.
    // A poisoned cell counts as such too: with k = 1 it lies on one line.
    const std::uint64_t may_poison = (short_at[0] & short_at[1] & short_crossed) | poisoned;
    t.mover_can_win = t.opponent_can_win = may_poison != 0;
    // Every empty cell that is not closed and cannot become poisoned takes
    // one of the marks safely. So once poisoned cells exist and close every
    // cell that may still become one, the game's length is fixed: the other
    // cells fill, n moves, and then the player to move must complete a line.
    if (poisoned && !(may_poison & ~closed)) {
      const int n = bits::count(r.board_mask() & ~occupied() & ~closed);
      if (n & 1) t.wins_within = t.fastest_win = n + 1, t.opponent_can_win = false;
      else t.loses_within = t.fastest_loss = n + 1, t.mover_can_win = false;
    }
  } else if (r.free_choice()) {
    t.mover_can_win = t.opponent_can_win = (open[0] | open[1]) != 0;
  } else {
    t.mover_can_win = open[r.misere() ? 1 - me : me] != 0;
    t.opponent_can_win = open[r.misere() ? me : 1 - me] != 0;
  }
  // Misere's mirror strategy (ClassicRules::mirror): who cannot lose, and
  // the move that keeps the mirror (answer_cell, in answer_symbol), which is
  // searched first.
  int answer_cell = -1, answer_symbol = 0;
  if (const int s = r.mirror()) {
    const std::uint64_t centre = r.mirror_centre();
    // Where X's image and O's marks differ (the centre aside); the mirror is
    // an involution, so none means O's image is X's marks too.
    const std::uint64_t unmatched = (r.map_bits(s, marks_[0]) ^ marks_[1]) & ~centre;
    if (!unmatched && (!centre || (occupied() & centre))) {
      t.mover_can_win = false;
    } else if (!unmatched) {
      t.opponent_can_win = false;
      answer_cell = bits::lowest(centre), answer_symbol = r.free_choice() ? 0 : me;
    } else if (!(unmatched & (unmatched - 1))) {
      // One move from the mirror: one cell c differs, either empty with an
      // X at its image (the answer is an O at c) or holding an O whose image
      // is empty (the answer is an X there).
      const int c = bits::lowest(unmatched);
      const bool empty = !(occupied() & unmatched);
      answer_cell = empty ? c : r.map_cell(s, c), answer_symbol = empty ? 1 : 0;
      if (!r.free_choice() && answer_symbol != me) answer_cell = -1;
    }
  }
  auto answer_first = [&] {
    if (answer_cell < 0) return;
    const Move answer = move_at(answer_cell, answer_symbol);
    for (int i = 0; i < moves.size(); ++i) hints[i] = moves[i] == answer ? kMaxHint : std::min(hints[i], kMaxHint - 1);
  };
  // With gravity a move at c makes the cell above it (c - cols) playable:
  // "above" of a set of cells is the set shifted up one row.
  const int up = r.gravity() ? r.cols() : 0;
  auto above = [&](std::uint64_t cells) { return up ? cells >> up : 0; };
  auto add = [&](int c, int symbol) {
    const int w = std::min(weight[c], kMaxHint);
    hints[moves.size()] = r.misere() ? kMaxHint - w : w;
    // Misere with free choice on an open board: a player is forced only
    // through cells that close a line of X's and another of O's, and most
    // positions are draws, which the search proves soonest by killing the
    // lines such cells need. So the marks that kill the most live lines
    // come first; among them, the cells on the most advanced lines. (With
    // gravity the mark also opens the cell above it, and this order takes
    // more nodes than the plain one.)
    if (kill_first) hints[moves.size()] = std::min<int>(kills[symbol][c], 15) << 10 | std::min(w, 1023);
    moves.push(move_at(c, symbol));
  };

  if (!r.free_choice()) {
    const std::uint64_t mine = done[me];
    if (r.misere()) {
      // Completing one's own line loses; nothing else is decided at once.
      const std::uint64_t safe = playable & ~mine;
      if (!safe) return t.kind = Tactics::LossNow, t.move = move_at(bits::lowest(playable), me), t;
      if (playable & mine) t.dropped = 1, t.dropped_move = move_at(bits::lowest(playable & mine), me);
      for_each_in_id_order(safe, [&](int c) { add(c, me); });
      answer_first();
      return t;
    }
    if (const std::uint64_t win = mine & playable) return t.kind = Tactics::WinNow, t.move = move_at(bits::lowest(win), me), t;
    const std::uint64_t theirs = done[1 - me], threats = theirs & playable;
    // Two threats cannot both be blocked; one must be.
    if (threats & (threats - 1)) return t.kind = Tactics::LossNext, t.move = move_at(bits::lowest(playable), me), t;
    std::uint64_t safe = threats ? threats : playable;
    if (up) safe &= ~(theirs << up);  // gravity: a move right under their completion cell opens it
    if (!safe) return t.kind = Tactics::LossNext, t.move = move_at(bits::lowest(playable), me), t;
    if (safe != playable) t.dropped = 2, t.dropped_move = move_at(bits::lowest(playable & ~safe), me);
    for_each_in_id_order(safe, [&](int c) { add(c, me); });
    return t;
  }

  // Free choice: either symbol, and any completed line decides.
  if (!r.misere()) {
    for (int s = 0; s < 2; ++s)
      if (const std::uint64_t win = done[s] & playable) return t.kind = Tactics::WinNow, t.move = move_at(bits::lowest(win), s), t;
  }
  const std::uint64_t either = done[0] | done[1];
  for_each_in_id_order(playable, [&](int c) {
    const std::uint64_t cell = bits::bit(c);
    for (int s = 0; s < 2; ++s) {
      bool loses;
      if (r.misere()) {
        loses = (done[s] & cell) != 0;  // completes a line: the mover loses at once
      } else {
        // The opponent wins next if a cell completing a line of either
        // symbol becomes playable (gravity) or this mark makes a new one.
        const std::uint64_t after = (playable & ~cell) | above(cell);
        loses = (above(cell) & either) != 0;
        const std::uint64_t own = marks_[s] | cell, other = marks_[1 - s];
        for (auto* l = r.lines_begin(c); !loses && l != r.lines_end(c); ++l) {
          if (*l & other) continue;
          const std::uint64_t missing = *l & ~own;
          loses = missing && (missing & (missing - 1)) == 0 && (missing & after);
        }
      }
      if (!loses) add(c, s);
      else if (!t.dropped) t.dropped = r.misere() ? 1 : 2, t.dropped_move = move_at(c, s);
    }
  });
  if (moves.empty()) {
    t.kind = r.misere() ? Tactics::LossNow : Tactics::LossNext;
    t.move = t.dropped_move;
  }
  answer_first();
  return t;
}

std::uint64_t Classic::winning_line() const {
  const auto held = completed_lines();
  std::uint64_t line = 0;
  if (!held.empty())
    for (int c : held.front().cells) line |= bits::bit(c);
  return line;
}

std::vector<CompletedLine> Classic::completed_lines() const {
  return lines_held(rules_->all_lines(), marks_[0], marks_[1]);
}

std::vector<int> Classic::move_cells(Move m) const {
  const auto& r = *rules_;
  if (m < 0 || m >= r.num_actions()) throw IllegalMoveError(move_id_out_of_range(m, r.num_actions()));
  const int base = r.free_choice() ? (m >> 1) : m;
  if (!r.gravity()) return {base};
  // Marks fill a column from the bottom: its newest mark is its top one.
  const std::uint64_t filled = r.column(base) & occupied();
  if (!filled) return {};
  return {bits::lowest(filled)};
}

// ------------------------------------------------------- position strings

namespace {

// Whether the marks can have been played in turn with gravity and without
// free choice: each column fills from the bottom, and the marks alternate
// X, O, X, ... from X. Column c's marks, bottom up, are a fixed sequence;
// an order of play interleaves the columns' sequences so that the player to
// move always finds their symbol next in some column. The search tries the
// columns in turn, depth first, and remembers the states (marks played per
// column) it has seen fail; columns with the same sequence are
// interchangeable, so a state is kept with their counts sorted. The
// mixed-radix state key is below the product of (height + 1) over the
// columns, which is at most 2^64 since the heights add up to at most 64.
//
// The search is bounded: a board whose columns all differ can have millions
// of states, and a parser must answer at once. Past kBudget states it gives
// up and the position is accepted (docs/classic.md: random full 8x8 boards
// meet the bound about once in a thousand; boards up to 10 cells never).
class GravityTurnOrder {
 public:
  GravityTurnOrder(const ClassicRules& r, const std::array<std::uint64_t, 2>& marks) {
    cols_ = r.cols();
    for (int c = 0; c < cols_; ++c) {
      Column col;
      // The column's lowest cell has the highest index: play goes up from there.
      for (std::uint64_t cells = r.column(c) & (marks[0] | marks[1]); cells; cells &= ~bits::bit(bits::highest(cells))) {
        const int cell = bits::highest(cells);
        col.symbols |= static_cast<std::uint64_t>((marks[1] >> cell) & 1) << col.height;
        ++col.height;
      }
      total_ += col.height;
      columns_[c] = col;
    }
    // Each mark's deadline: the latest turn it can be played in and still
    // leave room, in turns of the right parity, for the marks above it.
    int offset = 0;
    for (int c = 0; c < cols_; ++c) {
      first_[c] = offset;
      int latest = total_ - 1;
      for (int j = columns_[c].height - 1; j >= 0; --j) {
        const int symbol = static_cast<int>((columns_[c].symbols >> j) & 1);
        if ((latest & 1) != symbol) --latest;
        deadline_[offset + j] = latest--;  // negative: impossible, which the search finds at once
      }
      offset += columns_[c].height;
    }
    // Columns with the same sequence form a group (the first of them leads).
    for (int c = 0; c < cols_; ++c) {
      group_[c] = c;
      for (int d = 0; d < c; ++d)
        if (columns_[d].height == columns_[c].height && columns_[d].symbols == columns_[c].symbols) {
          group_[c] = group_[d];
          break;
        }
    }
  }

  static constexpr int kBudget = 100'000;

  // Whether an order of play exists; true also when the search ran out of budget.
  bool exists() {
    std::array<int, 64> played{};
    return search(played, 0) || visited_ > kBudget;
  }

 private:
  struct Column {
    int height = 0;
    std::uint64_t symbols = 0;  // bit j: the (j+1)-th mark from the bottom is O
  };

  std::uint64_t key(const std::array<int, 64>& played) const {
    std::array<int, 64> sorted = played;
    // Within a group the counts are sorted, so interchangeable columns give one key.
    for (int c = 0; c < cols_; ++c)
      for (int d = c + 1; d < cols_; ++d)
        if (group_[d] == group_[c] && sorted[d] < sorted[c]) std::swap(sorted[c], sorted[d]);
    std::uint64_t k = 0;
    for (int c = 0; c < cols_; ++c) k = k * static_cast<std::uint64_t>(columns_[c].height + 1) + static_cast<std::uint64_t>(sorted[c]);
    return k;
  }

  // A necessary condition, cheap to test: for each symbol, the marks still
  // to play whose deadline is at most T fit in the turns of that symbol from
  // t to T, for every T.
  bool deadlines_fit(const std::array<int, 64>& played, int t) const {
    std::array<std::array<int, 64>, 2> due{};
    for (int c = 0; c < cols_; ++c)
      for (int j = played[c]; j < columns_[c].height; ++j) {
        const int d = deadline_[first_[c] + j];
        if (d < t) return false;
        ++due[(columns_[c].symbols >> j) & 1][d];
      }
    std::array<int, 2> waiting{}, turns{};
    for (int T = t; T < total_; ++T) {
      ++turns[T & 1];
      for (int p = 0; p < 2; ++p)
        if ((waiting[p] += due[p][T]) > turns[p]) return false;
    }
    return true;
  }

  int next_symbol(const std::array<int, 64>& played, int c) const {
    const Column& col = columns_[c];
    return played[c] < col.height ? static_cast<int>((col.symbols >> played[c]) & 1) : -1;
  }

  bool search(std::array<int, 64>& played, int t) {
    if (t == total_) return true;
    if (++visited_ > kBudget) return false;  // unwinds the search: exists() reads the budget
    if (!deadlines_fit(played, t)) return false;
    const std::uint64_t k = key(played);
    if (failed_.count(k)) return false;
    const int symbol = t & 1;
    // Columns whose next mark is the mover's, one per group and count; those
    // that then offer the other player's mark first.
    std::array<int, 64> order{};
    int n = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (int c = 0; c < cols_; ++c) {
        if (next_symbol(played, c) != symbol) continue;
        bool repeat = false;
        for (int d = 0; d < c && !repeat; ++d) repeat = group_[d] == group_[c] && played[d] == played[c];
        if (repeat) continue;
        ++played[c];
        const bool gives_other = next_symbol(played, c) == 1 - symbol;
        --played[c];
        if (gives_other == (pass == 0)) order[n++] = c;
      }
    for (int i = 0; i < n; ++i) {
      ++played[order[i]];
      const bool ok = search(played, t + 1);
      --played[order[i]];
      if (ok) return true;
      if (visited_ > kBudget) return false;  // not a failure of this state: do not remember it
    }
    failed_.insert(k);
    return false;
  }

  int cols_ = 0, total_ = 0, visited_ = 0;
  std::array<Column, 64> columns_{};
  std::array<int, 64> group_{};
  std::array<int, 64> first_{};     // column c's marks are deadline_[first_[c] ...], bottom up
  std::array<int, 64> deadline_{};
  std::unordered_set<std::uint64_t> failed_;
};

}  // namespace

std::string Classic::to_string() const {
  const auto& r = *rules_;
  std::string s;
  for (int row = 0; row < r.rows(); ++row) {
    if (row) s += '/';
    for (int col = 0; col < r.cols(); ++col) {
      const auto b = bits::bit(row * r.cols() + col);
      s += (marks_[0] & b) ? 'x' : (marks_[1] & b) ? 'o' : '.';
    }
  }
  s += " k=" + std::to_string(r.k());
  if (r.misere()) s += " misere";
  if (r.free_choice()) s += " free";
  if (r.gravity()) s += " gravity";
  return s;
}

Classic Classic::from_string(std::string_view text) {
  auto bad = [&](const std::string& why) -> InvalidPositionError {
    return InvalidPositionError("invalid classic position " + quote(text) + ": " + why +
                                " (expected e.g. 'x.o/.x./... k=3' with options misere, free, gravity)");
  };
  const auto tokens = notation::split_whitespace(text);
  if (tokens.empty()) throw bad("it is empty");
  const auto rows = notation::split(tokens[0], '/');
  ClassicOptions o;
  o.rows = static_cast<int>(rows.size());
  o.cols = static_cast<int>(rows[0].size());
  for (auto row : rows)
    if (static_cast<int>(row.size()) != o.cols || row.empty()) throw bad("rows must be non-empty and of equal length");
  if (o.rows * o.cols > ClassicRules::kMaxCells) throw bad("the board has more than 64 cells");
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const std::string t = notation::lower(tokens[i]);
    if (t.rfind("k=", 0) == 0) {
      auto k = notation::parse_int(std::string_view(t).substr(2), 64);
      if (!k) throw bad("k must be a whole number");
      o.k = *k;
      if (o.k == 0) throw bad("k must be at least 1");
    } else if (t == "misere") {
      o.misere = true;
    } else if (t == "free" || t == "free_choice") {
      o.free_choice = true;
    } else if (t == "gravity") {
      o.gravity = true;
    } else {
      throw bad("unknown option " + quote(tokens[i]));
    }
  }
  const ClassicRules* rules;
  try {
    rules = &ClassicRules::get(o);
  } catch (const InvalidOptionError& e) {
    throw bad(e.what());
  }
  Classic g(*rules);
  for (int row = 0; row < o.rows; ++row)
    for (int col = 0; col < o.cols; ++col) {
      const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(rows[row][col])));
      const auto b = bits::bit(row * o.cols + col);
      if (ch == 'x') g.marks_[0] |= b;
      else if (ch == 'o') g.marks_[1] |= b;
      else if (ch != '.') throw bad("cells are x, o or '.'");
    }
  const int nx = bits::count(g.marks_[0]), no = bits::count(g.marks_[1]);
  g.ply_ = static_cast<std::uint8_t>(nx + no);
  if (!rules->free_choice() && nx - no != 0 && nx - no != 1)
    throw bad("X moves first and players alternate, so X has as many marks as O or one more");
  if (rules->gravity()) {
    for (int col = 0; col < o.cols; ++col) {
      const std::uint64_t filled = g.occupied() & rules->column(col);
      // Marks stack from the bottom: the filled cells are the column's lowest ones.
      if (filled && (filled | (rules->column(col) & ~((bits::bit(bits::lowest(filled))) - 1))) != filled)
        throw bad("with gravity a mark cannot float above an empty cell (column " + notation::column_name(col) + ")");
    }
  }
  // With gravity and turns, the stacking order and the turn order must agree.
  const bool turns_bind_stacking = rules->gravity() && !rules->free_choice();
  auto in_turn = [&](const std::array<std::uint64_t, 2>& marks) {
    return !turns_bind_stacking || GravityTurnOrder(*rules, marks).exists();
  };
  auto has_line = [&](std::uint64_t x, std::uint64_t oo) {
    for (auto line : rules->all_lines())
      if ((x & line) == line || (oo & line) == line) return true;
    return false;
  };
  if (has_line(g.marks_[0], g.marks_[1])) {
    // A finished game: some last move must have completed every line at once.
    const Player last = static_cast<Player>((g.ply_ - 1) & 1);
    bool found = false;
    for (int s = 0; s < 2 && !found; ++s) {
      if (!rules->free_choice() && s != static_cast<int>(last)) continue;
      bits::for_each(g.marks_[s], [&](int cell) {
        if (found) return;
        if (rules->gravity()) {
          const std::uint64_t above = rules->column(cell % o.cols) & (bits::bit(cell) - 1);
          if (above & g.occupied()) return;  // not the top of its column
        }
        auto m = g.marks_;
        m[s] &= ~bits::bit(cell);
        if (!has_line(m[0], m[1]) && in_turn(m)) found = true;
      });
    }
    if (!found)
      throw bad(turns_bind_stacking
                    ? "the lines on the board cannot all have been completed by the last move of a game played in "
                      "turn (X, O, X, ... with each mark landing on the one below)"
                    : "the lines on the board cannot all have been completed by the last move");
    g.outcome_ = rules->misere() ? Outcome::win(opponent(last), Termination::MisereLine)
                                 : Outcome::win(last, Termination::Line);
  } else {
    if (!in_turn(g.marks_))
      throw bad("with gravity the marks land in turn (X, O, X, ...), each on the one below, and no order of play "
                "stacks the columns like this");
    if (g.ply_ == rules->cells()) g.outcome_ = Outcome::draw();
  }
  return g;
}

std::string Classic::status() const {
  const ClassicRules& r = *rules_;
  if (const auto w = outcome_.winner()) {
    if (outcome_.termination == Termination::MisereLine)
      return std::string(player_name(*w)) + " wins: " + player_name(opponent(*w)) + " completed a line (misère)";
    return std::string(player_name(*w)) + " wins: " + std::to_string(r.k()) + " in a row";
  }
  if (outcome_.over()) return "Draw: the board is full";
  return std::string(player_name(to_move())) + " to move" + (r.free_choice() ? " (writes X or O)" : "");
}

std::string Classic::explanation() const {
  const ClassicRules& r = *rules_;
  if (!outcome_.over()) return status();
  const auto w = outcome_.winner();
  if (!w) return "Draw: the board is full and nobody made a line.";
  const std::uint64_t line = winning_line();
  std::string cells;
  bits::for_each(line, [&](int c) { cells += (cells.empty() ? "" : " ") + r.cell_name(c); });
  // With free choice a line of either symbol counts, so the words name it.
  const char* symbol = (marks_[0] & line) == line ? "X" : "O";
  const std::string what = std::to_string(r.k()) + " in a row" +
                           (r.free_choice() ? std::string(" of ") + symbol + " marks" : "") + " (" + cells + ")";
  const std::string winner = player_name(*w), loser = player_name(opponent(*w));
  if (outcome_.termination == Termination::MisereLine)
    return winner + " wins: " + loser + " completed " + what + ", and in misère a line loses" +
           (r.free_choice() ? ", whichever symbol it is made of." : ".");
  if (r.free_choice())
    return winner + " wins: " + winner + " completed " + what + ", and with free choice a line of either symbol wins.";
  return winner + " wins with " + what + ".";
}

std::string Classic::render() const {
  const auto& r = *rules_;
  const int width = r.rows() >= 10 ? 2 : 1;
  // Each column is as wide as its name plus a space (past z the names take
  // two letters), so every mark stands under the first letter of its column.
  std::string s(width + 1, ' ');
  for (int col = 0; col < r.cols(); ++col) s += notation::column_name(col) + ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  for (int row = 0; row < r.rows(); ++row) {
    auto num = std::to_string(row + 1);
    s += '\n' + std::string(width - num.size(), ' ') + num + ' ';
    for (int col = 0; col < r.cols(); ++col) {
      const auto b = bits::bit(row * r.cols() + col);
      s += (marks_[0] & b) ? 'X' : (marks_[1] & b) ? 'O' : '.';
      if (col + 1 < r.cols()) s += std::string(notation::column_name(col).size(), ' ');
    }
  }
  return s;
}

}  // namespace noughts
