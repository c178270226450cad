// What a solve may use and must report, shared by every exact search
// (alpha-beta in solver.hpp, proof-number search in proof_number.hpp): its
// limits (time, memory, threads, a stop flag), the progress it publishes as
// it goes, and the checks its calling thread makes every few thousand nodes.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "noughts/errors.hpp"

namespace noughts {

// What a running solve has established so far, written by the solver and
// readable from any thread while it runs. Values are from the mover's view:
// lower <= value <= upper. Once the distance of a win is proven, `depth`
// plies are proven too few to win (0 before); once a loss's is, the mover is
// proven to last `depth` plies (0 before).
struct SolveProgress {
  std::atomic<std::uint64_t> nodes{0};
  std::atomic<int> lower{-1};
  std::atomic<int> upper{1};
  std::atomic<int> depth{0};
};

struct SolveLimits {
  double max_seconds = 0;                   // 0: no time limit
  std::size_t tt_bytes = std::size_t{64} << 20;
  bool symmetry = true;                     // key the table by the canonical position
  bool move_values = false;                 // also tell win/draw/loss for every root move (slower)
  // Win/draw/loss only: no distance, no principal variation, and one best
  // move (every one with move_values), so only the value's two null-window
  // questions are searched.
  bool weak = false;
  // The part of the value a weak solve asks about, from the mover's view
  // (-1 <= lower < upper <= 1): the answer is the value held to it, so an
  // answer of `upper` means "at least upper" and of `lower` "at most
  // lower", and a question that only the ends would tell apart is not
  // searched. (0, 1) asks only "can the mover win?", (-1, 0) only "can they
  // avoid losing?": half the work, when the rest is known already (e.g. a
  // move's value below a root known to be a draw) or not wanted. Move
  // values are held to it too. Weak solves only (check_window).
  int lower = -1, upper = 1;
  // Every move that keeps the value (true), or only the first move of the
  // principal variation: proving of each other move whether it keeps the
  // value can cost far more than the exact score itself.
  bool all_best_moves = true;
  // Threads sharing one table. Alpha-beta's all search each question at
  // once (lazy SMP), near the root putting off the moves another thread is
  // searching (ABDADA's rule), so that they spread over the tree and what
  // each stores spares the others work; proof-number search's search the
  // value together, then share out the root moves' questions. The results
  // are those of one thread; the node count is the sum of all.
  int threads = 1;
  // The nodes the first thread searches alone before the others start: a
  // small solve is over before more threads would pay for themselves (0:
  // they start at once). They wait also until the table can tell whether
  // the search is rich in transpositions (TranspositionTable::share).
  std::uint64_t help_after_nodes = std::uint64_t{1} << 12;
  const std::atomic<bool>* stop = nullptr;  // set from another thread to stop
  SolveProgress* progress = nullptr;        // updated as the search goes, when given
  // Called by the solving thread every few thousand nodes (alpha-beta and
  // proof-number search alike), just before `stop` is read, when given: lets
  // the caller of a solve on its own thread look after other things now and
  // then (a Python binding handles signals there, and sets `stop` to end the
  // search). Never called by the helper threads of a parallel solve.
  std::function<void()> poll;

  // Throws InvalidOptionError for a window out of range or on a solve
  // that is not weak (a distance has no meaning for a value held to one).
  void check_window(bool weak_solve) const {
    if (lower < -1 || upper > 1 || lower >= upper)
      throw InvalidOptionError("the window must be two of -1, 0, 1 with lower < upper, not (" + std::to_string(lower) +
                               ", " + std::to_string(upper) + ")");
    if (!weak_solve && (lower > -1 || upper < 1))
      throw InvalidOptionError("a window other than (-1, 1) needs a weak solve (weak=True)");
  }
  // The value v (-1, 0 or 1) held to the window.
  int held(int v) const noexcept { return std::clamp(v, lower, upper); }

  // What the solving thread does every few thousand nodes, alpha-beta and
  // proof-number search alike: publishes the nodes searched so far, lets
  // the caller poll, and throws SearchStopped at a stop or past the time
  // limit (counted from `start`).
  void check(std::uint64_t nodes, std::chrono::steady_clock::time_point start) const {
    if (progress) progress->nodes.store(nodes, std::memory_order_relaxed);
    if (poll) poll();
    if (stop && stop->load(std::memory_order_relaxed))
      throw SearchStopped("the search was stopped", nodes, seconds_since(start));
    if (max_seconds > 0 && seconds_since(start) > max_seconds)
      throw SearchStopped("the time limit was reached", nodes, seconds_since(start));
  }
  // What is proved so far, for `progress` (see SolveProgress).
  void report_bounds(int lower, int upper) const noexcept {
    if (!progress) return;
    progress->lower.store(lower, std::memory_order_relaxed);
    progress->upper.store(upper, std::memory_order_relaxed);
  }
  void report_depth(int depth) const noexcept {
    if (progress) progress->depth.store(depth, std::memory_order_relaxed);
  }
  static double seconds_since(std::chrono::steady_clock::time_point start) noexcept {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

}  // namespace noughts
