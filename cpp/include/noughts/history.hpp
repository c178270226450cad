// A game with its past: checked play with clear errors, and undo. This is
// what the Python classes wrap; C++ users get the same checks from it.
// Undo restores the stored previous position, which is exact for every
// game (a Quantum collapse cannot be un-played from the move alone) and
// costs one small copy per move.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "noughts/errors.hpp"
#include "noughts/game.hpp"

namespace noughts {

template <TextGame G>
class History {
 public:
  explicit History(G start = G()) : start_(start), current_(start) {}

  const G& start() const noexcept { return start_; }
  const G& current() const noexcept { return current_; }
  const std::vector<Move>& moves() const noexcept { return moves_; }

  // Plays a move id after checking it; throws IllegalMoveError and leaves
  // everything unchanged when the move is not legal here.
  void play(Move m) {
    if (auto why = current_.why_illegal(m); !why.empty()) throw IllegalMoveError(illegal_message(m, why));
    previous_.push_back(current_);
    moves_.push_back(m);
    current_.play(m);
  }
  // Parses the notation, then plays as above.
  Move play(std::string_view text) {
    const Move m = current_.parse_move(text);
    play(m);
    return m;
  }

  void undo() {
    if (moves_.empty()) throw std::out_of_range("undo: no move to take back");
    current_ = previous_.back();
    previous_.pop_back();
    moves_.pop_back();
  }

  std::string illegal_message(Move m, const std::string& why) const {
    std::string name;
    if (m >= 0 && m < current_.num_actions()) name = " " + current_.move_name(m);
    std::string msg = "illegal move" + name + " (id " + std::to_string(m) + "): " + why;
    typename G::MoveList legal;
    current_.legal_moves(legal);
    if (legal.empty()) return msg;
    msg += "; legal moves:";
    int shown = 0;
    for (Move l : legal) {
      if (++shown > 24) {
        msg += " ... (" + std::to_string(legal.size()) + " in all)";
        break;
      }
      msg += " " + current_.move_name(l);
    }
    return msg;
  }

 private:
  G start_;
  G current_;
  std::vector<G> previous_;
  std::vector<Move> moves_;
};

}  // namespace noughts
