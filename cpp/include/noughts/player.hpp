// Players, results and the reasons a game ends: shared by every game.
#pragma once
#include <cstdint>
#include <optional>

namespace noughts {

enum class Player : std::uint8_t { X = 0, O = 1 };

constexpr Player opponent(Player p) noexcept {
  return p == Player::X ? Player::O : Player::X;
}

// "X" or "O", as messages and boards name the players.
constexpr const char* player_name(Player p) noexcept { return p == Player::X ? "X" : "O"; }

enum class Result : std::uint8_t { Ongoing = 0, XWins = 1, OWins = 2, Draw = 3 };

// Why a game ended. One list for all games so that search and bindings can
// treat every game alike.
enum class Termination : std::uint8_t {
  None = 0,         // still being played
  Line = 1,         // the winner completed a line (Ultimate: a line of small boards)
  MisereLine = 2,   // the loser completed a line (misere)
  EarlierLine = 3,  // Quantum: one collapse gave both players lines; the earlier line wins
  FullBoard = 4,    // no line and no move left (Ultimate: every small board decided)
  MoreBoards = 5,   // Ultimate with the board-count tie-break: every small board decided, no line,
                    // and the winner won more small boards
};

struct Outcome {
  Result result = Result::Ongoing;
  Termination termination = Termination::None;

  constexpr bool over() const noexcept { return result != Result::Ongoing; }
  constexpr std::optional<Player> winner() const noexcept {
    if (result == Result::XWins) return Player::X;
    if (result == Result::OWins) return Player::O;
    return std::nullopt;
  }
  // +1 when X won, -1 when O won, 0 for a draw (or a game still going).
  constexpr int value_for_x() const noexcept {
    return result == Result::XWins ? 1 : result == Result::OWins ? -1 : 0;
  }
  static constexpr Outcome win(Player p, Termination why) noexcept {
    return {p == Player::X ? Result::XWins : Result::OWins, why};
  }
  static constexpr Outcome draw() noexcept { return {Result::Draw, Termination::FullBoard}; }
  friend constexpr bool operator==(const Outcome&, const Outcome&) = default;
};

}  // namespace noughts
