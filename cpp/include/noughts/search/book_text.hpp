// A book file's positions, read into a Book (the format: docs/solver.md,
// "Opening books"). Each position line is the moves from the start (move
// names as the game writes them), the value for the player to move (1, 0
// or -1), the distance in plies (0 for a draw) and, optionally, ':' and a
// line of best play: `d d d d 1 37 : c e c c ...`. Lines starting with '#'
// are the header (the game and its options, read by whoever makes the
// book's start: noughts.OpeningBook in Python) and blank lines are skipped.
#pragma once
#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "noughts/errors.hpp"
#include "noughts/game.hpp"
#include "noughts/notation.hpp"
#include "noughts/search/book.hpp"

namespace noughts {

namespace book_text_detail {

// A value or distance: a whole number, with an optional sign.
enum class Whole { kOk, kNotANumber, kTooLarge };
inline Whole whole(std::string_view s, long long& n) {
  if (s.starts_with('+')) {
    s.remove_prefix(1);
    if (s.starts_with('-')) return Whole::kNotANumber;
  }
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (error == std::errc::result_out_of_range) return Whole::kTooLarge;
  return error != std::errc{} || end != s.data() + s.size() ? Whole::kNotANumber : Whole::kOk;
}

}  // namespace book_text_detail

// Adds every position line of `text` (a book file's whole contents) to the
// book. Throws InvalidOptionError for the first line that does not fit,
// naming it ("line N: why", counting from the text's first line); the
// lines before it stay added.
template <TextGame G>
void add_book_text(Book<G>& book, std::string_view text) {
  using namespace book_text_detail;
  std::unordered_map<std::string_view, Move> ids;  // a book names few moves many times
  const auto move_of = [&](const G& g, std::string_view name) {
    const auto it = ids.find(name);
    return it != ids.end() ? it->second : ids.emplace(name, g.parse_move(name)).first->second;
  };
  int number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.starts_with('#') || notation::trim(line).empty()) continue;
    try {
      const std::size_t colon = line.find(':');
      const auto position = notation::split_whitespace(line.substr(0, colon));
      if (position.size() < 2)
        throw InvalidOptionError("a book line is the moves from the start, the value and the distance (then, "
                                 "optionally, ':' and a line of best play), not " + notation::quote(line));
      const std::string_view value_text = position[position.size() - 2], distance_text = position.back();
      long long value = 0, distance = 0;
      const Whole v = whole(value_text, value), d = whole(distance_text, distance);
      const std::string given = notation::quote(value_text) + " " + notation::quote(distance_text);
      if (v == Whole::kNotANumber || d == Whole::kNotANumber)
        throw InvalidOptionError("a book's value and distance are whole numbers, not " + given);
      if (v == Whole::kTooLarge || d == Whole::kTooLarge || value < -1 || value > 1 || distance < 0 ||
          distance > Book<G>::kMaxDistance)
        throw InvalidOptionError("a book's value is 1, 0 or -1 and its distance 0.." +
                                 std::to_string(Book<G>::kMaxDistance) + ", not " + given);
      G g = book.start();
      for (std::size_t i = 0; i + 2 < position.size(); ++i) {
        const Move m = move_of(g, position[i]);
        if (const std::string why = g.why_illegal(m); !why.empty())
          throw IllegalMoveError("a book line's moves are not legal from its start: " + why);
        g.play(m);
      }
      std::vector<Move> best;
      if (colon != std::string_view::npos)
        for (std::string_view name : notation::split_whitespace(line.substr(colon + 1)))
          best.push_back(move_of(g, name));
      book.add(g, static_cast<int>(value), static_cast<int>(distance), best);
    } catch (const std::invalid_argument& e) {  // every bad-input error of the engine
      throw InvalidOptionError("line " + std::to_string(number) + ": " + e.what());
    }
  }
}

}  // namespace noughts
