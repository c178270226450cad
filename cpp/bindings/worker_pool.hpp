// Threads that run the bindings' long calls (interruptible.hpp), kept
// waiting between calls: starting and joining a thread costs about 40 us,
// handing a job to a waiting one about 8 us, and a solve of an end position
// or a search of a few hundred MCTS iterations takes less than that.
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#if defined(_WIN32)
#include <process.h>
#else
#include <unistd.h>
#endif

namespace noughts::bindings {

class WorkerPool {
 public:
  // Runs job() on a waiting worker, starting a new one when every worker is
  // busy (so concurrent callers never wait for each other). Returns at once;
  // job must not throw.
  static void run(std::function<void()> job) { instance().submit(std::move(job)); }

 private:
  WorkerPool() = default;

  // The pool of this process. A child made by fork() has none of its
  // parent's threads (and the pool's mutex may have been held when it was
  // copied), so a child starts a pool of its own and leaves the copy alone.
  static WorkerPool& instance() {
    static std::atomic<WorkerPool*> current{nullptr};
    WorkerPool* pool = current.load(std::memory_order_acquire);
    const long pid = process_id();
    while (pool == nullptr || pool->pid_ != pid) {
      auto* fresh = new WorkerPool();  // workers start on the first job, so a losing copy is only memory
      if (current.compare_exchange_strong(pool, fresh, std::memory_order_acq_rel)) return *fresh;
      delete fresh;  // another thread installed one: `pool` now holds it
    }
    return *pool;
  }

  static long process_id() noexcept {
#if defined(_WIN32)
    return static_cast<long>(_getpid());
#else
    return static_cast<long>(getpid());
#endif
  }

  void submit(std::function<void()> job) {
    std::unique_lock lock(mutex_);
    jobs_.push_back(std::move(job));
    // A waiting worker takes it; workers woken but not yet running count
    // as waiting, so one more is started only when they are all spoken for.
    if (waiting_ < jobs_.size()) {
      // The pool is never destroyed (workers wait for ever, and the process
      // ends them at exit), so a worker never outlives what it reads.
      try {
        std::thread([this] { work(); }).detach();
      } catch (...) {
        jobs_.pop_back();  // no thread to run it: the caller gets the error instead
        throw;
      }
    } else {
      lock.unlock();
      wake_.notify_one();
    }
  }

  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      ++waiting_;
      wake_.wait(lock, [&] { return !jobs_.empty(); });
      --waiting_;
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      job = nullptr;  // what the job held goes before the worker waits again
      lock.lock();
    }
  }

  const long pid_ = process_id();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;  // guarded by mutex_
  std::size_t waiting_ = 0;                 // workers waiting for a job; guarded by mutex_
};

}  // namespace noughts::bindings
