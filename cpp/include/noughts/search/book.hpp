// An opening book: exact scores of positions, computed once ahead of time,
// that the solver takes instead of searching below them. A book made of
// every position a number of plies from the start answers any position
// with fewer moves played by a search down to the book alone.
//
// Positions are found by their canonical key (the one the solver's table
// uses with symmetry on), so one entry serves every symmetric copy. A book
// holds positions of one game's rules: the solver uses it only on positions
// of the same rules (same_rules below).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "noughts/errors.hpp"
#include "noughts/game.hpp"
#include "noughts/search/hooks.hpp"

namespace noughts {

// Whether two positions are of the same rules. A game whose rules vary
// (Classic's board, k and options) says so by rules(), interned: one
// object per set of rules. Other games have one set.
template <Game G>
bool same_rules(const G& a, const G& b) noexcept {
  if constexpr (requires { a.rules(); }) return &a.rules() == &b.rules();
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
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  // The longest distance a book holds (the solver's scores stay below 1000).
  static constexpr int kMaxDistance = 999;

  // An empty book for positions played from `start`.
  explicit Book(const G& start) : start_(start) {}

  const G& start() const noexcept { return start_; }
  std::size_t size() const noexcept { return entries_.size(); }
  // The fewest and most moves played of the book's positions (0, -1 when empty).
  int min_ply() const noexcept { return min_ply_; }
  int max_ply() const noexcept { return max_ply_; }

  // Adds a position that is not over, of the book's rules, with its value
  // for the player to move (+1, 0, -1) and the distance to the end with
  // best play (plies; 0 for a draw). Throws InvalidOptionError for a value
  // or distance out of range, a finished position, one of other rules, or
  // a position already held with another score.
  void add(const G& g, int value, int distance) {
    if (!same_rules(g, start_)) throw InvalidOptionError("a book's positions must all be of the rules of its start");
    if (g.outcome().over()) throw InvalidOptionError("a book holds positions that are not over");
    if (value < -1 || value > 1) throw InvalidOptionError("a book's value must be 1, 0 or -1, not " + std::to_string(value));
    if (value == 0 ? distance != 0 : (distance < 1 || distance > kMaxDistance))
      throw InvalidOptionError("a book's distance must be 0 for a draw and 1.." + std::to_string(kMaxDistance) +
                               " for a win or a loss, not " + std::to_string(distance));
    const Entry entry{static_cast<std::int8_t>(value), static_cast<std::int16_t>(distance)};
    const auto [it, added] = entries_.emplace(key(g), entry);
    if (!added && it->second != entry)
      throw InvalidOptionError("the book holds two different scores for the position " + std::string(position_name(g)));
    if (entries_.size() == 1 || g.ply() < min_ply_) min_ply_ = g.ply();
    if (entries_.size() == 1 || g.ply() > max_ply_) max_ply_ = g.ply();
  }

  // What the book holds of a position of its rules, if anything.
  std::optional<Entry> find(const G& g, const typename SearchStateOf<G>::type& state) const {
    if (g.ply() < min_ply_ || g.ply() > max_ply_) return std::nullopt;
    const auto it = entries_.find(canonical_key(g, state, /*symmetry=*/true));
    if (it == entries_.end()) return std::nullopt;
    return it->second;
  }
  std::optional<Entry> find(const G& g) const { return find(g, search_state_of(g)); }

 private:
  static std::uint64_t key(const G& g) { return canonical_key(g, search_state_of(g), /*symmetry=*/true); }
  static std::string position_name(const G& g) {
    if constexpr (TextGame<G>) return g.to_string();
    else return "at ply " + std::to_string(g.ply());
  }

  G start_;
  std::unordered_map<std::uint64_t, Entry> entries_;
  int min_ply_ = 0, max_ply_ = -1;
};

}  // namespace noughts
