// Runs a long C++ computation without the GIL while the calling thread
// stays responsive to Ctrl-C. run_interruptible: the work runs on a worker
// thread (one kept waiting between calls, worker_pool.hpp), and the
// caller wakes every few milliseconds, takes the GIL just long enough to
// let Python handle signals, and on KeyboardInterrupt raises the stop flag,
// waits for the worker to wind down, and re-raises. The caller first
// watches for the result for a short while (kWatch), without the GIL: many
// calls are over within microseconds, sooner than a sleeping thread wakes.
// run_polling: work that calls back now and then runs on the calling
// thread, and its callback does the caller's part.
#pragma once
#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <future>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "spin_wait.hpp"
#include "worker_pool.hpp"

namespace noughts::bindings {

namespace py = pybind11;

// How often a running call lets Python handle signals and reads `cancel`.
inline constexpr std::chrono::milliseconds kAttendEvery{20};

// With the GIL held: lets Python run its signal handlers (Ctrl-C raises
// KeyboardInterrupt here), and sets `stop` when `cancel` is set.
inline void attend_to_python(py::handle cancel, std::atomic<bool>& stop) {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // takes the pending exception
  if (!cancel.is_none() && py::bool_(cancel.attr("is_set")())) stop = true;  // the work winds down
}

// `work(stop)` must return soon after `stop` becomes true. Call with the GIL
// held. `cancel`, when given, is polled too: an object with is_set() (a
// threading.Event) that another Python thread sets to stop the work.
//
// Whatever leaves the polling loop (Ctrl-C, an exception from is_set(), a
// signal handler's exception) stops the work and waits for it before it
// goes on: the work reads this frame's variables.
template <class Work>
auto run_interruptible(Work&& work, py::handle cancel = py::none())
    -> decltype(work(std::declval<std::atomic<bool>&>())) {
  using Result = decltype(work(std::declval<std::atomic<bool>&>()));
  std::atomic<bool> stop{false};
  // The worker holds the task (and through it the result's shared state)
  // until it is done with it; this thread holds the future.
  auto task = std::make_shared<std::packaged_task<Result()>>([&] { return work(stop); });
  auto future = task->get_future();
  // Set after the result: shared, as the worker may still store it when
  // this frame is gone (it is only read here before future.wait()).
  auto done = std::make_shared<std::atomic<bool>>(false);
  std::exception_ptr failure;
  {
    py::gil_scoped_release release;
    WorkerPool::run([task, done] {
      (*task)();
      done->store(true, std::memory_order_release);
    });
    constexpr std::chrono::microseconds kWatch{300};
    spin_until([&] { return done->load(std::memory_order_acquire); }, kWatch);
    try {
      while (future.wait_for(kAttendEvery) != std::future_status::ready) {
        py::gil_scoped_acquire acquire;
        attend_to_python(cancel, stop);
      }
    } catch (...) {
      stop = true;
      failure = std::current_exception();
    }
    future.wait();  // `work` and `stop` live here: the worker is done with them once the result is set
  }
  if (failure) std::rethrow_exception(failure);
  return future.get();  // rethrows what the work threw
}

// The same for work that can call back now and then (a solve calls
// SolveLimits::poll every few thousand nodes): it runs on the calling
// thread, without the GIL, and `work(stop, poll)` must call `poll` often
// and return soon after `stop` becomes true. No hand-over to a worker,
// which is most of what a short call would cost. Every kAttendEvery, poll
// takes the GIL and does what the waiting loop above does; what that
// raises stops the work and is raised once it has returned.
template <class Work>
auto run_polling(Work&& work, py::handle cancel = py::none())
    -> decltype(work(std::declval<std::atomic<bool>&>(), std::declval<const std::function<void()>&>())) {
  using Result = decltype(work(std::declval<std::atomic<bool>&>(), std::declval<const std::function<void()>&>()));
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  auto next = std::chrono::steady_clock::now() + kAttendEvery;
  const std::function<void()> poll = [&] {
    const auto now = std::chrono::steady_clock::now();
    if (now < next || failure) return;
    next = now + kAttendEvery;
    py::gil_scoped_acquire acquire;
    try {
      attend_to_python(cancel, stop);
    } catch (...) {
      stop = true;
      failure = std::current_exception();
    }
  };
  std::optional<Result> result;
  {
    py::gil_scoped_release release;
    try {
      result.emplace(work(stop, poll));
    } catch (...) {
      if (!failure) throw;  // the work's own error; else it stopped for `failure`
    }
  }
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

}  // namespace noughts::bindings
