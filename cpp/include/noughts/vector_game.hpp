// Many games stepped together for reinforcement learning: one call plays an
// action in each, writes observations, rewards, terminations and legal masks
// into caller-provided buffers, and restarts finished games (auto-reset).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "noughts/errors.hpp"
#include "noughts/observation.hpp"
#include "noughts/rng.hpp"

namespace noughts {

template <Observable G>
class VectorGame {
 public:
  VectorGame(const G& start, int n, std::uint64_t seed = 0)
      : start_(start), games_(static_cast<std::size_t>(n), start), rng_(seed) {}

  int size() const noexcept { return static_cast<int>(games_.size()); }
  const G& start() const noexcept { return start_; }
  const G& game(int i) const noexcept { return games_[static_cast<std::size_t>(i)]; }
  ObservationShape shape() const noexcept { return start_.observation_shape(); }
  int num_actions() const noexcept { return start_.num_actions(); }

  void reset() {
    for (auto& g : games_) g = start_;
  }

  // Checks every action first, so an illegal one changes no game. The test
  // is a few bit operations per game; the message is built only on failure.
  void check(const std::int64_t* actions) const {
    const int na = num_actions();
    for (int i = 0; i < size(); ++i) {
      const std::int64_t a = actions[i];
      if (a < 0 || a >= na || !games_[static_cast<std::size_t>(i)].is_legal(static_cast<Move>(a))) [[unlikely]]
        reject(i, a);
    }
  }

  // Plays actions[i] in game i. reward[i] is for the player who moved: +1 a
  // win, -1 a loss, 0 otherwise. A game that ends is reset to the start, and
  // its observation and mask are those of the new game; with `finals`, the
  // observation of the finished position is written there first (entries of
  // games that did not end are left as they were).
  void step(const std::int64_t* actions, float* rewards, std::uint8_t* terminated, std::uint8_t* observations,
            std::uint8_t* masks, std::int8_t* to_move, std::uint8_t* finals = nullptr) {
    check(actions);
    const int obs = shape().size(), na = num_actions();
    for (int i = 0; i < size(); ++i) {
      G& g = games_[static_cast<std::size_t>(i)];
      const Player mover = g.to_move();
      g.play(static_cast<Move>(actions[i]));
      const Outcome o = g.outcome();
      rewards[i] = 0.0f;
      terminated[i] = o.over();
      if (o.over()) {
        if (auto w = o.winner()) rewards[i] = *w == mover ? 1.0f : -1.0f;
        if (finals) g.observe(finals + static_cast<std::size_t>(i) * obs, g.to_move());
        g = start_;
      }
      write(i, observations + static_cast<std::size_t>(i) * obs, masks + static_cast<std::size_t>(i) * na, to_move);
    }
  }

  // A uniformly random legal move for each game (for baselines, self-play
  // openings and benchmarks), from the vector's own seeded generator.
  void random_actions(std::int64_t* out) {
    for (int i = 0; i < size(); ++i) out[i] = games_[static_cast<std::size_t>(i)].random_move(rng_);
  }

  void write_all(std::uint8_t* observations, std::uint8_t* masks, std::int8_t* to_move) const {
    const int obs = shape().size(), na = num_actions();
    for (int i = 0; i < size(); ++i)
      write(i, observations + static_cast<std::size_t>(i) * obs, masks + static_cast<std::size_t>(i) * na, to_move);
  }

 private:
  void write(int i, std::uint8_t* obs, std::uint8_t* mask, std::int8_t* to_move) const {
    const G& g = games_[static_cast<std::size_t>(i)];
    if (obs) g.observe(obs, g.to_move());
    if (mask) g.write_legal_mask(mask);
    if (to_move) to_move[i] = static_cast<std::int8_t>(g.to_move());
  }

  [[noreturn]] void reject(int i, std::int64_t a) const {
    const G& g = games_[static_cast<std::size_t>(i)];
    const std::string why = (a < 0 || a >= g.num_actions()) ? move_id_out_of_range(a, g.num_actions())
                                                             : g.why_illegal(static_cast<Move>(a));
    throw IllegalMoveError("game " + std::to_string(i) + ": illegal action " + std::to_string(a) + ": " + why);
  }

  G start_;
  std::vector<G> games_;
  Rng rng_;
};

}  // namespace noughts
