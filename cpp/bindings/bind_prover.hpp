// A proof-number search that keeps its table between positions, for one
// game: _core.<Game>Prover, which noughts.Prover (solver.py) picks by game.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "bind_solver.hpp"
#include "exclusive.hpp"
#include "interruptible.hpp"
#include "noughts/history.hpp"
#include "noughts/search/proof_number.hpp"

namespace noughts::bindings {

namespace py = pybind11;

template <TextGame G>
class Prover {
 public:
  Prover(double tt_mb, bool symmetry) : search_(solve_limits(0, tt_mb, symmetry, false, nullptr), /*weak=*/true) {}

  // The weak solution of the position (its value and one move that keeps
  // it), or None when the limits stop the search first.
  py::object prove(const History<G>& h, double max_seconds, std::uint64_t max_nodes) {
    if (h.current().outcome().over()) throw IllegalMoveError("the game is over: there is nothing to prove");
    const auto scope = use_.enter("this Prover is proving");
    const G root = h.current();
    search_.set_limits(max_seconds, max_nodes);
    bool stopped = false;
    const Solution s = run_interruptible([&](std::atomic<bool>& stop) {
      search_.set_stop(&stop);
      try {
        return search_.solve(root);
      } catch (const SearchStopped&) {
        stopped = true;  // what it proved stays in the table
        return Solution{};
      }
    });
    search_.set_stop(nullptr);
    if (stopped) return py::none();
    return solution_tuple(s);
  }

  void clear() {
    const auto scope = use_.enter("this Prover is proving");
    search_.clear();
  }

 private:
  ProofNumberSearch<G> search_;
  ExclusiveUse use_;
};

template <TextGame G>
void bind_prover(py::module_& m, const std::string& game_name) {
  using P = Prover<G>;
  const std::string name = game_name + "Prover";
  py::class_<P>(m, name.c_str(), "Proof-number search keeping its table between positions; use noughts.Prover.")
      .def(py::init<double, bool>(), py::arg("tt_mb") = 64.0, py::arg("symmetry") = true)
      .def("prove", &P::prove, py::arg("game"), py::arg("max_seconds") = 0.0, py::arg("max_nodes") = 0,
           "The weak solution as a tuple (see solution_tuple), or None past a limit (0: none). Releases the GIL; Ctrl-C stops it.")
      .def("clear", &P::clear, "Forgets the table.");
}

}  // namespace noughts::bindings
