// The memory of the solvers' tables (the alpha-beta transposition table and
// proof-number search's): an array of plain entries, zeroed (all zero bytes
// are an empty entry), that a table replaces by a larger one as it fills,
// reinserting the old entries.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

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
  std::unique_ptr<std::byte[], detail::FreeTable> memory_;
  T* entries_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace noughts
