// Ultimate's learned evaluation: a network with one hidden layer over the
// features scripts/train_ultimate_eval.py trains on (the two must agree:
// tests/test_ultimate_eval.py compares them). MCTS values its leaves with
// it instead of rolling them out.
#include <algorithm>
#include <cmath>

#include "noughts/search/playout.hpp"  // NOUGHTS_HOT_CLONES
#include "noughts/ultimate.hpp"
#include "noughts/ultimate_eval_weights.hpp"

namespace noughts {

namespace {

namespace w = ultimate_eval_weights;

// Where each group of features starts.
constexpr int kOwnMarks = 0, kTheirMarks = 81, kOwnBoards = 162, kTheirBoards = 171, kDrawnBoards = 180,
              kSentTo = 189;
static_assert(w::kFeatures == kSentTo + 10, "the weights were trained on other features");

}  // namespace

NOUGHTS_HOT_CLONES float Ultimate::evaluate() const noexcept {
  alignas(64) float hidden[w::kHidden];
  std::copy(std::begin(w::kHiddenBias), std::end(w::kHiddenBias), hidden);
  auto add = [&](int feature) {
    const float* row = w::kInput[feature];
    for (int i = 0; i < w::kHidden; ++i) hidden[i] += row[i];
  };
  const Player me = to_move(), them = opponent(me);
  for (int b = 0; b < kBoards; ++b) {
    bits::for_each(marks(me, b), [&](int c) { add(kOwnMarks + 9 * b + c); });
    bits::for_each(marks(them, b), [&](int c) { add(kTheirMarks + 9 * b + c); });
  }
  bits::for_each(won_boards(me), [&](int b) { add(kOwnBoards + b); });
  bits::for_each(won_boards(them), [&](int b) { add(kTheirBoards + b); });
  bits::for_each(decided_boards() & ~won_boards(me) & ~won_boards(them), [&](int b) { add(kDrawnBoards + b); });
  const int sent = forced_board();
  add(kSentTo + (sent < 0 ? 9 : sent));
  float sum = w::kOutputBias;
  for (int i = 0; i < w::kHidden; ++i) sum += std::clamp(hidden[i], 0.0f, 1.0f) * w::kOutput[i];
  return std::tanh(sum);
}

}  // namespace noughts
