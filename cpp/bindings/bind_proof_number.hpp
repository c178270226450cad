// Proof-number search for one game, bound as an overload of
// _core.solve_proof_number (noughts.solve(..., method="pns")).
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "interruptible.hpp"
#include "noughts/history.hpp"
#include "noughts/search/proof_number.hpp"

namespace noughts::bindings {

namespace py = pybind11;

template <TextGame G>
void bind_proof_number(py::module_& m) {
  m.def(
      "solve_proof_number",
      [](const History<G>& h, double max_seconds, double tt_mb, bool symmetry, bool move_values, py::object cancel,
         SolveProgress* progress, bool weak) {
        if (h.current().outcome().over())
          throw IllegalMoveError("the game is over: there is nothing to solve");
        SolveLimits limits;
        limits.max_seconds = max_seconds;
        limits.tt_bytes = static_cast<std::size_t>(std::min(tt_mb, 1024.0 * 1024.0) * 1024 * 1024);
        limits.symmetry = symmetry;
        limits.move_values = move_values;
        limits.progress = progress;
        const G root = h.current();
        Solution s = run_interruptible(
            [&](std::atomic<bool>& stop) {
              limits.stop = &stop;
              return noughts::solve_proof_number(root, limits, weak);
            },
            cancel);
        py::list values;
        for (const auto& mv : s.move_values) values.append(py::make_tuple(mv.move, mv.value));
        return py::dict(py::arg("value") = s.value, py::arg("value_for_x") = s.value_for_x,
                        py::arg("distance") = s.distance, py::arg("best_moves") = s.best_moves,
                        py::arg("move_values") = values, py::arg("principal_variation") = s.principal_variation,
                        py::arg("nodes") = s.nodes, py::arg("seconds") = s.seconds);
      },
      py::arg("game"), py::arg("max_seconds") = 0.0, py::arg("tt_mb") = 64.0, py::arg("symmetry") = true,
      py::arg("move_values") = false, py::arg("cancel") = py::none(), py::arg("progress") = nullptr,
      py::arg("weak") = false, "Solves the position by proof-number search (see noughts.solve, method='pns').");
}

}  // namespace noughts::bindings
