#include "bind_quantum.hpp"

#include "bind_game.hpp"
#include "noughts/quantum.hpp"

namespace noughts::bindings {

namespace {

py::tuple cells_of_pair(int p) { return py::make_tuple(quantum::kPair.a[p], quantum::kPair.b[p]); }

}  // namespace

void bind_quantum(py::module_& m) {
  using H = History<Quantum>;
  bind_game<Quantum>(m, "Quantum")
      .def(py::init([] { return H(Quantum()); }))
      .def(
          "classical_marks",
          [](const H& h) {
            const Quantum& g = h.current();
            py::list out(quantum::kCells);
            for (int c = 0; c < quantum::kCells; ++c) {
              const int k = g.classical(c);
              out[c] = k ? py::object(py::make_tuple(quantum::mark_owner(k), k)) : py::object(py::none());
            }
            return out;
          },
          "The classical board: for each cell 0..8, None or (player, mark number).")
      .def(
          "spooky_marks",
          [](const H& h) {
            const Quantum& g = h.current();
            py::list out;
            for (int k = 1; k <= g.marks_written(); ++k)
              if (const int p = g.spooky_pair(k); p >= 0) out.append(py::make_tuple(k, quantum::mark_owner(k), cells_of_pair(p)));
            return out;
          },
          "The spooky marks, oldest first: (mark number, player, (a, b)) with cells a < b.")
      .def_property_readonly(
          "pending_collapse",
          [](const H& h) -> py::object {
            const Quantum& g = h.current();
            if (!g.collapse_pending()) return py::none();
            return py::make_tuple(g.marks_written(), cells_of_pair(g.spooky_pair(g.marks_written())));
          },
          "None, or (mark number, (a, b)) of the newest mark while it waits for its collapse.")
      .def_property_readonly("marks_written", [](const H& h) { return h.current().marks_written(); },
                             "How many numbered marks exist (the newest mark's number; 0 at the start).")
      .def(
          "free_cells",
          [](const H& h) { return bit_list(h.current().free_cells()); },
          "The cells without a classical mark, ascending.")
      .def(
          "line_times",
          [](const H& h) -> py::tuple {
            const auto t = h.current().line_times();
            auto time = [](int v) { return v == quantum::kNoLine ? py::object(py::none()) : py::object(py::int_(v)); };
            return py::make_tuple(time(t[0]), time(t[1]));
          },
          "For X and for O: when their earliest classical line was complete (the highest mark number in it, "
          "minimised over their lines), or None. Decides a collapse that gives both players lines.");
}

}  // namespace noughts::bindings
