#include "bind_classic.hpp"

#include "bind_game.hpp"
#include "noughts/classic.hpp"

namespace noughts::bindings {

void bind_classic(py::module_& m) {
  using H = History<Classic>;
  bind_game<Classic>(m, "Classic")
      .def(py::init([](int rows, int cols, int k, bool misere, bool free_choice, bool gravity) {
             return H(Classic(ClassicOptions{rows, cols, k, misere, free_choice, gravity}));
           }),
           py::arg("rows") = 3, py::arg("cols") = 3, py::arg("k") = 0, py::arg("misere") = false,
           py::arg("free_choice") = false, py::arg("gravity") = false)
      .def_static(
          "_check_options",
          [](int rows, int cols, int k, bool misere, bool free_choice, bool gravity) {
            ClassicRules::get(ClassicOptions{rows, cols, k, misere, free_choice, gravity});
          },
          "Raises InvalidOptionError for options the rules do not allow (before any game object exists).")
      .def_property_readonly("rows", [](const H& h) { return h.current().rules().rows(); })
      .def_property_readonly("cols", [](const H& h) { return h.current().rules().cols(); })
      .def_property_readonly("k", [](const H& h) { return h.current().rules().k(); })
      .def_property_readonly("misere", [](const H& h) { return h.current().rules().misere(); })
      .def_property_readonly("free_choice", [](const H& h) { return h.current().rules().free_choice(); })
      .def_property_readonly("gravity", [](const H& h) { return h.current().rules().gravity(); })
      .def("cell_marks", [](const H& h) { return std::make_pair(h.current().marks(0), h.current().marks(1)); },
           "Bit masks of the cells holding X and holding O (bit i = cell i).")
      .def("winning_line", [](const H& h) { return h.current().winning_line(); },
           "Bit mask of a completed line, or 0.")
      .def(
          "playable_cells",
          [](const H& h) { return bit_list(h.current().playable_cells()); },
          "The cells a move can write now, ascending: the empty cells, or with gravity the lowest empty cell of "
          "each column that has one.")
      .def("target_cell", [](const H& h, int move) { return h.current().target_cell(move); }, py::arg("move"),
           "The cell a move would write in (with gravity: where the mark lands now; -1 if the column is full).");
}

}  // namespace noughts::bindings
