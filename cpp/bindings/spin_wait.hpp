// Waiting for something another thread does within microseconds: watching
// a flag costs less than sleeping on it, as a sleeper is woken by the kernel
// tens of microseconds later on a busy machine. Every few checks the thread
// yields, so that on a core shared with the thread it waits for, that
// thread runs.
#pragma once
#include <chrono>
#include <thread>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#include <immintrin.h>
#endif

namespace noughts::bindings {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// True once done() is; false if it is not within `limit`.
template <class Done>
bool spin_until(Done&& done, std::chrono::microseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
    if (i % 64 == 0) {
      if (std::chrono::steady_clock::now() >= until) return false;
      std::this_thread::yield();
    } else {
      cpu_relax();
    }
  }
}

}  // namespace noughts::bindings
