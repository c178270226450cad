// Runs a long C++ computation without the GIL while the calling thread
// stays responsive to Ctrl-C: the work runs on a worker thread (one kept
// waiting between calls, worker_pool.hpp), and the
// caller wakes every few milliseconds, takes the GIL just long enough to
// let Python handle signals, and on KeyboardInterrupt raises the stop flag,
// waits for the worker to wind down, and re-raises. The caller first
// watches for the result for a short while (kWatch), without the GIL: many
// calls are over within microseconds, sooner than a sleeping thread wakes.
#pragma once
#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <future>
#include <memory>
#include <utility>

#include "spin_wait.hpp"
#include "worker_pool.hpp"

namespace noughts::bindings {

namespace py = pybind11;

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
      while (future.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // takes the pending exception
        if (!cancel.is_none() && py::bool_(cancel.attr("is_set")())) stop = true;  // the work winds down
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

}  // namespace noughts::bindings
