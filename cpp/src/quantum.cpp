#include "noughts/quantum.hpp"

#include <algorithm>
#include <cctype>

#include "noughts/errors.hpp"
#include "noughts/notation.hpp"

namespace noughts {

using notation::quote;
using namespace quantum;

namespace {

// a1..c3: column letter, row number from the top (a1 = cell 0, c3 = cell 8).
std::string cell_name(int cell) {
  return std::string{static_cast<char>('a' + cell % 3), static_cast<char>('1' + cell / 3)};
}

std::string pair_name(int p) { return cell_name(kPair.a[p]) + "-" + cell_name(kPair.b[p]); }

// "x5" for a spooky mark, "X5" for a classical one.
std::string mark_name(int k, bool classical) {
  std::string s(1, mark_owner(k) == Player::X ? 'x' : 'o');
  if (classical) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  s += std::to_string(k);
  return s;
}

std::string cell_list(std::uint16_t cells) {
  std::string s;
  bits::for_each(cells, [&](int c) {
    if (!s.empty()) s += ' ';
    s += cell_name(c);
  });
  return s;
}

// A cell of the 3x3 board: its index, kUnreadable, or kOffBoard.
constexpr int kUnreadable = -1, kOffBoard = -2;
int read_cell(std::string_view text) {
  const auto cell = notation::parse_cell(notation::trim(text));
  if (!cell || cell->row < 0) return kUnreadable;
  if (cell->col >= 3 || cell->row >= 3) return kOffBoard;
  return cell->row * 3 + cell->col;
}

}  // namespace

// ---------------------------------------------------------------- symmetry

Quantum Quantum::symmetric(int s) const noexcept {
  if (s == 0) return *this;
  const auto& map = board3::kSymmetry[s];
  Quantum g = *this;
  g.classical_ = 0;
  g.spooky_ = 0;
  g.owned_ = {};
  for (int c = 0; c < kCells; ++c) {
    if (const int k = classical(c)) g.land(k, map[c]);
    std::uint16_t comp = 0;
    bits::for_each(component_[c], [&](int d) { comp |= static_cast<std::uint16_t>(bits::bit(map[d])); });
    g.component_[map[c]] = comp;
  }
  for (int k = 1; k <= written_; ++k)
    if (const int p = pair_of(k); p >= 0)
      g.spooky_ |= std::uint64_t(kPair.id[map[kPair.a[p]]][map[kPair.b[p]]] + 1) << (6 * (k - 1));
  return g;
}

Quantum::SearchState Quantum::search_state() const noexcept {
  // Each image's two words, as symmetric(s) would set them.
  SearchState state{};
  for (int c = 0; c < kCells; ++c)
    if (const auto k = static_cast<std::uint64_t>(classical(c)))
      for (int s = 0; s < 8; ++s) state.classical[s] |= k << (4 * board3::kSymmetry[s][c]);
  for (int k = 1; k <= written_; ++k)
    if (const int p = pair_of(k); p >= 0)
      for (int s = 0; s < 8; ++s) state.spooky[s] |= std::uint64_t(kPairImage[s][p] + 1) << (6 * (k - 1));
  return state;
}

// ---------------------------------------------------------------- tactics

bool Quantum::can_still_win(Player p) const noexcept {
  if (outcome_.over()) return outcome_.winner() == p;
  const int me = static_cast<int>(p);
  int spare = 0;  // p's marks that may still land: spooky now, or not yet written
  for (int k = 1; k <= 9; ++k)
    if (mark_owner(k) == p && (k > written_ || pair_of(k) >= 0)) ++spare;
  const std::uint16_t free = free_cells();
  for (auto line : board3::kLines)
    if (!(line & owned_[1 - me]) && bits::count(line & free) <= spare) return true;
  return false;
}

Tactics Quantum::tactics(MoveList& moves, int* hints, const SearchState&) const noexcept {
  Tactics t;
  const Player me = to_move();
  t.mover_can_win = can_still_win(me);
  t.opponent_can_win = can_still_win(opponent(me));
  moves.clear();
  const std::uint16_t free = free_cells();

  if (pending_ || (free & (free - 1)) == 0) {
    // A collapse choice (two moves) or the last cell (one): play each out.
    MoveList legal;
    legal_moves(legal);
    for (Move m : legal) {
      Quantum child = *this;
      child.play(m);
      const auto w = child.outcome_.winner();
      if (w == me) return t.kind = Tactics::WinNow, t.move = m, t;
      if (child.outcome_.over() && w) {
        t.dropped = 1, t.dropped_move = m;
        continue;
      }
      hints[moves.size()] = 0;
      moves.push(m);
    }
    if (moves.size() == 0) t.kind = Tactics::LossNow, t.move = t.dropped_move, t.dropped = 0;
    return t;
  }

  // A spooky pair. For each cell of a component of two cells or more: who
  // wins at once when a cycle-closing pair collapses with its new mark
  // there (the chooser is the opponent). Only components that can complete
  // a line are played out: every cell of the line must be in the component
  // or hold a classical mark of the player it would be a line of.
  std::uint16_t they_win = 0, i_win = 0, checked = 0, decisive = 0;
  bits::for_each(free, [&](int r) {
    const std::uint16_t comp = component_[r];
    if (!(comp & (comp - 1))) return;
    if (!(checked >> r & 1)) {
      checked |= comp;
      for (auto line : board3::kLines)
        if (!(line & ~(comp | owned_[0])) || !(line & ~(comp | owned_[1]))) decisive |= comp;
    }
    if (!(decisive >> r & 1)) return;
    Quantum child = *this;
    child.write_pair(r, bits::lowest(comp & ~bits::bit(r)));
    child.collapse(r);
    if (const auto w = child.outcome_.winner()) (*w == me ? i_win : they_win) |= static_cast<std::uint16_t>(bits::bit(r));
  });

  // The hint's weight per cell: the lines through it still open to a
  // player, 2^(that player's classical marks in the line).
  std::array<int, kCells> weight{};
  for (auto line : board3::kLines)
    for (int p = 0; p < 2; ++p)
      if (!(line & owned_[1 - p])) {
        const int w = 1 << bits::count(line & owned_[p]);
        bits::for_each(line & free, [&](int c) { weight[c] += w; });
      }
  bits::for_each(free, [&](int a) {
    bits::for_each(free & ~(bits::bit(a + 1) - 1), [&](int b) {
      const Move m = kPair.id[a][b];
      const bool closes = component_[a] >> b & 1;
      if (closes && ((they_win >> a | they_win >> b) & 1)) {
        t.dropped = 2, t.dropped_move = m;
        return;
      }
      // Cycles first, the larger the better (a collapse settles many cells
      // and the game shortens); of those, cycles that leave the opponent a
      // losing collapse, and above all those where both of its collapses lose.
      // Of the other pairs, those that join the larger components (the
      // cycles they prepare collapse more cells).
      int hint = weight[a] + weight[b];
      if (closes) {
        hint += 64 + 8 * bits::count(component_[a]);
        if ((i_win >> a | i_win >> b) & 1) hint += 128;
        if (i_win >> a & i_win >> b & 1) hint += 1 << 12;
      } else {
        hint += 2 * bits::count(component_[a] | component_[b]);
      }
      hints[moves.size()] = hint;
      moves.push(m);
    });
  });
  if (moves.size() == 0) t.kind = Tactics::LossNext, t.move = t.dropped_move, t.dropped = 0;
  return t;
}

// ---------------------------------------------------------------- moves

std::string Quantum::why_illegal(Move m) const {
  if (m < 0 || m >= kNumActions) return move_id_out_of_range(m, kNumActions);
  if (outcome_.over()) return "the game is over";
  const std::string who = player_name(to_move());
  if (pending_) {
    const int p = pair_of(written_);
    const int a = kPair.a[p], b = kPair.b[p];
    if (m == kCollapse + a || m == kCollapse + b) return {};
    const std::string choice = move_name(kCollapse + a) + " or " + move_name(kCollapse + b);
    if (m >= kCollapse && m < kLastCell)
      return "mark " + mark_name(written_, false) + " can only land in one of its own cells: " + choice;
    return "mark " + mark_name(written_, false) + " (" + pair_name(p) + ") closed a cycle, so " + who +
           " must first choose where it lands: " + choice;
  }
  const std::uint16_t free = free_cells();
  if (bits::count(free) == 1) {
    const int last = bits::lowest(free);
    if (m == kLastCell + last) return {};
    return "only " + cell_name(last) + " has no classical mark, so no pair fits: " + who +
           "'s mark is the single classical mark " + cell_name(last);
  }
  const std::string pairs = "write a spooky pair of two cells without a classical mark (free: " + cell_list(free) + ")";
  if (m >= kLastCell)
    return "a single classical mark is only written when exactly one cell has no classical mark; " + who + " must " +
           pairs;
  if (m >= kCollapse) return "no collapse is pending; " + who + " must " + pairs;
  for (int c : {kPair.a[m], kPair.b[m]})
    if (const int k = classical(c))
      return "cell " + cell_name(c) + " holds the classical mark " + mark_name(k, true) + "; " + who + " must " + pairs;
  return {};
}

std::string Quantum::move_name(Move m) const {
  if (m < 0 || m >= kNumActions) throw IllegalMoveError(move_id_out_of_range(m, kNumActions));
  if (m < kPairs) return pair_name(m);
  if (m < kLastCell) return std::string(1, '@').append(cell_name(m - kCollapse));
  return cell_name(m - kLastCell);
}

std::vector<int> Quantum::move_cells(Move m) const {
  if (m < 0 || m >= kNumActions) throw IllegalMoveError(move_id_out_of_range(m, kNumActions));
  if (m < kPairs) return {kPair.a[m], kPair.b[m]};
  return {m < kLastCell ? m - kCollapse : m - kLastCell};
}

std::vector<CompletedLine> Quantum::completed_lines() const {
  return lines_held(board3::kLines, owned_[0], owned_[1]);
}

Move Quantum::parse_move(std::string_view text) const {
  auto cell = [&](std::string_view part) {
    const int c = read_cell(part);
    if (c == kOffBoard)
      throw IllegalMoveError("move " + quote(text) + " names a cell off the 3x3 board (cells are a1..c3)");
    if (c == kUnreadable)
      throw InvalidMoveError("cannot read move " + quote(text) +
                             ": expected a spooky pair such as 'a1-b3', a collapse choice such as '@a1', or a "
                             "single cell such as 'c3' (the last free cell)");
    return c;
  };
  const auto t = notation::trim(text);
  if (!t.empty() && t.front() == '@') return kCollapse + cell(t.substr(1));
  const auto dash = t.find('-');
  if (dash == std::string_view::npos) return kLastCell + cell(t);
  const int a = cell(t.substr(0, dash)), b = cell(t.substr(dash + 1));
  if (a == b)
    throw IllegalMoveError("move " + quote(text) + " names " + cell_name(a) +
                           " twice: a spooky pair needs two different cells");
  return kPair.id[a][b];
}

// ------------------------------------------------------- position strings

std::string Quantum::to_string() const {
  std::array<int, 10> cell_of{};
  for (int c = 0; c < kCells; ++c) cell_of[classical(c)] = c;
  std::string s = "quantum";
  for (int k = 1; k <= written_; ++k) {
    const int p = pair_of(k);
    s += ' ' + mark_name(k, p < 0) + ':' + (p < 0 ? cell_name(cell_of[k]) : pair_name(p));
  }
  return s;
}

// The string lists every mark; it describes a reachable position exactly
// when the checks below pass (the argument is in docs/quantum.md).
Quantum Quantum::from_string(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return InvalidPositionError("invalid quantum position " + quote(text) + ": " + why +
                                " (expected e.g. 'quantum X1:b2 O2:a1 x3:a3-c1': X1:b2 is X's mark 1 classical in b2, "
                                "x3:a3-c1 X's mark 3 spooky in a3 and c1; see docs/quantum.md)");
  };
  const auto tokens = notation::split_whitespace(text);
  if (tokens.empty() || notation::lower(tokens[0]) != "quantum") throw bad("it must start with 'quantum'");
  if (tokens.size() > 10) throw bad("there are at most 9 marks");
  const int n = static_cast<int>(tokens.size()) - 1;

  std::array<int, 10> cell{}, pair{};  // by mark number: its classical cell, or its pair id (-1 when none)
  std::array<bool, 10> seen{};
  cell.fill(-1);
  pair.fill(-1);
  for (int i = 1; i <= n; ++i) {
    const auto token = tokens[i];
    const auto colon = token.find(':');
    if (colon == std::string_view::npos || colon < 2) throw bad("mark " + quote(token) + " is not like X1:b2 or x3:a1-c3");
    const char letter = token[0];
    const bool classical = std::isupper(static_cast<unsigned char>(letter));
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(letter)));
    if (lower != 'x' && lower != 'o') throw bad("mark " + quote(token) + " must start with X, O, x or o");
    const auto k = notation::parse_int(token.substr(1, colon - 1), 99);
    if (!k || *k < 1 || *k > 9) throw bad("mark " + quote(token) + ": mark numbers run from 1 to 9");
    if (seen[*k]) throw bad("mark " + std::to_string(*k) + " appears twice");
    seen[*k] = true;
    if ((lower == 'x') != (mark_owner(*k) == Player::X))
      throw bad("mark " + std::to_string(*k) + " is " + player_name(mark_owner(*k)) +
                "'s: X writes the odd marks, O the even ones");
    const auto place = token.substr(colon + 1);
    const std::string shape = "mark " + quote(token) + " must be a classical mark in one cell (X1:b2) or a spooky mark in two different cells (x1:b2-c3)";
    const auto dash = place.find('-');
    if (classical) {
      if (dash != std::string_view::npos) throw bad(shape + ": only lower-case marks are spooky");
      cell[*k] = read_cell(place);
      if (cell[*k] < 0) throw bad(shape);
    } else {
      if (dash == std::string_view::npos) throw bad(shape + ": only upper-case marks are classical");
      const int a = read_cell(place.substr(0, dash)), b = read_cell(place.substr(dash + 1));
      if (a < 0 || b < 0 || a == b) throw bad(shape);
      pair[*k] = kPair.id[a][b];
    }
  }
  for (int k = 1; k <= n; ++k)
    if (!seen[k]) throw bad("the marks are numbered 1 to " + std::to_string(n) + " but mark " + std::to_string(k) + " is missing");

  Quantum g;
  g.written_ = static_cast<std::uint8_t>(n);
  int num_classical = 0, last_classical = 0;
  for (int k = 1; k <= n; ++k) {
    if (cell[k] < 0) continue;
    if (const int other = g.classical(cell[k]))
      throw bad("cell " + cell_name(cell[k]) + " holds two classical marks, " + mark_name(other, true) + " and " +
                mark_name(k, true));
    g.land(k, cell[k]);
    ++num_classical;
    last_classical = k;
  }
  // The spooky marks in order of writing: every pair goes in two cells
  // without a classical mark, and only the newest may close a cycle (the
  // collapse that waits for its chooser); an older cycle would have collapsed.
  for (int k = 1; k <= n; ++k) {
    if (pair[k] < 0) continue;
    for (int c : {kPair.a[pair[k]], kPair.b[pair[k]]})
      if (const int other = g.classical(c))
        throw bad("spooky mark " + mark_name(k, false) + " is in " + cell_name(c) + ", which holds the classical mark " +
                  mark_name(other, true));
    g.written_ = static_cast<std::uint8_t>(k - 1);  // write_pair writes mark written_ + 1
    g.write_pair(kPair.a[pair[k]], kPair.b[pair[k]]);
    if (g.pending_ && k != n)
      throw bad("spooky mark " + mark_name(k, false) + " closes a cycle, which must have collapsed before mark " +
                std::to_string(k + 1) + " was written");
  }
  g.written_ = static_cast<std::uint8_t>(n);
  // A collapse makes at least two marks classical; a lone classical mark is
  // only ever X's ninth in the last cell, after eight others.
  if (num_classical == 1) throw bad("a single classical mark cannot arise: a collapse makes at least two marks classical");
  g.decide();
  if (g.outcome_.over() && n != last_classical)
    throw bad("the collapse that made mark " + mark_name(last_classical, true) +
              " classical ended the game, so no later mark can exist");
  // The fewest moves that reach the position: every mark, plus one collapse
  // if any mark is classical (docs/quantum.md).
  g.ply_ = static_cast<std::uint8_t>(n + (num_classical > 0 ? 1 : 0));
  return g;
}

// ---------------------------------------------------------------- text

std::string Quantum::render() const {
  std::array<std::string, kCells> text;
  for (int c = 0; c < kCells; ++c) {
    auto& t = text[c];
    if (const int k = classical(c)) {
      t += '[';
      t += mark_name(k, true);
      t += ']';
      continue;
    }
    for (int k = 1; k <= written_; ++k)
      if (const int p = pair_of(k); p >= 0 && (kPair.a[p] == c || kPair.b[p] == c)) {
        if (!t.empty()) t += ' ';
        t += mark_name(k, false);
      }
    if (t.empty()) t += '.';
  }
  std::array<std::size_t, 3> width{};
  for (int c = 0; c < kCells; ++c) width[c % 3] = std::max(width[c % 3], text[c].size());
  auto pad = [](std::string s, std::size_t w) { return s + std::string(w - s.size(), ' '); };

  std::string s = "   " + pad("a", width[0]) + "   " + pad("b", width[1]) + "   c";
  for (int row = 0; row < 3; ++row) {
    s.append("\n").append(std::to_string(row + 1)).append("  ");
    for (int col = 0; col < 3; ++col) {
      const auto& t = text[row * 3 + col];
      s += col < 2 ? pad(t, width[col]) + " | " : t;
    }
  }
  return s + "\n" + status();
}

std::string Quantum::status() const {
  const std::string who = player_name(to_move());
  if (outcome_.over()) {
    const auto t = line_times();
    if (!outcome_.winner()) return "Draw: every cell holds a classical mark and there is no line";
    const auto w = static_cast<int>(*outcome_.winner());
    const std::string winner = player_name(*outcome_.winner());
    if (outcome_.termination == Termination::EarlierLine)
      return winner + " wins: both players have lines; " + winner + "'s was complete at mark " + std::to_string(t[w]) +
             ", " + player_name(static_cast<Player>(1 - w)) + "'s only at mark " + std::to_string(t[1 - w]);
    return winner + " wins: a line of classical marks (complete at mark " + std::to_string(t[w]) + ")";
  }
  if (pending_) {
    const int p = pair_of(written_);
    return who + " to move: mark " + mark_name(written_, false) + " (" + pair_name(p) +
           ") closed a cycle; choose where it lands: @" + cell_name(kPair.a[p]) + " or @" + cell_name(kPair.b[p]);
  }
  const std::uint16_t free = free_cells();
  if (bits::count(free) == 1)
    return who + " to move: mark " + std::to_string(written_ + 1) + ", the classical mark in the last free cell " +
           cell_name(bits::lowest(free));
  // Two free cells or more here; the clamps only tell GCC so (it warned of an
  // index past the table, -Warray-bounds).
  const int a = std::clamp(bits::lowest(free), 0, kCells - 1), b = std::clamp(bits::highest(free), 0, kCells - 1);
  return who + " to move: mark " + std::to_string(written_ + 1) + ", a spooky pair such as " + pair_name(kPair.id[a][b]);
}

std::string Quantum::explanation() const {
  if (!outcome_.over()) return status();
  if (!outcome_.winner()) return "Draw: every cell holds a classical mark and nobody has a line.";
  const auto t = line_times();
  // A player's line that decides: the one whose newest mark is line_times()'s
  // (of a player's two lines the earlier one counts), as "a1 b2 c3, whose
  // newest mark is number 7".
  auto deciding = [&](Player p) {
    for (const auto& line : completed_lines()) {
      int newest = 0;
      for (int c : line.cells) newest = std::max(newest, classical(c));
      if (line.owner != p || newest != t[static_cast<int>(p)]) continue;
      std::string s;
      for (int c : line.cells) s += (s.empty() ? "" : " ") + cell_name(c);
      return s + ", whose newest mark is number " + std::to_string(newest);
    }
    return std::string();
  };
  const Player w = *outcome_.winner();
  const std::string winner = player_name(w);
  if (outcome_.termination == Termination::EarlierLine)
    return winner + " wins: the last collapse completed a line for each player, and the earlier line wins. " + winner +
           "'s line " + deciding(w) + ", came before " + player_name(opponent(w)) + "'s, " + deciding(opponent(w)) +
           ".";
  return winner + " wins with a line of three classical marks, " + deciding(w) + ".";
}

}  // namespace noughts
