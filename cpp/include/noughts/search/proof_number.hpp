// Depth-first proof-number search (df-pn), written once for every game:
// the exact solver's second method, for positions whose trees are too wide
// and deep for alpha-beta to finish (Ultimate endgames).
//
// Each question is binary: "does player p win?". A node where p moves is an
// OR node (one winning move proves it), one where the opponent moves an AND
// node (every move must lose for them). A node's proof number is how many
// leaves at least must still be proved to prove it, its disproof number how
// many to disprove it; df-pn always works below the most-proving node, with
// thresholds that send it back up only when a sibling has become more
// promising, and keeps every node's numbers in a transposition table keyed
// by the position's canonical key. The game is a tree of growing positions
// (no move repeats a position), so the table needs no care for cycles.
//
// The value of a position is two questions: "does the mover win?" (+1) and
// "does the opponent win?" (-1); both disproved, a draw. They are searched
// side by side, as the two children of one OR node. Games where the same
// player moves twice (Quantum's collapse choice) need nothing special: a
// node is OR or AND by who moves there. The game's hooks (search/hooks.hpp)
// settle nodes at once where they can (the tactics, can_win_now and
// can_still_win), and its evaluation, where it has one, sets the numbers of
// new leaves.
//
// With more than one thread (SolveLimits::threads), the threads share one
// table: they all search the value, then share out the root moves'
// questions (which keep the value, or each move's value; QuestionBoard),
// joining an open one when none is left. Near a question's root, threads
// keep off the nodes others are in (BusyKeys); what one thread proves, the
// others find in the table.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "noughts/errors.hpp"
#include "noughts/game.hpp"
#include "noughts/search/busy_keys.hpp"
#include "noughts/search/hooks.hpp"
#include "noughts/search/prefetch.hpp"
#include "noughts/search/question_board.hpp"
#include "noughts/search/solve_limits.hpp"
#include "noughts/search/solver.hpp"
#include "noughts/search/zeroed_table.hpp"

namespace noughts {

// The search's choices where the literature offers several: the defaults
// are the fastest measured on Ultimate endgames; the others are there to
// compare with (every choice proves the same values, as the tests check).
struct ProofNumberTuning {
  // How far past its best sibling a child may grow before the search goes
  // back up, in percent (the 1 + epsilon trick); 0: the plain "second
  // best + 1" threshold of df-pn.
  int epsilon_percent = 25;
  // Whether new leaves' numbers follow the game's evaluation (where it has
  // one), or its mobility alone.
  bool evaluation = true;
  // Whether new leaves' numbers also follow what the question's player can
  // still make of the lines (the game's line_prospects, where it has it).
  bool prospects = true;
  // Whether moves that let the opponent win at once are dropped (games
  // without the tactics hook, which drop them themselves).
  bool drop_losses = true;
};

template <Game G>
class ProofNumberSearch {
  using State = typename SearchStateOf<G>::type;

 public:
  // "Infinite": a proved (pn 0, dn kInf) or disproved (pn kInf, dn 0) node.
  // Sums of unsolved numbers stop just below it.
  static constexpr std::uint32_t kInf = 1u << 30;

  // `weak`: the value and one best move only (no principal variation).
  explicit ProofNumberSearch(const SolveLimits& limits = {}, bool weak = false, ProofNumberTuning tuning = {})
      : limits_(limits), weak_(weak), tuning_(tuning) {
    const std::size_t cap = std::max<std::size_t>(limits.tt_bytes / sizeof(Entry), kMinEntries);
    max_entries_ = std::size_t{1} << (63 - std::countl_zero(static_cast<std::uint64_t>(cap)));
    resize(std::min(max_entries_, kMinEntries));
  }
  // The table is reached through a pointer (a helper's is its lead's).
  ProofNumberSearch(const ProofNumberSearch&) = delete;
  ProofNumberSearch& operator=(const ProofNumberSearch&) = delete;

  // The value of a position that is not over, as the exact solver gives it,
  // but without the distance (-1) and with a principal variation that keeps
  // the value at every move (not the fastest win or slowest loss); weak, one
  // best move and no principal variation. Throws std::invalid_argument on a
  // finished game, SearchStopped at a limit.
  Solution solve(const G& root) {
    if (root.outcome().over()) throw std::invalid_argument("the game is over: there is nothing to solve");
    limits_.check_window(weak_);
    start_ = std::chrono::steady_clock::now();
    nodes_ = 0;
    std::optional<Team> team;  // its busy marks cost half a MiB: only with helpers
    if (limits_.threads > 1) team_ = &team.emplace(*this, limits_.threads);
    struct Leave {
      ProofNumberSearch& lead;
      ~Leave() { lead.team_ = nullptr; }
    } leave{*this};
    Solution s;
    const Player me = root.to_move();
    s.value = team_ ? value_together(root) : value_of(root);
    limits_.report_bounds(s.value, s.value);
    s.value_for_x = me == Player::X ? s.value : -s.value;
    s.distance = -1;
    typename G::MoveList moves;
    root.legal_moves(moves);
    if (weak_ && !limits_.move_values) {
      s.best_moves.push_back(keeping_move(root, s.value));
      s.nodes = all_nodes();
      s.seconds = elapsed();
      return s;
    }
    // Each move's answer: its value (move_values), else whether it keeps
    // the root's.
    const std::vector<int> answers = answer_all(moves.size(), [&](ProofNumberSearch& search, int i) {
      G child = root;
      child.play(moves[i]);
      return limits_.move_values ? search.value_after(child, me) : int{search.keeps(child, me, s.value)};
    });
    for (int i = 0; i < moves.size(); ++i) {
      const int a = answers[static_cast<std::size_t>(i)];
      if (limits_.move_values) s.move_values.push_back({moves[i], a});
      if (limits_.move_values ? a == s.value : a != 0) s.best_moves.push_back(moves[i]);
    }
    std::sort(s.best_moves.begin(), s.best_moves.end());
    std::sort(s.move_values.begin(), s.move_values.end(), [](auto& a, auto& b) { return a.move < b.move; });
    if (!weak_) s.principal_variation = principal_variation(root, s.value);
    s.nodes = all_nodes();
    s.seconds = elapsed();
    return s;
  }

  // Whether p wins from g (a position that is not over) with best play.
  bool wins(const G& g, Player p) {
    target_ = p;
    const State state = search_state_of(g);
    const std::uint64_t key = key_for(g, state);
    Numbers n{};
    find(key, n);
    if (!n.solved()) n = mid(g, state, key, kInf, kInf, 0);
    return n.pn == 0;
  }

  std::uint64_t nodes() const noexcept { return nodes_; }

  // The limits of the next solve() (the table is kept): a search proves
  // many positions with what the earlier ones left in its table, such as
  // the positions of one game. 0: no limit.
  void set_limits(double max_seconds, std::uint64_t max_nodes) noexcept {
    limits_.max_seconds = max_seconds;
    max_nodes_ = max_nodes;
  }
  void set_stop(const std::atomic<bool>* stop) noexcept { limits_.stop = stop; }
  // Forgets the table.
  void clear() {
    (void)table_->replace(std::min(max_entries_, kMinEntries));
    used_ = 0;
  }

  // The value of g (not over) for its mover: both questions searched side
  // by side as the two children of one OR node ("does somebody win?"). The
  // search works on the one whose proof number is smaller until it passes
  // the other's (with the 1 + epsilon margin), so a lost position is not
  // first searched to the end for the disproof of the mover's win, and a
  // won one costs little on the question that fails. A draw is both
  // disproved.
  int value_of(const G& g) {
    const Player me = g.to_move();
    const State state = search_state_of(g);
    std::array<Numbers, 2> q{};  // q[0]: does the mover win? q[1]: the opponent?
    std::array<bool, 2> started{};
    // A question outside the window is not asked: taken as disproved, the
    // value comes out held to the window.
    if (limits_.upper <= 0) q[0] = Numbers{kInf, 0};
    if (limits_.lower >= 0) q[1] = Numbers{kInf, 0};
    limits_.report_bounds(-1, 1);
    while (true) {
      if (q[0].pn == 0) return 1;
      if (q[1].pn == 0) return -1;
      if (q[0].dn == 0 && q[1].dn == 0) return 0;
      // A question not looked at yet has the numbers of an unknown leaf;
      // ties go to the mover's win.
      const int i = q[0].pn <= q[1].pn ? 0 : 1;
      target_ = i == 0 ? me : opponent(me);
      const std::uint64_t key = key_for(g, state);
      // A first visit only expands the root, so that its numbers are real.
      const std::uint32_t threshold = started[i] ? past(q[1 - i].pn) : 1;
      q[i] = mid(g, state, key, threshold, kInf, 0);
      started[i] = true;
      if (q[i].dn == 0) limits_.report_bounds(i == 0 ? -1 : 0, i == 0 ? 0 : 1);
      if (q[0].dn == 0 && q[1].dn == 0) limits_.report_bounds(0, 0);
    }
  }

 private:
  // Thrown in a thread of a team whose work is no longer wanted: another
  // thread stopped at a limit, or failed.
  struct Halted {};
  // Thrown in a thread whose question another thread has answered: it
  // takes the next.
  struct Dropped {};

  // The answers to n questions (a QuestionBoard shared out to the team, or
  // all asked on this thread), ask(search, i) searching question i on one
  // thread's search. A thread whose question another answered drops it
  // (Dropped, at its next check) and takes the next.
  template <class Ask>
  std::vector<int> answer_all(int n, Ask&& ask) {
    QuestionBoard questions(static_cast<std::size_t>(n));
    auto work = [&](ProofNumberSearch& search) {
      for (int i; (i = questions.take()) >= 0;) {
        struct Leaving {
          ProofNumberSearch& search;
          QuestionBoard& questions;
          int i;
          ~Leaving() {
            search.watched_ = nullptr;
            questions.leave(i);
          }
        } leaving{search, questions, i};
        search.watched_ = &questions.ended_flag(i);
        try {
          questions.answer(i, ask(search, i));
        } catch (const Dropped&) {
        }
      }
    };
    if (team_) team_->run([&] { work(*this); }, work);
    else work(*this);
    return questions.answers();
  }
  // The value with a team: one question that every thread searches, each
  // with value_of's two questions side by side, sharing the table (and
  // keeping off each other's paths near the root). Side by side, a proof
  // in one question settles nodes of the other; split over two threads, the
  // two questions took up to twice the nodes on Ultimate endgames.
  int value_together(const G& g) {
    return answer_all(1, [&](ProofNumberSearch& search, int) { return search.value_of(g); })[0];
  }

  struct Numbers {
    std::uint32_t pn = 1, dn = 1;
    bool solved() const noexcept { return pn == 0 || dn == 0; }
  };
  // Three words, each read and written as one relaxed atomic, so that
  // threads share the table without locks: `check` is the key XOR the
  // numbers, and an entry read while another thread wrote it (words of two
  // entries) fails the check and reads as absent. `work` is only the
  // replacement's guide, which a torn value misleads at worst. All zero:
  // empty (a real key of 0 is stored as 1).
  struct Entry {
    std::uint64_t check = 0;
    std::uint64_t numbers = 0;  // pn << 32 | dn
    std::uint64_t work = 0;     // nodes spent on it: what the replacement keeps
  };
  // An entry as read: its key (0 when empty or torn) and contents.
  struct Read {
    std::uint64_t key;
    Numbers n;
    std::uint64_t work;
  };
  struct Child {
    G position;
    State state;
    std::uint64_t key;
    Numbers n;
  };
  static constexpr std::size_t kMinEntries = std::size_t{1} << 12;
  // How deep below a question's root threads mark the nodes they are in.
  static constexpr int kBusyDepth = 6;
  static constexpr int kWays = 4;  // entries probed per key

  static std::uint32_t add(std::uint32_t a, std::uint32_t b) noexcept {
    if (a >= kInf || b >= kInf) return kInf;
    return std::min<std::uint32_t>(a + b, kInf - 1);
  }
  // The 1 + epsilon trick (Pawlewicz and Lew): a child may grow a quarter
  // (tuning_.epsilon_percent) past its best sibling before the search goes
  // back up, which saves most of the re-expansions the plain "second best
  // + 1" threshold costs.
  std::uint32_t past(std::uint32_t second) const noexcept {
    if (second >= kInf) return kInf;
    const std::uint64_t grown = std::uint64_t{second} * static_cast<std::uint64_t>(100 + tuning_.epsilon_percent) / 100;
    const std::uint64_t t = std::max<std::uint64_t>(std::uint64_t{second} + 1, grown);
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(t, kInf));
  }

  // The value for `me` of the position after me's move (a finished game or not),
  // held to the window.
  int value_after(const G& child, Player me) {
    if (child.outcome().over()) {
      const auto w = child.outcome().winner();
      return limits_.held(!w ? 0 : (*w == me ? 1 : -1));
    }
    if (limits_.upper > 0 && wins(child, me)) return 1;
    return limits_.lower < 0 && wins(child, opponent(me)) ? -1 : 0;
  }
  // Whether the position after me's move keeps me's value v.
  bool keeps(const G& child, Player me, int v) {
    if (v < 0) return true;
    if (child.outcome().over()) {
      const auto w = child.outcome().winner();
      return v > 0 ? w == me : w != opponent(me);
    }
    return v > 0 ? wins(child, me) : !wins(child, opponent(me));
  }

  // Whether the table already shows that the position after me's move
  // keeps me's value v (0 or 1).
  bool known_to_keep(const G& child, Player me, int v) {
    if (child.outcome().over()) return keeps(child, me, v);
    target_ = v > 0 ? me : opponent(me);
    Numbers n{};
    return find(key_for(child, search_state_of(child)), n) && (v > 0 ? n.pn == 0 : n.dn == 0);
  }
  // A move of g that keeps g's value v for its mover: one the table shows
  // first (the proof just made left them there), else the first a search
  // confirms; for a lost position (or one at most the window's lower end),
  // the first legal move (all keep it).
  Move keeping_move(const G& g, int v) {
    typename G::MoveList moves;
    g.legal_moves(moves);
    if (v <= limits_.lower) return moves[0];
    const Player me = g.to_move();
    for (int pass = 0; pass < 2; ++pass)
      for (Move m : moves) {
        G child = g;
        child.play(m);
        if (pass == 0 ? known_to_keep(child, me, v) : keeps(child, me, v)) return m;
      }
    return moves[0];  // not reached: a proved value has a move that keeps it
  }
  // Play to the end, each move keeping the value.
  std::vector<Move> principal_variation(G g, int v) {
    std::vector<Move> pv;
    while (!g.outcome().over()) {
      const Player me = g.to_move();
      const Move chosen = keeping_move(g, v);
      pv.push_back(chosen);
      g.play(chosen);
      if (!g.outcome().over() && g.to_move() != me) v = -v;
    }
    return pv;
  }

  // ---- the search ----

  // What a node's immediate facts say, for the question "does target_ win?",
  // before its moves are searched: solved, or numbers from its mobility.
  // Where the question's player moves, one move may prove the node (pn 1)
  // but every move must fail to disprove it (dn = the number of moves to
  // search); the other way round where the opponent moves.
  Numbers evaluate(const G& g, const State& state) {
    const Player mover = g.to_move();
    const bool mine = mover == target_;
    const Numbers proved{0, kInf}, disproved{kInf, 0};
    if constexpr (HasTactics<G>) {
      typename G::MoveList moves;
      std::array<int, G::kMaxActions> hints;
      const Tactics t = g.tactics(moves, hints.data(), state);
      if (!(mine ? t.mover_can_win : t.opponent_can_win)) return disproved;
      switch (t.kind) {
        case Tactics::WinNow: return mine ? proved : disproved;
        case Tactics::LossNow:
        case Tactics::LossNext: return mine ? disproved : proved;
        case Tactics::Search: break;
      }
      if (t.loses_within) return mine ? disproved : proved;
      if (t.wins_within) return mine ? proved : disproved;
      return with_prospects(g, mobility(mine, moves.size()));
    } else {
      if constexpr (HasCanStillWin<G>) {
        if (!g.can_still_win(target_)) return disproved;
      }
      if constexpr (HasWinNow<G>) {
        if (g.can_win_now()) return mine ? proved : disproved;
      }
      typename G::MoveList moves;
      g.legal_moves(moves);
      // Moves that let the opponent win at once are losses: not searched,
      // nor counted in the mobility, and a node whose every move is one is
      // lost (a look one ply deeper at every leaf).
      int searched = moves.size();
      if (drops_losses(g)) {
        searched = 0;
        for (Move m : moves) {
          G child = g;
          child.play(m);
          searched += !lets_opponent_win_now(child, mover);
        }
        if (searched == 0) return mine ? disproved : proved;
      }
      return with_prospects(g, mobility(mine, searched));
    }
  }
  // Whether the moves of g that let the opponent win at once are dropped.
  bool drops_losses(const G& g) const noexcept { return tuning_.drop_losses && threats_possible(g); }
  // A leaf's numbers from what target_ can still make of the lines
  // (HasLineProspects): a disproof of "does target_ win?" ends where they
  // have no line left, so the disproof number grows with the square of the
  // lines they have; a proof ends where they complete one, so the proof
  // number grows with what they still need in the nearest. Most of the work
  // of a drawn position, and of a won position's best moves, is disproofs.
  Numbers with_prospects(const G& g, Numbers n) const noexcept {
    if constexpr (HasLineProspects<G>) {
      if (!tuning_.prospects) return n;
      const LineProspects p = g.line_prospects(target_);
      const auto open = static_cast<std::uint32_t>(std::clamp(p.open, 1, 16));
      const auto fewest = static_cast<std::uint32_t>(std::clamp(p.fewest, 1, 16));
      n.dn = std::min<std::uint32_t>(n.dn * open * open, kInf - 1);
      n.pn = std::min<std::uint32_t>(n.pn * fewest, kInf - 1);
    } else {
      (void)g;
    }
    return n;
  }
  // The game's evaluation of the children of a node, computed for all of
  // them at once the first time one is asked for.
  struct Guesses {
    bool ready = false;
    std::array<float, G::kMaxActions> values;
  };
  // The evaluation of child i (after moves[i] from g) for the question's
  // player, -1 .. +1; 0 for a game without one.
  float guess(const G& g, const typename G::MoveList& moves, const G& child, int i, Guesses& guesses) {
    if (!tuning_.evaluation) return 0;
    if constexpr (HasEvaluateMoves<G>) {
      if (!guesses.ready) {
        std::array<Move, G::kMaxActions> ids;
        std::copy(moves.begin(), moves.end(), ids.begin());
        const auto count = static_cast<std::size_t>(moves.size());
        g.evaluate_moves(std::span<const Move>(ids.data(), count), std::span<float>(guesses.values.data(), count));
        guesses.ready = true;
      }
      return g.to_move() == target_ ? guesses.values[i] : -guesses.values[i];
    } else if constexpr (HasEvaluate<G>) {
      const float v = child.evaluate();
      return child.to_move() == target_ ? v : -v;
    } else {
      (void)g, (void)moves, (void)child, (void)i, (void)guesses;
      return 0;
    }
  }
  // The numbers of an open leaf from its mobility and the game's
  // evaluation v for the question's player (df-pn+): each step of 1/4 in v
  // halves the proof number and doubles the disproof number, so that the
  // search tries first the lines that look good for the side it is
  // proving; both are scaled by kLeafScale so that the small factors near
  // v = 0 still tell leaves apart. Without an evaluation (v = 0) every leaf
  // is scaled alike, which changes nothing.
  static constexpr double kEvalSteps = 4, kLeafScale = 8;
  static Numbers weigh(Numbers n, float v) noexcept {
    const double f = std::exp2(kEvalSteps * v);
    auto scale = [](std::uint32_t x, double by) {
      return static_cast<std::uint32_t>(std::clamp<double>(std::round(x * by), 1, kInf - 1));
    };
    return {scale(n.pn, kLeafScale / f), scale(n.dn, kLeafScale * f)};
  }
  static Numbers mobility(bool mine, int moves) noexcept {
    const auto m = static_cast<std::uint32_t>(std::max(moves, 1));
    return mine ? Numbers{1, m} : Numbers{m, 1};
  }

  // The children of the node at `depth` live in frames_[depth], reserved once.
  std::vector<Child>& frame(int depth) {
    while (static_cast<int>(frames_.size()) <= depth) {
      frames_.emplace_back();
      frames_.back().reserve(G::kMaxActions);
    }
    return frames_[depth];
  }

  // Multiple iterative deepening at a node that is not over: searches below
  // it until its proof number reaches thpn or its disproof number thdn, and
  // returns (and stores) its numbers.
  Numbers mid(const G& g, const State& state, std::uint64_t key, std::uint32_t thpn, std::uint32_t thdn, int depth) {
    if ((++nodes_ & 1023) == 0) check_limits();
    const std::uint64_t nodes_before = nodes_;
    const bool or_node = g.to_move() == target_;
    // Near the root, with a team, the node is marked while this thread is
    // in it: threads that share a question then choose other children.
    const bool marking = team_ && depth < kBusyDepth;
    struct Mark {
      BusyKeys* busy;
      std::uint64_t key;
      ~Mark() {
        if (busy) busy->leave(key);
      }
    } mark{marking ? &team_->busy : nullptr, key};
    if (marking) team_->busy.enter(key);
    // Below the root a node is searched only after its evaluation left it
    // open (a solved one goes to the table and is never searched).
    Numbers n;
    if (depth == 0) {
      n = evaluate(g, state);
      if (n.solved()) {
        store(key, n, 1);
        return n;
      }
    }

    // The moves worth searching: the tactics' list (the moves they drop lose
    // for the mover, so they neither prove an OR node nor refute an AND
    // node), else every legal move.
    typename G::MoveList moves;
    if constexpr (HasTactics<G>) {
      std::array<int, G::kMaxActions> hints;
      g.tactics(moves, hints.data(), state);
    } else {
      g.legal_moves(moves);
    }
    std::vector<Child>& kids_vector = frame(depth);
    kids_vector.clear();
    // Every child's key first, and its table bucket asked of memory, so
    // that the lookups below wait for one memory access rather than one a
    // child. Moves that let the opponent win at once are dropped.
    const bool test_threats = drops_losses(g);
    typename G::MoveList searched;
    for (Move m : moves) {
      kids_vector.push_back(Child{g, noughts::search_state_after(g, state, m), 0, {}});
      Child& c = kids_vector.back();
      c.position.play(m);
      if (test_threats && lets_opponent_win_now(c.position, g.to_move())) {
        kids_vector.pop_back();
        continue;
      }
      searched.push(m);
      if (!c.position.outcome().over()) {
        c.key = key_for(c.position, c.state);
        prefetch(c.key);
      }
    }
    Guesses guesses;
    for (int i = 0; i < static_cast<int>(kids_vector.size()); ++i) {
      Child& c = kids_vector[i];
      const Outcome o = c.position.outcome();
      if (o.over()) {
        c.n = o.winner() == target_ ? Numbers{0, kInf} : Numbers{kInf, 0};
      } else {
        // A child in the table keeps its numbers; one where the other
        // question proved the other player's win is disproved; a new one is
        // evaluated and stored, so that the next expansion of this node
        // finds it instead of evaluating it again (an open leaf costs
        // nothing to search: the replacement keeps the costlier entries).
        Numbers other;
        if (find(c.key, c.n)) {
        } else if (find(c.key ^ kOSalt, other) && other.pn == 0) {
          // The other question's proof: the other player wins here, so the
          // question's player does not (a draw finds nothing to use).
          c.n = {kInf, 0};
          store(c.key, c.n, 0);
        } else {
          c.n = evaluate(c.position, c.state);
          if (!c.n.solved()) c.n = weigh(c.n, guess(g, searched, c.position, i, guesses));
          store(c.key, c.n, 0);
        }
      }
      // A proved child settles an OR node, a disproved one an AND node.
      if ((or_node && c.n.pn == 0) || (!or_node && c.n.dn == 0)) {
        n = or_node ? Numbers{0, kInf} : Numbers{kInf, 0};
        store(key, n, nodes_ - nodes_before + 1);
        return n;
      }
    }
    // Read through the buffer: deeper calls may grow frames_ and move the
    // vector objects, not their buffers.
    Child* kids = kids_vector.data();
    const int count = static_cast<int>(kids_vector.size());

    while (true) {
      // OR: pn the smallest child pn, dn the sum; AND the other way round.
      // The child to search: the one with that smallest number, or where
      // other threads are in some children, the smallest once theirs count
      // double (`shunned`), if that leaves it room below its threshold.
      std::uint32_t sum = 0, best = kInf, second = kInf, least = kInf, next = kInf;
      int pick = -1, shunned = -1;
      for (int i = 0; i < count; ++i) {
        const std::uint32_t mine = or_node ? kids[i].n.pn : kids[i].n.dn;
        const std::uint32_t other = or_node ? kids[i].n.dn : kids[i].n.pn;
        sum = add(sum, other);
        if (mine < best) {
          second = best, best = mine, pick = i;
        } else if (mine < second) {
          second = mine;
        }
        if (marking) {
          const std::uint32_t rank = mine > 0 && mine < kInf && team_->busy.busy(kids[i].key) ? add(mine, mine) : mine;
          if (rank < least) {
            next = least, least = rank, shunned = i;
          } else if (rank < next) {
            next = rank;
          }
        }
      }
      n = or_node ? Numbers{best, sum} : Numbers{sum, best};
      if (count == 0) n = or_node ? Numbers{kInf, 0} : Numbers{0, kInf};
      if (n.pn >= thpn || n.dn >= thdn) break;
      if (shunned >= 0 && shunned != pick) {
        const std::uint32_t mine = or_node ? kids[shunned].n.pn : kids[shunned].n.dn;
        if (mine < std::min(or_node ? thpn : thdn, past(next))) pick = shunned, second = next;
      }
      Child& c = kids[pick];
      std::uint32_t child_pn, child_dn;
      if (or_node) {
        child_pn = std::min(thpn, past(second));
        child_dn = thdn - n.dn + c.n.dn;
      } else {
        child_dn = std::min(thdn, past(second));
        child_pn = thpn - n.pn + c.n.pn;
      }
      c.n = mid(c.position, c.state, c.key, child_pn, child_dn, depth + 1);
    }
    store(key, n, nodes_ - nodes_before + 1);
    return n;
  }

  // ---- the table ----

  std::uint64_t key_for(const G& g, const State& state) const noexcept {
    // The question's player is part of the key: the numbers of "X wins?"
    // and "O wins?" differ.
    const std::uint64_t k = canonical_key(g, state, limits_.symmetry) ^ (target_ == Player::O ? kOSalt : 0);
    return k ? k : 1;
  }
  // The two questions' keys of a position differ in the lowest bit only,
  // which bucket() ignores: their entries share a bucket, and the lookup of
  // the other question's costs no further memory access.
  static constexpr std::uint64_t kOSalt = 1;

  // ---- threads ----

  // The helpers of a solve with threads, and how they work beside the
  // thread that called solve() (the lead).
  struct Team {
    Team(ProofNumberSearch& lead_search, int threads) : lead(lead_search) {
      for (int t = 1; t < threads; ++t) helpers.push_back(std::unique_ptr<ProofNumberSearch>(new ProofNumberSearch(lead, *this)));
    }

    // Runs lead_work on the lead's thread and helper_work(helper) on a thread
    // of each helper, and returns when all have ended. While it waits, the
    // lead keeps checking the limits: the poll reaches Python, which only
    // the lead's thread may call. The first error of any thread (a limit, a
    // stop, memory) halts the others and is thrown here.
    template <class LeadWork, class HelperWork>
    void run(LeadWork&& lead_work, HelperWork&& helper_work) {
      halt.store(false);
      std::mutex mutex;
      std::condition_variable ended;
      int running = static_cast<int>(helpers.size());
      std::exception_ptr error;  // a helper's, guarded by mutex
      std::vector<std::thread> threads;
      // Ends the helpers' work (also while they wait for growth); the lead's
      // own search goes on unhalted.
      auto finish = [&] {
        halt_all();
        for (auto& t : threads) t.join();
        halt.store(false);
      };
      try {
        {
          const std::lock_guard lock(growth_mutex);
          active = static_cast<int>(helpers.size()) + 1;
        }
        for (auto& h : helpers)
          threads.emplace_back([&, helper = h.get()] {
            const InSearch in_search{*this};
            try {
              helper_work(*helper);
            } catch (const Halted&) {
            } catch (...) {
              const std::lock_guard lock(mutex);
              if (!error) error = std::current_exception();
              halt_all();
            }
            const std::lock_guard lock(mutex);
            --running;
            ended.notify_all();
          });
        {
          const InSearch in_search{*this};
          lead_work();
        }
        std::unique_lock lock(mutex);
        while (running > 0 && !error) {
          ended.wait_for(lock, std::chrono::milliseconds(20));
          lock.unlock();
          lead.check_stops();
          lock.lock();
        }
      } catch (...) {
        const std::exception_ptr lead_error = std::current_exception();
        finish();
        throw_with_all_nodes(error ? error : lead_error);
      }
      finish();
      if (error) throw_with_all_nodes(error);
    }

    // Rethrows e; a SearchStopped counts every thread's nodes.
    [[noreturn]] void throw_with_all_nodes(const std::exception_ptr& e) const {
      try {
        std::rethrow_exception(e);
      } catch (SearchStopped& stopped) {
        stopped.nodes = lead.all_nodes();
        stopped.seconds = lead.elapsed();
        throw;
      }
    }

    // The shared table grows as one thread's does (by the entries all
    // threads fill), but only while no thread is in the search: a thread
    // that finds growth wanted (at its check, every 1024 nodes) waits here,
    // and the last of the threads in the search to stop grows the table and
    // lets them all go on. Threads hold no reference into the table across
    // a check, so the entries may move.
    void pause_for_growth() {
      std::unique_lock lock(growth_mutex);
      const std::uint64_t generation = grown;
      ++paused;
      if (!grow_if_all_paused(lock))
        grown_cv.wait(lock, [&] { return grown != generation || halt.load(std::memory_order_relaxed); });
      --paused;
    }
    void halt_all() {
      {
        const std::lock_guard lock(growth_mutex);
        halt.store(true);
      }
      grown_cv.notify_all();
    }
    // A thread's time in the search: it leaves when its work ends.
    struct InSearch {
      Team& team;
      ~InSearch() { team.leave(); }
    };
    // A thread leaves the search (its work is over): growth may be waiting
    // only for it.
    void leave() {
      std::unique_lock lock(growth_mutex);
      --active;
      grow_if_all_paused(lock);
    }
    // With the lock held: when every thread in the search waits, grows the
    // table and wakes them; true if it did.
    bool grow_if_all_paused(std::unique_lock<std::mutex>&) {
      if (paused < active || !grow_wanted.load(std::memory_order_relaxed)) return false;
      if (lead.table_->size() < lead.max_entries_) lead.resize(lead.table_->size() * 2);
      used.store(lead.used_, std::memory_order_relaxed);
      grow_wanted.store(false, std::memory_order_relaxed);
      ++grown;
      grown_cv.notify_all();
      return true;
    }

    ProofNumberSearch& lead;
    std::vector<std::unique_ptr<ProofNumberSearch>> helpers;
    BusyKeys busy;                                // the nodes near the root each thread is in
    std::atomic<std::size_t> used{0};             // the shared table's filled entries
    std::atomic<bool> grow_wanted{false};
    std::mutex growth_mutex;
    std::condition_variable grown_cv;
    int active = 0;                               // threads in the search; guarded by growth_mutex
    int paused = 0;                               // of them, waiting for growth; guarded by growth_mutex
    std::uint64_t grown = 0;                      // growths so far; guarded by growth_mutex
    std::atomic<bool> halt{false};                // the helpers' work is no longer wanted
    std::atomic<std::uint64_t> helper_nodes{0};  // counted as they check in, for the lead's progress
  };

  // A helper of the lead's team: the lead's limits (but not its poll or
  // progress, which are the lead's to call) and table.
  ProofNumberSearch(ProofNumberSearch& lead, Team& team)
      : limits_(lead.limits_), weak_(lead.weak_), tuning_(lead.tuning_) {
    limits_.poll = nullptr;
    limits_.progress = nullptr;
    table_ = lead.table_;
    max_entries_ = lead.max_entries_;
    team_ = &team;
    helper_ = true;
    start_ = lead.start_;
  }

  // Every thread's nodes, once the helpers have ended.
  std::uint64_t all_nodes() const noexcept {
    std::uint64_t n = nodes_;
    if (team_ && !helper_)
      for (const auto& h : team_->helpers) n += h->nodes_;
    return n;
  }

  // A key's entries: kWays slots from here.
  std::size_t bucket(std::uint64_t key) const noexcept { return ((key >> 1) * kWays) & (table_->size() - 1); }

  void prefetch(std::uint64_t key) const noexcept {
    const char* p = reinterpret_cast<const char*>(&(*table_)[bucket(key)]);
    detail::prefetch(p);
    detail::prefetch(p + kWays * sizeof(Entry) - 1);
  }

  static std::uint64_t load(const std::uint64_t& word) noexcept {
    return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(word)).load(std::memory_order_relaxed);
  }
  static void put(std::uint64_t& word, std::uint64_t value) noexcept {
    std::atomic_ref<std::uint64_t>(word).store(value, std::memory_order_relaxed);
  }
  static Numbers unpack(std::uint64_t numbers) noexcept {
    return {static_cast<std::uint32_t>(numbers >> 32), static_cast<std::uint32_t>(numbers)};
  }
  static Read read(const Entry& e) noexcept {
    const std::uint64_t check = load(e.check), numbers = load(e.numbers);
    return {check ? check ^ numbers : 0, unpack(numbers), load(e.work)};
  }
  static void write(Entry& e, std::uint64_t key, Numbers n, std::uint64_t work) noexcept {
    const std::uint64_t numbers = std::uint64_t{n.pn} << 32 | n.dn;
    put(e.numbers, numbers);
    put(e.work, work);
    put(e.check, key ^ numbers);
  }

  // The numbers stored for key into n; false (n unchanged) when absent.
  bool find(std::uint64_t key, Numbers& n) const noexcept {
    if (key == 0) return false;  // the mark of an empty slot, never a stored key
    const std::size_t b = bucket(key);
    for (int w = 0; w < kWays; ++w) {
      const Entry& e = (*table_)[b + w];
      const std::uint64_t numbers = load(e.numbers);
      if ((load(e.check) ^ numbers) == key) {
        n = unpack(numbers);
        return true;
      }
    }
    return false;
  }

  // Into the key's slot, else an empty one, else the one that cost the
  // fewest nodes; solved entries count as very costly, so they stay.
  void store(std::uint64_t key, Numbers n, std::uint64_t work) {
    // The table grows once three quarters of it are filled (by all threads).
    const auto full = [&](std::size_t filled) { return filled * 4 >= table_->size() * 3; };
    if (table_->size() < max_entries_) {
      if (!team_) {
        if (full(used_)) resize(table_->size() * 2);
      } else if (full(team_->used.load(std::memory_order_relaxed))) {
        team_->grow_wanted.store(true, std::memory_order_relaxed);  // at every thread's next check
      }
    }
    const std::size_t b = bucket(key);
    int same = -1, empty = -1, cheapest = -1;
    std::uint64_t least = 0;
    for (int w = 0; w < kWays && same < 0; ++w) {
      const Read r = read((*table_)[b + w]);
      if (r.key == key) same = w;
      else if (r.key == 0) empty = empty < 0 ? w : empty;
      else if (cheapest < 0 || r.work < least) cheapest = w, least = r.work;
    }
    const int slot = same >= 0 ? same : empty >= 0 ? empty : cheapest;
    if (slot == empty) {
      ++used_;
      if (team_) team_->used.fetch_add(1, std::memory_order_relaxed);
    }
    write((*table_)[b + slot], key, n, n.solved() ? work + (std::uint64_t{1} << 40) : work);
  }

  // Entries are plain data, all-zero bytes an empty entry. Never while
  // threads share the table.
  void resize(std::size_t entries) {
    const ZeroedTable<Entry> old = table_->replace(entries);
    used_ = 0;
    for (const Entry& e : old) {
      const Read r = read(e);
      if (r.key == 0) continue;
      const std::size_t b = bucket(r.key);
      for (int w = 0; w < kWays; ++w) {
        Entry& slot = (*table_)[b + w];
        if (slot.check == 0) {
          slot = e;
          ++used_;
          break;
        }
      }
    }
  }

  // ---- helpers ----

  double elapsed() const { return SolveLimits::seconds_since(start_); }
  // Every 1024 nodes: a halted team's work ends, and so does any search at
  // its limits.
  void check_limits() {
    if (helper_) team_->helper_nodes.fetch_add(1024, std::memory_order_relaxed);
    if (team_ && team_->grow_wanted.load(std::memory_order_relaxed)) team_->pause_for_growth();
    if (team_ && team_->halt.load(std::memory_order_relaxed)) throw Halted{};
    if (watched_ && watched_->load(std::memory_order_relaxed)) throw Dropped{};
    check_stops();
  }
  void check_stops() {
    const std::uint64_t nodes =
        nodes_ + (team_ && !helper_ ? team_->helper_nodes.load(std::memory_order_relaxed) : 0);
    limits_.check(nodes, start_);
    if (max_nodes_ > 0 && nodes_ >= max_nodes_) throw SearchStopped("the node limit was reached", nodes, elapsed());
  }

  SolveLimits limits_;
  bool weak_ = false;
  ProofNumberTuning tuning_;
  ZeroedTable<Entry> own_table_;               // empty in a helper
  ZeroedTable<Entry>* table_ = &own_table_;   // a helper's is its lead's
  std::size_t max_entries_ = 0, used_ = 0;
  std::uint64_t max_nodes_ = 0;  // 0: no limit
  std::vector<std::vector<Child>> frames_;
  Player target_ = Player::X;
  std::uint64_t nodes_ = 0;
  Team* team_ = nullptr;  // the lead's team while a solve with threads runs; a helper's for life
  bool helper_ = false;
  const std::atomic<bool>* watched_ = nullptr;  // set when the question being searched has ended
  std::chrono::steady_clock::time_point start_;
};

// The value of a position by proof-number search (ProofNumberSearch::solve).
template <Game G>
Solution solve_proof_number(const G& position, const SolveLimits& limits = {}, bool weak = false,
                            ProofNumberTuning tuning = {}) {
  ProofNumberSearch<G> search(limits, weak, tuning);
  return search.solve(position);
}

}  // namespace noughts
