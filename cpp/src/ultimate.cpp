#include "noughts/ultimate.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "noughts/errors.hpp"
#include "noughts/notation.hpp"

namespace noughts {

using board3::kFull;
using board3::kHasLine;

namespace {

using notation::quote;

unsigned marks_of(const Ultimate& g, int p, int b) { return g.marks(static_cast<Player>(p), b); }

std::string board_list(unsigned boards) {
  std::string s;
  bits::for_each(boards, [&](int b) { s += (s.empty() ? "" : ", ") + std::to_string(b); });
  return s;
}

constexpr const char* kExpected =
    "expected 9 rows of 9 cells (x, o or .) separated by '/', a space, then the board the mover is sent "
    "to (0-8) or '-' when free, then 'tiebreak' for the board-count rule, e.g. '........./........./........./........./....x..../........./"
    "........./........./......... 4'";

}  // namespace

std::string Ultimate::cell_name(int board, int cell) {
  const GridSquare at = id_to_grid(board * 9 + cell);
  return notation::column_name(at.col) + std::to_string(at.row + 1);
}

std::string Ultimate::board_name(int b) {
  return "board " + std::to_string(b) + " (" + cell_name(b, 0) + "-" + cell_name(b, 8) + ")";
}

void Ultimate::derive() noexcept {
  won_ = {};
  decided_ = 0;
  outcome_ = {};
  ply_ = 0;
  for (int b = 0; b < kBoards; ++b) {
    const unsigned x = marks_of(*this, 0, b), o = marks_of(*this, 1, b);
    ply_ = static_cast<std::uint8_t>(ply_ + bits::count(x) + bits::count(o));
    if (kHasLine[x]) won_[0] |= static_cast<std::uint16_t>(1u << b);
    if (kHasLine[o]) won_[1] |= static_cast<std::uint16_t>(1u << b);
    const bool decided = kHasLine[x] || kHasLine[o] || (x | o) == kFull;
    if (decided) decided_ |= static_cast<std::uint16_t>(1u << b);
    open_cells_[b] = decided ? 0 : static_cast<std::uint8_t>(9 - bits::count(x | o));
  }
  open_cells_[kNowhere] = 0;
  for (int p = 0; p < 2; ++p)
    if (kHasLine[won_[p]]) outcome_ = Outcome::win(static_cast<Player>(p), Termination::Line);
  if (!outcome_.over() && decided_ == kFull) outcome_ = all_decided();
}

// ---------------------------------------------------------------- moves

std::string Ultimate::why_illegal(Move m) const {
  if (m < 0 || m >= kMaxActions) return move_id_out_of_range(m, kMaxActions);
  if (outcome_.over()) return "the game is over";
  const int b = m / 9, c = m % 9;
  const std::string mover = player_name(to_move());
  const int forced = forced_board();
  // Every refusal says where the mover may play, the thing a player needs.
  const std::string where =
      forced >= 0 ? mover + " must play in " + board_name(forced) + ", where the last move sent them"
                   : mover + " may play in any open board (" + board_list(open_boards()) + ")";
  if (forced >= 0 && b != forced) return cell_name(b, c) + " is in " + board_name(b) + ", but " + where;
  if (decided_ >> b & 1) {
    const BoardState s = board_state(b);
    const std::string how = s == BoardState::XWon ? "won by X" : s == BoardState::OWon ? "won by O" : "drawn";
    return board_name(b) + " is closed (" + how + "); " + where;
  }
  if (!(empty_cells(b) >> c & 1)) return "cell " + cell_name(b, c) + " is occupied; " + where;
  return {};
}

std::string Ultimate::move_name(Move m) const {
  if (m < 0 || m >= kMaxActions) throw IllegalMoveError(move_id_out_of_range(m, kMaxActions));
  return cell_name(m / 9, m % 9);
}

std::vector<int> Ultimate::move_cells(Move m) const {
  if (m < 0 || m >= kMaxActions) throw IllegalMoveError(move_id_out_of_range(m, kMaxActions));
  const GridSquare at = id_to_grid(m);
  return {at.row * 9 + at.col};
}

std::vector<CompletedLine> Ultimate::completed_lines() const {
  return lines_held(board3::kLines, won_[0], won_[1]);
}

Move Ultimate::parse_move(std::string_view text) const {
  const std::string_view t = notation::trim(text);
  auto unreadable = [&]() -> InvalidMoveError {
    return InvalidMoveError("cannot read move " + quote(text) +
                            ": expected a cell of the 9x9 grid such as 'e5' (columns a-i from the left, rows 1-9 "
                            "from the top) or board/cell with digits 0-8 such as '4/4'");
  };
  if (auto slash = t.find('/'); slash != std::string_view::npos) {
    const auto board = notation::parse_int(notation::trim(t.substr(0, slash)), 1000);
    const auto cell = notation::parse_int(notation::trim(t.substr(slash + 1)), 1000);
    if (!board || !cell) throw unreadable();
    if (*board > 8 || *cell > 8)
      throw IllegalMoveError("move " + quote(text) + " is off the board: boards and cells are numbered 0-8");
    return *board * 9 + *cell;
  }
  const auto cell = notation::parse_cell(t);
  if (!cell || cell->row < 0) throw unreadable();
  if (cell->col >= 9 || cell->row >= 9)
    throw IllegalMoveError("move " + quote(text) + " is off the 9x9 board: columns are a-i and rows 1-9");
  return grid_to_id(cell->row, cell->col);
}

// ------------------------------------------------------- position strings

std::string Ultimate::to_string() const {
  std::string s;
  for (int row = 0; row < 9; ++row) {
    if (row) s += '/';
    for (int col = 0; col < 9; ++col) s += mark_at(row, col);
  }
  s += ' ';
  s += forced_board() >= 0 ? static_cast<char>('0' + forced_board()) : '-';
  if (tiebreak_) s += " tiebreak";
  return s;
}

namespace {

// The sending rule read as a walk. A mark in cell c of board b, by player p,
// is a step from (b, p to move) to (c, the other player to move): the next
// move must be in board c. A game is a walk through every mark once, from
// (any board, X) to (the forced board, the player to move), except that
// after a move into a cell whose board is decided the next move may be in
// any open board: a jump. Boards decided now are the only ones a jump can
// ever have come from. So, as for any Euler path:
//  - at a vertex whose board is open now, no more steps can come in than go
//    out, but one at the walk's end (the forced board and the mover);
//  - a connected set of marks that touches no decided board is crossed in
//    one go, so there is at most one, and it holds the walk's end.
// Without a decided board these conditions are exact (an Euler path exists
// exactly when they hold); with decided boards they are necessary, and the
// order in which boards were decided is not checked.
struct SendingWalk {
  std::array<int, 18> degree{};  // steps out minus steps in, by vertex board * 2 + player to move
  std::array<int, 18> parent{};
  std::array<bool, 18> used{};

  int root(int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  }
};

}  // namespace

bool Ultimate::follows_sending_rule(const Ultimate& g, int forced) {
  SendingWalk w;
  for (int v = 0; v < 18; ++v) w.parent[v] = v;
  for (int p = 0; p < 2; ++p)
    for (int b = 0; b < kBoards; ++b)
      bits::for_each(g.marks_[p][b], [&](int c) {
        const int from = b * 2 + p, to = c * 2 + (1 - p);
        ++w.degree[from], --w.degree[to];
        w.used[from] = w.used[to] = true;
        w.parent[w.root(from)] = w.root(to);
      });
  const bool over = g.outcome_.over();
  // The walk's end: after a game-ending move, or a move sending to a decided board, it is not known.
  const int end = forced >= 0 ? forced * 2 + (g.ply_ & 1) : -1;
  auto decided = [&](int v) { return (g.decided_ >> (v / 2) & 1) != 0; };
  bool loose_end = over;  // a finished game's walk may end anywhere, once
  for (int v = 0; v < 18; ++v) {
    if (decided(v) || w.degree[v] >= 0) continue;
    if (w.degree[v] == -1 && v == end) continue;
    if (w.degree[v] == -1 && loose_end) {
      loose_end = false;
      continue;
    }
    return false;
  }
  std::array<bool, 18> touches_decided{}, holds_end{};
  for (int v = 0; v < 18; ++v) {
    if (!w.used[v]) continue;
    touches_decided[w.root(v)] |= decided(v);
    holds_end[w.root(v)] |= v == end;
  }
  int isolated = 0;
  for (int v = 0; v < 18; ++v) {
    if (!w.used[v] || w.root(v) != v || touches_decided[v]) continue;
    if (++isolated > 1 || !(holds_end[v] || over)) return false;
  }
  return true;
}

Ultimate Ultimate::from_string(std::string_view text) {
  auto bad = [&](const std::string& why) -> InvalidPositionError {
    return InvalidPositionError("invalid ultimate position " + quote(text) + ": " + why + " (" + kExpected + ")");
  };
  const auto tokens = notation::split_whitespace(text);
  if (tokens.empty()) throw bad("it is empty");
  if (tokens.size() < 2 || tokens.size() > 3 || (tokens.size() == 3 && tokens[2] != "tiebreak"))
    throw bad("it must have two parts, the grid and the forced board, then optionally the word 'tiebreak'");
  const auto rows = notation::split(tokens[0], '/');
  if (rows.size() != 9) throw bad("the grid must have 9 rows");
  Ultimate g(tokens.size() == 3);
  for (int row = 0; row < 9; ++row) {
    if (rows[row].size() != 9) throw bad("row " + std::to_string(row + 1) + " must have 9 cells");
    for (int col = 0; col < 9; ++col) {
      const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(rows[row][col])));
      const Move m = grid_to_id(row, col);
      const unsigned bit = 1u << (m % 9);
      if (ch == 'x') g.marks_[0][m / 9] |= static_cast<std::uint16_t>(bit);
      else if (ch == 'o') g.marks_[1][m / 9] |= static_cast<std::uint16_t>(bit);
      else if (ch != '.') throw bad("cells are x, o or '.'");
    }
  }
  const std::string_view f = tokens[1];
  int forced = -1;
  if (f.size() == 1 && f[0] >= '0' && f[0] <= '8') forced = f[0] - '0';
  else if (f != "-") throw bad("the forced board must be a digit 0-8 or '-', not " + quote(f));

  g.derive();
  int nx = 0, no = 0;
  for (int b = 0; b < kBoards; ++b) nx += bits::count(marks_of(g, 0, b)), no += bits::count(marks_of(g, 1, b));
  if (nx - no != 0 && nx - no != 1)
    throw bad("X moves first and players alternate, so X has as many marks as O or one more");
  const int last = (g.ply_ - 1) & 1;  // the player who made the last move (when ply > 0)

  // A small board closes at its first line, so all its lines come from its last mark.
  for (int b = 0; b < kBoards; ++b) {
    const bool x_line = kHasLine[marks_of(g, 0, b)], o_line = kHasLine[marks_of(g, 1, b)];
    if (x_line && o_line) throw bad(board_name(b) + " has lines of both players, but it closes at the first line");
    if (!x_line && !o_line) continue;
    const int p = x_line ? 0 : 1;
    bool one_move = false;
    bits::for_each(marks_of(g, p, b), [&](int c) { one_move |= !kHasLine[marks_of(g, p, b) & ~(1u << c)]; });
    if (!one_move)
      throw bad("the lines in " + board_name(b) + " cannot all have been completed by one move, but the board "
                "closes at the first line");
  }

  // The game ends at the first line of boards: only the winner's last move
  // may have completed it, by winning a board that is in every such line.
  const bool x_meta = kHasLine[g.won_[0]], o_meta = kHasLine[g.won_[1]];
  if (x_meta && o_meta) throw bad("both players have a line of boards, but the game ends at the first");
  if (x_meta || o_meta) {
    const int p = x_meta ? 0 : 1;
    if (p != last)
      throw bad(std::string(player_name(static_cast<Player>(p))) +
                " has a line of boards but did not make the last move, and the game ends at the first line");
    bool one_move = false;
    bits::for_each(g.won_[p], [&](int b) { one_move |= !kHasLine[g.won_[p] & ~(1u << b)]; });
    if (!one_move) throw bad("the lines of boards cannot all have been completed by the last move");
  }

  // Whose mark made the last move and where it sent the mover.
  auto last_mark_at_cell = [&](unsigned cells) {
    bool any = false;
    for (int b = 0; b < kBoards; ++b) any |= (marks_of(g, last, b) & cells) != 0;
    return any;
  };
  if (g.outcome_.over()) {
    if (forced >= 0) throw bad("the game is over, so no board is forced: write '-'");
  } else if (forced >= 0) {
    if (g.ply_ == 0) throw bad("before the first move X may play anywhere: write '-'");
    if (g.decided_ >> forced & 1)
      throw bad("the mover cannot be sent to " + board_name(forced) + ": it is decided (write '-' for a free move)");
    if (!last_mark_at_cell(1u << forced))
      throw bad(std::string("the last move (by ") + player_name(static_cast<Player>(last)) +
                ") cannot have sent the mover to board " + std::to_string(forced) + ": no " +
                player_name(static_cast<Player>(last)) + " mark is in a cell " + std::to_string(forced) + " of a board");
  } else if (g.ply_ > 0 && !last_mark_at_cell(g.decided_)) {
    throw bad("a free move needs a last move into a cell whose board is decided; give the forced board (0-8)");
  }
  if (g.ply_ > 0 && !follows_sending_rule(g, forced)) {
    throw bad("no order of these marks follows the sending rule (each move in the board named by the cell of the "
              "move before, unless that board is decided)");
  }
  g.sent_ = forced >= 0 ? static_cast<std::uint8_t>(forced) : kNowhere;
  return g;
}

std::string Ultimate::render() const {
  std::string s = "  a b c   d e f   g h i";
  for (int row = 0; row < 9; ++row) {
    if (row == 3 || row == 6) s += "\n  ------+-------+------";
    s += '\n' + std::to_string(row + 1) + ' ';
    for (int col = 0; col < 9; ++col) {
      s += static_cast<char>(std::toupper(static_cast<unsigned char>(mark_at(row, col))));
      if (col == 2 || col == 5) s += " | ";
      else if (col < 8) s += ' ';
    }
  }
  return s + '\n' + status();
}

std::string Ultimate::status() const {
  const int x_boards = bits::count(won_[0]), o_boards = bits::count(won_[1]);
  const std::string tally = std::to_string(std::max(x_boards, o_boards)) + " to " + std::to_string(std::min(x_boards, o_boards));
  if (auto w = outcome_.winner()) {
    return std::string(player_name(*w)) + (outcome_.termination == Termination::MoreBoards
                                               ? " wins on small boards won, " + tally + ": every board is decided"
                                               : " wins with a line of boards");
  }
  if (outcome_.over()) return tiebreak_ ? "Draw: every board is decided, small boards won " + tally : "Draw: every board is decided";
  if (forced_board() >= 0) return std::string(player_name(to_move())) + " to move in " + board_name(forced_board());
  return std::string(player_name(to_move())) + " to move in any open board";
}

std::string Ultimate::explanation() const {
  if (!outcome_.over()) return status();
  auto boards = [](int n) { return std::to_string(n) + (n == 1 ? " board" : " boards"); };
  const int x_boards = bits::count(won_[0]), o_boards = bits::count(won_[1]);
  const auto w = outcome_.winner();
  if (w && outcome_.termination == Termination::Line) {
    std::string lines;
    for (const auto& line : completed_lines()) {
      if (line.owner != *w) continue;
      lines += lines.empty() ? "boards " : " and boards ";
      for (std::size_t i = 0; i < line.cells.size(); ++i) lines += (i ? ", " : "") + std::to_string(line.cells[i]);
    }
    return std::string(player_name(*w)) + " wins with three small boards in a row (" + lines + ").";
  }
  if (w) {  // the board-count tie-break
    const int mine = *w == Player::X ? x_boards : o_boards, theirs = *w == Player::X ? o_boards : x_boards;
    const std::string winner = player_name(*w);
    return winner + " wins: every small board is decided without a line of boards; " + winner + " won " + boards(mine) +
           " to " + player_name(opponent(*w)) + "'s " + std::to_string(theirs) + ", and with the tie-break more boards win.";
  }
  if (tiebreak_)
    return "Draw: every small board is decided without a line of boards, and X and O won " + boards(x_boards) +
           " each.";
  return "Draw: every small board is decided and nobody has three small boards in a row.";
}

}  // namespace noughts
