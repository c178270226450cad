// Text helpers shared by every game's notation and position strings.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace noughts::notation {

// Columns are named like spreadsheet columns: a..z, aa, ab, ... (0 -> "a").
std::string column_name(int col);

// A cell written as column letters and an optional row number ("b2", "aa10", "c").
struct CellText {
  int col = 0;   // 0-based
  int row = -1;  // 0-based; -1 when the text had no number
};
// Parses letters then optional digits (case-insensitive); nullopt if the text
// has another shape. Does not check the board's size.
std::optional<CellText> parse_cell(std::string_view text);

std::string_view trim(std::string_view text);
std::string lower(std::string_view text);
std::vector<std::string_view> split(std::string_view text, char sep);
std::vector<std::string_view> split_whitespace(std::string_view text);
// Strict base-10 integer: digits only, no sign, no overflow past `limit`.
std::optional<int> parse_int(std::string_view text, int limit = 1 << 30);
// Quotes user text for an error message, shortened when long.
std::string quote(std::string_view text);

}  // namespace noughts::notation
