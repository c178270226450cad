#include "bind_ultimate.hpp"

#include <pybind11/numpy.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "bind_game.hpp"
#include "noughts/errors.hpp"
#include "noughts/ultimate.hpp"

namespace noughts::bindings {

namespace {

// A Python int as an int, or -1 when it does not fit (off the grid either way).
int small_int(const py::int_& v) {
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
  return overflow || x < -1 || x > 1000 ? -1 : static_cast<int>(x);
}

}  // namespace

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
      .def_static(
          "_eval_features",
          [](const py::array_t<std::uint16_t, py::array::c_style | py::array::forcecast>& own,
             const py::array_t<std::uint16_t, py::array::c_style | py::array::forcecast>& theirs,
             const py::array_t<std::int8_t, py::array::c_style | py::array::forcecast>& sent) {
            const auto n = sent.ndim() == 1 ? sent.shape(0) : -1;
            if (n < 0 || own.ndim() != 2 || theirs.ndim() != 2 || own.shape(0) != n || theirs.shape(0) != n ||
                own.shape(1) != Ultimate::kBoards || theirs.shape(1) != Ultimate::kBoards)
              throw InvalidOptionError("own and theirs must be (n, 9) arrays of 9-bit masks and sent an (n,) array");
            const std::uint16_t *o = own.data(), *t = theirs.data();
            const std::int8_t* s = sent.data();
            for (py::ssize_t i = 0; i < n * Ultimate::kBoards; ++i)
              if (o[i] > 511 || t[i] > 511 || (o[i] & t[i]))
                throw InvalidOptionError("marks must be 9-bit masks (0..511), own and theirs without a cell in common");
            for (py::ssize_t i = 0; i < n; ++i)
              if (s[i] < -1 || s[i] > 8) throw InvalidOptionError("sent must be a board 0..8, or -1 for a free move");
            py::array_t<std::uint8_t> out({n, static_cast<py::ssize_t>(Ultimate::kEvalFeatures)});
            std::uint8_t* f = out.mutable_data();
            {
              py::gil_scoped_release release;
              for (py::ssize_t i = 0; i < n; ++i)
                Ultimate::eval_features(std::span<const std::uint16_t, Ultimate::kBoards>(o + 9 * i, 9),
                                        std::span<const std::uint16_t, Ultimate::kBoards>(t + 9 * i, 9), s[i],
                                        std::span<std::uint8_t, Ultimate::kEvalFeatures>(f + Ultimate::kEvalFeatures * i,
                                                                                         Ultimate::kEvalFeatures));
            }
            return out;
          },
          py::arg("own"), py::arg("theirs"), py::arg("sent"),
          "The learned evaluation's input features (uint8 0/1, one row per position) of positions given by "
          "the 9-bit masks per board of the player to move (own) and of the opponent, and the board the player "
          "to move is sent to (-1: free). For scripts/train_ultimate_eval.py.")
      .def_readonly_static("_EVAL_FEATURES", &Ultimate::kEvalFeatures)
      .def_property_readonly(
          "tiebreak", [](const H& h) { return h.current().tiebreak(); },
          "Whether a game that ends with every small board decided and no line of boards is won by the "
          "player who won more small boards (CodinGame's rule) instead of drawn.")
      .def_property_readonly(
          "_forced_board", [](const H& h) { return h.current().forced_board(); },
          "The board the mover must play in, or -1 when free (noughts.Ultimate.forced_board gives None).")
      .def(
          "playable_boards",
          [](const H& h) { return bit_list(h.current().playable_boards()); },
          "The small boards the mover may play in, ascending (none once the game is over).")
      .def_static(
          "grid_to_id",
          [](const py::int_& row, const py::int_& col) {
            const int r = small_int(row), c = small_int(col);
            if (r < 0 || r > 8 || c < 0 || c > 8)
              throw InvalidMoveError("square " + py::str(row).cast<std::string>() + " " +
                                     py::str(col).cast<std::string>() + " is off the grid: rows and columns are 0..8");
            return Ultimate::grid_to_id(r, c);
          },
          py::arg("row"), py::arg("col"),
          "The move id (board * 9 + cell) of a square of the 9x9 grid (row and column 0..8, row 0 at the top).")
      .def_static(
          "id_to_grid",
          [](const py::int_& id) {
            const int move = small_int(id);
            if (move < 0 || move >= Ultimate::kMaxActions)
              throw InvalidMoveError("move id " + py::str(id).cast<std::string>() +
                                     " is not an Ultimate move: ids are 0..80");
            const auto at = Ultimate::id_to_grid(move);
            return std::make_pair(at.row, at.col);
          },
          py::arg("move"), "The square (row, column) of the 9x9 grid of a move id (0..80).")
      .def(
          "_grid_rows",
          [](const H& h) {
            std::array<std::string, 9> rows;
            for (int r = 0; r < 9; ++r)
              for (int c = 0; c < 9; ++c) rows[r] += h.current().mark_at(r, c);
            return rows;
          },
          "The 9x9 grid as nine rows of 'x', 'o' or '.', top row first.")
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
