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
              kSentTo = 189, kEnd = 199;
static_assert(w::kFeatures == kEnd, "the weights were trained on other features");
static_assert(w::kRuleSets == 2, "one network for the seeds' rules, one for the board-count tie-break");

// The network's value of a hidden layer before its activation. Eight
// partial sums, so that the compiler can keep them in one vector register
// (one running sum would fix the order of the additions).
inline float output(int net, const float* hidden) noexcept {
  static_assert(w::kHidden % 8 == 0);
  float sums[8] = {};
  for (int i = 0; i < w::kHidden; i += 8)
    for (int j = 0; j < 8; ++j) sums[j] += std::max(0.0f, std::min(1.0f, hidden[i + j])) * w::kOutput[net][i + j];
  float sum = w::kOutputBias[net];
  for (float s : sums) sum += s;
  return std::tanh(sum);
}

}  // namespace

NOUGHTS_HOT_CLONES float Ultimate::evaluate() const noexcept {
  // Each rule set has its own network: what a position is worth depends on
  // how a full big board with no line is scored.
  const int net = tiebreak_ ? 1 : 0;
  alignas(64) float hidden[w::kHidden];
  std::copy(std::begin(w::kHiddenBias[net]), std::end(w::kHiddenBias[net]), hidden);
  auto add = [&](int feature) {
    const float* row = w::kInput[net][feature];
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
  return output(net, hidden);
}

NOUGHTS_HOT_CLONES void Ultimate::evaluate_moves(std::span<const Move> moves, std::span<float> values) const noexcept {
  // After a move the opponent is to move: the features are theirs. One
  // hidden layer for the position as it stands, seen from their side; each
  // move then adds the few features it changes (its mark, the board it
  // decides, the board it sends to).
  const Player me = to_move(), them = opponent(me);
  const int p = static_cast<int>(me), net = tiebreak_ ? 1 : 0;
  alignas(64) float base[w::kHidden];
  std::copy(std::begin(w::kHiddenBias[net]), std::end(w::kHiddenBias[net]), base);
  auto add_to = [net](float* h, int feature) {
    const float* row = w::kInput[net][feature];
    for (int i = 0; i < w::kHidden; ++i) h[i] += row[i];
  };
  for (int b = 0; b < kBoards; ++b) {
    bits::for_each(marks(them, b), [&](int c) { add_to(base, kOwnMarks + 9 * b + c); });
    bits::for_each(marks(me, b), [&](int c) { add_to(base, kTheirMarks + 9 * b + c); });
  }
  bits::for_each(won_boards(them), [&](int b) { add_to(base, kOwnBoards + b); });
  bits::for_each(won_boards(me), [&](int b) { add_to(base, kTheirBoards + b); });
  bits::for_each(decided_boards() & ~won_boards(me) & ~won_boards(them), [&](int b) { add_to(base, kDrawnBoards + b); });
  alignas(64) float hidden[w::kHidden];
  for (std::size_t k = 0; k < moves.size(); ++k) {
    const int b = moves[k] / 9, c = moves[k] - 9 * b;
    const unsigned own = marks_[p][b] | 1u << c;
    const bool wins_board = board3::kHasLine[own], fills_board = open_cells_[b] == 1;
    const unsigned decided = decided_ | ((wins_board || fills_board) ? 1u << b : 0u);
    if ((wins_board && board3::kHasLine[won_[p] | 1u << b]) || decided == board3::kFull) {
      Ultimate after = *this;  // the move ends the game: its exact result
      after.place(b, c);
      values[k] = static_cast<float>(me == Player::X ? after.outcome().value_for_x() : -after.outcome().value_for_x());
      continue;
    }
    std::copy(std::begin(base), std::end(base), hidden);
    add_to(hidden, kTheirMarks + 9 * b + c);
    if (wins_board) add_to(hidden, kTheirBoards + b);
    else if (fills_board) add_to(hidden, kDrawnBoards + b);
    add_to(hidden, kSentTo + ((decided >> c & 1) ? 9 : c));
    values[k] = -output(net, hidden);
  }
}

}  // namespace noughts
