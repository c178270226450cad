// The engine's exceptions. The Python bindings map each one to the class of
// the same name in noughts.errors (all ValueError subclasses).
#pragma once
#include <stdexcept>
#include <string>

namespace noughts {

// Text that is not a move in this game's notation.
struct InvalidMoveError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// A well-formed move that is not legal in this position.
struct IllegalMoveError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// A position string that does not describe a reachable position.
struct InvalidPositionError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// Game parameters outside what the rules allow (k = 0, more than 64 cells, ...).
struct InvalidOptionError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

}  // namespace noughts
