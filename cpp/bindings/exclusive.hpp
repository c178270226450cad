// One object, one thread at a time: the objects whose methods release the
// GIL (an MCTS searcher, a VectorGame) hold an ExclusiveUse, and every method
// that reads or writes their state enters it first. A second thread that
// tries while the first is inside gets a RuntimeError at once, never a data
// race (use one object per thread instead).
#pragma once
#include <atomic>
#include <stdexcept>
#include <string>

namespace noughts::bindings {

class ExclusiveUse {
 public:
  class Scope {
   public:
    explicit Scope(std::atomic<bool>& flag) : flag_(flag) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { flag_.store(false, std::memory_order_release); }

   private:
    std::atomic<bool>& flag_;
  };

  // `what` names the object and the call in use, for the message, e.g.
  // "this MCTS is searching".
  [[nodiscard]] Scope enter(const char* what) {
    if (busy_.exchange(true, std::memory_order_acquire))
      throw std::runtime_error(std::string(what) +
                               " in another thread: one object is used by one thread at a time (make one per thread)");
    return Scope(busy_);
  }

 private:
  std::atomic<bool> busy_{false};
};

}  // namespace noughts::bindings
