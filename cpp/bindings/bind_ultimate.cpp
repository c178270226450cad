#include "bind_ultimate.hpp"

#include <array>

#include "bind_game.hpp"
#include "noughts/errors.hpp"
#include "noughts/ultimate.hpp"

namespace noughts::bindings {

void bind_ultimate(py::module_& m) {
  using H = History<Ultimate>;
  bind_game<Ultimate>(m, "Ultimate")
      .def(py::init([](bool tiebreak) { return H(Ultimate(tiebreak)); }), py::arg("tiebreak") = false)
      .def(
          "evaluate",
          [](const H& h) {
            if (h.current().outcome().over()) throw IllegalMoveError("the game is over: there is nothing to evaluate");
            return h.current().evaluate();
          },
          "The learned evaluation MCTS values its leaves with: -1 (lost) .. +1 (won) for the player to move.")
      .def_property_readonly(
          "tiebreak", [](const H& h) { return h.current().tiebreak(); },
          "Whether a game that ends with every small board decided and no line of boards is won by the "
          "player who won more small boards (CodinGame's rule) instead of drawn.")
      .def_property_readonly(
          "_forced_board", [](const H& h) { return h.current().forced_board(); },
          "The board the mover must play in, or -1 when free (noughts.Ultimate.forced_board gives None).")
      .def(
          "_board_states",
          [](const H& h) {
            std::array<int, Ultimate::kBoards> states{};
            for (int b = 0; b < Ultimate::kBoards; ++b) states[b] = static_cast<int>(h.current().board_state(b));
            return states;
          },
          "The state of each small board: 0 open, 1 won by X, 2 won by O, 3 drawn.")
      .def(
          "board_marks",
          [](const H& h) {
            std::array<std::array<unsigned, Ultimate::kBoards>, 2> marks{};
            for (int p = 0; p < 2; ++p)
              for (int b = 0; b < Ultimate::kBoards; ++b) marks[p][b] = h.current().marks(static_cast<Player>(p), b);
            return std::make_pair(marks[0], marks[1]);
          },
          "Two lists of 9 bit masks, for X and for O: bit c of entry b is cell c of small board b.");
}

}  // namespace noughts::bindings
