// Ultimate's learned evaluation: a network with one hidden layer over the
// features scripts/train_ultimate_eval.py trains on (the two must agree:
// tests/test_ultimate_eval.py compares them). MCTS values its leaves with
// it instead of rolling them out.
#include <algorithm>

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
static_assert(kEnd == Ultimate::kEvalFeatures);
static_assert(w::kFeatures == kEnd, "the weights were trained on other features");
static_assert(w::kRuleSets == 2, "one network for the seeds' rules, one for the board-count tie-break");

// tanh to within 1e-6, as a rational function (a convergent of Lambert's
// continued fraction). libm's tanhf took about a tenth of Ultimate's MCTS
// time (one call per child valued); this also gives the same bits on every
// platform, which keeps seeded searches reproducible.
inline float tanh_approx(float x) noexcept {
  x = std::clamp(x, -9.0f, 9.0f);  // tanh(9) is 1 within float's precision
  const float y = x * x;
  const float num = x * (3.16234143e11f + y * (4.58310352e10f + y * (1.57134978e9f + y * (1.837836e7f + y * (75075.0f + y * 78.0f)))));
  const float den =
      3.16234143e11f + y * (1.51242416e11f + y * (9.82093612e9f + y * (1.9297278e8f + y * (1351350.0f + y * (3003.0f + y)))));
  return std::clamp(num / den, -1.0f, 1.0f);
}

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
  return tanh_approx(sum);
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

// Calls on(f) for each feature f that is on, seen by the player whose marks
// are `own` and who is sent to board `sent` (-1: free): the one definition
// of the features, which evaluate(), the base of evaluate_moves() and
// eval_features() share.
template <class On>
inline void for_each_feature(std::span<const std::uint16_t, Ultimate::kBoards> own,
                             std::span<const std::uint16_t, Ultimate::kBoards> theirs, int sent, On&& on) {
  for (int b = 0; b < Ultimate::kBoards; ++b) {
    bits::for_each(own[b], [&](int c) { on(kOwnMarks + 9 * b + c); });
    bits::for_each(theirs[b], [&](int c) { on(kTheirMarks + 9 * b + c); });
    if (board3::kHasLine[own[b]]) on(kOwnBoards + b);
    else if (board3::kHasLine[theirs[b]]) on(kTheirBoards + b);
    else if ((own[b] | theirs[b]) == board3::kFull) on(kDrawnBoards + b);
    else bits::for_each(board_features(own[b], theirs[b]), [&](int k) { on(board_feature(k, b)); });
  }
  on(kSentTo + (sent < 0 ? 9 : sent));
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
  for_each_feature(marks_[static_cast<int>(me)], marks_[static_cast<int>(them)], forced_board(), add);
  return output(net, hidden);
}

NOUGHTS_HOT_CLONES void Ultimate::evaluate_moves(std::span<const Move> moves, std::span<float> values) const noexcept {
  // After a move the opponent is to move: the features are theirs. One
  // hidden layer for the position as it stands, seen from their side; each
  // move then adds the few features it changes (its mark, the board it
  // decides, the board it sends to) and swaps its board's small-board
  // features for their new values.
  const Player me = to_move();
  const int p = static_cast<int>(me), net = tiebreak_ ? 1 : 0;
  alignas(64) float base[w::kHidden];
  std::copy(std::begin(w::kHiddenBias[net]), std::end(w::kHiddenBias[net]), base);
  // Adds a feature's row to a hidden layer (sign -1: takes it away).
  auto add_to = [net](float* h, int feature, float sign = 1.0f) {
    const float* row = w::kInput[net][feature];
    for (int i = 0; i < w::kHidden; ++i) h[i] += sign * row[i];
  };
  // The base is the position as it stands, seen from their side, without a
  // board to be sent to: each move adds its own.
  for_each_feature(marks_[p ^ 1], marks_[p], -1, [&](int f) {
    if (f != kSentTo + 9) add_to(base, f);
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
    bits::for_each(before & ~after, [&](int f) { add_to(hidden, board_feature(f, b), -1.0f); });
    bits::for_each(after & ~before, [&](int f) { add_to(hidden, board_feature(f, b)); });
    if (wins_board) add_to(hidden, kTheirBoards + b);
    else if (fills_board) add_to(hidden, kDrawnBoards + b);
    add_to(hidden, kSentTo + ((decided >> c & 1) ? 9 : c));
    values[k] = -output(net, hidden);
  }
}

void Ultimate::eval_features(std::span<const std::uint16_t, kBoards> own, std::span<const std::uint16_t, kBoards> theirs,
                             int sent, std::span<std::uint8_t, kEvalFeatures> out) noexcept {
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  for_each_feature(own, theirs, sent, [&](int f) { out[static_cast<std::size_t>(f)] = 1; });
}

}  // namespace noughts
