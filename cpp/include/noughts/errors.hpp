// The engine's exceptions. The Python bindings map each one to the class of
// the same name in noughts.errors (all ValueError subclasses).
#pragma once
#include <cstdint>
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

// A search ended early: its time limit passed or its stop flag was raised.
// Carries the work done so far.
struct SearchStopped : std::runtime_error {
  SearchStopped(const char* why, std::uint64_t nodes_, double seconds_)
      : std::runtime_error(why), nodes(nodes_), seconds(seconds_) {}
  std::uint64_t nodes;
  double seconds;
};

// The one wording of a move id outside a game's id space 0..num_actions-1.
inline std::string move_id_out_of_range(long long id, int num_actions) {
  return "move id " + std::to_string(id) + " is out of range: ids are 0.." + std::to_string(num_actions - 1);
}
// The same for an id given as text (too large for any integer type).
inline std::string move_id_out_of_range(const std::string& id, int num_actions) {
  return "move id " + id + " is out of range: ids are 0.." + std::to_string(num_actions - 1);
}

}  // namespace noughts
