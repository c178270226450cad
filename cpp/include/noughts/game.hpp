// The game concept: what search (perft, solver, MCTS, playouts) and the
// bindings ask of a game. Classic, Ultimate and Quantum all model it, so
// search is written once and adding a game never touches it.
#pragma once
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "noughts/bits.hpp"
#include "noughts/move_list.hpp"
#include "noughts/player.hpp"

namespace noughts {

// What search needs. A game is a small value type: search copies a position
// and plays a move on the copy (copy-make), so no undo is needed here.
template <class G>
concept Game = std::copyable<G> && std::equality_comparable<G> &&
    requires(const G& g, G& mutable_g, Move m, typename G::MoveList& moves, int s) {
      { G::kMaxActions } -> std::convertible_to<int>;
      { g.legal_moves(moves) } -> std::same_as<void>;  // empty once the game is over
      { mutable_g.play(m) } -> std::same_as<void>;     // m must be legal
      { g.outcome() } -> std::same_as<Outcome>;
      { g.to_move() } -> std::same_as<Player>;
      { g.ply() } -> std::convertible_to<int>;         // moves played since the start
      { g.hash() } -> std::convertible_to<std::uint64_t>;
      { g.num_symmetries() } -> std::convertible_to<int>;
      { g.symmetric(s) } -> std::same_as<G>;  // the position under symmetry s (0 = identity)
    };

// What a position's immediate facts leave to search, from the solver's
// optional hook `Tactics tactics(MoveList& moves, int* hints, const SearchState&) const`
// (search/hooks.hpp): the game settles wins in one and losses in one or two
// moves without playing every move, lists only the moves worth searching,
// with an ordering hint for each (0 .. 2^14 - 1, higher first), and says who
// can still win at all.
struct Tactics {
  enum Kind : std::uint8_t {
    Search,    // search `moves`; the legal moves left out lose in `dropped` plies (0: none left out)
    WinNow,    // `move` wins at once
    LossNow,   // every move loses at once (misere: each completes a line); `move` is one of them
    LossNext,  // every move lets the opponent win at once; `move` is one of them
  };
  Kind kind = Search;
  Move move = -1;
  int dropped = 0;
  Move dropped_move = -1;  // one of the moves left out, when dropped > 0
  // false: they cannot win (no line is left for them, or the other player
  // has a way to keep them from every line that is).
  bool mover_can_win = true, opponent_can_win = true;
  // With Search, the earliest the game can end, in plies from here: no
  // result of the mover's choice comes sooner than a win in `fastest_win`
  // plies or a loss in `fastest_loss` (the moves left out aside). 1 says
  // nothing; a game played in turn where only the mover's own move can win
  // knows a win takes 3 plies once none wins at once.
  int fastest_win = 1, fastest_loss = 1;
  // With Search, when above 0: the mover loses whatever they play, within
  // this many plies (the game knows a way for the opponent to win); or
  // wins, within this many plies (the game knows a way for the mover).
  // Equal to fastest_loss (fastest_win), the result comes exactly then.
  int loses_within = 0, wins_within = 0;
};

// What a player can still make of the lines that win the game, from the
// optional hook `LineProspects line_prospects(Player) const`
// (search/hooks.hpp).
struct LineProspects {
  int open = 0;    // how many lines they can still complete (0: none, as can_still_win says)
  int fewest = 0;  // the fewest units (cells; Ultimate: boards) they still need in one of them
};

// The shape of a game's observation planes (a learner's view of a position).
struct ObservationShape {
  int planes, rows, cols;
  int size() const noexcept { return planes * rows * cols; }
};

// A line complete on the board: whose marks make it (Classic: the symbol,
// which free choice lets either player write) and its cells, ascending
// (Ultimate: the small boards of a line of boards).
struct CompletedLine {
  Player owner;
  std::vector<int> cells;
  friend bool operator==(const CompletedLine&, const CompletedLine&) = default;
};

// The lines (bit masks of cells) of `lines` that X's cells `x` or O's cells
// `o` hold whole, X's first.
template <class Lines>
std::vector<CompletedLine> lines_held(const Lines& lines, std::uint64_t x, std::uint64_t o) {
  std::vector<CompletedLine> out;
  for (Player p : {Player::X, Player::O})
    for (std::uint64_t line : lines)
      if (((p == Player::X ? x : o) & line) == line) {
        CompletedLine held{p, {}};
        bits::for_each(line, [&](int c) { held.cells.push_back(c); });
        out.push_back(std::move(held));
      }
  return out;
}

// What a user-facing game adds: ids, notation, position strings, text.
template <class G>
concept TextGame = Game<G> && requires(const G& g, Move m, std::string_view text) {
  { g.num_actions() } -> std::convertible_to<int>;
  { g.why_illegal(m) } -> std::same_as<std::string>;  // empty when m is legal
  { g.move_name(m) } -> std::same_as<std::string>;    // m need not be legal, only in range
  { g.parse_move(text) } -> std::same_as<Move>;       // throws InvalidMoveError
  { g.to_string() } -> std::same_as<std::string>;     // the one-line position string
  { G::from_string(text) } -> std::same_as<G>;        // throws InvalidPositionError
  { g.render() } -> std::same_as<std::string>;        // a readable multi-line board
  { g.status() } -> std::same_as<std::string>;        // one line: whose turn and what to play, or the result and why
  { g.explanation() } -> std::same_as<std::string>;   // a finished game: who won and why, in full sentences;
                                                       // a game still being played: its status()
};

}  // namespace noughts
