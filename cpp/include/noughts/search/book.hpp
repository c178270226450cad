// An opening book: exact scores of positions, computed once ahead of time,
// that the solver takes instead of searching below them. A book made of
// every position a number of plies from the start answers any position
// with fewer moves played by a search down to the book alone; with a line
// of best play for each of them, the principal variation too.
//
// Positions are found by their canonical key (the one the solver's table
// uses with symmetry on), so one entry serves every symmetric copy. A book
// holds positions of one game's rules: the solver uses it only on positions
// of the same rules (same_rules below).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "noughts/errors.hpp"
#include "noughts/game.hpp"
#include "noughts/search/hooks.hpp"

namespace noughts {

// Whether two positions are of the same rules: a game whose rules vary
// (Classic's board, k and options; Ultimate's tiebreak) tells by
// same_rules(other). A game without it has one set.
template <Game G>
bool same_rules(const G& a, const G& b) noexcept {
  if constexpr (requires { a.same_rules(b); }) return a.same_rules(b);
  else return true;
}

template <Game G>
class Book {
 public:
  // What the book knows of a position: its value for the player to move
  // (+1, 0, -1) and the distance to the end with best play (0 for a draw).
  struct Entry {
    std::int8_t value;
    std::int16_t distance;
    std::uint32_t line_begin = 0, line_size = 0;  // its line of best play in lines_ (none: 0 moves)
    bool same_score(const Entry& e) const noexcept { return value == e.value && distance == e.distance; }
  };
  // The longest distance any book holds: the solver's scores stay below
  // 1000, and a distance is at most the moves left in the game.
  static constexpr int kMaxDistance = 999;

  // An empty book for positions played from `start`.
  explicit Book(const G& start) : start_(start) {}

  const G& start() const noexcept { return start_; }
  std::size_t size() const noexcept { return entries_.size(); }
  // The fewest and most moves played of the book's positions (0, -1 when empty).
  int min_ply() const noexcept { return min_ply_; }
  int max_ply() const noexcept { return max_ply_; }

  // Adds a position that is not over, of the book's rules, with its value
  // for the player to move (+1, 0, -1), the distance to the end with best
  // play (plies; 0 for a draw) and, if not empty, a line of best play to
  // the end. Throws InvalidOptionError for a value or distance out of
  // range, a finished position, one of other rules, a line that does not
  // end the game with that value and distance, or a position already held
  // with another score.
  void add(const G& g, int value, int distance, const std::vector<Move>& line = {}) {
    if (!same_rules(g, start_)) throw InvalidOptionError("a book's positions must all be of the rules of its start");
    if (g.outcome().over()) throw InvalidOptionError("a book holds positions that are not over");
    if (value < -1 || value > 1) throw InvalidOptionError("a book's value must be 1, 0 or -1, not " + std::to_string(value));
    const int most = std::min(kMaxDistance, longest(g));
    if (value == 0 ? distance != 0 : (distance < 1 || distance > most))
      throw InvalidOptionError("a book's distance must be 0 for a draw and 1.." + std::to_string(most) +
                               " for a win or a loss here, not " + std::to_string(distance));
    if (!line.empty()) check_line(g, value, distance, line);
    Entry entry{static_cast<std::int8_t>(value), static_cast<std::int16_t>(distance)};
    const auto [it, added] = entries_.emplace(key(g), entry);
    if (!added && !it->second.same_score(entry))
      throw InvalidOptionError("the book holds two different scores for the position " + std::string(position_name(g)));
    // A symmetric copy's line is of its own board: the position met first keeps its line.
    if (added && !line.empty()) {
      it->second.line_begin = static_cast<std::uint32_t>(lines_.size());
      it->second.line_size = static_cast<std::uint32_t>(line.size());
      lines_.insert(lines_.end(), line.begin(), line.end());
      line_keys_.emplace(g.hash());
    }
    if (entries_.size() == 1 || g.ply() < min_ply_) min_ply_ = g.ply();
    if (entries_.size() == 1 || g.ply() > max_ply_) max_ply_ = g.ply();
  }

  // What the book holds of a position of its rules, if anything.
  std::optional<Entry> find(const G& g, const typename SearchStateOf<G>::type& state) const {
    if (!holds_ply(g.ply())) return std::nullopt;
    return find_key(canonical_key(g, state, /*symmetry=*/true));
  }
  // The same by the position's canonical key (the solver's table key with
  // symmetry on), for a position whose ply holds_ply.
  bool holds_ply(int ply) const noexcept { return ply >= min_ply_ && ply <= max_ply_; }
  std::optional<Entry> find_key(std::uint64_t canonical) const {
    const auto it = entries_.find(canonical);
    if (it == entries_.end()) return std::nullopt;
    return it->second;
  }
  std::optional<Entry> find(const G& g) const { return find(g, search_state_of(g)); }

  // The book's line of best play from this position, empty if it has
  // none. A line is kept for the board it was added on; for a copy of that
  // board under one of the game's symmetries each move is the one whose
  // position is the copy's under the same symmetry. (A position the table's
  // key merges in other ways, such as free choice's swap of X and O, finds
  // the score but no line.)
  std::vector<Move> line(const G& g) const {
    const auto e = find(g);
    if (!e || e->line_size == 0) return {};
    for (int s = 0; s < g.num_symmetries(); ++s) {
      G kept = g.symmetric(s);
      if (!line_keys_.contains(kept.hash())) continue;
      std::vector<Move> out;
      G here = g;
      for (std::uint32_t i = e->line_begin; i < e->line_begin + e->line_size; ++i) {
        kept.play(lines_[i]);
        typename G::MoveList legal;
        here.legal_moves(legal);
        const auto it = std::find_if(legal.begin(), legal.end(), [&](Move m) {
          G next = here;
          next.play(m);
          return next.symmetric(s) == kept;
        });
        if (it == legal.end()) break;  // not reached: the symmetry maps every move
        out.push_back(*it);
        here.play(*it);
      }
      if (out.size() == e->line_size) return out;
    }
    return {};
  }

 private:
  // A line must be legal from g and end the game with the value, in the
  // distance (a draw: on the line's last move).
  static void check_line(const G& g, int value, int distance, const std::vector<Move>& line) {
    G p = g;
    for (std::size_t i = 0; i < line.size(); ++i) {
      typename G::MoveList legal;
      p.legal_moves(legal);
      if (std::find(legal.begin(), legal.end(), line[i]) == legal.end())
        throw InvalidOptionError("a book line's move " + std::to_string(i + 1) + " of best play is not legal");
      p.play(line[i]);
      if (p.outcome().over() && i + 1 < line.size())
        throw InvalidOptionError("a book's line of best play goes on after the game is over");
    }
    const auto winner = p.outcome().winner();
    const int got = !winner ? 0 : (*winner == g.to_move() ? 1 : -1);
    if (!p.outcome().over() || got != value || (value != 0 && static_cast<int>(line.size()) != distance))
      throw InvalidOptionError("a book's line of best play does not end the game with its value in its distance");
  }

  // The most plies a game can last from g, where the game says.
  static int longest(const G& g) {
    if constexpr (requires { g.max_game_length(); }) return std::max(g.max_game_length() - g.ply(), 1);
    else return kMaxDistance;
  }

  static std::uint64_t key(const G& g) { return canonical_key(g, search_state_of(g), /*symmetry=*/true); }
  static std::string position_name(const G& g) {
    if constexpr (TextGame<G>) return g.to_string();
    else return "at ply " + std::to_string(g.ply());
  }

  G start_;
  std::unordered_map<std::uint64_t, Entry> entries_;
  std::vector<Move> lines_;                     // every entry's line, end to end
  std::unordered_set<std::uint64_t> line_keys_;  // the positions (not up to symmetry) whose lines these are
  int min_ply_ = 0, max_ply_ = -1;
};

}  // namespace noughts
