// Threads that run the bindings' long calls (interruptible.hpp), kept
// waiting between calls: starting and joining a thread costs about 40 us,
// and a solve of an end position or a search of a few hundred MCTS
// iterations takes less than that. Waking a worker that sleeps costs tens
// of microseconds more on a busy machine, so a worker first watches for the
// next job for a short while (kSpin) and only then sleeps: calls made one
// after another, as scripts and benchmarks make them, find it awake.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "spin_wait.hpp"

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
    queued_.store(jobs_.size(), std::memory_order_release);
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
    bool spin = false;  // not before the first job: it is already queued
    for (;;) {
      ++waiting_;  // a watching worker counts as waiting: submit() need not start another
      if (spin && jobs_.empty()) {
        lock.unlock();
        spin_until([&] { return queued_.load(std::memory_order_acquire) > 0; }, kSpin);
        lock.lock();
      }
      wake_.wait(lock, [&] { return !jobs_.empty(); });
      --waiting_;
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      queued_.store(jobs_.size(), std::memory_order_release);
      spin = true;
      lock.unlock();
      job();
      job = nullptr;  // what the job held goes before the worker waits again
      lock.lock();
    }
  }

  // How long a worker watches for the next job before it sleeps: long
  // enough to cover a script's own work between two calls, and at most that
  // much of a core spent after each call.
  static constexpr std::chrono::microseconds kSpin{200};

  const long pid_ = process_id();
  std::mutex mutex_;
  std::atomic<std::size_t> queued_{0};      // jobs_.size(), readable without the mutex
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;  // guarded by mutex_
  std::size_t waiting_ = 0;                 // workers waiting for a job; guarded by mutex_
};

}  // namespace noughts::bindings
