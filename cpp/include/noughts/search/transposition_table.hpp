// A bounded transposition table for the exact solver: score bounds and the
// best move per position, in two-entry buckets (one kept by the size of the
// subtree that produced it, one always replaced).
//
// The table starts small and grows (by rehashing) as it fills, up to the
// byte budget: a small solve does not pay to clear a large table, and a
// large one gets all the memory it was allowed.
#pragma once
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "noughts/search/zeroed_table.hpp"

namespace noughts {

class TranspositionTable {
 public:
  static constexpr std::uint8_t kNoMove = 0xff;
  struct Entry {
    std::uint64_t key = 0;
    std::int16_t lower = 0;
    std::int16_t upper = 0;
    std::uint8_t move = kNoMove;
    std::uint8_t work = 0;  // log2 of the nodes searched below; what is kept on collision
    bool used = false;
  };

  explicit TranspositionTable(std::size_t max_bytes) {
    // The largest power of two of buckets within the budget (no overflow for any budget).
    max_buckets_ = std::bit_floor(std::max<std::size_t>(max_bytes / sizeof(Bucket), 1));
    resize(std::min<std::size_t>(max_buckets_, kInitialBuckets));
  }

  // Starts loading a key's bucket, so a find() a little later does not wait
  // for memory.
  void prefetch(std::uint64_t key) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(&table_[key & mask_]);
#else
    (void)key;
#endif
  }

  const Entry* find(std::uint64_t key) const noexcept {
    const Bucket& b = table_[key & mask_];
    for (const Entry& e : b.slots)
      if (e.used && e.key == key) return &e;
    return nullptr;
  }

  void store(std::uint64_t key, int lower, int upper, int move, int work) {
    Bucket& b = table_[key & mask_];
    Entry* slot = nullptr;
    for (Entry& e : b.slots)
      if (e.used && e.key == key) slot = &e;
    if (slot) {  // the same position: keep the tighter bounds
      lower = std::max<int>(lower, slot->lower);
      upper = std::min<int>(upper, slot->upper);
      if (move == kNoMove) move = slot->move;
      work = std::max<int>(work, slot->work);
    } else {
      slot = &replaced(b, work);
      if (!slot->used && ++used_ > table_.size() && table_.size() < max_buckets_) {
        write(*slot, key, lower, upper, move, work);
        resize(std::min(max_buckets_, table_.size() * 4));
        return;
      }
    }
    write(*slot, key, lower, upper, move, work);
  }

  std::size_t bytes() const noexcept { return table_.bytes(); }

 private:
  static constexpr std::size_t kInitialBuckets = std::size_t{1} << 10;  // 32 KiB
  struct Bucket {
    Entry slots[2];
  };

  // The slot a new entry of `work` takes: the kept slot when it is empty or
  // holds no more work, else the always-replaced one.
  static Entry& replaced(Bucket& b, int work) noexcept {
    return (!b.slots[0].used || work >= b.slots[0].work) ? b.slots[0] : b.slots[1];
  }

  static void write(Entry& e, std::uint64_t key, int lower, int upper, int move, int work) noexcept {
    e.key = key;
    e.lower = static_cast<std::int16_t>(lower);
    e.upper = static_cast<std::int16_t>(upper);
    e.move = static_cast<std::uint8_t>(move);
    e.work = static_cast<std::uint8_t>(work);
    e.used = true;
  }

  // Buckets are plain data, all-zero bytes an empty bucket.
  void resize(std::size_t buckets) {
    const ZeroedTable<Bucket> old = table_.replace(buckets);
    mask_ = buckets - 1;
    used_ = 0;
    for (const Bucket& b : old)
      for (const Entry& e : b.slots)
        if (e.used) {
          Entry& slot = replaced(table_[e.key & mask_], e.work);
          used_ += !slot.used;
          slot = e;
        }
  }

  ZeroedTable<Bucket> table_;
  std::size_t mask_ = 0;
  std::size_t max_buckets_ = 1;
  std::size_t used_ = 0;  // occupied slots; growth when they outnumber buckets
};

}  // namespace noughts
