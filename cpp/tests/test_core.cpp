// C++ tests of the core, run by ctest: the published perft counts and the
// solver's known values, through the same templates Python uses.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "noughts/board3.hpp"
#include "noughts/classic.hpp"
#include "noughts/history.hpp"
#include "noughts/hot_clones.hpp"
#include "noughts/observation.hpp"
#include "noughts/quantum.hpp"
#include "noughts/search/book.hpp"
#include "noughts/search/book_text.hpp"
#include "noughts/search/perft.hpp"
#include "noughts/search/playout.hpp"
#include "noughts/search/proof_number.hpp"
#include "noughts/search/mcts.hpp"
#include "noughts/search/solver.hpp"
#include "noughts/search/transposition_table.hpp"
#include "noughts/search/zeroed_table.hpp"
#include "noughts/ultimate.hpp"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++failures;
}

template <class G>
void check_perft(const G& g, const char* name, std::initializer_list<unsigned long long> counts) {
  int depth = 1;
  for (auto expected : counts) {
    const auto got = noughts::perft(g, depth);
    check(got == expected, std::string(name) + " perft(" + std::to_string(depth) + ") = " + std::to_string(got));
    ++depth;
  }
}

// A game offering only the game concept: the solver's plain path, without
// the game's search state and tactics.
template <class G>
struct Plain {
  static constexpr int kMaxActions = G::kMaxActions;
  using MoveList = typename G::MoveList;
  G g;
  void legal_moves(MoveList& moves) const noexcept { g.legal_moves(moves); }
  void play(noughts::Move m) noexcept { g.play(m); }
  noughts::Outcome outcome() const noexcept { return g.outcome(); }
  noughts::Player to_move() const noexcept { return g.to_move(); }
  int ply() const noexcept { return g.ply(); }
  std::uint64_t hash() const noexcept { return g.hash(); }
  int num_symmetries() const noexcept { return g.num_symmetries(); }
  Plain symmetric(int s) const noexcept { return {g.symmetric(s)}; }
  friend bool operator==(const Plain&, const Plain&) = default;
};
static_assert(noughts::HasTactics<noughts::Quantum> && !noughts::HasTactics<Plain<noughts::Quantum>> &&
              !noughts::HasSearchState<Plain<noughts::Quantum>> && !noughts::HasCanonicalHash<Plain<noughts::Quantum>>);
static_assert(noughts::HasTactics<noughts::Classic> && !noughts::HasTactics<Plain<noughts::Classic>> &&
              !noughts::HasSearchState<Plain<noughts::Classic>> && !noughts::HasCanonicalHash<Plain<noughts::Classic>>);

// A 4x4 Classic position after `moves` random moves, with the options the
// number `game` picks (misère, free choice, gravity: every combination in
// eight games) and k=3 below game `k3_below`, else k=4.
noughts::Classic random_small_classic(int game, int k3_below, int moves, noughts::Rng& rng) {
  noughts::Classic c(noughts::ClassicOptions{4, 4, game < k3_below ? 3 : 4, game % 2 == 1, game % 4 >= 2, game % 8 >= 4});
  for (int i = 0; i < moves && !c.outcome().over(); ++i) {
    noughts::Classic::MoveList list{};
    c.legal_moves(list);
    c.play(list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))]);
  }
  return c;
}

// The same multiply-add compiled as a hot function (on x86-64 Linux, an AVX2
// clone with fused multiply-add instructions at hand) and as plain code: the
// build must round both alike, or seeded searches differ between CPUs.
NOUGHTS_HOT_CLONES [[gnu::noinline]] float multiply_add_hot(float a, float b, float c) { return a * b + c; }
[[gnu::noinline]] float multiply_add_plain(float a, float b, float c) { return a * b + c; }

// Random games on a Classic board, with the tactics of each position:
// `games` games, each position's tactics handed to visit(g, t, moves,
// hints), which checks what it will and returns the move to play next (-1
// ends the game there).
template <class Visit>
void walk_tactics(const noughts::ClassicOptions& o, int games, Visit&& visit) {
  for (int game = 0; game < games; ++game) {
    noughts::Classic g(o);
    while (!g.outcome().over()) {
      noughts::Classic::MoveList moves{};
      std::array<int, noughts::Classic::kMaxActions> hints{};
      const noughts::Tactics t = g.tactics(moves, hints.data(), g.search_state());
      const noughts::Move m = visit(std::as_const(g), t, std::as_const(moves), std::as_const(hints));
      if (m < 0) break;
      g.play(m);
    }
  }
}

// A random move among those the tactics list (any legal move where they
// list none), so that games last.
noughts::Move listed_move(const noughts::Classic& g, const noughts::Tactics& t, const noughts::Classic::MoveList& moves,
                          noughts::Rng& rng) {
  noughts::Classic::MoveList legal{};
  g.legal_moves(legal);
  const auto& from = t.kind == noughts::Tactics::Search && moves.size() ? moves : legal;
  return from[static_cast<int>(rng.below(static_cast<std::uint32_t>(from.size())))];
}

}  // namespace

int main() {
  using namespace noughts;
  check_perft(Classic(), "3x3", {9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872});
  check_perft(Classic(ClassicOptions{4, 4, 4}), "4x4 k=4", {16, 240, 3360, 43680});
  check_perft(Ultimate(), "ultimate", {81, 720, 6336, 55080, 473256});

  check(solve(Classic()).value_for_x == 0, "3x3 is a draw");
  check(solve(Classic(ClassicOptions{4, 4, 3})).value_for_x == 1, "4x4 k=3 is a win for X");
  check(solve(Classic(ClassicOptions{4, 4, 4})).value_for_x == 0, "4x4 k=4 is a draw");
  check(solve(Classic(ClassicOptions{3, 3, 3, false, true})).value_for_x == 1, "3x3 free choice is a win for X");
  check(solve(Classic(ClassicOptions{4, 6, 4, false, false, true})).value_for_x == -1,
        "gravity 6 columns x 4 rows k=4 is a win for O");

  // An opening book: its scores are taken instead of searched, and a bad
  // entry is refused. A book of 4x4 k=3 gravity's positions 2 plies in, each
  // scored by a solve without it, gives the start's solution by the book.
  {
    const Classic start(ClassicOptions{4, 4, 3, false, false, true});
    Book<Classic> book(start), draws(start);
    Classic::MoveList first;
    start.legal_moves(first);
    // f(a, b, position) for each position two plies in.
    const auto two_plies = [&](auto f) {
      Classic::MoveList second;
      for (Move a : first) {
        Classic one = start;
        one.play(a);
        one.legal_moves(second);
        for (Move b : second) {
          Classic two = one;
          two.play(b);
          f(a, b, two);
        }
      }
    };
    two_plies([&](Move, Move, const Classic& two) {
      const Solution s = solve(two);
      book.add(two, s.value, s.value ? s.distance : 0, s.principal_variation);
      draws.add(two, 0, 0);
    });
    const Solution plain = solve(start), booked = solve(start, {}, &book);
    check(booked.value == plain.value && booked.distance == plain.distance && booked.best_moves == plain.best_moves,
          "a book gives the solution of a search without it");
    check(booked.nodes < plain.nodes, "a book spares the search below its positions");
    Classic at_book = start;
    at_book.play(booked.principal_variation[0]), at_book.play(booked.principal_variation[1]);
    const auto line = book.line(at_book);
    check(!line.empty() && std::equal(line.begin(), line.end(), booked.principal_variation.begin() + 2,
                                      booked.principal_variation.end()),
          "the principal variation ends with the book's line");
    // A false book (every position two plies in a draw, though X wins) is
    // taken as it is, by the helpers of a parallel solve too.
    SolveLimits two_threads;
    two_threads.threads = 2;
    two_threads.help_after_nodes = 0;
    const Solution drawn = solve(start, two_threads, &draws);
    check(plain.value == 1 && drawn.value == 0 && drawn.distance == -1, "a book's scores are taken, not searched");
    Classic two = start;
    two.play(first[0]), two.play(first[0]);
    auto refused = [&](auto add) {
      try {
        add();
      } catch (const InvalidOptionError&) {
        return true;
      }
      return false;
    };
    check(refused([&] { book.add(two, 2, 5); }) && refused([&] { book.add(two, 1, 0); }) &&
              refused([&] { book.add(two, book.find(two)->value == 1 ? -1 : 1, 5); }) &&
              refused([&] { book.add(Classic(ClassicOptions{4, 4, 3}), 1, 5); }),
          "a book refuses bad values, other scores for a position it holds, and other rules");

    // The same book written as a book file's text and read back: the same
    // scores and lines; a bad line is named by its number.
    std::string text = "# a header line\n\n";
    two_plies([&](Move a, Move b, const Classic& two) {
      const auto e = book.find(two);
      text += start.move_name(a) + " " + start.move_name(b) + " " + std::to_string(e->value) + " " +
              std::to_string(e->distance) + " :";
      for (Move m : book.line(two)) text += " " + start.move_name(m);
      text += "\r\n";
    });
    Book<Classic> read(start);
    add_book_text(read, text);
    const Solution by_text = solve(start, {}, &read);
    check(read.size() == book.size() && by_text.value == booked.value && by_text.distance == booked.distance &&
              by_text.principal_variation == booked.principal_variation,
          "a book read from its text gives the same solve and line");
    const auto names_line = [&](const std::string& bad, const std::string& says) {
      Book<Classic> b(start);
      try {
        add_book_text(b, "# header\na b 0 0\n" + bad + "\n");
      } catch (const InvalidOptionError& e) {
        return std::string(e.what()).starts_with("line 3: ") && std::string(e.what()).find(says) != std::string::npos;
      }
      return false;
    };
    check(names_line("a z 0 0", "'z'") && names_line("a a a a a 1 5", "not legal") &&
              names_line("a b one 5", "whole numbers") && names_line("a b 1 5 : a", "does not end the game"),
          "a bad line of a book's text is named by its number");
  }

  // A table kept from one solve to the next (two threads on it, then one):
  // the same answers as fresh solves, and a position asked again is answered
  // from what the table kept.
  {
    TranspositionTable kept(std::size_t{16} << 20);
    Classic g(ClassicOptions{6, 7, 4, false, false, true});
    for (Move m : {3, 3, 3, 2, 2, 4, 1, 5}) g.play(m);
    SolveLimits two_threads;
    two_threads.threads = 2;
    const Solution fresh = solve(g), first = solve(g, two_threads, nullptr, kept),
                   again = solve(g, {}, nullptr, kept);
    Classic next = g;
    next.play(fresh.principal_variation[0]);
    const Solution next_fresh = solve(next), next_kept = solve(next, {}, nullptr, kept);
    check(first.value == fresh.value && first.distance == fresh.distance && first.best_moves == fresh.best_moves &&
              again.value == fresh.value && again.distance == fresh.distance && again.best_moves == fresh.best_moves &&
              next_kept.value == next_fresh.value && next_kept.distance == next_fresh.distance,
          "solves on a kept table give the answers of fresh ones");
    check(again.nodes * 10 < fresh.nodes && next_kept.nodes < next_fresh.nodes,
          "a kept table answers a position asked again, and the next one, with fewer nodes");

    // Saved and loaded (into a large budget and into a small one), the
    // table answers as it did; a cut or damaged file is refused.
    std::stringstream file;
    kept.save(file);
    const std::string bytes = file.str();
    bool same = true;
    for (std::size_t budget : {std::size_t{16} << 20, std::size_t{64} << 10}) {
      TranspositionTable loaded(budget);
      loaded.store(0x5eed, 0, 0, TranspositionTable::kNoMove, 1);  // replaced by the file's contents
      std::stringstream in(bytes);
      loaded.load(in);
      same = same && !loaded.find(0x5eed);
      const Solution from_file = solve(g, {}, nullptr, loaded);
      same = same && from_file.value == fresh.value && from_file.distance == fresh.distance &&
             from_file.best_moves == fresh.best_moves && (budget < (std::size_t{1} << 20) || from_file.nodes * 10 < fresh.nodes);
    }
    auto refused = [](std::string damaged) {
      TranspositionTable t(std::size_t{1} << 20);
      std::stringstream in(damaged);
      try {
        t.load(in);
      } catch (const InvalidOptionError&) {
        return true;
      }
      return false;
    };
    std::string flipped = bytes;
    flipped[bytes.size() / 2] ^= 4;
    check(same && refused(bytes.substr(0, bytes.size() - 3)) && refused(flipped) && refused("not a table"),
          "a saved table answers as the kept one did; a cut or damaged one is refused");
  }

  // SolveLimits::poll is called now and then by the solving thread only (not
  // by a parallel solve's helpers), and a stop it sets ends the search, in
  // alpha-beta and in proof-number search.
  {
    // Whether `run(limits)` ends by a stop that the third poll sets, with
    // every poll on the calling thread.
    auto stopped_by_poll = [](int threads, auto run) {
      std::atomic<bool> stop{false};
      int polls = 0;
      const auto caller = std::this_thread::get_id();
      bool same_thread = true;
      SolveLimits limits;
      limits.threads = threads;
      limits.help_after_nodes = 0;
      limits.stop = &stop;
      limits.max_seconds = 60;  // without polls the solve would not end: fail instead
      limits.poll = [&] {
        same_thread = same_thread && std::this_thread::get_id() == caller;
        if (++polls == 3) stop = true;
      };
      bool stopped = false;
      try {
        run(limits);
      } catch (const SearchStopped&) {
        stopped = true;
      }
      return stopped && polls == 3 && same_thread;
    };
    const Classic big(ClassicOptions{8, 8, 5});
    for (int threads : {1, 2})
      check(stopped_by_poll(threads, [&](const SolveLimits& l) { solve(big, l); }),
            "a stop set by SolveLimits::poll ends the solve on the next check (" + std::to_string(threads) + " threads)");
    for (int threads : {1, 2})
      check(stopped_by_poll(threads, [&](const SolveLimits& l) { solve_proof_number(big, l); }),
            "a stop set by SolveLimits::poll ends the proof-number search on the next check (" +
                std::to_string(threads) + " threads)");
  }

  // Proof-number search with threads (its questions dealt out to them, one
  // table) proves what one thread proves: the value, every best move, each
  // move's value, and a principal variation that keeps the value to the
  // end; weak, the value and a move that keeps it. Run a few times over, as
  // which thread proves what first changes from run to run.
  {
    Rng rng(43);
    bool same = true;
    int positions = 0;
    auto agree = [&](const auto& g) {
      SolveLimits values;
      values.move_values = true;
      const Solution one = solve_proof_number(g), one_values = solve_proof_number(g, values);
      for (int threads : {2, 3}) {
        SolveLimits limits;
        limits.threads = threads;
        limits.tt_bytes = std::size_t{4} << 20;
        const Solution many = solve_proof_number(g, limits);
        same = same && many.value == one.value && many.best_moves == one.best_moves && many.nodes > 0;
        auto end = g;
        for (Move m : many.principal_variation) end.play(m);
        const auto w = end.outcome().winner();
        const int for_x = !w ? 0 : *w == Player::X ? 1 : -1;
        same = same && end.outcome().over() && for_x == one.value_for_x;
        limits.move_values = true;
        const Solution values_many = solve_proof_number(g, limits);
        same = same && values_many.move_values.size() == one_values.move_values.size();
        for (std::size_t i = 0; same && i < values_many.move_values.size(); ++i)
          same = values_many.move_values[i].move == one_values.move_values[i].move &&
                 values_many.move_values[i].value == one_values.move_values[i].value;
        limits.move_values = false;
        const Solution weak = solve_proof_number(g, limits, /*weak=*/true);
        same = same && weak.value == one.value && weak.best_moves.size() == 1 &&
               std::ranges::find(one.best_moves, weak.best_moves[0]) != one.best_moves.end();
      }
      ++positions;
    };
    for (int round = 0; round < 3; ++round) {
      for (int game = 0; game < 12; ++game) {
        Ultimate u(game % 4 == 3);
        while (u.ply() < 44 + game % 8 && !u.outcome().over()) u.play_random(rng);
        if (!u.outcome().over()) agree(u);
      }
      for (int game = 0; game < 12; ++game) {
        const Classic c = random_small_classic(game, 6, 3 + game % 3, rng);
        if (!c.outcome().over()) agree(c);
      }
    }
    agree(Quantum());
    check(same && positions > 50, "proof-number search with threads proves one thread's values, best moves and lines (" +
                                      std::to_string(positions) + " positions)");
  }
  // A weak solve within a window gives the value held to it, from both
  // searches and any number of threads; a strong solve or a window out of
  // range is refused.
  {
    Rng rng(47);
    bool held = true;
    int positions = 0;
    for (int game = 0; game < 24; ++game) {
      const Classic c = random_small_classic(game, 6, 3 + game % 3, rng);
      if (c.outcome().over()) continue;
      SolveLimits full;
      full.weak = true;
      const int value = solve(c, full).value;
      for (auto [lower, upper] : {std::pair{0, 1}, std::pair{-1, 0}})
        for (int threads : {1, 2}) {
          SolveLimits limits = full;
          limits.lower = lower;
          limits.upper = upper;
          limits.threads = threads;
          const int want = std::clamp(value, lower, upper);
          held = held && solve(c, limits).value == want && solve_proof_number(c, limits, true).value == want;
        }
      ++positions;
    }
    check(held && positions > 10, "a weak solve within a window holds the value to it (" +
                                      std::to_string(positions) + " positions, both searches)");
    auto refused = [](auto&& run) {
      try {
        run();
      } catch (const InvalidOptionError&) {
        return true;
      }
      return false;
    };
    SolveLimits narrow;
    narrow.lower = 0;
    SolveLimits wrong;
    wrong.weak = true;
    wrong.lower = wrong.upper = 0;
    const Classic start(ClassicOptions{3, 3, 3});
    check(refused([&] { solve(start, narrow); }) && refused([&] { solve_proof_number(start, narrow); }) &&
              refused([&] { solve(start, wrong); }) && refused([&] { solve_proof_number(start, wrong, true); }),
          "a window needs a weak solve and lower < upper within -1..1");
  }
  // A time limit ends every thread of a proof-number search, and the
  // solve reports it with the nodes of them all.
  {
    SolveLimits limits;
    limits.threads = 2;
    limits.max_seconds = 0.2;
    limits.tt_bytes = std::size_t{8} << 20;
    bool stopped = false;
    std::uint64_t nodes = 0;
    const auto started = std::chrono::steady_clock::now();
    try {
      solve_proof_number(Classic(ClassicOptions{8, 8, 5}), limits);
    } catch (const SearchStopped& e) {
      stopped = true;
      nodes = e.nodes;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    check(stopped && nodes > 0 && seconds < 30, "a time limit ends a proof-number search with threads");
  }

  // Threads sharing one table (lazy SMP) find what one thread finds: the
  // value, the distance, every best move, and a principal variation that
  // ends the game with the value (as long as one thread's, but for a draw),
  // on every game, strong and weak.
  {
    Rng rng(41);
    bool same = true;
    int positions = 0;
    auto agree = [&](const auto& g) {
      for (bool weak : {false, true}) {
        SolveLimits one, many;
        one.weak = many.weak = weak;
        many.threads = 3;
        many.help_after_nodes = 0;  // the helpers start at once, even on small solves
        const Solution a = solve(g, one), b = solve(g, many);
        same = same && a.value == b.value && a.distance == b.distance && a.best_moves.size() == b.best_moves.size() &&
               b.nodes >= 1;
        if (!weak) {
          // A principal variation ends the game with the value (a draw's may take another line).
          auto end = g;
          for (Move m : b.principal_variation) end.play(m);
          const auto w = end.outcome().winner();
          same = same && end.outcome().over() && (w ? (*w == g.to_move() ? 1 : -1) : 0) == b.value;
          if (a.value != 0) same = same && a.principal_variation.size() == b.principal_variation.size();
        }
        if (!weak) same = same && a.best_moves == b.best_moves;
      }
      ++positions;
    };
    agree(Classic(ClassicOptions{4, 4, 3}));
    agree(Classic(ClassicOptions{4, 5, 4, false, false, true}));
    agree(Quantum());
    for (int game = 0; game < 30; ++game) {
      Classic c(ClassicOptions{4, 4, game < 15 ? 3 : 4, game % 2 == 1, game % 3 == 1, game % 4 >= 2});
      for (int i = 0; i < 3 + game % 4 && !c.outcome().over(); ++i) {
        Classic::MoveList moves{};
        c.legal_moves(moves);
        c.play(moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))]);
      }
      if (!c.outcome().over()) agree(c);
    }
    for (int game = 0; game < 8; ++game) {
      Ultimate u(game % 2 == 1);
      while (u.ply() < 50 && !u.outcome().over()) u.play_random(rng);
      if (!u.outcome().over()) agree(u);
    }
    check(same && positions > 20, "threads sharing one table solve as one thread (" + std::to_string(positions) + " positions)");
  }

  // The table's growth: free up to the cache's size (2 MiB); past it, at
  // once for a search whose probes find their positions, else only after
  // many stores per slot; shared, only when its owner grows it.
  {
    constexpr std::size_t kMiB = std::size_t{1} << 20;
    auto fill = [](TranspositionTable& t, std::uint64_t first, std::uint64_t count, bool find_each) {
      for (std::uint64_t i = first; i < first + count; ++i) {
        const std::uint64_t key = (i + 1) * 0x9E3779B97F4A7C15ull;
        t.store(key, 0, 0, 0, static_cast<int>(key >> 61));  // mixed work, so both slots of a bucket fill
        if (find_each) check(t.find(key).has_value(), "a stored entry is found at once");
      }
    };
    TranspositionTable missed(64 * kMiB), found(64 * kMiB), shared(64 * kMiB);
    fill(missed, 0, std::uint64_t{1} << 20, false);
    fill(found, 0, std::uint64_t{1} << 20, true);
    check(missed.bytes() == 2 * kMiB, "a table whose probes miss stays at the cache's size (" +
                                          std::to_string(missed.bytes()) + " bytes)");
    check(found.bytes() > 2 * kMiB, "a table whose probes find their positions grows past the cache's size");
    fill(missed, std::uint64_t{1} << 20, std::uint64_t{4} << 20, false);
    check(missed.bytes() > 2 * kMiB, "a table turned over many times grows past the cache's size");
    shared.share();
    fill(shared, 0, std::uint64_t{1} << 16, false);
    const std::size_t before = shared.bytes();
    check(before == 32 * 1024 && shared.growth_due(std::uint64_t{1} << 16) && !shared.growth_due(0),
          "a shared table does not grow by itself, and tells when it should");
    shared.grow();
    check(shared.bytes() == 4 * before, "a shared table grows by four when asked");
  }

  // Proof-number search, instantiated for every game: the known values, and
  // alpha-beta's value and best moves on random Ultimate endgames.
  check(solve_proof_number(Classic(ClassicOptions{4, 4, 3})).value_for_x == 1, "proof-number search: 4x4 k=3 is a win for X");
  check(solve_proof_number(Classic(ClassicOptions{3, 3, 3, true})).value_for_x == 0, "proof-number search: misere 3x3 is a draw");
  check(solve_proof_number(Quantum()).value_for_x == 1, "proof-number search: Quantum is a win for X");
  {
    Rng rng(31);
    bool same = true;
    for (int game = 0; game < 20; ++game) {
      Ultimate u;
      while (u.ply() < 50 && !u.outcome().over()) u.play_random(rng);
      if (u.outcome().over()) continue;
      const Solution a = solve(u), b = solve_proof_number(u);
      same = same && a.value == b.value && a.best_moves == b.best_moves && b.distance == -1;
    }
    check(same, "proof-number search: alpha-beta's values and best moves on Ultimate endgames");
  }
  // Every tuning (plain df-pn, the 1 + epsilon trick, leaves from the
  // evaluation or from mobility, with or without the line prospects and
  // the dropped losses) proves alpha-beta's values and best moves; on
  // Ultimate, the default (the last) takes fewer nodes than without the
  // prospects or without the dropped losses (the two before it).
  {
    const ProofNumberTuning tunings[] = {{0, false},          {25, false}, {0, true}, {100, true},
                                         {25, true, false, true}, {25, true, true, false}, {}};
    constexpr std::size_t kTunings = std::size(tunings);
    std::array<std::uint64_t, kTunings> ultimate_nodes{};
    Rng rng(37);
    bool same = true;
    int positions = 0;
    // Every tuning proves alpha-beta's value and best moves in position g.
    auto agree = [&](const auto& g) {
      const Solution a = solve(g);
      for (std::size_t i = 0; i < kTunings; ++i) {
        const Solution b = solve_proof_number(g, {}, false, tunings[i]);
        same = same && a.value == b.value && a.best_moves == b.best_moves;
        if constexpr (std::is_same_v<std::decay_t<decltype(g)>, Ultimate>) ultimate_nodes[i] += b.nodes;
      }
      ++positions;
    };
    for (int game = 0; game < 24; ++game) {
      Ultimate u(game % 4 == 3);
      const int plies = 46 + game % 6;
      while (u.ply() < plies && !u.outcome().over()) u.play_random(rng);
      if (!u.outcome().over()) agree(u);
    }
    for (int game = 0; game < 40; ++game) {
      const Classic c = random_small_classic(game, 20, 4 + game % 3, rng);
      if (!c.outcome().over()) agree(c);
    }
    check(same && positions > 40, "proof-number search: every tuning proves alpha-beta's values and best moves");
    check(ultimate_nodes[kTunings - 1] < ultimate_nodes[kTunings - 3] && ultimate_nodes[kTunings - 1] < ultimate_nodes[kTunings - 2],
          "proof-number search on Ultimate: fewer nodes with the line prospects (" + std::to_string(ultimate_nodes[kTunings - 1]) +
              " against " + std::to_string(ultimate_nodes[kTunings - 3]) + ") and with the dropped losses (against " +
              std::to_string(ultimate_nodes[kTunings - 2]) + ")");
  }

  // Checked play: an illegal move throws and changes nothing.
  History<Classic> h;
  h.play(std::string_view("b2"));
  const auto before = h.current().to_string();
  bool threw = false;
  try {
    h.play(std::string_view("b2"));
  } catch (const IllegalMoveError&) {
    threw = true;
  }
  check(threw && h.current().to_string() == before, "an occupied cell is rejected and changes nothing");

  // Ultimate's shortcut for the solver's symmetric keys agrees with the real thing.
  {
    Rng rng(3);
    bool same = true;
    for (int game = 0; game < 200; ++game) {
      Ultimate u;
      const int plies = static_cast<int>(rng.below(50));
      for (int i = 0; i < plies && !u.outcome().over(); ++i) u.play_random(rng);
      for (int s = 0; s < u.num_symmetries(); ++s) same = same && u.symmetric_hash(s) == u.symmetric(s).hash();
    }
    check(same, "Ultimate symmetric_hash(s) == symmetric(s).hash()");
  }

  // Ultimate's search state (hooks.hpp, HasSearchState): updated a move at a
  // time it equals the child's from scratch, its key is the same for every
  // symmetric image, and different positions seldom share it.
  {
    Rng rng(5);
    bool same_state = true, same_images = true;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> keys;  // (canonical key, smallest image hash)
    for (int game = 0; game < 300; ++game) {
      Ultimate u(game % 5 == 0);
      auto state = u.search_state();
      while (!u.outcome().over()) {
        Ultimate::MoveList moves{};
        u.legal_moves(moves);
        for (Move m : moves) {
          Ultimate child = u;
          child.play(m);
          same_state = same_state && u.search_state_after(state, m).images == child.search_state().images &&
                       child.key_of(u.search_state_after(state, m)) == child.canonical_hash();
        }
        std::uint64_t smallest = ~std::uint64_t{0};
        for (int s = 0; s < u.num_symmetries(); ++s) {
          same_images = same_images && u.symmetric(s).canonical_hash() == u.canonical_hash();
          smallest = std::min(smallest, u.symmetric_hash(s));
        }
        keys.push_back({u.canonical_hash(), smallest});
        const Move m = moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))];
        state = u.search_state_after(state, m);
        u.play(m);
      }
    }
    // Positions that are not images of each other (their smallest image
    // hashes differ) have different keys.
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    bool distinct = true;
    for (std::size_t i = 1; i < keys.size(); ++i) distinct = distinct && keys[i].first != keys[i - 1].first;
    check(same_state, "Ultimate search_state_after(s, m) == the child's search_state()");
    check(same_images, "Ultimate canonical_hash() is the same for every symmetric image");
    check(distinct && keys.size() > 10000, "Ultimate canonical keys of different positions differ");
  }

  // Ultimate's evaluate_moves (hooks.hpp, HasEvaluateMoves) against playing
  // each move and evaluating the position reached, over random positions.
  {
    Rng rng(29);
    bool same = true;
    int ends = 0;
    for (int game = 0; game < 400; ++game) {
      Ultimate u(game % 2 == 1);
      const int plies = static_cast<int>(rng.below(75));
      for (int i = 0; i < plies && !u.outcome().over(); ++i) u.play_random(rng);
      if (u.outcome().over()) continue;
      Ultimate::MoveList moves{};
      u.legal_moves(moves);
      std::vector<Move> ms(moves.begin(), moves.end());
      std::vector<float> values(ms.size());
      u.evaluate_moves(ms, values);
      for (std::size_t i = 0; i < ms.size(); ++i) {
        Ultimate child = u;
        child.play(ms[i]);
        float expected;
        if (child.outcome().over()) {
          ++ends;
          const int vx = child.outcome().value_for_x();
          expected = static_cast<float>(u.to_move() == Player::X ? vx : -vx);
        } else {
          expected = -child.evaluate();
        }
        same = same && std::abs(values[i] - expected) < 1e-4f;
      }
    }
    check(same && ends > 0, "Ultimate evaluate_moves == -evaluate() after each move (" + std::to_string(ends) +
                                " game-ending moves among them)");
  }

  // MCTS with the evaluation keeps each node's minimax of its children's
  // values a path at a time; after searches with and without rollouts, and
  // after moving the root, a walk of the whole tree finds the same values.
  // With PUCT, each node's children also keep their priors through every
  // backup (spread = prior / (1 + visits)).
  {
    bool consistent = true, priors = true;
    for (const auto& [rollout_weight, puct] : {std::pair{0.0, 0.0}, {1.0, 0.0}, {0.0, 2.0}, {1.0, 2.0}}) {
      MctsTree<Ultimate> tree(7, 1u << 20, 1.0, true, true, 10, 0.3, rollout_weight, puct);
      Ultimate start;
      std::vector<Move> line;
      Rng rng(5);
      for (int move = 0; move < 12; ++move) {
        tree.set_root(start, line, true);
        tree.run(3000, false, {}, nullptr, nullptr);
        consistent = consistent && tree.minimax_consistent();
        priors = priors && tree.priors_consistent();
        Ultimate at = start;
        for (Move m : line) at.play(m);
        if (at.outcome().over()) break;
        Ultimate::MoveList moves{};
        at.legal_moves(moves);
        line.push_back(moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))]);
      }
    }
    check(consistent, "MCTS with evaluation: every node's minimax equals its children's best value");
    check(priors, "MCTS with PUCT: every node's children's priors sum to 1");
  }

  // PUCT's softmax takes e^x from a polynomial (the same bits everywhere).
  {
    double worst = 0;
    for (float x = -80.0f; x <= 0.0f; x += 0.0137f)
      worst = std::max(worst, std::abs(mcts_detail::exp_neg(x) / std::exp(static_cast<double>(x)) - 1.0));
    check(worst < 2e-5 && mcts_detail::exp_neg(0.0f) == 1.0f && mcts_detail::exp_neg(-1000.0f) > 0.0f,
          "exp_neg is e^x within 2e-5 on [-80, 0] (worst " + std::to_string(worst) + ")");
  }

  // Ultimate's hooks (search/hooks.hpp) against playing the moves out, over
  // random positions: play_random and random_move draw list[rng.below(size)];
  // can_win_now is a move that wins; opponent_may_win_next is false only when
  // no move lets the opponent win at once; a player who cannot still win
  // never wins a random continuation.
  {
    Rng rng(17);
    bool draws = true, win_now = true, threat = true, still = true, lines = true;
    for (int game = 0; game < 300; ++game) {
      Ultimate u;
      const int plies = static_cast<int>(rng.below(70));
      for (int i = 0; i < plies && !u.outcome().over(); ++i) u.play_random(rng);
      if (u.outcome().over()) continue;
      Ultimate::MoveList moves{};
      u.legal_moves(moves);
      Rng a = rng, b = rng, c = rng;
      const Move listed = moves[static_cast<int>(a.below(static_cast<std::uint32_t>(moves.size())))];
      Ultimate played = u, expected = u;
      played.play_random(b);
      expected.play(listed);
      draws = draws && played == expected && u.random_move(c) == listed;
      bool wins = false, lets_win = false;
      for (Move m : moves) {
        Ultimate child = u;
        child.play(m);
        wins = wins || child.outcome().winner() == u.to_move();
        if (!child.outcome().over()) lets_win = lets_win || child.can_win_now();
      }
      win_now = win_now && wins == u.can_win_now();
      threat = threat && (u.opponent_may_win_next() || !lets_win);
      for (Player p : {Player::X, Player::O}) {
        // line_prospects from the boards' cells: the lines of boards each
        // won by p, or open with some small line holding none of the
        // opponent's marks, and the fewest boards p has not won in one.
        int open = 0, fewest = 0;
        for (auto line : board3::kLines) {
          bool alive = true;
          int needed = 0;
          for (int b = 0; b < 9; ++b) {
            if (!(line >> b & 1)) continue;
            bool board_alive = u.won_boards(p) >> b & 1;
            needed += !board_alive;
            if (u.open_boards() >> b & 1)
              for (auto small : board3::kLines) board_alive = board_alive || (u.marks(opponent(p), b) & small) == 0;
            alive = alive && board_alive;
          }
          if (alive) fewest = open++ == 0 ? needed : std::min(fewest, needed);
        }
        const LineProspects got = u.line_prospects(p);
        lines = lines && got.open == open && got.fewest == fewest && (open > 0) == u.can_still_win(p);
        if (u.can_still_win(p)) continue;
        for (int t = 0; t < 20; ++t) still = still && random_playout(u, rng).winner() != p;
      }
      rng.next();
    }
    check(draws, "Ultimate play_random and random_move draw legal_moves()[rng.below(size)]");
    check(win_now, "Ultimate can_win_now() says whether some move wins at once");
    check(threat, "Ultimate opponent_may_win_next() is false only when no move lets the opponent win at once");
    check(still, "Ultimate: a player who cannot still win never wins a random continuation");
    check(lines, "Ultimate line_prospects(p) counts the lines of boards p can still make (none just when p cannot still win) and the fewest boards p needs in one");
  }

  // Classic's search state kept a move at a time agrees with the state of
  // the child computed from scratch (its key is the canonical key, its lines
  // entered are those holding each symbol), after every legal move, on
  // boards below and above 32 cells and 64 lines, with each symmetry group,
  // and gravity boards of more than 32 cells keyed by their columns (exact:
  // positions that are not images of each other never share a key).
  {
    Rng rng(11);
    bool same_key = true, same_lines = true, stacked_exact = true;
    const ClassicOptions boards[] = {{3, 3, 3},       {4, 4, 4, false, true}, {5, 5, 4},  {4, 6, 4, false, false, true},
                                     {4, 4, 3, true, true}, {5, 5, 4, true}, {4, 5, 3, true, true},
                                     {6, 6, 4, true}, {7, 7, 5, false, true}, {5, 8, 4}, {8, 8, 5, false, true, true},
                                     {6, 7, 4, false, false, true}, {6, 6, 4, true, true, true}, {7, 8, 4, false, false, true}};
    // A gravity image as one word: per column (rows + 1 bits, from bit
    // column * (rows + 1)), 2^height plus 2^i for an O at height i (for an
    // X when x is 1: the image with the symbols swapped).
    auto stacks = [](const Classic& image, int x) {
      const auto& r = image.rules();
      std::uint64_t word = 0;
      for (int c = 0; c < r.cols(); ++c) {
        std::uint64_t code = 0;
        int height = 0;
        for (int row = r.rows() - 1; row >= 0; --row) {
          const std::uint64_t cell = bits::bit(row * r.cols() + c);
          if (!((image.marks(0) | image.marks(1)) & cell)) break;
          if (image.marks(x ^ 1) & cell) code |= bits::bit(height);
          ++height;
        }
        word |= (code | bits::bit(height)) << (c * (r.rows() + 1));
      }
      return word;
    };
    // The cells every line through which holds both symbols, from a visit of every line.
    auto dead_cells = [](const Classic& c) {
      std::uint64_t live = 0;
      for (auto line : c.rules().all_lines())
        if (!(line & c.marks(0)) || !(line & c.marks(1))) live |= line;
      return c.rules().board_mask() & ~live;
    };
    for (const auto& o : boards) {
      const bool stacked = o.gravity && o.rows * o.cols > 32 && (o.rows + 1) * o.cols <= 64;
      check(ClassicRules::get(o).stacked_keys() == stacked, "Classic keys gravity boards by their columns where they fit");
      std::vector<std::pair<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>>> seen;  // key, smallest image
      for (int game = 0; game < 40; ++game) {
        // The canonical key from the built images, as classic.hpp defines it.
        // With free choice, each image with X and O swapped counts too.
        // Where dead cells merge, they are both bits of the word whatever
        // they hold, and the count of empty ones goes above the cells.
        auto reference_key = [&](const Classic& c) {
          const bool merge = c.rules().merges_dead_cells() && dead_cells(c) != 0;
          std::uint64_t best = ~std::uint64_t{0};
          for (int s = 0; s < c.num_symmetries(); ++s) {
            const Classic image = c.symmetric(s);
            const std::uint64_t dead = merge ? dead_cells(image) : 0;
            for (int x = 0; x < (o.free_choice ? 2 : 1); ++x) {  // x: the symbol read as X
              const std::uint64_t xs = image.marks(x) | dead, os = image.marks(x ^ 1) | dead;
              best = std::min(best, c.rules().cells() <= 32 ? xs | os << 32
                                    : stacked             ? stacks(image, x)
                                                          : bits::combine(bits::mix(xs), os));
            }
          }
          if (merge) best |= static_cast<std::uint64_t>(bits::count(dead_cells(c) & ~(c.marks(0) | c.marks(1)))) << 26;
          return c.rules().cells() <= 32 || stacked ? bits::mix(best) : best;
        };
        auto smallest_image = [&](const Classic& c) {
          std::pair<std::uint64_t, std::uint64_t> best{~std::uint64_t{0}, 0};
          for (int s = 0; s < c.num_symmetries(); ++s) {
            const Classic image = c.symmetric(s);
            best = std::min(best, {image.marks(0), image.marks(1)});
            if (o.free_choice) best = std::min(best, {image.marks(1), image.marks(0)});
          }
          return best;
        };
        Classic g(o);
        auto k = g.search_state();
        while (!g.outcome().over()) {
          same_key = same_key && g.key_of(k) == reference_key(g);
          if (stacked) seen.push_back({g.key_of(k), smallest_image(g)});
          Classic::MoveList moves{};  // zeroed: GCC cannot see that the random index is below the size
          g.legal_moves(moves);
          for (int i = 0; i < moves.size(); ++i) {
            Classic child = g;
            child.play(moves[i]);
            const auto after = g.search_state_after(k, moves[i]);
            same_key = same_key && g.key_of(after) == reference_key(child);
            same_lines = same_lines && after.entered == child.search_state().entered;
          }
          const Move m = moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))];
          k = g.search_state_after(k, m);
          g.play(m);
        }
      }
      std::sort(seen.begin(), seen.end());
      seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
      for (std::size_t i = 1; i < seen.size(); ++i) stacked_exact = stacked_exact && seen[i].first != seen[i - 1].first;
    }
    check(same_key, "Classic key_of(search_state_after(s, m)) == the child's key from its built images");
    check(stacked_exact, "Classic's column keys of gravity boards differ for positions that are not images");
    check(same_lines, "Classic search_state_after(s, m) keeps the lines entered by each symbol");
  }

  // With free choice, a position and its twin with X and O swapped (the
  // same moves, each writing the other symbol) share the table's key, on
  // each kind of key: up to 32 cells, stacked columns, hashed images.
  {
    Rng rng(12);
    bool same = true;
    int compared = 0;
    const ClassicOptions boards[] = {
        {4, 4, 4, false, true}, {5, 5, 4, true, true, true}, {6, 6, 4, true, true, true}, {7, 7, 5, false, true}};
    for (const auto& o : boards)
      for (int game = 0; game < 20; ++game) {
        Classic g(o), twin(o);
        while (!g.outcome().over()) {
          same = same && g.canonical_hash() == twin.canonical_hash();
          ++compared;
          Classic::MoveList moves{};
          g.legal_moves(moves);
          const Move m = moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))];
          g.play(m);
          twin.play(m ^ 1);  // free choice's ids: 2 * base + symbol
        }
      }
    check(same && compared > 500, "Classic free choice: a position and its X/O-swapped twin share the table key");
  }

  // Without gravity, two positions alike but for the symbols in their dead
  // cells (every line through them holds both symbols) share the table key:
  // the same game played with the symbol of each move into a cell that ends
  // up dead flipped, where that completes no line.
  {
    Rng rng(13);
    int compared = 0;
    bool same = true;
    const ClassicOptions boards[] = {{4, 4, 4, false, true}, {5, 5, 4, true, true}, {5, 5, 4, false, true}};
    for (const auto& o : boards)
      for (int game = 0; game < 300; ++game) {
        Classic g(o);
        std::vector<Move> line;
        while (!g.outcome().over()) {
          // The position so far, replayed with flips into its dead cells;
          // compared where the flips leave the same cells dead.
          auto dead_cells = [](const Classic& c) {
            std::uint64_t live = 0;
            for (auto l : c.rules().all_lines())
              if (!(l & c.marks(0)) || !(l & c.marks(1))) live |= l;
            return c.rules().board_mask() & ~live;
          };
          const std::uint64_t dead = dead_cells(g) & (g.marks(0) | g.marks(1));
          if (dead) {
            Classic twin(o);
            for (Move m : line)
              if (!twin.outcome().over()) twin.play(bits::bit(g.target_cell(m)) & dead ? m ^ 1 : m);
            if (!twin.outcome().over() && twin.ply() == g.ply() && !(twin == g) && dead_cells(twin) == dead_cells(g)) {
              ++compared;
              same = same && twin.canonical_hash() == g.canonical_hash();
            }
          }
          Classic::MoveList moves{};
          g.legal_moves(moves);
          const Move m = moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))];
          line.push_back(m);
          g.play(m);
        }
      }
    check(same && compared > 200, "Classic: positions alike but for the symbols in their dead cells share the table key");
  }

  // Classic's shift-based line sets against a visit of every line, and the
  // gravity tactics against playing the moves out.
  {
    Rng rng(11);
    bool same_completions = true, same_open = true, same_tactics = true, same_columns = true, same_hints = true;
    // A set of cells in the columns layout (ClassicRules::column_bit).
    auto in_columns = [](const ClassicRules& r, std::uint64_t cells) {
      std::uint64_t out = 0;
      bits::for_each(cells, [&](int cell) { out |= r.column_bit(cell); });
      return out;
    };
    // The empty cells that complete a line of `own`, by a visit of every line.
    auto slow_completions = [](const ClassicRules& r, std::uint64_t own, std::uint64_t occupied) {
      std::uint64_t out = 0;
      for (auto line : r.all_lines())
        if (const std::uint64_t missing = line & ~own; bits::count(missing) == 1) out |= missing;
      return out & ~occupied;
    };
    const ClassicOptions boards[] = {{6, 7, 4, false, false, true}, {4, 6, 4, false, false, true}, {5, 5, 4},
                                     {8, 8, 5, false, false, true}, {3, 3, 3}, {1, 9, 3}, {7, 2, 2, false, false, true},
                                     {2, 32, 3, false, false, true}, {16, 4, 4}, {4, 16, 1, false, false, true}};
    auto wins_at_once = [](const Classic& g) {
      Classic::MoveList ms{};
      g.legal_moves(ms);
      for (Move m : ms) {
        Classic c = g;
        c.play(m);
        if (c.outcome().winner() == g.to_move()) return true;
      }
      return false;
    };
    for (const auto& o : boards) {
      const auto& r = ClassicRules::get(o);
      for (int game = 0; game < 60; ++game) {
        Classic g(o);
        while (!g.outcome().over()) {
          for (int s = 0; s < 2; ++s) {
            std::uint64_t slow = 0;
            bool open = false;
            for (auto line : r.all_lines()) {
              const std::uint64_t missing = line & ~g.marks(s);
              if (bits::count(missing) == 1) slow |= missing;
              open = open || !(line & g.marks(1 - s));
            }
            same_completions = same_completions && (r.completions(g.marks(s)) & ~g.occupied()) == (slow & ~g.occupied());
            same_open = same_open && r.holds_line(r.board_mask() & ~g.marks(1 - s)) == open;
            if (r.column_layout()) {
              using L = ClassicRules::Layout;
              const std::uint64_t own = in_columns(r, g.marks(s)), occupied = in_columns(r, g.occupied());
              same_columns = same_columns &&
                             (r.completions<L::Columns>(own) & ~occupied) == in_columns(r, slow & ~g.occupied()) &&
                             r.holds_line<L::Columns>(r.board<L::Columns>() & ~in_columns(r, g.marks(1 - s))) == open &&
                             r.playable<L::Columns>(occupied) == in_columns(r, g.playable_cells()) &&
                             r.columns_of<L::Columns>(r.playable<L::Columns>(occupied)) == r.columns_of(g.playable_cells());
            }
          }
          Classic::MoveList legal{}, listed{};
          g.legal_moves(legal);
          std::array<int, Classic::kMaxActions> hints{};
          const Tactics t = g.tactics(listed, hints.data(), g.search_state());
          if (wins_at_once(g)) {
            Classic c = g;
            c.play(t.move);
            same_tactics = same_tactics && t.kind == Tactics::WinNow && c.outcome().winner() == g.to_move();
          } else {
            // The moves listed are the legal ones that leave the opponent no win at once.
            std::vector<Move> safe;
            for (Move m : legal) {
              Classic c = g;
              c.play(m);
              if (c.outcome().over() || !wins_at_once(c)) safe.push_back(m);  // over: a draw
            }
            if (t.kind == Tactics::LossNext) same_tactics = same_tactics && safe.empty();
            else same_tactics = same_tactics && t.kind == Tactics::Search && safe == std::vector<Move>(listed.begin(), listed.end());
            if (r.gravity() && t.kind == Tactics::Search && listed.size() > 1) {
              // The hint of a move: the empty cells completing a line of the
              // mover after it, found by a visit of the lines.
              g.order_hints(listed, hints.data(), g.search_state());
              const int me = static_cast<int>(g.to_move());
              for (int i = 0; i < listed.size(); ++i) {
                Classic c = g;
                c.play(listed[i]);
                const int made = bits::count(slow_completions(r, c.marks(me), c.occupied()));
                same_hints = same_hints && hints[i] >> 7 == std::min(made, 127);
              }
            }
          }
          const Move m = legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
          g.play(m);
        }
      }
    }
    check(same_completions, "ClassicRules::completions(own) is the empty cells that complete a line, as a visit of the lines finds");
    check(same_open, "ClassicRules::holds_line(cells) says whether a whole line lies in the cells");
    check(same_tactics, "Classic tactics: wins at once, losses next and the safe moves, as playing the moves out finds");
    check(same_columns, "ClassicRules in the columns layout: completions, line tests, playable cells and their columns as in the cells");
    check(same_hints, "Classic gravity hints count the completion cells a move gives the mover, as a visit of the lines finds");
  }

  // Quantum's canonical hash is the smallest hash of the built images.
  {
    Rng rng(5);
    bool same = true;
    for (int game = 0; game < 300; ++game) {
      Quantum q;
      while (!q.outcome().over()) {
        std::uint64_t best = ~std::uint64_t{0};
        for (int s = 0; s < q.num_symmetries(); ++s) best = std::min(best, q.symmetric(s).hash());
        same = same && q.canonical_hash() == best;
        q.play_random(rng);
      }
    }
    check(same, "Quantum canonical_hash() == the smallest symmetric(s).hash()");
  }

  // Quantum's solver hooks against playing every move out, over random
  // positions of every stage: the search state kept a move at a time is the
  // child's; the tactics' verdict (win at once, every move losing at once or
  // letting the opponent win at once) holds exactly; the moves kept are the
  // legal moves in order less the dropped ones, each of which loses in
  // `dropped` plies; hints stay in range; a player who cannot still win
  // never wins a random continuation.
  {
    Rng rng(23);
    bool same_state = true, verdict = true, kept = true, hints_ok = true, still = true;
    auto wins_at_once = [](const Quantum& g) {
      Quantum::MoveList moves;
      g.legal_moves(moves);
      for (Move m : moves) {
        Quantum c = g;
        c.play(m);
        if (c.outcome().winner() == g.to_move()) return true;
      }
      return false;
    };
    for (int game = 0; game < 3000; ++game) {
      Quantum q;
      const int plies = static_cast<int>(rng.below(13));
      for (int i = 0; i < plies && !q.outcome().over(); ++i) q.play_random(rng);
      if (q.outcome().over()) continue;
      const auto state = q.search_state();
      const Player me = q.to_move();
      Quantum::MoveList legal{}, moves{};
      q.legal_moves(legal);
      int hints[Quantum::kMaxActions];
      const Tactics t = q.tactics(moves, hints, state);
      bool any_win = false, all_lose = true, all_let_win = true;
      std::vector<Move> expected;  // the moves that neither lose at once nor let the opponent win at once
      int loses_in = 0;            // how fast the other moves lose (0: none)
      bool same_speed = true;
      for (Move m : legal) {
        Quantum c = q;
        c.play(m);
        same_state = same_state && q.key_of(q.search_state_after(state, m)) == c.canonical_hash() &&
                     q.key_of(q.search_state_after(state, m)) == q.key_of(c.search_state());
        const bool win = c.outcome().winner() == me, loss = c.outcome().over() && c.outcome().winner() == opponent(me);
        const bool lets_win = !c.outcome().over() && c.to_move() != me && wins_at_once(c);
        any_win = any_win || win;
        all_lose = all_lose && loss;
        all_let_win = all_let_win && lets_win;
        if (loss || lets_win) {
          same_speed = same_speed && (loses_in == 0 || loses_in == (loss ? 1 : 2));
          loses_in = loss ? 1 : 2;
        } else {
          expected.push_back(m);
        }
      }
      switch (t.kind) {
        case Tactics::WinNow: {
          Quantum c = q;
          c.play(t.move);
          verdict = verdict && any_win && c.outcome().winner() == me;
          break;
        }
        case Tactics::LossNow: verdict = verdict && !any_win && all_lose; break;
        case Tactics::LossNext: verdict = verdict && !any_win && !all_lose && all_let_win; break;
        case Tactics::Search: {
          verdict = verdict && !any_win && !(all_lose || all_let_win);
          kept = kept && same_speed && std::vector<Move>(moves.begin(), moves.end()) == expected &&
                 t.dropped == (expected.size() == static_cast<std::size_t>(legal.size()) ? 0 : loses_in);
          if (t.dropped) kept = kept && std::find(expected.begin(), expected.end(), t.dropped_move) == expected.end() &&
                                std::find(legal.begin(), legal.end(), t.dropped_move) != legal.end();
          for (int i = 0; i < moves.size(); ++i) hints_ok = hints_ok && hints[i] >= 0 && hints[i] < (1 << 14);
          break;
        }
      }
      for (Player p : {Player::X, Player::O}) {
        if (q.can_still_win(p)) continue;
        for (int n = 0; n < 20; ++n) still = still && random_playout(q, rng).winner() != p;
      }
      const bool mover_can = q.can_still_win(me), other_can = q.can_still_win(opponent(me));
      still = still && t.mover_can_win == mover_can && t.opponent_can_win == other_can;
    }
    check(same_state, "Quantum key_of(search_state_after(s, m)) == the child's canonical hash");
    check(verdict, "Quantum tactics: WinNow, LossNow and LossNext exactly when playing the moves out says so");
    check(kept, "Quantum tactics keep the legal moves in order less the dropped ones, which lose in `dropped` plies");
    check(hints_ok, "Quantum tactics hints lie in 0 .. 2^14 - 1");
    check(still, "Quantum: a player who cannot still win never wins a random continuation");
  }

  // The solver with Quantum's hooks and without them (the same game behind
  // a wrapper that offers only the game concept): the same value, distance,
  // best moves and move values on random positions.
  {
    Rng rng(29);
    bool same = true;
    for (int game = 0; game < 60; ++game) {
      Quantum q;
      const int plies = 3 + static_cast<int>(rng.below(8));
      for (int i = 0; i < plies && !q.outcome().over(); ++i) q.play_random(rng);
      if (q.outcome().over()) continue;
      SolveLimits limits;
      limits.move_values = true;
      limits.tt_bytes = std::size_t{4} << 20;
      const Solution a = solve(q, limits), b = solve(Plain<Quantum>{q}, limits);
      same = same && a.value == b.value && a.distance == b.distance && a.best_moves == b.best_moves;
      for (std::size_t i = 0; same && i < a.move_values.size(); ++i)
        same = a.move_values[i].move == b.move_values[i].move && a.move_values[i].value == b.move_values[i].value;
    }
    check(same, "Quantum solved with its hooks and without: the same values, distances and best moves");
  }

  // Classic's gravity tactics by the follow-up: a player they say cannot win
  // does not, and a mover they say loses (wins) does, within the plies they
  // say, as the plain solver (no tactics) finds.
  {
    Rng rng(31);
    int cannot_win = 0, cannot_lose = 0, loses = 0, wins = 0;
    bool right = true;
    for (const ClassicOptions& o : {ClassicOptions{4, 4, 3, false, false, true}, ClassicOptions{4, 5, 3, false, false, true},
                                    ClassicOptions{5, 4, 3, false, false, true}, ClassicOptions{4, 5, 4, false, false, true}}) {
      const auto& r = ClassicRules::get(o);
      walk_tactics(o, 500, [&](const Classic& g, const Tactics& t, const Classic::MoveList& moves, const auto&) {
        // Each player's lines with no mark of the other's: where one is
        // left, "cannot win" comes from the follow-up, not from the board.
        const int me = static_cast<int>(g.to_move());
        const bool mine_left = r.holds_line(r.board_mask() & ~g.marks(1 - me)),
                   theirs_left = r.holds_line(r.board_mask() & ~g.marks(me));
        const bool mover_cannot = mine_left && !t.mover_can_win, opponent_cannot = theirs_left && !t.opponent_can_win;
        if (t.kind == Tactics::Search && (mover_cannot || opponent_cannot || t.loses_within || t.wins_within)) {
          SolveLimits limits;
          limits.tt_bytes = std::size_t{1} << 20;
          const Solution plain = solve(Plain<Classic>{g}, limits);
          if (mover_cannot) ++cannot_win, right = right && plain.value <= 0;
          if (opponent_cannot) ++cannot_lose, right = right && plain.value >= 0;
          if (t.loses_within) ++loses, right = right && plain.value == -1 && plain.distance <= t.loses_within;
          if (t.wins_within) ++wins, right = right && plain.value == 1 && plain.distance <= t.wins_within;
        }
        return listed_move(g, t, moves, rng);
      });
    }
    check(right && std::min({cannot_win, cannot_lose, loses, wins}) >= 30,
          "Classic gravity tactics: the follow-up's \"cannot win\", \"cannot lose\", \"loses\" and \"wins\" (" +
              std::to_string(cannot_win) + ", " + std::to_string(cannot_lose) + ", " + std::to_string(loses) + " and " +
              std::to_string(wins) + " positions) agree with the plain solver");
  }

  // Misere's mirror strategy (ClassicRules::mirror): the boards that have
  // it, and on them a player the tactics say cannot win (where a line is
  // still open to them) does not, as the plain solver finds, nor does the
  // opponent of a player they say cannot lose. Games follow the mirror
  // answer (the top hint) half the time, so that mirrored positions come up.
  {
    auto mirror_of = [](ClassicOptions o) { return ClassicRules::get(o).mirror() != 0; };
    check(mirror_of({5, 5, 4, true}) && ClassicRules::get({5, 5, 4, true}).mirror_centre() == bits::bit(12) &&
              mirror_of({7, 7, 5, true}) && mirror_of({4, 6, 4, true, true, true}) &&
              ClassicRules::get({4, 6, 4, true, false, true}).mirror_centre() == 0 && !mirror_of({5, 3, 3, true}) &&
              !mirror_of({7, 7, 4, true}) && !mirror_of({6, 7, 4, true, false, true}) && !mirror_of({4, 4, 4}),
          "Classic misere: the mirror strategy on the boards whose lines allow it, and only in misere");
    Rng rng(37);
    int cannot_win = 0, cannot_lose = 0;
    bool right = true;
    for (const ClassicOptions& o :
         {ClassicOptions{3, 3, 3, true}, ClassicOptions{3, 3, 3, true, true}, ClassicOptions{4, 4, 3, true},
          ClassicOptions{3, 4, 3, true, true}, ClassicOptions{4, 4, 4, true, false, true},
          ClassicOptions{4, 4, 3, true, true, true}, ClassicOptions{1, 4, 2, true, true}, ClassicOptions{5, 5, 4, true}}) {
      const auto& r = ClassicRules::get(o);
      walk_tactics(o, r.cells() > 16 ? 30 : 150, [&](const Classic& g, const Tactics& t, const Classic::MoveList& moves,
                                                   const std::array<int, Classic::kMaxActions>& hints) {
        const std::uint64_t open[2] = {r.board_mask() & ~g.marks(1), r.board_mask() & ~g.marks(0)};
        auto may_win = [&](int player) {  // a line still open to some symbol that wins for player
          if (r.free_choice()) return r.holds_line(open[0]) || r.holds_line(open[1]);
          return r.holds_line(open[1 - player]);  // misere: by the other's symbol
        };
        const int me = static_cast<int>(g.to_move());
        const bool mover_cannot = may_win(me) && !t.mover_can_win, opponent_cannot = may_win(1 - me) && !t.opponent_can_win;
        if (t.kind == Tactics::Search && (mover_cannot || opponent_cannot) && r.cells() - g.ply() <= 10) {
          SolveLimits limits;
          limits.tt_bytes = std::size_t{1} << 20;
          limits.weak = true;
          const Solution plain = solve(Plain<Classic>{g}, limits);
          if (mover_cannot) ++cannot_win, right = right && plain.value <= 0;
          if (opponent_cannot) ++cannot_lose, right = right && plain.value >= 0;
        }
        Move m = listed_move(g, t, moves, rng);
        if (t.kind == Tactics::Search && moves.size() && rng.below(2))
          m = moves[static_cast<int>(std::max_element(hints.begin(), hints.begin() + moves.size()) - hints.begin())];
        return m;
      });
    }
    check(right && std::min(cannot_win, cannot_lose) >= 30,
          "Classic misere mirror: \"cannot win\" and \"cannot lose\" (" + std::to_string(cannot_win) + " and " +
              std::to_string(cannot_lose) + " positions) agree with the plain solver");
  }

  // Misere with free choice: once cells where either mark completes a line
  // close every cell that may still become one, the tactics give the result
  // and its exact distance (the other cells fill, then the player to move
  // must complete a line); the plain solver (no tactics) finds the same,
  // and the full solver answers as the plain one on those positions.
  {
    Rng rng(41);
    int wins = 0, losses = 0;
    bool right = true;
    const ClassicOptions boards[] = {{4, 4, 3, true, true}, {3, 4, 3, true, true}, {3, 5, 3, true, true},
                                     {4, 4, 3, true, true, true}, {4, 5, 3, true, true, true}};
    for (const auto& o : boards) {
      walk_tactics(o, 300, [&](const Classic& g, const Tactics& t, const Classic::MoveList& moves, const auto&) {
        const bool exact_loss = t.loses_within && t.loses_within <= t.fastest_loss;
        const bool exact_win = t.wins_within && t.wins_within <= t.fastest_win;
        if (t.kind == Tactics::Search && (exact_loss || exact_win)) {
          SolveLimits limits;
          limits.tt_bytes = std::size_t{1} << 20;
          const Solution plain = solve(Plain<Classic>{g}, limits), full = solve(g, limits);
          if (exact_loss) ++losses, right = right && plain.value == -1 && plain.distance == t.loses_within;
          if (exact_win) ++wins, right = right && plain.value == 1 && plain.distance == t.wins_within;
          right = right && full.value == plain.value && full.distance == plain.distance;
        }
        return listed_move(g, t, moves, rng);
      });
    }
    check(right && std::min(wins, losses) >= 30,
          "Classic misere + free choice: the exact results of the closed cells (" + std::to_string(wins) + " wins and " +
              std::to_string(losses) + " losses) agree with the plain solver");
  }

  // Misere with free choice on an open board: the marks that kill more live
  // lines (lines holding the other symbol, counted here from the board) come
  // first in the tactics' order; with gravity the order does not follow it.
  {
    Rng rng(43);
    auto kills = [](const Classic& g, const ClassicRules& r, Move m) {
      const int cell = m >> 1, symbol = m & 1;
      int n = 0;
      for (auto line : r.all_lines())
        if ((line >> cell & 1) && !(line & g.marks(symbol)) && (line & g.marks(1 - symbol))) ++n;
      return n;
    };
    int ordered_pairs = 0, gravity_disorder = 0;
    bool right = true;
    for (const ClassicOptions& o : {ClassicOptions{5, 5, 4, true, true}, ClassicOptions{4, 4, 3, true, true},
                                    ClassicOptions{5, 5, 4, true, true, true}}) {
      const auto& r = ClassicRules::get(o);
      walk_tactics(o, 100, [&](const Classic& g, const Tactics& t, const Classic::MoveList& moves,
                                const std::array<int, Classic::kMaxActions>& hints) {
        if (t.kind != Tactics::Search || !moves.size()) return Move{-1};
        for (int i = 0; i < moves.size(); ++i)
          for (int j = 0; j < moves.size(); ++j) {
            // The mirror's answer (ClassicRules::mirror) comes first of all.
            if (kills(g, r, moves[i]) <= kills(g, r, moves[j]) || std::max(hints[i], hints[j]) == Classic::kMaxHint) continue;
            if (o.gravity) gravity_disorder += hints[i] <= hints[j];
            else ++ordered_pairs, right = right && hints[i] > hints[j];
          }
        return listed_move(g, t, moves, rng);
      });
    }
    check(right && ordered_pairs >= 1000 && gravity_disorder > 0,
          "Classic misere + free choice: the marks that kill more live lines come first without gravity (" +
              std::to_string(ordered_pairs) + " pairs of moves), not by that rule with gravity");
  }

  // Misere with free choice: a draw once no empty cell can come to close a
  // line of X's and another of O's. A line can come to be one mark short
  // only at cells its symbol can still be marked around: not where a mark of
  // it completes a line (with two such cells, nowhere), not where either
  // mark does (and with gravity, not above such a cell), and along a column
  // under gravity at its top cell alone. A model of that, written here over
  // pairs of lines, and the tactics agree on which positions it calls draws
  // (the mirror's answers aside), each a draw as the plain solver finds;
  // some of them, with gravity and without, are positions where lines of
  // both symbols still cross at an empty cell.
  {
    Rng rng(47);
    int crossing_draws[2] = {0, 0}, fixed_above_poisoned = 0;
    bool right = true;
    for (const ClassicOptions& o : {ClassicOptions{4, 4, 3, true, true}, ClassicOptions{3, 5, 3, true, true},
                                    ClassicOptions{4, 5, 3, true, true}, ClassicOptions{4, 4, 3, true, true, true},
                                    ClassicOptions{4, 5, 3, true, true, true}, ClassicOptions{5, 4, 4, true, true, true}}) {
      const auto& r = ClassicRules::get(o);
      const int cols = r.cols();
      walk_tactics(o, o.gravity ? 200 : 400, [&](const Classic& g, const Tactics& t, const Classic::MoveList& moves,
                                const std::array<int, Classic::kMaxActions>& hints) {
        if (t.kind != Tactics::Search || !moves.size()) return Move{-1};
        const std::uint64_t mark[2] = {g.marks(0), g.marks(1)}, empty = r.board_mask() & ~(mark[0] | mark[1]);
        std::uint64_t completes[2] = {0, 0}, crossing = 0;
        for (auto a : r.all_lines())
          for (int s = 0; s < 2; ++s) {
            const std::uint64_t missing = a & ~mark[s];
            if (!(a & mark[1 - s]) && bits::count(missing) == 1) completes[s] |= missing;
          }
        std::uint64_t closed = completes[0] & completes[1];
        for (int c = 0; o.gravity && c < r.cells(); ++c)
          if (closed >> c & 1)
            for (int above = c - cols; above >= 0; above -= cols) closed |= bits::bit(above);
        auto short_at = [&](std::uint64_t line, int s) -> std::uint64_t {
          if (line & mark[1 - s]) return 0;
          std::uint64_t gap = line & empty;
          bool along_column = true;
          bits::for_each(line, [&](int c) { along_column = along_column && c % cols == bits::lowest(line) % cols; });
          if (o.gravity && along_column) gap = bits::bit(bits::lowest(gap));  // the top cell
          const std::uint64_t blocked = line & empty & (completes[s] | closed);
          if (!blocked) return gap;
          return bits::count(blocked) == 1 ? blocked & gap : 0;
        };
        std::uint64_t may = 0;
        for (auto a : r.all_lines())
          for (auto b : r.all_lines())
            if (a != b) {
              may |= short_at(a, 0) & short_at(b, 1);
              if (!(a & mark[1]) && !(b & mark[0])) crossing |= a & b & empty;
            }
        // With poisoned cells and nothing else that may become one outside
        // the closed cells, the length is fixed: the open cells fill.
        const std::uint64_t poisoned = completes[0] & completes[1];
        const bool fixed = poisoned && !(may & ~closed);
        const int n = bits::count(empty & ~closed);
        const bool claims = t.wins_within || t.loses_within;
        right = right && claims == fixed && (!fixed || (n & 1 ? t.wins_within : t.loses_within) == n + 1);
        if (fixed && closed != poisoned) ++fixed_above_poisoned;
        const bool drawn = !t.mover_can_win && !t.opponent_can_win;
        const bool mirror_answer = std::find(hints.begin(), hints.begin() + moves.size(), Classic::kMaxHint) !=
                                   hints.begin() + moves.size();
        if (!mirror_answer) right = right && drawn == (may == 0);
        if (drawn) {
          SolveLimits limits;
          limits.tt_bytes = std::size_t{1} << 20;
          limits.weak = true;
          right = right && solve(Plain<Classic>{g}, limits).value == 0;
          if (crossing && may == 0) ++crossing_draws[o.gravity];
        }
        return listed_move(g, t, moves, rng);
      });
    }
    check(right && std::min(crossing_draws[0], crossing_draws[1]) >= 30 && fixed_above_poisoned >= 30,
          "Classic misere + free choice: the draws where no line can come to be one short at a cell of both symbols, "
          "and the fixed lengths, agree with a model, the draws with the plain solver (" +
              std::to_string(crossing_draws[0]) + " draws without gravity and " + std::to_string(crossing_draws[1]) +
              " with it where lines of both symbols still cross; " + std::to_string(fixed_above_poisoned) +
              " fixed lengths with cells closed above poisoned ones)");
  }

  // MCTS, the same template for every game: it finds a win in one.
  {
    Classic g;
    for (Move m : {0, 3, 1, 4}) g.play(m);  // X: a1 b1; O: a2 b2; X to move wins with c1
    Mcts<Classic> mcts(MctsConfig{});
    check(mcts.search(g, MctsBudget{2000, 0}).best_move == 2, "MCTS plays the win in one on 3x3");
    const auto r = Mcts<Ultimate>(MctsConfig{}).search(Ultimate(), MctsBudget{5000, 0});
    check(r.best_move >= 0 && r.best_move < 81 && r.iterations == 5000, "MCTS searches Ultimate");
  }

  {
    // bits::select_byte through nth_set_bit, against a plain scan of the bits.
    Rng rng(7);
    bool same = true;
    for (int t = 0; t < 2000; ++t) {
      const std::uint64_t x = rng.next() & rng.next();
      const std::uint64_t totals = bits::byte_totals(x);
      int r = 0;
      for (int i = 0; i < 64; ++i)
        if (x >> i & 1) same &= bits::nth_set_bit(x, totals, static_cast<std::uint32_t>(r++)) == i;
      same &= bits::count_of(totals) == r && bits::count(x) == r;
    }
    check(same, "nth_set_bit picks the r-th set bit");
  }

  // Ultimate's rollout policy, checked against the rules by playing every
  // legal move: it plays a legal move; one that wins the game when there is
  // one; else one after which the opponent cannot win the game at once, when
  // such a move exists (its one approximation: a move that closes the board
  // it sends to counts as a free move there).
  {
    Rng rng(11);
    bool legal = true, takes_wins = true, avoids_losses = true;
    auto wins_at_once = [](const Ultimate& g) {
      Ultimate::MoveList moves;
      g.legal_moves(moves);
      for (Move m : moves) {
        Ultimate c = g;
        c.play(m);
        if (c.outcome().winner() == g.to_move()) return true;
      }
      return false;
    };
    for (int game = 0; game < 3000; ++game) {
      Ultimate u;
      const int plies = 20 + static_cast<int>(rng.below(45));
      for (int i = 0; i < plies && !u.outcome().over(); ++i) u.play_random(rng);
      if (u.outcome().over()) continue;
      Ultimate::MoveList moves;
      u.legal_moves(moves);
      const Move m = u.rollout_move(rng);
      legal = legal && std::find(moves.begin(), moves.end(), m) != moves.end();
      Ultimate after = u;
      after.play(m);
      if (wins_at_once(u)) {
        takes_wins = takes_wins && after.outcome().winner() == u.to_move();
        continue;
      }
      bool safe_exists = false;
      for (Move s : moves) {
        Ultimate c = u;
        c.play(s);
        const int sent = s % 9;
        const bool closes_target = c.forced_board() < 0 && !(u.decided_boards() >> sent & 1);
        if (!closes_target && !wins_at_once(c)) safe_exists = true;
      }
      if (safe_exists && after.forced_board() >= 0) avoids_losses = avoids_losses && !wins_at_once(after);
    }
    check(legal, "Ultimate rollout_move plays legal moves");
    check(takes_wins, "Ultimate rollout_move takes a win at once");
    check(avoids_losses, "Ultimate rollout_move does not hand the opponent a win it can avoid");
  }

  // Ultimate's MCTS prior discourages exactly the moves after which the
  // opponent may play anywhere, unless the move wins the game, and in the
  // opening, sent to an empty board, the moves that do not send the
  // opponent back to it.
  {
    Rng rng(12);
    bool exact = true;
    for (int game = 0; game < 2000 && exact; ++game) {
      Ultimate u;
      const int plies = static_cast<int>(rng.below(70));
      for (int i = 0; i < plies && !u.outcome().over(); ++i) u.play_random(rng);
      Ultimate::MoveList moves;
      u.legal_moves(moves);
      for (Move m : moves) {
        Ultimate c = u;
        c.play(m);
        const bool sent_to_empty = u.forced_board() >= 0 && u.marks(Player::X, u.forced_board()) == 0 &&
                                   u.marks(Player::O, u.forced_board()) == 0;
        const bool sends_back = c.forced_board() == u.forced_board();
        const bool free_move = !c.outcome().over() && c.forced_board() < 0;
        const bool expected = free_move || (u.ply() <= Ultimate::kSendBackPlies && sent_to_empty && !sends_back);
        const bool wins = c.outcome().winner() == u.to_move();
        exact = exact && (u.is_discouraged(m) == expected || (!wins && c.outcome().over() && u.is_discouraged(m)));
      }
    }
    check(exact, "Ultimate is_discouraged: the moves that give a free move or, in the opening, do not send back; "
                 "never a winning one");
  }

  // One numbering of the square's symmetries: the 3x3 board that Ultimate and
  // Quantum use maps cells as Classic 3x3 does.
  {
    const ClassicRules& rules = ClassicRules::get(ClassicOptions{3, 3});
    bool same = rules.num_symmetries() == board3::kSymmetries;
    for (int s = 0; s < board3::kSymmetries; ++s)
      for (int c = 0; c < board3::kCells; ++c) same = same && rules.map_cell(s, c) == board3::kSymmetry[s][c];
    check(same, "board3::kSymmetry numbers the symmetries as Classic 3x3 does");
  }

  const auto counts = random_playouts(Quantum(), 2000, 1);
  check(counts.x_wins + counts.o_wins + counts.draws == 2000, "quantum random playouts finish");

  // A raised stop flag ends perft and random_playouts early; a lowered one changes nothing.
  {
    std::atomic<bool> stop{false};
    check(perft(Ultimate(), 4, &stop) == 55080, "perft with a stop flag that stays down counts in full");
    check(random_playouts(Ultimate(), 5000, 7, &stop).x_wins == random_playouts(Ultimate(), 5000, 7).x_wins,
          "random_playouts with a stop flag that stays down gives the seed's counts");
    stop = true;
    check(perft(Ultimate(), 12, &stop) == 0, "perft stops at once when the flag is up");
    const auto stopped = random_playouts(Ultimate(), std::uint64_t{1} << 40, 7, &stop);
    check(stopped.x_wins + stopped.o_wins + stopped.draws < 100000, "random_playouts stops soon when the flag is up");
  }

  // The solvers' table memory: zeroed when made (also when huge pages back
  // it), old entries intact when it is replaced by a larger one, and a
  // moved-from table empty.
  {
    struct Slot {
      std::uint64_t key;
      std::uint32_t a, b;
    };
    for (std::size_t n : {std::size_t{16}, (std::size_t{5} << 20) / sizeof(Slot)}) {
      ZeroedTable<Slot> t(n);
      bool zero = t.size() == n && t.bytes() == n * sizeof(Slot);
      for (const Slot& e : t) zero = zero && e.key == 0 && e.a == 0 && e.b == 0;
      check(zero, "a zeroed table of " + std::to_string(t.bytes()) + " bytes is all zero");
      for (std::size_t i = 0; i < n; ++i) t[i] = Slot{i + 1, 7, 9};
      const ZeroedTable<Slot> old = t.replace(2 * n);
      bool kept = old.size() == n && t.size() == 2 * n;
      for (std::size_t i = 0; i < n; ++i) kept = kept && old[i].key == i + 1 && old[i].a == 7 && old[i].b == 9;
      for (const Slot& e : t) kept = kept && e.key == 0;
      check(kept, "replacing a zeroed table gives back the old entries and a zeroed larger table");
      ZeroedTable<Slot> moved = std::move(t);
      check(moved.size() == 2 * n && t.size() == 0 && t.begin() == t.end(), "a moved-from zeroed table is empty");
    }
  }

  {
    // Hot functions round as the rest of the build (cpp/CMakeLists.txt turns
    // off the fusing of multiply-adds): checked where the CPU has the
    // instructions a fused clone would use.
#if defined(__x86_64__) && defined(__GNUC__)
    const bool has_fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#else
    const bool has_fma = false;
#endif
    if (has_fma) {
      Rng rng(5);
      int differ = 0;
      for (int i = 0; i < 100000; ++i) {
        const float a = static_cast<float>(rng.below(1u << 24)) / 65536.0f - 128.0f;
        const float b = static_cast<float>(rng.below(1u << 24)) / 1048576.0f + 0.1f;
        const float c = static_cast<float>(rng.below(1u << 24)) / 3.0f - 2796202.0f;
        if (std::bit_cast<std::uint32_t>(multiply_add_hot(a, b, c)) != std::bit_cast<std::uint32_t>(multiply_add_plain(a, b, c))) ++differ;
      }
      check(differ == 0, "a hot function's float multiply-add rounds as plain code's (" + std::to_string(differ) + " of 100000 differ)");
    } else {
      std::printf("skip hot functions' rounding: the CPU has no fused multiply-add\n");
    }
  }

  std::printf("%d failed\n", failures);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
