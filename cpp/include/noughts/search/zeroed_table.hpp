// The memory of the solvers' tables (the alpha-beta transposition table and
// proof-number search's): an array of plain entries, zeroed (all zero bytes
// are an empty entry), that a table replaces by a larger one as it fills,
// reinserting the old entries.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace noughts {

namespace detail {
// Frees a table's memory: mapped pages (their length) or the heap's.
struct FreeTable {
  std::size_t mapped = 0;
  void operator()(std::byte* p) const noexcept {
#if defined(__linux__)
    if (mapped) {
      munmap(p, mapped);
      return;
    }
#endif
    std::free(p);
  }
};
using TableMemory = std::unique_ptr<std::byte[], FreeTable>;

// Zeroed memory for a table of `bytes`. Large tables on Linux are fresh
// anonymous pages, which the system zeroes as they are first touched (a
// table that a small solve hardly uses costs next to nothing), and ask for
// huge pages: probes land anywhere in the table, and with 4 KiB pages most
// of them would also miss the TLB, and table probes would dominate the
// solver's time on large boards.
inline TableMemory allocate_table(std::size_t bytes) {
#if defined(__linux__)
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  if (bytes >= kHuge) {
    const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // a hint: without huge pages the table still works
    return TableMemory(static_cast<std::byte*>(p), FreeTable{rounded});
  }
#endif
  void* p = std::calloc(bytes, 1);
  if (!p) throw std::bad_alloc();
  return TableMemory(static_cast<std::byte*>(p), FreeTable{});
}
}  // namespace detail

// A table's entries: `size()` plain values in zeroed memory, on huge pages
// where the system has them (see allocate_table).
template <class T>
class ZeroedTable {
  // Zeroed bytes must be a valid (empty) entry, and entries are copied as bytes.
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  ZeroedTable() = default;
  explicit ZeroedTable(std::size_t entries)
      : memory_(detail::allocate_table(entries * sizeof(T))),
        entries_(std::launder(reinterpret_cast<T*>(memory_.get()))),
        size_(entries) {}
  ZeroedTable(ZeroedTable&& o) noexcept
      : memory_(std::move(o.memory_)), entries_(std::exchange(o.entries_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  ZeroedTable& operator=(ZeroedTable&& o) noexcept {
    memory_ = std::move(o.memory_);
    entries_ = std::exchange(o.entries_, nullptr);
    size_ = std::exchange(o.size_, 0);
    return *this;
  }

  T& operator[](std::size_t i) noexcept { return entries_[i]; }
  const T& operator[](std::size_t i) const noexcept { return entries_[i]; }
  const T* begin() const noexcept { return entries_; }
  const T* end() const noexcept { return entries_ + size_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }

  // Growth: this table becomes `entries` empty entries, and the old ones
  // come back for the caller to reinsert (their memory is freed when the
  // returned table goes). If the allocation fails, nothing changes.
  [[nodiscard]] ZeroedTable replace(std::size_t entries) { return std::exchange(*this, ZeroedTable(entries)); }

 private:
  detail::TableMemory memory_;
  T* entries_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace noughts
