// Asking for memory a search will read soon, so that it arrives while the
// search does other work (a hint: compilers without the builtin skip it).
#pragma once

namespace noughts::detail {

inline void prefetch(const void* p) noexcept {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

}  // namespace noughts::detail
