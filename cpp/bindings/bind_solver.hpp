// The exact solver for one game, bound as an overload of _core.solve.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "exclusive.hpp"
#include "interruptible.hpp"
#include "noughts/history.hpp"
#include "noughts/search/solver.hpp"
#include "noughts/search/transposition_table.hpp"

namespace noughts::bindings {

namespace py = pybind11;

// The limits both searches behind noughts.solve take from Python's arguments.
inline SolveLimits solve_limits(double max_seconds, double tt_mb, bool symmetry, bool move_values,
                                SolveProgress* progress) {
  SolveLimits limits;
  limits.max_seconds = max_seconds;
  // The table grows as it fills, so a huge budget only caps it; keep the
  // conversion in range (1 TiB is far beyond any machine this runs on).
  limits.tt_bytes = static_cast<std::size_t>(std::min(tt_mb, 1024.0 * 1024.0) * 1024 * 1024);
  limits.symmetry = symmetry;
  limits.move_values = move_values;
  limits.progress = progress;
  return limits;
}

// A solution as the tuple noughts.solver._solution turns into a Solution:
// (value, distance, best_moves, move_values, principal_variation, nodes,
// seconds), value for the player to move, distance -1 for a draw or a weak
// solve, move_values as a dict of move id to value. A tuple, not a dict:
// short solves take microseconds, and the answer's keys cost as much.
inline py::tuple solution_tuple(const Solution& s) {
  py::dict values;
  for (const auto& mv : s.move_values) values[py::int_(mv.move)] = py::int_(mv.value);
  return py::make_tuple(s.value, s.distance, s.best_moves, values, s.principal_variation, s.nodes, s.seconds);
}

// A solver's table kept from one solve to the next: _core.SolveTable, one
// for each game and set of options of a noughts.Solver (solver.py), which
// keeps them apart (a key does not tell rules apart).
struct SolveTable {
  explicit SolveTable(double tt_mb) : table(solve_limits(0, tt_mb, true, false, nullptr).tt_bytes) {}
  TranspositionTable table;
  ExclusiveUse use;
};

template <TextGame G>
void bind_solver(py::module_& m) {
  if (!py::hasattr(m, "SolveTable")) {
    py::class_<SolveTable>(m, "SolveTable", "A solver's table kept between solves; use noughts.Solver.")
        .def(py::init<double>(), py::arg("tt_mb") = 64.0)
        .def(
            "save",
            [](SolveTable& t, const std::filesystem::path& path) {
              const auto in_use = t.use.enter("this Solver is solving");
              py::gil_scoped_release release;
              std::ofstream out(path, std::ios::binary | std::ios::app);
              if (!out) throw InvalidOptionError("cannot write " + path.string());
              t.table.save(out);
            },
            py::arg("path"), "Appends the table to the file (TranspositionTable::save). Releases the GIL.")
        .def(
            "load",
            [](SolveTable& t, const std::filesystem::path& path, std::uint64_t offset) {
              const auto in_use = t.use.enter("this Solver is solving");
              py::gil_scoped_release release;
              std::ifstream in(path, std::ios::binary);
              if (!in) throw InvalidOptionError("cannot read " + path.string());
              in.seekg(static_cast<std::streamoff>(offset));
              t.table.load(in);
              return static_cast<std::uint64_t>(in.tellg());
            },
            py::arg("path"), py::arg("offset") = 0,
            "Replaces the table by the one saved at `offset` in the file; returns the offset past it. Releases the "
            "GIL.");
  }
  if (!py::hasattr(m, "SolveProgress")) {
    py::class_<SolveProgress>(m, "SolveProgress", "What a running solve has proved so far (readable while it runs).")
        .def(py::init<>())
        .def_property_readonly("nodes", [](const SolveProgress& p) { return p.nodes.load(std::memory_order_relaxed); })
        .def_property_readonly("lower", [](const SolveProgress& p) { return p.lower.load(std::memory_order_relaxed); })
        .def_property_readonly("upper", [](const SolveProgress& p) { return p.upper.load(std::memory_order_relaxed); })
        .def_property_readonly("depth", [](const SolveProgress& p) { return p.depth.load(std::memory_order_relaxed); });
  }
  m.def(
      "solve",
      [](const History<G>& h, double max_seconds, double tt_mb, bool symmetry, bool move_values, py::object cancel,
         SolveProgress* progress, bool weak, int lower, int upper, bool all_best_moves, int threads, py::object book_object,
         py::object table_object) {
        // The book comes as an object: pybind11 takes None for a pointer only on
        // its second pass over the overloads, which would double every call's cost.
        const Book<G>* book = book_object.is_none() ? nullptr : book_object.cast<const Book<G>*>();
        if (h.current().outcome().over())
          throw IllegalMoveError("the game is over: there is nothing to solve");
        SolveLimits limits = solve_limits(max_seconds, tt_mb, symmetry, move_values, progress);
        limits.lower = lower;
        limits.upper = upper;
        limits.weak = weak;
        limits.all_best_moves = all_best_moves;
        limits.threads = threads;
        const G root = h.current();
        auto run = [&](TranspositionTable* kept) {
          return solution_tuple(run_polling(
              [&](std::atomic<bool>& stop, const std::function<void()>& poll) {
                limits.stop = &stop;
                limits.poll = poll;
                return kept ? noughts::solve(root, limits, book, *kept) : noughts::solve(root, limits, book);
              },
              cancel));
        };
        if (table_object.is_none()) return run(nullptr);
        SolveTable& kept = table_object.cast<SolveTable&>();
        const auto in_use = kept.use.enter("this Solver is solving");
        return run(&kept.table);
      },
      py::arg("game"), py::arg("max_seconds") = 0.0, py::arg("tt_mb") = 64.0, py::arg("symmetry") = true,
      py::arg("move_values") = false, py::arg("cancel") = py::none(), py::arg("progress") = nullptr,
      py::arg("weak") = false, py::arg("lower") = -1, py::arg("upper") = 1, py::arg("all_best_moves") = true, py::arg("threads") = 1,
      py::arg("book") = py::none(), py::arg("table") = py::none(),
      "Solves the position exactly (see noughts.solve); on a SolveTable, keeping what it stores there.");
}

}  // namespace noughts::bindings
