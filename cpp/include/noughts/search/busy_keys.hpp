// The positions that the threads of a parallel search are searching near
// the root, by key, so that each thread can steer away from the others'
// paths (alpha-beta's ABDADA rule, proof-number search's choice of child).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace noughts {

// A slot per key's low bits: a collision only makes a position look busy
// (or free) by mistake, which costs time, never a wrong answer. Half a MiB,
// allocated (zeroed) when made: make it when the threads start.
class BusyKeys {
 public:
  BusyKeys() : slots_(std::make_unique<std::atomic<std::uint64_t>[]>(kMask + 1)) {}

  void enter(std::uint64_t key) noexcept { slots_[key & kMask].store(key, std::memory_order_relaxed); }
  void leave(std::uint64_t key) noexcept { slots_[key & kMask].compare_exchange_strong(key, 0, std::memory_order_relaxed); }
  bool busy(std::uint64_t key) const noexcept { return slots_[key & kMask].load(std::memory_order_relaxed) == key; }

 private:
  static constexpr std::size_t kMask = (std::size_t{1} << 16) - 1;
  std::unique_ptr<std::atomic<std::uint64_t>[]> slots_;
};

}  // namespace noughts
