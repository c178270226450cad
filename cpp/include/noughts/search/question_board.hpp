// The questions of one phase of a parallel solve (e.g. "does each root move
// keep the value?"), shared out to the threads: each thread takes the open
// question with the fewest threads on it (so one nobody has taken, while
// there is one), and the first answer to a question ends it for every
// thread on it. Alpha-beta's crew and proof-number search's team both
// answer their root moves' questions this way: below the root the moves'
// trees share little, so one thread a move wastes less than all threads on
// each move in turn.
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace noughts {

class QuestionBoard {
 public:
  explicit QuestionBoard(std::size_t questions)
      : answers_(questions, 0), on_(questions, 0), ended_(std::make_unique<std::atomic<bool>[]>(questions)) {}

  std::size_t size() const noexcept { return on_.size(); }

  // The open question with the fewest threads on it, now one more; -1 when
  // every question has ended.
  int take() {
    const std::lock_guard lock(mutex_);
    int pick = -1;
    for (std::size_t i = 0; i < on_.size(); ++i)
      if (!ended(i) && (pick < 0 || on_[i] < on_[static_cast<std::size_t>(pick)])) pick = static_cast<int>(i);
    if (pick >= 0) ++on_[static_cast<std::size_t>(pick)];
    return pick;
  }
  // A thread is off question i (answered, dropped, or stopped).
  void leave(int i) {
    const std::lock_guard lock(mutex_);
    --on_[static_cast<std::size_t>(i)];
  }
  // The first answer to question i stands and ends it: true if this was it.
  bool answer(int i, int value) {
    const std::lock_guard lock(mutex_);
    const auto q = static_cast<std::size_t>(i);
    if (ended(q)) return false;
    answers_[q] = value;
    ended_[q].store(true, std::memory_order_relaxed);
    return true;
  }
  // Set once question i has ended: a thread on it checks this now and then.
  const std::atomic<bool>& ended_flag(int i) const noexcept { return ended_[static_cast<std::size_t>(i)]; }
  // The answers, once every thread is off the board.
  const std::vector<int>& answers() const noexcept { return answers_; }

 private:
  bool ended(std::size_t i) const noexcept { return ended_[i].load(std::memory_order_relaxed); }

  std::mutex mutex_;
  std::vector<int> answers_;  // guarded by mutex_
  std::vector<int> on_;       // threads on each question; guarded by mutex_
  std::unique_ptr<std::atomic<bool>[]> ended_;  // written under mutex_; read by the threads on the questions
};

}  // namespace noughts
