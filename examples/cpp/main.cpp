// Solves 4x4 four-in-a-row and counts Ultimate move sequences with noughts' C++ API.
#include <cstdio>

#include "noughts/classic.hpp"
#include "noughts/search/perft.hpp"
#include "noughts/search/solver.hpp"
#include "noughts/ultimate.hpp"

int main() {
  noughts::Classic four(noughts::ClassicOptions{.rows = 4, .cols = 4, .k = 4});
  const noughts::Solution s = noughts::solve(four);
  std::printf("4x4 k=4: value for X %+d, %zu best first moves, %llu nodes\n", s.value_for_x, s.best_moves.size(),
              static_cast<unsigned long long>(s.nodes));
  std::printf("Ultimate perft(5) = %llu\n", static_cast<unsigned long long>(noughts::perft(noughts::Ultimate(), 5)));
  return 0;
}
