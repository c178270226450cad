// Proof-number search for one game, bound as an overload of
// _core.solve_proof_number (noughts.solve(..., method="pns")).
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bind_solver.hpp"
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
         SolveProgress* progress, bool weak, int lower, int upper, int threads) {
        if (h.current().outcome().over())
          throw IllegalMoveError("the game is over: there is nothing to solve");
        SolveLimits limits = solve_limits(max_seconds, tt_mb, symmetry, move_values, progress);
        limits.lower = lower;
        limits.upper = upper;
        limits.threads = threads;
        const G root = h.current();
        return solution_tuple(run_polling(
            [&](std::atomic<bool>& stop, const std::function<void()>& poll) {
              limits.stop = &stop;
              limits.poll = poll;
              return noughts::solve_proof_number(root, limits, weak);
            },
            cancel));
      },
      py::arg("game"), py::arg("max_seconds") = 0.0, py::arg("tt_mb") = 64.0, py::arg("symmetry") = true,
      py::arg("move_values") = false, py::arg("cancel") = py::none(), py::arg("progress") = nullptr,
      py::arg("weak") = false, py::arg("lower") = -1, py::arg("upper") = 1, py::arg("threads") = 1,
      "Solves the position by proof-number search (see noughts.solve, method='pns').");
}

}  // namespace noughts::bindings
