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
              kSentTo = 189, kOwnThreats = 199, kTheirThreats = 208, kOwnChances = 217, kTheirChances = 226,
              kEnd = 235;
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

// The small-board features of an open board, from the view of the player
// whose marks are `own`: each bit says whether a feature is on
// (1 they have two in a line with the third cell empty, 2 so has the
// opponent, 4 they can still make a line there, 8 so can the opponent).
inline unsigned board_features(unsigned own, unsigned theirs) noexcept {
  const unsigned empty = ~(own | theirs) & board3::kFull;
  return ((board3::kWinningCells[own] & empty) ? 1u : 0u) | ((board3::kWinningCells[theirs] & empty) ? 2u : 0u) |
         (board3::kLineFree[theirs] ? 4u : 0u) | (board3::kLineFree[own] ? 8u : 0u);
}

// The feature of bit k of board_features for board b.
inline int board_feature(int k, int b) noexcept {
  constexpr int kGroups[] = {kOwnThreats, kTheirThreats, kOwnChances, kTheirChances};
  return kGroups[k] + b;
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
  bits::for_each(open_boards(), [&](int b) {
    bits::for_each(board_features(marks(me, b), marks(them, b)), [&](int k) { add(board_feature(k, b)); });
  });
  return output(net, hidden);
}

NOUGHTS_HOT_CLONES void Ultimate::evaluate_moves(std::span<const Move> moves, std::span<float> values) const noexcept {
  // After a move the opponent is to move: the features are theirs. One
  // hidden layer for the position as it stands, seen from their side; each
  // move then adds the few features it changes (its mark, the board it
  // decides, the board it sends to) and swaps its board's small-board
  // features for their new values.
  const Player me = to_move(), them = opponent(me);
  const int p = static_cast<int>(me), net = tiebreak_ ? 1 : 0;
  alignas(64) float base[w::kHidden];
  std::copy(std::begin(w::kHiddenBias[net]), std::end(w::kHiddenBias[net]), base);
  auto add_to = [net](float* h, int feature) {
    const float* row = w::kInput[net][feature];
    for (int i = 0; i < w::kHidden; ++i) h[i] += row[i];
  };
  auto subtract_from = [net](float* h, int feature) {
    const float* row = w::kInput[net][feature];
    for (int i = 0; i < w::kHidden; ++i) h[i] -= row[i];
  };
  for (int b = 0; b < kBoards; ++b) {
    bits::for_each(marks(them, b), [&](int c) { add_to(base, kOwnMarks + 9 * b + c); });
    bits::for_each(marks(me, b), [&](int c) { add_to(base, kTheirMarks + 9 * b + c); });
  }
  bits::for_each(won_boards(them), [&](int b) { add_to(base, kOwnBoards + b); });
  bits::for_each(won_boards(me), [&](int b) { add_to(base, kTheirBoards + b); });
  bits::for_each(decided_boards() & ~won_boards(me) & ~won_boards(them), [&](int b) { add_to(base, kDrawnBoards + b); });
  bits::for_each(open_boards(), [&](int b) {
    bits::for_each(board_features(marks(them, b), marks(me, b)), [&](int k) { add_to(base, board_feature(k, b)); });
  });
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
    const unsigned before = board_features(marks_[p ^ 1][b], marks_[p][b]);
    const unsigned after = (wins_board || fills_board) ? 0u : board_features(marks_[p ^ 1][b], own);
    bits::for_each(before & ~after, [&](int f) { subtract_from(hidden, board_feature(f, b)); });
    bits::for_each(after & ~before, [&](int f) { add_to(hidden, board_feature(f, b)); });
    if (wins_board) add_to(hidden, kTheirBoards + b);
    else if (fills_board) add_to(hidden, kDrawnBoards + b);
    add_to(hidden, kSentTo + ((decided >> c & 1) ? 9 : c));
    values[k] = -output(net, hidden);
  }
}

}  // namespace noughts
