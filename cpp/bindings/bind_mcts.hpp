// MCTS for Python: one searcher class per game (ClassicMcts, UltimateMcts,
// QuantumMcts), bound by bind_game.hpp for every game it binds. The Python
// class noughts.MCTS (mcts.py) picks the right one for the game it is given.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "exclusive.hpp"
#include "interruptible.hpp"
#include "noughts/history.hpp"
#include "noughts/search/mcts.hpp"

namespace noughts::bindings {

namespace py = pybind11;

// One Mcts<G> and a guard against being used from two threads at once (the
// trees are not shared-state safe; one searcher per thread is): search(),
// clear() and nodes() all enter it, so a second thread gets a RuntimeError.
template <TextGame G>
class MctsSearcher {
 public:
  explicit MctsSearcher(const MctsConfig& config) : mcts_(config) {}

  py::dict search(const History<G>& game, std::uint64_t iterations, double seconds) {
    if (game.current().outcome().over())
      throw IllegalMoveError("the game is over: there is no move to search for");
    const MctsBudget budget{iterations, seconds};
    const auto scope = use_.enter(kInUse);
    // Copies taken with the GIL held: the game may change while we search.
    const G start = game.start();
    const std::vector<Move> moves = game.moves();
    try {
      const MctsResult r =
          run_interruptible([&](std::atomic<bool>& stop) { return mcts_.search(start, moves, budget, &stop); });
      return to_python(r);
    } catch (const std::bad_alloc&) {
      // The trees filled the memory: drop them, so that the next search (a
      // smaller max_nodes, or after memory was freed) starts afresh.
      mcts_.clear();
      throw;
    }
  }

  void clear() {
    const auto scope = use_.enter(kInUse);
    mcts_.clear();
  }
  std::uint64_t nodes() {
    const auto scope = use_.enter(kInUse);
    return mcts_.nodes();
  }

 private:
  static py::object proof(int p) { return p == kMctsUnproven ? py::object(py::none()) : py::object(py::int_(p)); }

  static py::dict to_python(const MctsResult& r) {
    py::list moves;
    for (const auto& s : r.moves) moves.append(py::make_tuple(s.move, s.visits, s.score, proof(s.proof)));
    py::dict d;
    d["best_move"] = r.best_move;
    d["moves"] = moves;
    d["pv"] = r.pv;
    d["iterations"] = r.iterations;
    d["reused_visits"] = r.reused_visits;
    d["seconds"] = r.seconds;
    d["proof"] = proof(r.proof);
    d["value"] = r.value;
    d["nodes"] = r.nodes;
    d["tree_full"] = r.tree_full;
    return d;
  }

  static constexpr const char* kInUse = "this MCTS is searching";
  Mcts<G> mcts_;
  ExclusiveUse use_;
};

template <TextGame G>
void bind_mcts(py::module_& m, const std::string& game_name) {
  using S = MctsSearcher<G>;
  const std::string name = game_name + "Mcts";
  const MctsConfig defaults;
  py::class_<S>(m, name.c_str(), "Monte Carlo tree search for this game; use noughts.MCTS.")
      .def(py::init([](std::uint64_t seed, double c, int threads, std::uint64_t max_nodes, bool reuse, bool heuristics,
                       bool evaluation, std::uint32_t prior_visits, double minimax, double rollout_weight, double puct,
                       double puct_temperature) {
             return new S(MctsConfig{c, threads, max_nodes, seed, reuse, heuristics, evaluation, prior_visits, minimax,
                                     rollout_weight, puct, puct_temperature});
           }),
           py::arg("seed") = defaults.seed, py::arg("c") = defaults.c, py::arg("threads") = defaults.threads,
           py::arg("max_nodes") = defaults.max_nodes, py::arg("reuse") = defaults.reuse,
           py::arg("heuristics") = defaults.heuristics, py::arg("evaluation") = defaults.evaluation,
           py::arg("prior_visits") = defaults.prior_visits, py::arg("minimax") = defaults.minimax,
           py::arg("rollout_weight") = defaults.rollout_weight, py::arg("puct") = defaults.puct,
           py::arg("puct_temperature") = defaults.puct_temperature)
      .def("search", &S::search, py::arg("game"), py::arg("iterations") = 0, py::arg("seconds") = 0.0,
           "Searches the game's position (0 = no limit for either budget; at least one is needed). Releases the "
           "GIL; Ctrl-C stops it. Returns a dict that noughts.MCTS turns into a SearchResult.")
      .def("clear", &S::clear, "Forgets the trees: the next search starts afresh.")
      .def("nodes", &S::nodes, "Nodes in use, all trees together.");
}

}  // namespace noughts::bindings
