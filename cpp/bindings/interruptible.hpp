// Runs a long C++ computation without the GIL while the calling thread
// stays responsive to Ctrl-C: the work runs on a worker thread, and the
// caller wakes every few milliseconds, takes the GIL just long enough to
// let Python handle signals, and on KeyboardInterrupt raises the stop flag,
// waits for the worker to wind down, and re-raises.
#pragma once
#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <future>
#include <thread>
#include <utility>

namespace noughts::bindings {

namespace py = pybind11;

// `work(stop)` must return soon after `stop` becomes true. Call with the GIL
// held. `cancel`, when given, is polled too: an object with is_set() (a
// threading.Event) that another Python thread sets to stop the work.
//
// Whatever leaves the polling loop (Ctrl-C, an exception from is_set(), a
// signal handler's exception) stops and joins the worker before it goes on:
// a std::thread still joinable when it is destroyed would end the process.
template <class Work>
auto run_interruptible(Work&& work, py::handle cancel = py::none())
    -> decltype(work(std::declval<std::atomic<bool>&>())) {
  using Result = decltype(work(std::declval<std::atomic<bool>&>()));
  std::atomic<bool> stop{false};
  std::packaged_task<Result()> task([&] { return work(stop); });
  auto future = task.get_future();
  std::exception_ptr failure;
  {
    py::gil_scoped_release release;
    std::thread worker(std::move(task));
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
    worker.join();
  }
  if (failure) std::rethrow_exception(failure);
  return future.get();  // rethrows what the work threw
}

}  // namespace noughts::bindings
