// Monte Carlo tree search for every game of the Game concept (docs/mcts.md).
//
//   - UCT selection with exploration constant c; rewards are +1 / 0 / -1
//     (win / draw / loss) for the player who made the move into a node.
//   - Rollouts by the game's own policy when it has one (`rollout_move`), else
//     uniformly random (`play_random` or the move list).
//   - With the game's evaluation (`evaluate`, `evaluate_moves`): the children
//     of a node are evaluated when it is expanded, each node keeps the
//     minimax of their values, and selection blends it with the mean result
//     (implicit minimax backups).
//   - MCTS-solver: terminal positions are exact values, and exact values
//     propagate up (a node is proven when a child wins for its mover, or when
//     every child is proven: then it is the best of them, draws included).
//     Proven losses are never selected again, and a proven root ends the search.
//   - Tree reuse: searching a position reached from the previous root keeps
//     the subtree below it (compacted to the front of the pool).
//   - Node memory is one contiguous pool per tree, bounded by max_nodes: when
//     an expansion would not fit, the tree stops growing and every later
//     iteration ends with a rollout from the leaf it reaches.
//   - Root parallelism: `threads` independent trees with their own seeds,
//     merged at the root by move.
//
// The player who made each move is read from to_move() on the way down, never
// inferred from depth: in Quantum the same player moves twice around a
// collapse.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "noughts/errors.hpp"
#include "noughts/game.hpp"
#include "noughts/rng.hpp"
#include "noughts/search/hooks.hpp"
#include "noughts/search/playout.hpp"

namespace noughts {

// ---- rollout policy ---------------------------------------------------------

// The default rollout: the game's policy if it has one (and `use_policy`),
// else uniformly random moves (through the game's play_random when it has
// that fast path).
template <Game G>
struct DefaultRollout {
  bool use_policy = true;
  Outcome operator()(G g, Rng& rng) const {
    if constexpr (HasRolloutMove<G>) {
      if (use_policy) {
        while (!g.outcome().over()) g.play(g.rollout_move(rng));
        return g.outcome();
      }
    }
    return random_playout(g, rng);
  }
};

// ---- configuration and results ---------------------------------------------

// Proven values are from one player's point of view: +1 win, 0 draw, -1 loss.
inline constexpr int kMctsUnproven = 2;

struct MctsConfig {
  double c = 1.0;                        // UCT exploration constant (rewards in [-1, 1])
  int threads = 1;                       // independent trees merged at the root
  std::uint64_t max_nodes = 1u << 23;    // all trees together; 24 bytes a node (28 in a game with an evaluation)
  std::uint64_t seed = 0;
  bool reuse = true;                     // keep the subtree of the new root between searches
  bool heuristics = true;                // use the game's rollout policy, prior and evaluation where it has them
  bool evaluation = true;                // value nodes by the game's evaluation too, where it has one (with heuristics)
  std::uint32_t prior_visits = 10;       // virtual losses of a move the game discourages (with heuristics)
  double minimax = 0.3;                  // with evaluation: weight of the evaluations' minimax against the mean
  double rollout_weight = 1;             // with evaluation: weight of a rollout in a new leaf's value
  double puct = 2.0;                     // with evaluation: PUCT's exploration constant (0: UCT with c)
  double puct_temperature = 0.3;         // with evaluation and puct: the temperature of the priors' softmax
};

struct MctsBudget {
  std::uint64_t iterations = 0;  // 0: no limit on iterations
  double seconds = 0;            // 0: no time limit
};

struct MctsMoveStats {
  Move move = 0;
  std::uint64_t visits = 0;
  double score = 0;             // sum of the rewards of the player to move at the root
  int proof = kMctsUnproven;    // the proven value for the player to move at the root
  double value() const noexcept { return visits ? score / static_cast<double>(visits) : 0.0; }
};

struct MctsResult {
  Move best_move = -1;
  std::vector<MctsMoveStats> moves;  // every root move, most visited first
  std::vector<Move> pv;              // principal variation, best_move first
  std::uint64_t iterations = 0;      // done by this search, all threads together
  std::uint64_t reused_visits = 0;   // root visits kept from earlier searches
  double seconds = 0;
  int proof = kMctsUnproven;         // the root's proven value for the player to move
  double value = 0;                  // the proof if proven, else the best move's mean reward
  std::uint64_t nodes = 0;           // nodes in use, all trees together
  bool tree_full = false;            // some tree hit its node bound during the search
};

// The move to play, given the statistics of the moves (visited ones only):
// a proven win (the most visited one); else the most visited unproven move,
// unless a proven draw exists and that move's mean is not above a draw; else
// the proven draw with the best mean (the most chances against a fallible
// opponent; visits say little, as the search stops visiting proven draws);
// when every move loses, the most visited: the loss that took the search
// longest to prove, a proxy for the longest resistance.
// Returns an index into `moves`, or -1 when it is empty.
inline int mcts_choose(std::span<const MctsMoveStats> moves) {
  int win = -1, open = -1, draw = -1, any = -1;
  auto more = [&](int best, int i) { return best < 0 || moves[i].visits > moves[best].visits; };
  auto better = [&](int best, int i) { return best < 0 || moves[i].value() > moves[best].value(); };
  for (int i = 0; i < static_cast<int>(moves.size()); ++i) {
    const int p = moves[i].proof;
    if (p == 1 && more(win, i)) win = i;
    if (p == kMctsUnproven && more(open, i)) open = i;
    if (p == 0 && better(draw, i)) draw = i;
    if (more(any, i)) any = i;
  }
  if (win >= 0) return win;
  if (open >= 0 && (draw < 0 || moves[open].value() > 0)) return open;
  if (draw >= 0) return draw;
  return any;
}

// ---- one tree -----------------------------------------------------------------

// 24 bytes. Children of a node are contiguous in the pool, so selection scans
// one short run of memory. `q` and `spread` are what UCT reads, kept up to
// date by the backup so that choosing among many children costs one multiply-
// add per child, with no division, square root or branch on proofs.
struct MctsNode {
  float q = 0;               // mean reward for the player who moved into this node; once proven, the exact
                             // value (a proven loss is -infinity, so selection never picks it)
  float spread = 0;          // 1 / sqrt(visits), or with PUCT prior / (1 + visits); 0 once proven (an exact
                             // value needs no exploration)
  float score = 0;           // sum of rewards (-1 .. +1) for the player who moved into this node
  std::uint32_t visits = 0;
  std::uint32_t first = 0;   // index of the first child; 0 while not expanded (node 0 is the root, never a child)
  std::uint8_t count = 0;    // number of children
  std::uint8_t tried = 0;    // children [first, first + tried) have been visited; the rest are untried
  std::uint8_t move = 0;     // the move from the parent
  std::int8_t proof = kMctsUnproven;  // proven value for the player who moved into this node (root: for its mover)

  void set_proof(int v) noexcept {
    proof = static_cast<std::int8_t>(v);
    q = v == 0 ? 0.0f : static_cast<float>(v) * std::numeric_limits<float>::infinity();
    spread = 0;
  }
};
static_assert(sizeof(MctsNode) == 24);

// The node of a game with an evaluation: also its value from the
// evaluations (the minimax of its children's, for the player who moved into
// it), beside what selection reads, so that a step down the tree touches one
// run of memory rather than two.
struct MctsEvalNode : MctsNode {
  float eval = 0;
};
static_assert(sizeof(MctsEvalNode) == 28);
// The node of a game without one: `eval` is there for the code the two
// share, which only reads or writes it with the evaluation on, so never here.
struct MctsPlainNode : MctsNode {
  static inline float eval = 0;
};

namespace mcts_detail {

// sqrt(ln n) for n >= 1, for the exploration term. A polynomial rather than
// std::log: several times faster, and the same bits on every platform (libm
// implementations differ), which keeps seeded searches reproducible. The
// relative error of ln is below 1e-4, far below what UCT can notice.
inline float sqrt_ln_poly(std::uint32_t n) noexcept {
  const float x = static_cast<float>(n);
  const auto bits = std::bit_cast<std::uint32_t>(x);
  const int exponent = static_cast<int>(bits >> 23) - 127;
  const float m = std::bit_cast<float>((bits & 0x7fffffu) | 0x3f800000u) - 1.0f;  // x = 2^e (1 + m), m in [0, 1)
  // ln(1 + m) on [0, 1): a degree-5 fit.
  const float ln_m = m * (0.99949556f + m * (-0.49190896f + m * (0.28947478f + m * (-0.13606275f + m * 0.03215845f))));
  return std::sqrt(static_cast<float>(exponent) * 0.69314718f + ln_m);
}

// The small counts of deep nodes, where most selections happen, from a table.
inline const std::array<float, 1024> kSqrtLn = [] {
  std::array<float, 1024> t{};
  for (std::uint32_t n = 1; n < t.size(); ++n) t[n] = sqrt_ln_poly(n);
  return t;
}();

inline float sqrt_ln(std::uint32_t n) noexcept { return n < kSqrtLn.size() ? kSqrtLn[n] : sqrt_ln_poly(n); }

// 1 / sqrt(n) for the spread of a node with n visits, from a table for the
// small counts where most backups happen (the same bits as computing it:
// IEEE square root and division are exactly rounded).
inline const std::array<float, 1024> kInverseSqrt = [] {
  std::array<float, 1024> t{};
  for (std::uint32_t n = 1; n < t.size(); ++n) t[n] = 1.0f / std::sqrt(static_cast<float>(n));
  return t;
}();
inline float inverse_sqrt(std::uint32_t n) noexcept {
  return n < kInverseSqrt.size() ? kInverseSqrt[n] : 1.0f / std::sqrt(static_cast<float>(n));
}

// e^x for x <= 0, for the softmax of PUCT's priors: 2^(x log2 e) as a power
// of two set in the exponent's bits times a polynomial for the fraction,
// rather than std::exp, for the same bits on every platform. The relative
// error (below 2e-5) is far below what a prior can notice.
inline float exp_neg(float x) noexcept {
  const float t = std::max(x, -80.0f) * 1.44269504f;
  const float whole = std::floor(t);
  const float f = t - whole;  // 2^t = 2^whole * 2^f, f in [0, 1)
  const float two_f = 1.0f + f * (0.69314718f + f * (0.24022651f + f * (0.05550411f + f * (0.00961813f +
                                   f * (0.00133336f + f * 0.00015404f)))));
  return two_f * std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<int>(whole) + 127) << 23);
}

}  // namespace mcts_detail

template <Game G, class Rollout = DefaultRollout<G>>
class MctsTree {
 public:
  static_assert(G::kMaxActions <= 255, "a node counts its children in one byte");
  static constexpr bool kCanEvaluate = HasEvaluate<G> || HasEvaluateMoves<G>;
  using Node = std::conditional_t<kCanEvaluate, MctsEvalNode, MctsPlainNode>;
  using Clock = std::chrono::steady_clock;
  // Visits are 32-bit: a search stops once the root has this many.
  static constexpr std::uint32_t kMaxVisits = std::numeric_limits<std::int32_t>::max() - 1;

  MctsTree(std::uint64_t seed, std::uint32_t capacity, double c, bool heuristics = true, bool evaluation = false,
           std::uint32_t prior_visits = 0, double minimax = MctsConfig{}.minimax,
           double rollout_weight = MctsConfig{}.rollout_weight, double puct = 0,
           double puct_temperature = MctsConfig{}.puct_temperature)
      : rng_(seed), capacity_(capacity), c_(static_cast<float>(c)), evaluate_(heuristics && evaluation && kCanEvaluate),
        prior_visits_(heuristics ? prior_visits : 0), minimax_(static_cast<float>(minimax)),
        rollout_weight_(static_cast<float>(rollout_weight)), puct_(evaluate_ ? static_cast<float>(puct) : 0.0f),
        puct_temperature_(static_cast<float>(puct_temperature)) {
    path_.resize(128);
    if constexpr (requires { rollout_.use_policy; }) rollout_.use_policy = heuristics;
  }

  // Makes start + moves the root. With reuse, when the previous root is on
  // that line (start, start + moves[0], ...) and the tree holds the way from
  // it, the subtree is kept; else the tree starts afresh. Moves must be legal.
  void set_root(const G& start, std::span<const Move> moves, bool reuse) {
    full_ = false;
    if (reuse && !nodes_.empty()) {
      G g = start;
      for (std::size_t i = 0;; ++i) {
        if (g == root_pos_) {
          if (descend(moves.subspan(i))) return;
          break;
        }
        if (i == moves.size()) break;
        g.play(moves[i]);
      }
    }
    G g = start;
    for (Move m : moves) g.play(m);
    reset(g);
  }

  void reset(const G& position) {
    nodes_.clear();
    nodes_.push_back(Node{});
    if (nodes_.capacity() < 4096) nodes_.reserve(std::min<std::uint32_t>(capacity_, 1u << 16));
    root_pos_ = position;
    root_player_ = position.to_move();
    full_ = false;
  }

  // Runs iterations until `max_iterations` (0: no limit), the deadline (when
  // timed), a stop request or a proven root. Returns the iterations done.
  std::uint64_t run(std::uint64_t max_iterations, bool timed, Clock::time_point deadline,
                    const std::atomic<bool>* stop, std::atomic<bool>* halt) {
    ensure_root_expanded();
    // Growing the pool copies it, which takes milliseconds once it is large:
    // near the deadline that would make a timed search late. So the room the
    // last search needed (twice over) is made here, where the time is still
    // the budget's (compact() makes it when the root moved).
    const std::size_t start_size = nodes_.size(), room = headroom(start_size);
    if (nodes_.capacity() < room) nodes_.reserve(room);
    // A search without that history (a fresh tree, or one that grows faster
    // than the last) would still copy the pool as it doubles, late in the
    // budget where a copy takes tens of milliseconds. So when a sixteenth and
    // again when a quarter of the time has passed, room for the rest of the
    // budget at twice the rate so far is made, while the pool is still small
    // (the rate can double when a loaded machine gives the search more of a
    // core later on; room that is not used is address space, not memory).
    constexpr std::size_t kProjectAt[] = {16, 4};  // at 1/16 and 1/4 of the budget
    const Clock::time_point began = timed ? Clock::now() : deadline;
    std::size_t projections = timed ? 0 : std::size(kProjectAt);
    std::uint64_t done = 0;
    while (max_iterations == 0 || done < max_iterations) {
      if (nodes_[0].proof != kMctsUnproven || nodes_[0].visits >= kMaxVisits) break;
      // The clock and the flags every 16 iterations: about a microsecond apart
      // at the fastest, and still a negligible share of the work.
      // At least one iteration, so even the shortest time budget returns a
      // searched move rather than the first legal one.
      if ((done & 15) == 0 && done > 0) {
        if ((stop && stop->load(std::memory_order_relaxed)) || (halt && halt->load(std::memory_order_relaxed))) break;
        if (timed) {
          const Clock::time_point now = Clock::now();
          if (now >= deadline) break;
          if (projections < std::size(kProjectAt) && now >= began + (deadline - began) / kProjectAt[projections]) {
            const std::size_t rest = kProjectAt[projections] - 1;  // the budget left, in what has passed
            const std::size_t want = nodes_.size() + 2 * rest * (nodes_.size() - start_size);
            if (nodes_.capacity() < want) nodes_.reserve(std::min<std::size_t>(capacity_, want));
            ++projections;
          }
        }
      }
      iterate();
      ++done;
    }
    if (halt && nodes_[0].proof != kMctsUnproven) halt->store(true, std::memory_order_relaxed);
    growth_ = nodes_.size() > start_size ? nodes_.size() - start_size : 0;
    return done;
  }

  const G& root_position() const noexcept { return root_pos_; }
  const Node& node(std::uint32_t i) const noexcept { return nodes_[i]; }
  const Node& root() const noexcept { return nodes_[0]; }
  std::size_t size() const noexcept { return nodes_.size(); }
  bool full() const noexcept { return full_; }

  // The child to play at node i (mcts_choose), or 0 when node i has no
  // visited child.
  std::uint32_t best_child(std::uint32_t i) const {
    const Node& n = nodes_[i];
    std::array<MctsMoveStats, G::kMaxActions> stats;
    for (std::uint32_t c = 0; c < n.tried; ++c) {
      const Node& ch = nodes_[n.first + c];
      stats[c] = MctsMoveStats{ch.move, ch.visits, ch.score, ch.proof};
    }
    const int k = mcts_choose(std::span<const MctsMoveStats>(stats.data(), n.tried));
    return k < 0 ? 0 : n.first + static_cast<std::uint32_t>(k);
  }

  // Whether every expanded, unproven node's value from the evaluations is
  // the minimax of its children's values (what backups maintain a path at a
  // time); true without evaluation. For tests: it walks the whole tree.
  bool minimax_consistent() const {
    if (!evaluate_) return true;
    struct Item {
      std::uint32_t node;
      G position;
      Player mover;
    };
    std::vector<Item> todo{{0, root_pos_, root_player_}};
    while (!todo.empty()) {
      const Item it = todo.back();
      todo.pop_back();
      const Node& n = nodes_[it.node];
      if (n.first == 0) continue;
      const Player to_move = it.position.to_move();
      float best = -1.0f;
      for (std::uint32_t c = n.first; c < n.first + n.count; ++c) {
        best = std::max(best, minimax_value(c));
        G child = it.position;
        child.play(nodes_[c].move);
        todo.push_back({c, child, to_move});
      }
      if (n.proof == kMctsUnproven && nodes_[it.node].eval != (it.mover == to_move ? best : -best)) return false;
    }
    return true;
  }

  // With PUCT, whether the priors of every expanded node's children, read
  // back from their spreads (prior / (1 + visits)), sum to 1, for nodes
  // without proven children (a proof zeroes the spread); true without PUCT.
  // For tests: it walks the whole tree.
  bool priors_consistent() const {
    if (puct_ == 0) return true;
    for (const Node& n : nodes_) {
      if (n.first == 0) continue;
      double sum = 0;
      bool proven = false;
      for (std::uint32_t c = n.first; c < n.first + n.count; ++c) {
        proven = proven || nodes_[c].proof != kMctsUnproven;
        sum += static_cast<double>(nodes_[c].spread) * (1.0 + nodes_[c].visits);
      }
      if (!proven && std::abs(sum - 1.0) > 1e-3) return false;
    }
    return true;
  }

 private:
  static constexpr std::size_t kNoDraw = static_cast<std::size_t>(-1);

  struct Step {
    std::uint32_t node;
    Player mover;         // who made the move into the node (at the root: the player to move there)
    float before = 0;     // with evaluation: the node's value in its parent's minimax when the path reached it
  };

  static constexpr int signed_for(Player p, int value_for_x) noexcept {
    return p == Player::X ? value_for_x : -value_for_x;
  }

  void ensure_root_expanded() {
    if (nodes_[0].first != 0) return;
    if (!expand(0, root_pos_, root_player_)) {  // only after reuse filled the pool: start afresh, which always fits
      reset(G(root_pos_));
      expand(0, root_pos_, root_player_);
    }
  }

  // One iteration: select down the tree, expand, roll out, back up.
  void iterate() {
    G g = root_pos_;
    // The path lives in path_, grown (rarely) when a game runs longer than it;
    // the loop keeps its own pointer and length, which the compiler can hold
    // in registers (stores to the byte fields of nodes would force it to
    // reload the vector's).
    Step* path = path_.data();
    std::size_t len = 0;
    auto push = [&](Step step) {
      if (len == path_.size()) {
        path_.resize(2 * len);
        path = path_.data();
      }
      path[len++] = step;
    };
    push({0, root_player_});
    std::uint32_t idx = 0;
    float vx;             // the result, for X (-1 .. +1)
    bool proved = false;  // the iteration ended on a node it has just proven
    // Where a proven draw was bypassed (see below): path entries up to here
    // receive the draw instead of the result.
    std::size_t drawn_above = kNoDraw;
    while (true) {
      Node& n = nodes_[idx];
      if (n.proof != kMctsUnproven) {
        vx = static_cast<float>(signed_for(path[len - 1].mover, static_cast<int>(n.proof)));
        break;
      }
      if (n.first == 0) {
        // A leaf. It is checked for the end of the game (on its first real
        // visit: a discouraged move's virtual visits come before it) and
        // rolled out; it is expanded on the next visit, which keeps nodes
        // that are visited once (most of them) from costing children.
        const Outcome o = g.outcome();
        if (o.over()) {
          const int result = o.value_for_x();
          vx = static_cast<float>(result);
          n.set_proof(signed_for(path[len - 1].mover, result));
          proved = true;
          break;
        }
        if (evaluate_ && rollout_weight_ < 1) {
          // With evaluation a leaf is expanded at once, its children valued
          // by the game, and it is worth the best of them (its own value from
          // its parent's expansion when the pool is full), mixed with a
          // rollout's result when asked. Valued by rollouts alone, it waits
          // for its second visit like any leaf: its value in the minimax is
          // its evaluation until then.
          expand(idx, g, path[len - 1].mover);
          vx = signed_for(path[len - 1].mover, nodes_[idx].eval);
          if (rollout_weight_ > 0) vx += rollout_weight_ * (leaf_value(g) - vx);
          break;
        }
        if (n.visits == 0 || full_) {
          vx = leaf_value(g);
          break;
        }
        if (!expand(idx, g, path[len - 1].mover)) {
          vx = leaf_value(g);
          break;
        }
      }
      const Player mover = g.to_move();
      const std::uint32_t parent = idx;
      idx = select(parent);
      // UCT prefers a proven draw (exact, no exploration) to siblings that
      // look worse; going there teaches nothing and can starve those siblings
      // forever, so the node is never proven. Visit the best unproven sibling
      // instead, and give the ancestors the draw, which is what choosing the
      // draw would have backed up. (At the root, mcts_choose still prefers
      // the draw to any move whose mean is not above a draw.)
      if (nodes_[idx].proof == 0) {
        if (const std::uint32_t alt = select_unproven(parent); alt != 0) {
          idx = alt;
          drawn_above = len - 1;
        }
      }
      g.play(nodes_[idx].move);
      push({idx, mover, evaluate_ ? minimax_value(idx) : 0.0f});
    }
    backup(path, len, vx, proved, drawn_above);
  }

  // Adds the children of node idx (position g, reached by a move of
  // `mover`). False, and the pool marked full, when they do not fit.
  bool expand(std::uint32_t idx, const G& g, Player mover) {
    typename G::MoveList moves;
    g.legal_moves(moves);
    const auto k = static_cast<std::uint32_t>(moves.size());
    const auto first = static_cast<std::uint32_t>(nodes_.size());
    if (k > capacity_ - first) {
      full_ = true;
      return false;
    }
    if (first + k > nodes_.capacity()) {
      // Amortised growth, but never past the bound: the pool's memory is at
      // most capacity_ nodes (and it is kept between searches, as is the
      // spare pool of compact()).
      nodes_.reserve(std::min<std::size_t>(capacity_, std::max<std::size_t>(2 * nodes_.capacity(), first + k)));
    }
    nodes_.resize(first + k);
    std::uint32_t discouraged = 0;
    if constexpr (HasDiscouraged<G>) {
      if (prior_visits_ > 0) {
        // Discouraged moves first, already "tried" with virtual losses; the
        // others follow, untried. Only when there are both.
        std::array<std::uint8_t, G::kMaxActions> order;
        std::uint32_t front = 0, back = k;
        for (std::uint32_t i = 0; i < k; ++i) {
          const Move m = moves[static_cast<int>(i)];
          if (g.is_discouraged(m)) order[front++] = static_cast<std::uint8_t>(m);
          else order[--back] = static_cast<std::uint8_t>(m);
        }
        if (front > 0 && front < k) {
          discouraged = front;
          for (std::uint32_t i = 0; i < k; ++i) nodes_[first + i].move = order[i];
          for (std::uint32_t i = 0; i < front; ++i) {
            Node& n = nodes_[first + i];
            n.visits = prior_visits_;
            n.score = -static_cast<float>(prior_visits_);
            n.q = -1.0f;
            n.spread = mcts_detail::inverse_sqrt(prior_visits_);
          }
        }
      }
    }
    if (discouraged == 0)
      for (std::uint32_t i = 0; i < k; ++i) nodes_[first + i].move = static_cast<std::uint8_t>(moves[static_cast<int>(i)]);
    nodes_[idx].first = first;
    nodes_[idx].count = static_cast<std::uint8_t>(k);
    nodes_[idx].tried = static_cast<std::uint8_t>(discouraged);
    if (evaluate_) evaluate_children(idx, g, mover);
    return true;
  }

  // Values the new children of node idx by the game's evaluation, for the
  // player to move at idx, and node idx by the best of them (for `mover`,
  // who moved into it). A child starts with its evaluation as its value;
  // every child counts as tried, so selection goes by value from the first
  // visit on instead of trying each child once. With PUCT, each child's
  // prior is the softmax of the evaluations (the moves that look best are
  // explored most); without it, a child explores as a node visited once.
  void evaluate_children(std::uint32_t idx, const G& g, Player mover) {
    if constexpr (!kCanEvaluate) return;  // never called then (evaluate_ is false)
    Node& n = nodes_[idx];
    const std::uint32_t first = n.first, k = n.count;
    std::array<Move, G::kMaxActions> moves;
    std::array<float, G::kMaxActions> values;
    for (std::uint32_t i = 0; i < k; ++i) moves[i] = nodes_[first + i].move;
    const std::span<const Move> ms(moves.data(), k);
    const std::span<float> vs(values.data(), k);
    if constexpr (HasEvaluateMoves<G>) {
      g.evaluate_moves(ms, vs);
    } else if constexpr (HasEvaluate<G>) {
      const Player me = g.to_move();
      for (std::uint32_t i = 0; i < k; ++i) {
        G child = g;
        child.play(moves[i]);
        const Outcome o = child.outcome();
        const float v = o.over() ? static_cast<float>(o.value_for_x()) : (child.to_move() == Player::X ? 1.0f : -1.0f) * child.evaluate();
        vs[i] = me == Player::X ? v : -v;
      }
    }
    float best = -1.0f;
    for (std::uint32_t i = 0; i < k; ++i) best = std::max(best, values[i]);
    std::array<float, G::kMaxActions> prior;
    if (puct_ > 0) {
      float sum = 0.0f;
      for (std::uint32_t i = 0; i < k; ++i)
        sum += prior[i] = mcts_detail::exp_neg((values[i] - best) / puct_temperature_);
      for (std::uint32_t i = 0; i < k; ++i) prior[i] /= sum;
    }
    for (std::uint32_t i = 0; i < k; ++i) {
      Node& ch = nodes_[first + i];
      ch.eval = values[i];
      ch.spread = puct_ > 0 ? prior[i] / (1.0f + static_cast<float>(ch.visits))
                            : mcts_detail::inverse_sqrt(std::max(ch.visits, 1u));  // as if visited once
      if (ch.visits == 0) {
        ch.q = values[i];
      } else {
        ch.q = blend(ch.score / static_cast<float>(ch.visits), values[i]);
      }
    }
    n.tried = static_cast<std::uint8_t>(k);
    n.eval = mover == g.to_move() ? best : -best;
  }

  float blend(float mean, float minimax) const noexcept { return (1.0f - minimax_) * mean + minimax_ * minimax; }

  // Node c's value in its parent's minimax, for the player who moved into
  // it: its proof once proven, else its evaluations' minimax.
  float minimax_value(std::uint32_t c) const noexcept {
    const int p = nodes_[c].proof;
    return p == kMctsUnproven ? nodes_[c].eval : static_cast<float>(p);
  }

  // The new minimax of path node s (for s.mover, who moved into it), after
  // its child on the path went from `before` to its value now; `to_move` is
  // the player to move at s. The best child's value, seen by to_move, only
  // needs all the children again when the child that was the best got worse.
  float updated_minimax(const Step& s, const Step& child, Player to_move) const noexcept {
    const float sign = s.mover == to_move ? 1.0f : -1.0f;
    float best = sign * nodes_[s.node].eval;
    const float now = minimax_value(child.node);
    if (now >= best) return sign * now;
    if (child.before < best) return sign * best;
    const Node& n = nodes_[s.node];
    best = -1.0f;
    for (std::uint32_t c = n.first, end = n.first + n.count; c < end; ++c) best = std::max(best, minimax_value(c));
    return sign * best;
  }

  // UCT. Untried children come first, in random order (drawn lazily: the
  // chosen one is swapped into place; untried children have no subtree, so
  // moving them is free). Then argmax of q + c sqrt(ln N / n) (with PUCT,
  // q + puct prior sqrt(N) / (1 + n)), with proven children at their exact
  // value without exploration, proven losses never.
  std::uint32_t select(std::uint32_t idx) {
    Node& n = nodes_[idx];
    if (n.tried < n.count) {
      const std::uint32_t a = n.first + n.tried;
      const std::uint32_t j = a + rng_.below(static_cast<std::uint32_t>(n.count - n.tried));
      std::swap(nodes_[a], nodes_[j]);
      ++n.tried;
      return a;
    }
    const float explore = exploration(n);
    // The argmax as a maximum of integer keys: the score's bits made
    // order-preserving, then the complement of the child's index, so that
    // ties go to the first child. A running integer max is one compare and
    // conditional move per child, without branches to mispredict.
    const Node* ch = nodes_.data() + n.first;
    std::int64_t best = std::numeric_limits<std::int64_t>::min();
    for (std::uint32_t i = 0; i < n.count; ++i) {
      const auto bits = std::bit_cast<std::int32_t>(ch[i].q + explore * ch[i].spread);
      const std::int32_t key = bits ^ ((bits >> 31) & 0x7fffffff);
      best = std::max(best, std::int64_t{key} * 256 + (255 - static_cast<std::int64_t>(i)));
    }
    return n.first + 255 - static_cast<std::uint32_t>(best & 255);
  }

  // What the spread of node n's children is multiplied by: UCT's
  // c sqrt(ln N), or PUCT's c sqrt(N).
  float exploration(const Node& n) const noexcept {
    if (puct_ > 0) return puct_ * std::sqrt(static_cast<float>(n.visits));
    return c_ * mcts_detail::sqrt_ln(n.visits);
  }

  // The UCT choice among the unproven children of an expanded node whose
  // children have all been tried; 0 when every child is proven.
  std::uint32_t select_unproven(std::uint32_t idx) const {
    const Node& n = nodes_[idx];
    const float explore = exploration(n);
    float best = -std::numeric_limits<float>::infinity();
    std::uint32_t pick = 0;
    for (std::uint32_t i = n.first, end = n.first + n.count; i < end; ++i) {
      if (nodes_[i].proof != kMctsUnproven) continue;
      const float u = nodes_[i].q + explore * nodes_[i].spread;
      if (pick == 0 || u > best) best = u, pick = i;
    }
    return pick;
  }

  // What a leaf that is not over is worth for X, by a rollout.
  float leaf_value(const G& g) { return static_cast<float>(rollout_(g, rng_).value_for_x()); }

  static constexpr float signed_for(Player p, float value_for_x) noexcept {
    return p == Player::X ? value_for_x : -value_for_x;
  }

  void backup(const Step* path, std::size_t len, float vx, bool proved, std::size_t drawn_above) {
    Node* nodes = nodes_.data();
    for (std::size_t i = len; i-- > 0;) {
      const Step s = path[i];
      if (i == drawn_above) vx = 0;
      Node& n = nodes[s.node];
      ++n.visits;
      n.score += signed_for(s.mover, vx);
      if (n.proof == kMctsUnproven) {
        n.q = n.score / static_cast<float>(n.visits);
        // PUCT's prior / (1 + visits), one visit on; UCT's 1 / sqrt(visits).
        if (puct_ > 0) n.spread *= static_cast<float>(n.visits) / static_cast<float>(n.visits + 1);
        else n.spread = mcts_detail::inverse_sqrt(n.visits);
        if (evaluate_) {
          // The path's nodes below have new values: so may this one.
          if (i + 1 < len && n.first != 0) n.eval = updated_minimax(s, path[i + 1], path[i + 1].mover);
          n.q = blend(n.q, n.eval);
        }
      }
      if (proved && i > 0) proved = try_prove(path[i - 1], s.mover, n.proof);
    }
  }

  // A child of `parent` has just been proven with value `child_proof` for
  // `mover`, the player to move at the parent. Proves the parent if it can.
  bool try_prove(const Step& parent, Player mover, int child_proof) {
    Node& p = nodes_[parent.node];
    if (p.proof != kMctsUnproven) return false;
    int best = child_proof;
    if (best != 1) {
      if (p.tried < p.count) return false;  // an untried child is unproven
      for (std::uint32_t c = p.first; c < p.first + p.count; ++c) {
        const int v = nodes_[c].proof;
        if (v == kMctsUnproven) return false;
        best = std::max(best, v);
      }
    }
    p.set_proof(parent.mover == mover ? best : -best);
    return true;
  }

  // Walks from the root along `moves`; on success makes the node reached the
  // new root and compacts its subtree to the front of the pool.
  bool descend(std::span<const Move> moves) {
    std::uint32_t idx = 0;
    G g = root_pos_;
    Player last_mover = root_player_;
    for (Move m : moves) {
      const Node& n = nodes_[idx];
      std::uint32_t next = 0;
      for (std::uint32_t c = n.first; n.first != 0 && c < n.first + n.count; ++c)
        if (nodes_[c].move == m) next = c;
      if (next == 0) return false;
      last_mover = g.to_move();
      g.play(m);
      idx = next;
    }
    if (idx != 0) compact(idx);
    // The root's proof is kept for its player to move; an inner node's for
    // the player who moved into it.
    Node& root = nodes_[0];
    if (root.proof != kMctsUnproven && last_mover != g.to_move()) root.set_proof(-root.proof);
    if (evaluate_ && root.first != 0) {  // the root's minimax is for its player to move now
      float best = -1.0f;
      for (std::uint32_t c = root.first; c < root.first + root.count; ++c) best = std::max(best, minimax_value(c));
      nodes_[0].eval = best;
    }
    root_pos_ = g;
    root_player_ = g.to_move();
    return true;
  }

  // Copies the subtree of node r, breadth first, into the spare pool with r
  // at index 0 (sibling runs stay contiguous), and keeps the old pool as the
  // next compaction's spare. The spare's pages are already the process's: a
  // fresh pool every move would have the system map and zero the whole
  // subtree's memory again, about a twentieth of Ultimate's search time. So
  // a reused tree holds up to two pools (each at most capacity_ nodes).
  void compact(std::uint32_t r) {
    std::size_t size = 1;  // the subtree's size first, to allocate it exactly
    std::vector<std::uint32_t> todo{r};
    while (!todo.empty()) {
      const Node& n = nodes_[todo.back()];
      todo.pop_back();
      size += n.count;
      for (std::uint32_t c = n.first; n.first != 0 && c < n.first + n.count; ++c)
        if (nodes_[c].first != 0) todo.push_back(c);
    }
    NodePool& kept = spare_;
    kept.clear();
    kept.reserve(headroom(size));
    kept.push_back(nodes_[r]);
    for (std::size_t i = 0; i < kept.size(); ++i) {
      const Node n = kept[i];
      if (n.first == 0) continue;
      kept[i].first = static_cast<std::uint32_t>(kept.size());
      kept.insert(kept.end(), nodes_.begin() + n.first, nodes_.begin() + n.first + n.count);
    }
    nodes_.swap(spare_);
  }

  // The pool's size for a search that starts with `size` nodes: room for
  // twice what the last search added, within the bound.
  std::size_t headroom(std::size_t size) const noexcept {
    return std::min<std::size_t>(capacity_, size + 2 * growth_);
  }

  // The pool is the heap's, not huge pages like the solvers' tables:
  // faulting in fresh huge pages made growing a pool of millions of nodes
  // several times slower, a pause of a tenth of a second mid-search that
  // made timed answers late.
  using NodePool = std::vector<Node>;
  NodePool nodes_;
  NodePool spare_;  // the memory of the pool before the last compaction, for the next
  std::size_t growth_ = 0;  // nodes the last run() added
  std::vector<Step> path_;
  G root_pos_{};
  Player root_player_ = Player::X;
  Rng rng_;
  std::uint32_t capacity_;
  float c_;
  bool full_ = false;
  bool evaluate_ = false;
  std::uint32_t prior_visits_ = 0;
  float minimax_;  // the constructor's
  float rollout_weight_;
  float puct_ = 0;  // 0 with UCT, and always without the evaluation
  float puct_temperature_;
  [[no_unique_address]] Rollout rollout_{};
};

// ---- the searcher: trees, budgets, merged results -----------------------------

template <Game G, class Rollout = DefaultRollout<G>>
class Mcts {
 public:
  using Tree = MctsTree<G, Rollout>;
  using Clock = std::chrono::steady_clock;

  // Throws InvalidOptionError for a configuration that cannot work.
  explicit Mcts(const MctsConfig& config) : config_(config) {
    if (config.threads < 1 || config.threads > 256)
      throw InvalidOptionError("threads must be between 1 and 256, not " + std::to_string(config.threads));
    if (!(config.c >= 0) || !std::isfinite(config.c))
      throw InvalidOptionError("c must be a finite number >= 0, not " + std::to_string(config.c));
    if (!(config.minimax >= 0 && config.minimax <= 1))
      throw InvalidOptionError("minimax must be a number from 0 to 1, not " + std::to_string(config.minimax));
    if (!(config.rollout_weight >= 0 && config.rollout_weight <= 1))
      throw InvalidOptionError("rollout_weight must be a number from 0 to 1, not " +
                               std::to_string(config.rollout_weight));
    if (!(config.puct >= 0) || !std::isfinite(config.puct))
      throw InvalidOptionError("puct must be a finite number >= 0 (0: UCT), not " + std::to_string(config.puct));
    if (!(config.puct_temperature >= 0.01 && config.puct_temperature <= 100))
      throw InvalidOptionError("puct_temperature must be a number from 0.01 to 100, not " +
                               std::to_string(config.puct_temperature));
    const std::uint64_t per_tree = config.max_nodes / static_cast<std::uint64_t>(config.threads);
    if (per_tree < kMinNodesPerTree)
      throw InvalidOptionError("max_nodes must be at least " + std::to_string(kMinNodesPerTree) + " per thread (" +
                               std::to_string(kMinNodesPerTree * static_cast<std::uint64_t>(config.threads)) +
                               " with " + std::to_string(config.threads) + " threads), not " +
                               std::to_string(config.max_nodes));
    const auto capacity =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(per_tree, std::numeric_limits<std::uint32_t>::max()));
    for (int t = 0; t < config.threads; ++t) {
      // Tree 0 uses the seed itself; the others get well-separated streams.
      const std::uint64_t seed = t == 0 ? config.seed : bits::mix(config.seed ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(t)));
      trees_.push_back(
          std::make_unique<Tree>(seed, capacity, config.c, config.heuristics, config.evaluation, config.prior_visits,
                                 config.minimax, config.rollout_weight, config.puct, config.puct_temperature));
    }
  }

  // Enough for the root's children in every game, so the root always expands.
  static constexpr std::uint64_t kMinNodesPerTree = 256;

  const MctsConfig& config() const noexcept { return config_; }

  // Searches start + moves (moves must be legal; the position must not be
  // over). The budget: iterations (all threads together) and/or seconds; at
  // least one of them. `stop`, when given, ends the search early when set.
  MctsResult search(const G& start, std::span<const Move> moves, const MctsBudget& budget,
                    const std::atomic<bool>* stop = nullptr) {
    const auto t0 = Clock::now();
    if (!std::isfinite(budget.seconds) || budget.seconds < 0)
      throw InvalidOptionError("seconds must be a finite number > 0 (or 0 for no time limit), not " +
                               std::to_string(budget.seconds));
    if (budget.iterations == 0 && budget.seconds == 0)
      throw InvalidOptionError("a search needs a budget: iterations and/or seconds");
    const bool timed = budget.seconds > 0;
    const auto deadline = timed ? t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget.seconds))
                                : Clock::time_point::max();

    G position = start;
    for (Move m : moves) position.play(m);
    if (position.outcome().over()) throw IllegalMoveError("the game is over: there is no move to search for");
    for (auto& tree : trees_) tree->set_root(start, moves, config_.reuse);

    std::vector<std::uint64_t> reused(trees_.size()), done(trees_.size());
    for (std::size_t t = 0; t < trees_.size(); ++t) reused[t] = trees_[t]->root().visits;

    std::atomic<bool> halt{false};  // a tree proved the root: the others may stop
    const auto n = static_cast<std::uint64_t>(trees_.size());
    auto work = [&](std::size_t t) {
      std::uint64_t quota = 0;
      if (budget.iterations) quota = std::max<std::uint64_t>(1, budget.iterations / n + (t < budget.iterations % n));
      done[t] = trees_[t]->run(quota, timed, deadline, stop, trees_.size() > 1 ? &halt : nullptr);
    };
    if (trees_.size() == 1) {
      work(0);
    } else {
      std::vector<std::thread> helpers;
      for (std::size_t t = 1; t < trees_.size(); ++t) helpers.emplace_back(work, t);
      work(0);
      for (auto& h : helpers) h.join();
    }

    MctsResult r = merge();
    for (std::size_t t = 0; t < trees_.size(); ++t) {
      r.iterations += done[t];
      r.reused_visits += reused[t];
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
  }

  MctsResult search(const G& position, const MctsBudget& budget, const std::atomic<bool>* stop = nullptr) {
    return search(position, std::span<const Move>{}, budget, stop);
  }

  // Forgets every tree (the next search starts afresh).
  void clear() {
    for (auto& tree : trees_) tree->reset(G(tree->root_position()));
  }

  std::uint64_t nodes() const noexcept {
    std::uint64_t total = 0;
    for (const auto& tree : trees_) total += tree->size();
    return total;
  }

 private:
  MctsResult merge() const {
    MctsResult r;
    // Statistics by move id: the trees order their children differently.
    std::array<MctsMoveStats, G::kMaxActions> by_move{};
    std::array<bool, G::kMaxActions> present{};
    std::size_t pv_tree = 0;
    for (std::size_t t = 0; t < trees_.size(); ++t) {
      const Tree& tree = *trees_[t];
      const MctsNode& root = tree.root();
      if (root.proof != kMctsUnproven) r.proof = root.proof;
      r.nodes += tree.size();
      r.tree_full = r.tree_full || tree.full();
      if (root.visits > trees_[pv_tree]->root().visits) pv_tree = t;
      for (std::uint32_t c = root.first; c < root.first + root.count; ++c) {
        const MctsNode& ch = tree.node(c);
        MctsMoveStats& s = by_move[ch.move];
        present[ch.move] = true;
        s.move = ch.move;
        s.visits += ch.visits;
        s.score += ch.score;
        if (ch.proof != kMctsUnproven) s.proof = ch.proof;  // proofs are exact: the trees agree
      }
    }
    for (int m = 0; m < G::kMaxActions; ++m)
      if (present[m]) r.moves.push_back(by_move[m]);
    std::stable_sort(r.moves.begin(), r.moves.end(),
                     [](const MctsMoveStats& a, const MctsMoveStats& b) { return a.visits > b.visits; });

    // The move: as best_child chooses in one tree, on the merged statistics
    // (sorted by visits, so the visited moves come first).
    std::size_t visited = 0;
    while (visited < r.moves.size() && r.moves[visited].visits > 0) ++visited;
    const int k = mcts_choose(std::span<const MctsMoveStats>(r.moves.data(), visited));
    const MctsMoveStats* best = &r.moves[k < 0 ? 0 : static_cast<std::size_t>(k)];
    r.best_move = best->move;
    r.value = r.proof != kMctsUnproven ? r.proof : best->value();

    // The principal variation, in the tree that searched most.
    const Tree& tree = *trees_[pv_tree];
    r.pv.push_back(r.best_move);
    std::uint32_t idx = 0;
    for (std::uint32_t c = tree.root().first; c < tree.root().first + tree.root().count; ++c)
      if (tree.node(c).move == r.best_move) idx = c;
    while (idx != 0 && tree.node(idx).first != 0) {
      idx = tree.best_child(idx);
      if (idx == 0) break;
      r.pv.push_back(tree.node(idx).move);
    }
    return r;
  }

  MctsConfig config_;
  std::vector<std::unique_ptr<Tree>> trees_;
};

}  // namespace noughts
