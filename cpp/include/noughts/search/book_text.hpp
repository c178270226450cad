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
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "noughts/errors.hpp"
#include "noughts/game.hpp"
#include "noughts/search/book.hpp"

namespace noughts {

namespace book_text_detail {

inline std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (true) {
    at = s.find_first_not_of(" \t", at);
    if (at == std::string_view::npos) return out;
    const std::size_t end = std::min(s.find_first_of(" \t", at), s.size());
    out.push_back(s.substr(at, end - at));
    at = end;
  }
}

// A whole number that fits, or nothing: what a value or distance must be.
inline std::optional<long long> whole(std::string_view s) {
  long long n = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (error != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return n;
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
    if (line.starts_with('#') || line.find_first_not_of(" \t") == std::string_view::npos) continue;
    try {
      const std::size_t colon = line.find(':');
      const auto position = words(line.substr(0, colon));
      if (position.size() < 2)
        throw InvalidOptionError("a book line is the moves from the start, the value and the distance (then, "
                                 "optionally, ':' and a line of best play), not '" + std::string(line) + "'");
      const std::string_view value_text = position[position.size() - 2], distance_text = position.back();
      const auto value = whole(value_text), distance = whole(distance_text);
      const std::string given = std::string(value_text) + " " + std::string(distance_text);
      if (!value || !distance) throw InvalidOptionError("a book's value and distance are whole numbers, not " + given);
      if (*value < -1 || *value > 1 || *distance < 0 || *distance > Book<G>::kMaxDistance)
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
        for (std::string_view name : words(line.substr(colon + 1))) best.push_back(move_of(g, name));
      book.add(g, static_cast<int>(*value), static_cast<int>(*distance), best);
    } catch (const std::invalid_argument& e) {  // every bad-input error of the engine
      throw InvalidOptionError("line " + std::to_string(number) + ": " + e.what());
    }
  }
}

}  // namespace noughts
