#include "noughts/notation.hpp"

#include <cctype>

namespace noughts::notation {

std::string column_name(int col) {
  std::string s;
  for (int c = col + 1; c > 0; c = (c - 1) / 26) s.insert(s.begin(), static_cast<char>('a' + (c - 1) % 26));
  return s;
}

std::optional<CellText> parse_cell(std::string_view text) {
  std::size_t i = 0;
  long col = 0;
  while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) {
    col = col * 26 + (std::tolower(static_cast<unsigned char>(text[i])) - 'a' + 1);
    if (col > 1000000) return std::nullopt;
    ++i;
  }
  if (i == 0) return std::nullopt;
  CellText cell{static_cast<int>(col - 1), -1};
  if (i < text.size()) {
    auto row = parse_int(text.substr(i), 1000000);
    if (!row || *row == 0) return std::nullopt;
    cell.row = *row - 1;
  }
  return cell;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::string lower(std::string_view text) {
  std::string s(text);
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

std::vector<std::string_view> split_whitespace(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) parts.push_back(text.substr(start, i - start));
  }
  return parts;
}

std::optional<int> parse_int(std::string_view text, int limit) {
  if (text.empty()) return std::nullopt;
  long long v = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + (ch - '0');
    if (v > limit) return std::nullopt;
  }
  return static_cast<int>(v);
}

std::string quote(std::string_view text) {
  constexpr std::size_t kMax = 60;
  std::string s = "'";
  if (text.size() > kMax) {
    // Cut on a character boundary: never inside a UTF-8 sequence, so the
    // message stays valid text for Python.
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    s += std::string(text.substr(0, cut)) + "...";
  } else {
    s += std::string(text);
  }
  return s + "'";
}

}  // namespace noughts::notation
