// How long each turn of a timed match may search: the time control of
// `noughts engine --codingame` and of the exported CodinGame bot, written once.
//
// A turn's limit counts from the arrival of its first line. On the first turn
// a line that was already waiting when the program first read may have been
// sent at any time since the program started (the referee's clock may start
// before the program is ready), so that turn counts from the start of the
// program; a line the program had to wait for was sent as it arrived (the
// second player, whose first line comes after the first player's answer).
// The search stops a margin before the limit, which leaves
// room for writing the answer and for the scheduler of a loaded machine. The
// margin adapts: when an answer goes out later than planned (the process was
// descheduled, the machine is loaded), the next turns' margin grows by that
// lateness, and the growth decays by a tenth a turn, since load comes in bursts
// of many turns and a single late answer loses the game on CodinGame.
#pragma once

#include <algorithm>
#include <cmath>

#include "noughts/errors.hpp"

namespace noughts {

class TurnClock {
 public:
  // Of each turn's extra margin, what is left a turn later.
  static constexpr double kDecay = 0.9;
  // Part of the given margin kept on top of the observed lateness: what the
  // program cannot see of a late answer (the line's and the answer's travel).
  static constexpr double kUnseenShare = 0.5;
  // A read that took longer than this waited for its line: the line was not
  // there yet (reading a line that is there takes microseconds).
  static constexpr double kWaitedMs = 2.0;
  // The margin a match uses unless told otherwise: on a 2-core machine with
  // both cores busy besides the match, answers reached the referee up to
  // 4 ms after a margin of 15 ms ran out (what the program cannot see: its
  // wake-up on the turn's line, the referee's on the answer).
  static constexpr double kDefaultMarginMs = 20.0;

  TurnClock(double turn_ms, double first_turn_ms, double margin_ms = kDefaultMarginMs)
      : turn_ms_(turn_ms), first_ms_(first_turn_ms), base_(margin_ms) {
    if (!(turn_ms > 0 && turn_ms < 1e9) || !(first_turn_ms > 0 && first_turn_ms < 1e9))
      throw InvalidOptionError("a turn's time limit must be a number of milliseconds > 0 and < 1e9");
    if (!(margin_ms >= 0 && margin_ms < 1e9))
      throw InvalidOptionError("the margin must be a number of milliseconds >= 0 and < 1e9");
  }

  // How long before its first line was read the coming turn began: the read
  // took `waited_ms`, and the program started `since_start_ms` before the
  // line was read (see above).
  double began_before_read_ms(double waited_ms, double since_start_ms) const {
    return first_ && !(waited_ms > kWaitedMs) ? std::max(0.0, since_start_ms) : 0.0;
  }

  // The limit of the coming turn, in milliseconds.
  double limit_ms() const { return first_ ? first_ms_ : turn_ms_; }

  // The margin of the coming turn: the given margin (on the first turn at
  // least 5 % of its limit, as the process's start-up is only estimated),
  // raised to the recent lateness plus half the given margin, and at most
  // half the limit, so that tiny limits still search.
  double margin_ms() const {
    const double limit = limit_ms();
    const double given = first_ ? std::max(base_, 0.05 * limit) : base_;
    const double adapted = late_ > 0 ? late_ + kUnseenShare * base_ : 0.0;
    return std::min(std::max(given, adapted), limit / 2);
  }

  // How long the coming turn may still search, `spent_ms` after it began;
  // at least 1 ms, so that a move is always searched. Plans the answer for
  // the end of that time (so a turn whose start-up took the whole budget
  // is not counted as late: nothing the search could do).
  double search_ms(double spent_ms) {
    spent_ms = std::max(0.0, spent_ms);
    const double budget = std::max(1.0, limit_ms() - margin_ms() - spent_ms);
    planned_ms_ = spent_ms + budget;
    return budget;
  }

  // The answer of the coming turn went out `elapsed_ms` after the turn
  // began; the next call of search_ms is for the turn after.
  void answered(double elapsed_ms) {
    const double late = std::isfinite(elapsed_ms) ? elapsed_ms - planned_ms_ : 0.0;
    late_ = std::max(kDecay * late_, late);
    if (late_ < 0.01) late_ = 0;
    first_ = false;
  }

  // The recent lateness the margin answers to (a decaying maximum), in ms.
  double lateness_ms() const { return late_; }
  bool first_turn() const { return first_; }

 private:
  double turn_ms_, first_ms_, base_;
  bool first_ = true;
  double planned_ms_ = 0;
  double late_ = 0;
};

}  // namespace noughts
