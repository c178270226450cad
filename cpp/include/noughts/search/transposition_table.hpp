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
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace noughts {

namespace detail {
// Zeroed memory for a table of `bytes`. Large tables on Linux ask for huge
// pages: probes land anywhere in the table, and with 4 KiB pages most of
// them would also miss the TLB, and table probes would dominate the
// solver's time on large boards.
inline std::byte* allocate_table(std::size_t bytes) {
#if defined(__linux__)
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  if (bytes >= kHuge) {
    const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    if (void* p = std::aligned_alloc(kHuge, rounded)) {
      madvise(p, rounded, MADV_HUGEPAGE);  // a hint: without huge pages the table still works
      std::memset(p, 0, bytes);
      return static_cast<std::byte*>(p);
    }
    throw std::bad_alloc();
  }
#endif
  void* p = std::calloc(bytes, 1);
  if (!p) throw std::bad_alloc();
  return static_cast<std::byte*>(p);
}
struct FreeTable {
  void operator()(std::byte* p) const noexcept { std::free(p); }
};
}  // namespace detail

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
      if (!slot->used && ++used_ > buckets_ && buckets_ < max_buckets_) {
        write(*slot, key, lower, upper, move, work);
        resize(std::min(max_buckets_, buckets_ * 4));
        return;
      }
    }
    write(*slot, key, lower, upper, move, work);
  }

  std::size_t bytes() const noexcept { return buckets_ * sizeof(Bucket); }

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

  void resize(std::size_t buckets) {
    // Buckets are plain data (all-zero bytes: an empty bucket), so the
    // table is raw zeroed memory.
    static_assert(std::is_trivially_copyable_v<Bucket>);
    std::unique_ptr<std::byte[], detail::FreeTable> old = std::move(storage_);
    const Bucket* old_table = table_;
    const std::size_t old_buckets = buckets_;
    storage_.reset(detail::allocate_table(buckets * sizeof(Bucket)));
    table_ = std::launder(reinterpret_cast<Bucket*>(storage_.get()));
    buckets_ = buckets;
    mask_ = buckets - 1;
    used_ = 0;
    for (std::size_t i = 0; i < old_buckets; ++i)
      for (const Entry& e : old_table[i].slots)
        if (e.used) {
          Entry& slot = replaced(table_[e.key & mask_], e.work);
          used_ += !slot.used;
          slot = e;
        }
  }

  std::unique_ptr<std::byte[], detail::FreeTable> storage_;
  Bucket* table_ = nullptr;
  std::size_t buckets_ = 0;
  std::size_t mask_ = 0;
  std::size_t max_buckets_ = 1;
  std::size_t used_ = 0;  // occupied slots; growth when they outnumber buckets
};

}  // namespace noughts
