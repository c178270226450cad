// The exact solver, written once for every game: negamax alpha-beta over
// scores that encode the distance to the end, a bounded transposition table
// keyed by the position's canonical (symmetry-reduced) hash, immediate-win
// and threat detection, and history-heuristic move ordering.
//
// Scores are from the view of the player to move, relative to the node:
//   +(kWin - d)  the mover wins d plies from here (d >= 1), fastest is best;
//   -(kWin - d)  the mover loses d plies from here, slowest is best;
//   0            a draw.
// Because a score never depends on the path to a node, bounds can be
// stored in the table and reused by any search window: the win/draw/loss
// test is a null-window search around 0, the exact distance a wider one.
// Games where the same player may move twice (Quantum's collapse choice)
// are handled by negating only when the mover changes.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <limits>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "noughts/errors.hpp"
#include "noughts/game.hpp"
#include "noughts/search/book.hpp"
#include "noughts/search/busy_keys.hpp"
#include "noughts/search/hooks.hpp"
#include "noughts/search/question_board.hpp"
#include "noughts/search/solve_limits.hpp"
#include "noughts/search/transposition_table.hpp"

// The search's per-move helper must be inlined where it is used: GCC would
// otherwise make it a call in the innermost loop.
#if defined(__GNUC__) || defined(__clang__)
#define NOUGHTS_ALWAYS_INLINE __attribute__((always_inline))
#else
#define NOUGHTS_ALWAYS_INLINE
#endif

namespace noughts {

struct MoveValue {
  Move move;
  int value;  // +1 the mover wins, 0 draw, -1 the mover loses (after this move, with best play)
};

struct Solution {
  int value = 0;        // from the mover's view: +1 win, 0 draw, -1 loss
  int value_for_x = 0;  // from X's view
  int distance = -1;    // plies to the end with best play (fastest win, slowest loss); -1 for a draw or a weak solve
  std::vector<Move> best_moves;          // every move that keeps the value, ascending (weak, or not all_best_moves: one of them)
  std::vector<MoveValue> move_values;    // with SolveLimits::move_values: every move's value, ascending
  std::vector<Move> principal_variation; // best play to the end (fastest win / slowest loss); empty when weak
  std::uint64_t nodes = 0;
  double seconds = 0;
};


template <Game G>
class Solver {
  using State = typename SearchStateOf<G>::type;

 public:
  static constexpr int kWin = 1000;
  // Enhanced transposition cutoffs above this depth: deeper, the keys they
  // compute at every node cost more than the cutoffs save.
  static constexpr int kEtcDepth = 4;
  // Threads spread over the moves above this depth (the move loop of search).
  // Each node there marks itself in a table that every core writes, and
  // looks up every move's position in it; deeper, the cache lines passed
  // between cores and the lookups cost more than the spreading saves.
  static constexpr int kSharedDepth = 8;
  // ... and down to this depth at nodes with at most kNarrowMoves moves,
  // whose lookups are few: in narrow trees (gravity boards, Ultimate's sent
  // moves) the subtrees are still large there, and spreading over them
  // saves more nodes than it costs.
  static constexpr int kNarrowSharedDepth = 16;
  static constexpr int kNarrowMoves = 8;

  static_assert(Book<G>::kMaxDistance < kWin, "a book's distances must fit the solver's scores");

  // With a book (book.hpp), its positions' scores are taken instead of
  // searched; it must outlive the solver.
  explicit Solver(const SolveLimits& limits = {}, const Book<G>* book = nullptr)
      : limits_(limits), owned_tt_(std::make_unique<TranspositionTable>(limits.tt_bytes)), tt_(owned_tt_.get()),
        book_(book) {
    for (auto& h : history_) h.fill(0);
  }
  // The same on a table that outlives the solver (limits.tt_bytes unused):
  // what a solve stores in it, bounds of scores relative to their position,
  // holds for any later root of the same rules, so positions solved one
  // after another share their work. The table must outlive the solver and
  // hold positions of these rules only (a key does not tell rules apart).
  Solver(const SolveLimits& limits, TranspositionTable& table, const Book<G>* book = nullptr)
      : limits_(limits), tt_(&table), book_(book) {
    for (auto& h : history_) h.fill(0);
  }

  // Solves a position that is not over (throws std::invalid_argument if it
  // is, InvalidOptionError if the book is of other rules).
  Solution solve(const G& root) {
    if (root.outcome().over()) throw std::invalid_argument("the game is over: there is nothing to solve");
    if (book_ && !same_rules(root, book_->start()))
      throw InvalidOptionError("the book holds positions of other rules than the position to solve");
    limits_.check_window(limits_.weak);
    start_ = std::chrono::steady_clock::now();
    nodes_ = 0;
    Crew crew(*this, std::max(limits_.threads, 1) - 1);
    Solution s = solve_alone(root);
    s.nodes = nodes_ + crew.finish();
    return s;
  }

  std::uint64_t nodes() const noexcept { return nodes_; }

 private:
  // The other threads of a solve. Each has its own solver (its stack of
  // frames, history and node count) on the shared table; each question the
  // first thread asks (question()) they search too, until it is answered.
  class Crew {
   public:
    // The helpers start when the lead has searched help_after_nodes.
    Crew(Solver& lead, int helpers) : lead_(lead), wanted_(std::max(helpers, 0)) {
      if (wanted_ > 0) lead.waiting_crew_ = this;
      if (wanted_ > 0 && lead.limits_.help_after_nodes == 0) start();
    }
    Crew(const Crew&) = delete;
    Crew& operator=(const Crew&) = delete;
    ~Crew() { finish(); }

    // Starts the helpers on the lead's current question, if any.
    void start() {
      lead_.waiting_crew_ = nullptr;
      lead_.tt_->share();
      shared_ = true;
      busy_.emplace();
      SolveLimits own = lead_.limits_;
      own.stop = nullptr, own.progress = nullptr, own.poll = nullptr, own.max_seconds = 0, own.threads = 1;
      for (int k = 1; k <= wanted_; ++k)
        solvers_.push_back(std::unique_ptr<Solver>(new Solver(own, lead_.tt_, lead_.book_, this, k)));
      running_ = wanted_;
      lead_.grown_at_ = lead_.nodes_;
      for (auto& solver : solvers_) threads_.emplace_back([this, helper = solver.get()] { helper->help(*this); });
      lead_.crew_ = this;
      if (lead_.asking_) open(*lead_.asking_);
    }

    // Stops the helpers and returns the nodes they searched.
    std::uint64_t finish() {
      lead_.waiting_crew_ = nullptr;
      {
        std::lock_guard lock(mutex_);
        quit_ = true;
        generation_.fetch_add(1, std::memory_order_relaxed);
      }
      wake_.notify_all();
      for (auto& t : threads_) t.join();
      threads_.clear();
      if (shared_) lead_.tt_->unshare(), shared_ = false;
      lead_.crew_ = nullptr;
      std::uint64_t nodes = 0;
      for (auto& solver : solvers_) nodes += solver->nodes_;
      solvers_.clear();
      return nodes;
    }

    // Opens a question (a search of a position within a window) to the
    // helpers; close() withdraws it.
    void open(const auto& question) {
      {
        std::lock_guard lock(mutex_);
        question_.emplace(question);
        answered_.store(false, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_relaxed);
      }
      wake_.notify_all();
    }
    void close() {
      std::lock_guard lock(mutex_);
      question_.reset();
      answered_.store(false, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_relaxed);
    }
    // Withdraws the question and waits until no helper works on it (a
    // batch lives on the lead's stack).
    void close_and_wait() {
      close();
      std::unique_lock lock(mutex_);
      idle_changed_.wait(lock, [&] { return idle_ == running_; });
    }
    // Whichever thread finishes a question first answers it: a helper's
    // score (a search of the same position and window, as exact as the
    // lead's) is taken by the lead at its next check, instead of the lead
    // searching on to the end of its own walk while the helper waits.
    void post_answer(std::uint64_t asked, int score) {
      std::lock_guard lock(mutex_);
      if (!question_ || generation_.load(std::memory_order_relaxed) != asked) return;  // withdrawn meanwhile
      answer_ = score;
      answered_.store(true, std::memory_order_release);
    }
    bool answered() const noexcept { return answered_.load(std::memory_order_acquire); }
    int answer() const noexcept { return answer_; }
    bool asked_since(std::uint64_t generation) const noexcept {
      return generation_.load(std::memory_order_relaxed) != generation;
    }
    int threads() const noexcept { return static_cast<int>(solvers_.size()) + 1; }

    // Runs f while every helper waits outside the search, e.g. to grow the
    // shared table: the question is withdrawn from them, and given back
    // after (they search it again from the top, through what the table
    // kept).
    template <class F>
    void while_paused(F&& f) {
      std::unique_lock lock(mutex_);
      paused_ = true;
      generation_.fetch_add(1, std::memory_order_relaxed);
      idle_changed_.wait(lock, [&] { return idle_ == running_; });
      f();
      paused_ = false;
      generation_.fetch_add(1, std::memory_order_relaxed);
      lock.unlock();
      wake_.notify_all();
    }

    // The positions some thread is searching, by key.
    void enter(std::uint64_t key) noexcept { busy_->enter(key); }
    void leave(std::uint64_t key) noexcept { busy_->leave(key); }
    bool busy(std::uint64_t key) const noexcept { return busy_->busy(key); }

   private:
    friend class Solver;
    // A list of questions at once (Batch), shared out on a QuestionBoard:
    // each thread takes one nobody has taken, so that the threads search
    // different ones instead of one together; a thread with none left joins
    // one still being searched, and the first to end it answers it (the
    // others drop it).
    struct Batch;
    struct Question {
      G position;
      State state;
      int alpha, beta, depth;
      Batch* batch = nullptr;  // a batch of questions instead of this one
    };
    struct Batch {
      explicit Batch(std::vector<Question> asked) : questions(std::move(asked)), board(questions.size()) {}
      std::vector<Question> questions;
      QuestionBoard board;  // their scores
    };
    Solver& lead_;
    int wanted_;
    std::vector<std::unique_ptr<Solver>> solvers_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_changed_;
    std::optional<Question> question_;  // guarded by mutex_
    bool quit_ = false;                 // guarded by mutex_
    bool paused_ = false;               // guarded by mutex_
    bool shared_ = false;               // the table is shared: given back to one thread at the end
    int running_ = 0;                   // helpers not yet ended; guarded by mutex_
    int idle_ = 0;                      // helpers waiting for a question; guarded by mutex_
    std::atomic<std::uint64_t> generation_{0};  // changes whenever the question does
    std::atomic<bool> answered_{false};         // a helper answered the open question
    int answer_ = 0;                            // its score; written before answered_ is set
    // Made when the helpers start (half a MiB to zero: one thread, and a
    // solve that ends before the helpers start, never reads it).
    std::optional<BusyKeys> busy_;
  };

  // A helper of a solve: the shared table, and its place in the crew.
  Solver(const SolveLimits& limits, TranspositionTable* shared, const Book<G>* book, Crew* crew, int index)
      : limits_(limits), tt_(shared), book_(book), crew_(crew), helper_(index) {
    for (auto& h : history_) h.fill(0);
  }

  // A helper's life: each open question, searched until it is answered or
  // withdrawn, then the next.
  void help(Crew& crew) {
    std::uint64_t seen = 0;
    for (;;) {
      std::optional<typename Crew::Question> q;
      {
        std::unique_lock lock(crew.mutex_);
        ++crew.idle_;
        crew.idle_changed_.notify_all();
        crew.wake_.wait(lock, [&] {
          return crew.quit_ ||
                 (!crew.paused_ && crew.question_ && crew.generation_.load(std::memory_order_relaxed) != seen);
        });
        --crew.idle_;
        if (crew.quit_) {
          --crew.running_;
          return;
        }
        seen = crew.generation_.load(std::memory_order_relaxed);
        q = crew.question_;
      }
      asked_at_ = seen;
      try {
        if (q->batch) work_on(*q->batch);
        else crew.post_answer(seen, search(q->position, q->state, q->alpha, q->beta, q->depth));
      } catch (const Withdrawn&) {
      } catch (...) {
        // e.g. out of memory: this helper stops, the solve goes on without it
        std::lock_guard lock(crew.mutex_);
        --crew.running_;
        crew.idle_changed_.notify_all();
        return;
      }
    }
  }
  struct Withdrawn {};  // a helper's question was answered by the lead, or withdrawn
  struct Answered {};   // the lead's question was answered by a helper
  struct Dropped {};    // another thread answered the batch question this one was on

  // A thread's share of a batch: the questions nobody has taken, then
  // those still being searched, until every one is answered.
  void work_on(typename Crew::Batch& b) {
    Crew& crew = *crew_;
    for (;;) {
      // A withdrawn helper takes no more (a pause or the batch's end waits for it).
      if (helper_ && crew.asked_since(asked_at_)) return;
      const int i = b.board.take();
      if (i < 0) return;
      struct Leaving {
        Solver& self;
        QuestionBoard& board;
        int i;
        ~Leaving() {
          self.dropped_if_ = nullptr;
          board.leave(i);
        }
      } leaving{*this, b.board, i};
      dropped_if_ = &b.board.ended_flag(i);
      try {
        const auto& q = b.questions[static_cast<std::size_t>(i)];
        b.board.answer(i, search(q.position, q.state, q.alpha, q.beta, q.depth));
      } catch (const Dropped&) {
      }
    }
  }

  // A search the lead asks at the top of a phase (the value, the distance,
  // each root move), with the crew searching it too.
  int question(const G& g, const State& state, int alpha, int beta, int depth) {
    if (!crew_ && !waiting_crew_) return search(g, state, alpha, beta, depth);
    struct Asking {
      Solver& lead;
      ~Asking() {
        lead.asking_.reset();
        if (lead.crew_) lead.crew_->close();
      }
    } asking{*this};
    asking_.emplace(typename Crew::Question{g, state, alpha, beta, depth});
    if (crew_) crew_->open(*asking_);
    try {
      return search(g, state, alpha, beta, depth);
    } catch (const Answered&) {
      return crew_->answer();
    }
  }

  Solution solve_alone(const G& root) {
    Solution s;
    const State root_state = search_state_of(root);
    // Win, draw or loss first (cheap, null windows), then the exact distance.
    // Two null-window questions (can the mover win? can they avoid losing?)
    // are cheaper than one search with a window around the draw. A question
    // outside the window is not asked: its answer would be held to the window.
    const bool ask_win = limits_.upper > 0, ask_loss = limits_.lower < 0;
    int score = ask_win ? question(root, root_state, 0, 1, 0) : 0;
    if (score >= 1) {
      limits_.report_bounds(1, 1);
    } else {
      if (ask_win) limits_.report_bounds(-1, 0);
      if (!ask_loss) {
        score = 0;  // at least a draw is taken as given; held to the window
      } else if ((score = question(root, root_state, -1, 0, 0)) >= 0) {
        score = 0;
        limits_.report_bounds(0, ask_win ? 0 : 1);
      } else {
        limits_.report_bounds(-1, -1);
      }
    }
    s.value = limits_.held(sign(score));
    s.value_for_x = root.to_move() == Player::X ? s.value : -s.value;
    if (!limits_.weak) {
      score = exact_score(root, root_state, score);
      s.distance = score == 0 ? -1 : kWin - std::abs(score);
    }

    typename G::MoveList moves;
    root.legal_moves(moves);
    if (limits_.move_values) {
      const auto scores = child_scores(root, moves, limits_.lower, limits_.upper);
      for (int i = 0; i < moves.size(); ++i) {
        const int v = limits_.held(sign(scores[i]));
        s.move_values.push_back({moves[i], v});
        if (v == s.value) s.best_moves.push_back(moves[i]);
      }
    } else if (!limits_.weak && limits_.all_best_moves) {
      // Only "does this move keep the value?": one null window, far cheaper
      // than telling a draw from a loss for every other move. When lost,
      // every move keeps the value.
      const auto scores = s.value < 0 ? std::vector<int>{} : child_scores(root, moves, s.value - 1, s.value);
      for (int i = 0; i < moves.size(); ++i)
        if (s.value < 0 || scores[i] >= s.value) s.best_moves.push_back(moves[i]);
    }
    if (limits_.weak && !limits_.move_values) s.best_moves.push_back(one_best_move(root, moves, s.value));
    std::sort(s.best_moves.begin(), s.best_moves.end());
    std::sort(s.move_values.begin(), s.move_values.end(), [](auto& a, auto& b) { return a.move < b.move; });
    if (!limits_.weak) s.principal_variation = principal_variation(root, score);
    if (!limits_.weak && !limits_.all_best_moves && !limits_.move_values) s.best_moves = {s.principal_variation.front()};
    s.seconds = elapsed();
    return s;
  }

  static int sign(int v) noexcept { return (v > 0) - (v < 0); }

  // The exact score of a root whose value (the sign of `score`) is known.
  // Each question is a null window on the distance ("a win within m
  // plies?", "can the mover last m plies?"), and each answer's fail-soft
  // score moves one end of the range the distance is known to lie in. The
  // value search's score is a win (or a loss) it has found; but a question
  // that holds tends to return a result just past its bound, so walking
  // down from that end one question at a time takes many questions where
  // the answer is far from it, as with the quick wins of Connect Four's
  // beginning positions. So the questions halve the range while they hold
  // (a win within the middle? then within the middle of what is left ...),
  // and once one fails (the distance is past its middle, near the end
  // found) they walk down from that end: the questions just past the
  // answer are the dear ones, and halving would ask more of them. On
  // Connect Four's beginning positions this takes about a tenth fewer
  // nodes than walking from the end found alone.
  int exact_score(const G& root, const State& root_state, int score) {
    if (score == 0) return 0;
    if (score > 0) {
      // A win within hi plies is known, none within lo - 1.
      int lo = 1, hi = kWin - score;
      bool failed = false;
      while (lo < hi) {
        const int m = failed ? hi - 1 : (lo + hi - 1) / 2;  // "a win within m plies?"
        const int r = question(root, root_state, kWin - m - 1, kWin - m, 0);
        if (r >= kWin - m) {
          hi = kWin - r;
        } else {
          lo = std::max(m + 1, kWin - r);
          failed = true;
        }
      }
      limits_.report_depth(hi - 1);
      return kWin - hi;
    }
    // The mover loses within `most` plies and lasts at least `least`.
    int least = 1, most = kWin + score;
    bool held = false;
    while (least < most) {
      const int m = held ? most : (least + most + 1) / 2;  // "can the mover last m plies?"
      const int r = question(root, root_state, -(kWin - m) - 1, -(kWin - m), 0);
      if (r >= -(kWin - m)) {
        least = std::max(m, kWin + r);
        held = true;
      } else {
        most = std::min(m - 1, kWin + r);
      }
    }
    limits_.report_depth(most);
    return -(kWin - most);
  }

  // The score of each move of the root within (alpha, beta), as
  // child_score gives it. With helpers running, the moves are one batch:
  // the threads take different moves (below the root the moves' trees
  // share little, so one thread a move wastes less than all on each).
  std::vector<int> child_scores(const G& root, const typename G::MoveList& moves, int alpha, int beta) {
    std::vector<int> out(moves.size());
    if (!crew_ || moves.size() < 2) {
      for (int i = 0; i < moves.size(); ++i) out[i] = child_score(root, moves[i], alpha, beta);
      return out;
    }
    std::vector<typename Crew::Question> questions;
    std::vector<int> asked;  // the batch's question of each move, or -1 for a finished game
    const Player me = root.to_move();
    for (int i = 0; i < moves.size(); ++i) {
      G child = root;
      child.play(moves[i]);
      if (child.outcome().over()) {
        out[i] = terminal_score(child.outcome(), me);
        asked.push_back(-1);
        continue;
      }
      const bool same = child.to_move() == me;
      const State state = search_state_of(child);
      asked.push_back(static_cast<int>(questions.size()));
      questions.push_back({child, state, same ? younger(alpha) : -younger(beta), same ? younger(beta) : -younger(alpha), 1});
    }
    if (questions.size() < 2) {  // nothing to split
      for (int i = 0; i < moves.size(); ++i)
        if (asked[i] >= 0) out[i] = child_score(root, moves[i], alpha, beta);
      return out;
    }
    typename Crew::Batch batch(std::move(questions));
    {
      struct Closing {
        Crew& crew;
        ~Closing() { crew.close_and_wait(); }
      } closing{*crew_};
      crew_->open(typename Crew::Question{root, search_state_of(root), 0, 0, 0, &batch});
      work_on(batch);
    }
    for (int i = 0; i < moves.size(); ++i) {
      if (asked[i] < 0) continue;
      const auto q = static_cast<std::size_t>(asked[i]);
      const int score = batch.board.answers()[q];
      out[i] = batch.questions[q].position.to_move() == me ? older(score) : -older(score);
    }
    return out;
  }

  // Whether playing m keeps the root's value (+1, 0 or -1): one null window.
  bool keeps_value(const G& root, Move m, int value) { return child_score(root, m, value - 1, value) >= value; }

  // A move that keeps the value, for the weak solve: the table's move for
  // the root first (the value search nearly always leaves the move that
  // proved it), then the others in order. When lost (or at most the
  // window's lower end), every move keeps it.
  Move one_best_move(const G& root, const typename G::MoveList& moves, int value) {
    if (value <= limits_.lower) {
      if (const auto e = tt_->find(table_key(root)); e && std::find(moves.begin(), moves.end(), e->move) != moves.end())
        return e->move;
      return moves[0];
    }
    if (const auto e = tt_->find(table_key(root)); e && std::find(moves.begin(), moves.end(), e->move) != moves.end())
      if (keeps_value(root, e->move, value)) return e->move;
    for (Move m : moves)
      if (keeps_value(root, m, value)) return m;
    return moves[0];  // not reached: a move keeps the value
  }
  // A game's ordering hint, held to its documented range 0 .. 2^14 - 1.
  static int clamp_hint(int h) noexcept { return std::clamp(h, 0, (1 << 14) - 1); }
  // A child's score seen one ply further up: the distance grows by one.
  static int older(int s) noexcept { return s - sign(s); }
  static int younger(int s) noexcept { return s + sign(s); }

  static int terminal_score(const Outcome& o, Player mover) noexcept {
    const auto w = o.winner();
    if (!w) return 0;
    return *w == mover ? kWin - 1 : -(kWin - 1);  // decided by the move just made: distance 1
  }

  // The score, for the player to move at `g`, of playing m, searched within (alpha, beta).
  int child_score(const G& g, Move m, int alpha, int beta) {
    G child = g;
    child.play(m);
    const Player me = g.to_move();
    if (child.outcome().over()) return terminal_score(child.outcome(), me);
    const State state = search_state_of(child);
    if (child.to_move() == me) return older(question(child, state, younger(alpha), younger(beta), 1));
    return -older(question(child, state, -younger(beta), -younger(alpha), 1));
  }
  int score_of_child(const G& g, const G& child, const State& child_state, int alpha, int beta, int depth) {
    const Player me = g.to_move();
    if (child.outcome().over()) return terminal_score(child.outcome(), me);
    if (child.to_move() == me) return older(search(child, child_state, younger(alpha), younger(beta), depth + 1));
    return -older(search(child, child_state, -younger(beta), -younger(alpha), depth + 1));
  }

  // The children of the node at `depth` live in frames_[depth]: reserved
  // once, so the search allocates nothing per node and keeps big games'
  // children off the (possibly small) thread stack.
  std::vector<G>& frame(int depth) {
    while (static_cast<int>(frames_.size()) <= depth) {
      frames_.emplace_back();
      frames_.back().reserve(G::kMaxActions);
    }
    return frames_[depth];
  }

  // The table's key of a position (hooks.hpp's canonical_key, the same one
  // proof-number search uses); without a search state at hand, from scratch.
  std::uint64_t table_key(const G& g, const State& s) const noexcept { return canonical_key(g, s, limits_.symmetry); }
  std::uint64_t table_key(const G& g) const noexcept { return table_key(g, search_state_of(g)); }

  double elapsed() const { return SolveLimits::seconds_since(start_); }
  void check_limits() {
    if (dropped_if_ && dropped_if_->load(std::memory_order_relaxed)) throw Dropped{};
    if (helper_ && crew_->asked_since(asked_at_)) throw Withdrawn{};
    if (crew_ && !helper_ && crew_->answered()) throw Answered{};
    if (waiting_crew_ && nodes_ >= limits_.help_after_nodes && tt_->knows_its_search()) waiting_crew_->start();
    // A shared table grows while the helpers wait; their stores are counted
    // as the lead's, one thread's worth each.
    if (crew_ && !helper_ && tt_->growth_due((nodes_ - grown_at_) * static_cast<std::uint64_t>(crew_->threads()))) {
      crew_->while_paused([&] { tt_->grow(); });
      grown_at_ = nodes_;
    }
    limits_.check(nodes_, start_);
  }

  // Fail-soft negamax on a position that is not over, given its search state.
  int search(const G& g, const State& state, int alpha, int beta, int depth) {
    if ((++nodes_ & 4095) == 0) check_limits();
    const std::uint64_t nodes_before = nodes_;
    const Player me = g.to_move();
    const int alpha0 = alpha, beta0 = beta;

    // No result can beat winning with this very move.
    if (alpha >= kWin - 1) return kWin - 1;
    beta = std::min(beta, kWin - 1);
    typename G::MoveList moves;
    std::array<int, G::kMaxActions> hints;  // the game's ordering hint per move, with the tactics hook
    int best = -kWin, best_move = TranspositionTable::kNoMove;
    // A player who can no longer win can at best draw.
    auto bound_by_who_can_win = [&](bool i_can, bool they_can) {
      if (!i_can && !they_can) return true;
      if (!i_can) {
        if (alpha >= 0) return true;
        beta = std::min(beta, 0);
      }
      if (!they_can) {
        if (beta <= 0) return true;
        alpha = std::max(alpha, 0);
      }
      return false;
    };
    const std::uint64_t key = table_key(g, state);
    if constexpr (HasTactics<G>) {
      // The game settles what it can see at once, while the table's bucket
      // is on its way from memory.
      tt_->prefetch(key);
      const Tactics t = g.tactics(moves, hints.data(), state);
      if (bound_by_who_can_win(t.mover_can_win, t.opponent_can_win)) return 0;
      switch (t.kind) {
        case Tactics::WinNow: return kWin - 1;
        case Tactics::LossNow: return -(kWin - 1);
        case Tactics::LossNext: return -(kWin - 2);
        case Tactics::Search: break;
      }
      // Mate-distance pruning with what the game knows of the next plies.
      const int top = kWin - t.fastest_win, bottom = -(kWin - t.fastest_loss);
      if (alpha >= top) return top;
      if (beta <= bottom) return bottom;
      beta = std::min(beta, top);
      // A result known to come within as many plies as it comes at the
      // soonest comes exactly then.
      if (t.loses_within) {
        const int latest_loss = -(kWin - t.loses_within);
        if (alpha >= latest_loss || t.loses_within <= t.fastest_loss) return latest_loss;
        beta = std::min(beta, latest_loss);
      }
      if (t.wins_within) {
        const int latest_win = std::min(top, kWin - t.wins_within);
        if (beta <= latest_win || t.wins_within <= t.fastest_win) return latest_win;
        alpha = std::max(alpha, latest_win);
      }
      if (t.dropped) best = -(kWin - t.dropped), best_move = t.dropped_move;
    } else {
      // The same overlap with what comes before the probe: the dead-line
      // test and the move list.
      tt_->prefetch(key);
      if constexpr (HasCanStillWin<G>) {
        if (bound_by_who_can_win(g.can_still_win(me), g.can_still_win(opponent(me)))) return 0;
      }
      g.legal_moves(moves);
    }

    // A position of the book: its exact score, whatever the window (the
    // book's key is the table's with symmetry on).
    if (book_ && book_->holds_ply(g.ply()))
      if (const auto e = book_->find_key(limits_.symmetry ? key : canonical_key(g, state, true)))
        return e->value == 0 ? 0 : e->value * (kWin - e->distance);

    // Near the root, with other threads, this position is marked as being
    // searched while it is (see the move loop).
    const bool sharing =
        crew_ && (depth < kSharedDepth || (depth < kNarrowSharedDepth && moves.size() <= kNarrowMoves));
    struct Searching {
      Crew* crew;
      std::uint64_t key;
      ~Searching() {
        if (crew) crew->leave(key);
      }
    } searching{sharing ? crew_ : nullptr, key};
    if (sharing) crew_->enter(key);

    int tt_move = TranspositionTable::kNoMove;
    if (const auto e = tt_->find(key)) {
      if (e->lower >= beta) return e->lower;
      if (e->upper <= alpha) return e->upper;
      if (e->lower == e->upper) return e->lower;
      alpha = std::max<int>(alpha, e->lower);
      beta = std::min<int>(beta, e->upper);
      tt_move = e->move;
    }
    if constexpr (HasOrderHints<G>) g.order_hints(moves, hints.data(), state);

    // Without the hook, every move is played once here: immediate wins end
    // the search, and moves after which the opponent wins at once are
    // losses that need no search. The rest are searched from these copies.
    std::vector<G>* children = nullptr;  // the copies, without the hook
    std::array<int, G::kMaxActions> order;  // not zeroed: only [0, open) is read
    std::array<int, G::kMaxActions> rank;
    int open = 0;
    auto rank_of = [&](int i) {
      // The table's move first; then, with the tactics hook, the game's
      // hint alone (history only adds nodes to a search ordered by the
      // hints); without it, history.
      const Move m = moves[i];
      if (m == tt_move) return std::numeric_limits<int>::max();
      if constexpr (HasTactics<G>) return clamp_hint(hints[i]) << 16;
      return std::min(history_[static_cast<int>(me)][m], 0xffff);
    };
    if constexpr (HasTactics<G>) {
      open = moves.size();  // ranked below, after the first move's search
    } else {
      children = &frame(depth);
      children->clear();
      const bool test_threats = threats_possible(g);
      for (int i = 0; i < moves.size(); ++i) {
        children->push_back(g);
        (*children)[i].play(moves[i]);
        const G& c = (*children)[i];
        int known;
        bool is_known = true;
        if (c.outcome().over()) {
          known = terminal_score(c.outcome(), me);
          if (known == kWin - 1) {
            store(key, -kWin, kWin, known, moves[i], nodes_before);  // exact: nothing beats it
            return known;
          }
        } else if (test_threats && lets_opponent_win_now(c, me)) {
          known = -(kWin - 2);
        } else {
          is_known = false;
        }
        if (is_known) {
          if (known > best) best = known, best_move = moves[i];
        } else {
          order[open] = i, rank[open] = rank_of(i), ++open;
        }
      }
    }
    if (best > alpha) alpha = best;
    if (alpha >= beta) {
      store(key, alpha0, beta0, best, best_move, nodes_before);
      return best;
    }
    // Best rank first, picked lazily: most nodes are cut by their first or
    // second move, so sorting the whole list would be wasted work.
    auto pick = [&](int j) {
      // Rank and position packed in one key (the earlier position wins a
      // tie), so the scan is a branch-free max: a compare branch there
      // mispredicts.
      auto packed = [&](int i) { return std::uint64_t{static_cast<std::uint32_t>(rank[i])} << 32 | static_cast<std::uint32_t>(~i); };
      std::uint64_t top = packed(j);
      for (int i = j + 1; i < open; ++i) top = std::max(top, packed(i));
      const int t = ~static_cast<int>(static_cast<std::uint32_t>(top));
      std::swap(order[j], order[t]);
      std::swap(rank[j], rank[t]);
      return order[j];
    };
    // The child after moves[i]: played now with the hook, else the copy
    // made above (read through the buffer, not the vector: deeper calls may
    // grow frames_ and move the vector objects, not their buffers).
    const G* kids = children ? children->data() : nullptr;
    std::optional<G> scratch;  // the child being searched, with the hook
    auto child = [&](int i) -> const G& {
      if constexpr (HasTactics<G>) {
        scratch.emplace(g);
        scratch->play(moves[i]);
        return *scratch;
      } else {
        return kids[i];
      }
    };
    // Searches move i and keeps the best; true when the node is cut off.
    auto try_move = [&](int i) NOUGHTS_ALWAYS_INLINE {
      const int v = score_of_child(g, child(i), noughts::search_state_after(g, state, moves[i]), alpha, beta, depth);
      if (v > best) {
        best = v;
        best_move = moves[i];
        if (v > alpha) alpha = v;
      }
      return alpha >= beta;
    };
    if constexpr (HasTactics<G>) {
      // Nine in ten nodes that search are cut by their first move. Away from
      // the root (where the cutoffs below want every child ranked), that move
      // is found by one branch-free max over the hints and searched before
      // the others are ranked at all.
      int first = -1;
      if (depth >= kEtcDepth && open > 0) {
        std::uint64_t top = 0;
        for (int i = 0; i < open; ++i)
          top = std::max(top, std::uint64_t{static_cast<std::uint32_t>(clamp_hint(hints[i]))} << 32 |
                                  static_cast<std::uint32_t>(~i));
        first = ~static_cast<int>(static_cast<std::uint32_t>(top));
        if (tt_move != TranspositionTable::kNoMove)  // rare: the table's move goes first
          for (int i = 0; i < open; ++i) first = moves[i] == tt_move ? i : first;
        if (try_move(first)) {
          store(key, alpha0, beta0, best, best_move, nodes_before);
          return best;
        }
      }
      int ranked = 0;
      for (int i = 0; i < open; ++i)
        if (i != first) order[ranked] = i, rank[ranked] = rank_of(i), ++ranked;
      open = ranked;
    }
    // Enhanced transposition cutoff: a child already in the table may refute
    // this node before any child is searched. Worth its keys only where
    // subtrees are big, near the root.
    if (depth < kEtcDepth) {
      for (int j = 0; j < open; ++j) {
        const G& c = child(order[j]);
        if (c.outcome().over()) continue;
        const auto e = tt_->find(table_key(c, noughts::search_state_after(g, state, moves[order[j]])));
        if (!e) continue;
        // The child's upper bound, seen from here, is a lower bound on this node.
        const int from_here = c.to_move() == me ? older(e->lower) : -older(e->upper);
        if (from_here >= beta) {
          store(key, alpha0, beta0, from_here, moves[order[j]], nodes_before);
          return from_here;
        }
      }
    }
    // With other threads, near the root (where subtrees are big), a move
    // whose position another thread is searching waits until the others
    // are searched (as in ABDADA): the threads spread over the moves, and
    // by the time it comes back, its value is often in the table. A node's
    // first move is never put off: it sets the bound the others are
    // searched in.
    int deferred[G::kMaxActions];
    int waiting = 0;
    bool cut = false;
    for (int j = 0; j < open && !cut; ++j) {
      const int i = pick(j);
      if (sharing && j > 0) {
        const G& c = child(i);
        if (!c.outcome().over() && crew_->busy(table_key(c, noughts::search_state_after(g, state, moves[i])))) {
          deferred[waiting++] = i;
          continue;
        }
      }
      if (try_move(i)) {
        if constexpr (!HasTactics<G>) history_[static_cast<int>(me)][moves[i]] += 1 + (open - j);
        cut = true;
      }
    }
    for (int k = 0; k < waiting && !cut; ++k) cut = try_move(deferred[k]);
    store(key, alpha0, beta0, best, best_move, nodes_before);
    return best;
  }

  void store(std::uint64_t key, int alpha0, int beta0, int v, int move, std::uint64_t nodes_before) {
    const int lower = v >= beta0 ? v : (v > alpha0 ? v : -kWin);
    const int upper = v <= alpha0 ? v : (v < beta0 ? v : kWin);
    const int work = std::bit_width(nodes_ - nodes_before + 1);
    tt_->store(key, lower, upper, move, work);
  }

  // Best play to the end: at each step a move that keeps the exact score.
  // The table's best move for the position is tried first: it nearly always
  // keeps the score, and a move that does not costs a whole refutation.
  std::vector<Move> principal_variation(G g, int score) {
    std::vector<Move> pv;
    while (!g.outcome().over()) {
      if (book_) {  // a book position's line of best play ends the variation
        const auto line = book_->line(g);
        if (!line.empty()) {
          pv.insert(pv.end(), line.begin(), line.end());
          break;
        }
      }
      typename G::MoveList legal;
      g.legal_moves(legal);
      std::vector<Move> moves(legal.begin(), legal.end());
      if (const auto e = tt_->find(table_key(g)); e && e->move != TranspositionTable::kNoMove) {
        if (auto it = std::find(moves.begin(), moves.end(), e->move); it != moves.end()) std::rotate(moves.begin(), it, it + 1);
      }
      Move chosen = -1;
      int chosen_score = -kWin - 1;
      for (Move m : moves) {
        // A null window just below the target tells whether m reaches it.
        const int v = child_score(g, m, score - 1, score);
        if (v >= score) {
          chosen = m;
          break;
        }
        if (v > chosen_score) chosen = m, chosen_score = v;  // never taken when the score is exact
      }
      if (chosen < 0) break;  // not reached: a position that is not over has moves
      G next = g;
      next.play(chosen);
      if (!next.outcome().over()) score = next.to_move() == g.to_move() ? younger(score) : -younger(score);
      pv.push_back(chosen);
      g = next;
    }
    return pv;
  }

  SolveLimits limits_;
  std::unique_ptr<TranspositionTable> owned_tt_;  // the lead's own; none for helpers or on a kept table
  TranspositionTable* tt_;
  const Book<G>* book_ = nullptr;
  Crew* crew_ = nullptr;  // the lead's helpers, or a helper's crew
  Crew* waiting_crew_ = nullptr;  // the lead's helpers before they start
  std::optional<typename Crew::Question> asking_;  // the lead's current question
  const std::atomic<bool>* dropped_if_ = nullptr;  // the batch question this thread is on: answered
  int helper_ = 0;        // 0 the lead; k > 0 the k-th helper
  std::uint64_t asked_at_ = 0;  // a helper's question's generation
  std::uint64_t grown_at_ = 0;  // the lead's nodes when the shared table last grew
  std::array<std::array<int, G::kMaxActions>, 2> history_;
  std::vector<std::vector<G>> frames_;
  std::uint64_t nodes_ = 0;
  std::chrono::steady_clock::time_point start_;
};

template <Game G>
Solution solve(const G& position, const SolveLimits& limits = {}, const Book<G>* book = nullptr) {
  Solver<G> solver(limits, book);
  return solver.solve(position);
}
// The same on a table kept from one solve to the next (see Solver's constructor).
template <Game G>
Solution solve(const G& position, const SolveLimits& limits, const std::type_identity_t<Book<G>>* book,
               TranspositionTable& table) {
  Solver<G> solver(limits, table, book);
  return solver.solve(position);
}

}  // namespace noughts

#undef NOUGHTS_ALWAYS_INLINE  // a helper for this header only
