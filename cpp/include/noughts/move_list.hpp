// A fixed-capacity list of move ids: move generation never allocates.
#pragma once
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>

namespace noughts {

// A move is its id of docs/rules.md "Move ids": small and non-negative in every game.
using Move = int;

template <int Capacity>
class MoveList {
 public:
  static constexpr int capacity = Capacity;
  void push(Move m) noexcept {
    assert(size_ < Capacity);
    moves_[size_++] = static_cast<std::uint8_t>(m);
  }
  // Appends the index of each set bit, lowest first: a count kept in a
  // register, where push() writes size_ back after every move.
  void push_each(std::uint64_t ids) noexcept {
    int n = size_;
    for (; ids; ids &= ids - 1) moves_[n++] = static_cast<std::uint8_t>(std::countr_zero(ids));
    assert(n <= Capacity);
    size_ = n;
  }
  void clear() noexcept { size_ = 0; }
  int size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  Move operator[](int i) const noexcept { return moves_[i]; }
  const std::uint8_t* begin() const noexcept { return moves_.data(); }
  const std::uint8_t* end() const noexcept { return moves_.data() + size_; }
  bool contains(Move m) const noexcept {
    for (int i = 0; i < size_; ++i)
      if (moves_[i] == m) return true;
    return false;
  }

 private:
  static_assert(Capacity <= 256, "move ids are stored in one byte");
  std::array<std::uint8_t, Capacity> moves_;
  int size_ = 0;
};

}  // namespace noughts
