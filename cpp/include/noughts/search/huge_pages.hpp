// Memory for the searches' big arrays (the solvers' tables, MCTS's node
// pool) on huge pages where the system has them. Those arrays are read at
// random places: with 4 KiB pages nearly every access to one of tens of
// megabytes also misses the TLB, and the page walks cost about as much as
// the work.
#pragma once
#include <cstddef>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace noughts::detail {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Whether an array of `bytes` gets mapped pages of its own (else the heap's).
constexpr bool maps_pages(std::size_t bytes) noexcept {
#if defined(__linux__)
  return bytes >= kHugePage;
#else
  (void)bytes;
  return false;
#endif
}

// The length of the mapping of an array of `bytes`: whole huge pages.
constexpr std::size_t mapped_length(std::size_t bytes) noexcept {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

#if defined(__linux__)
// Fresh pages for an array of `bytes` (maps_pages(bytes)), which the system
// zeroes as they are first touched.
inline void* map_pages(std::size_t bytes) {
  const std::size_t length = mapped_length(bytes);
  void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  madvise(p, length, MADV_HUGEPAGE);  // a hint: without huge pages the memory still works
  return p;
}
inline void unmap_pages(void* p, std::size_t bytes) noexcept { munmap(p, mapped_length(bytes)); }
#else
inline void* map_pages(std::size_t) { throw std::bad_alloc(); }
inline void unmap_pages(void*, std::size_t) noexcept {}
#endif

// The allocator of a std::vector that may grow large: arrays of a huge page
// or more are mapped on their own, smaller ones come from the heap.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() noexcept = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (maps_pages(n * sizeof(T))) return static_cast<T*>(map_pages(n * sizeof(T)));
    return std::allocator<T>{}.allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (maps_pages(n * sizeof(T))) unmap_pages(p, n * sizeof(T));
    else std::allocator<T>{}.deallocate(p, n);
  }
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) noexcept { return true; }
};

}  // namespace noughts::detail
