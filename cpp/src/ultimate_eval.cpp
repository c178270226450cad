// Ultimate's learned evaluation: a network with one hidden layer over the
// features scripts/train_ultimate_eval.py trains on (the two must agree:
// tests/test_ultimate_eval.py compares them). MCTS values its leaves with
// it instead of rolling them out.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>

#include "noughts/hot_clones.hpp"
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
// continued fraction). libm's tanhf took a noticeable share of Ultimate's
// MCTS time (one call per child valued); this also gives the same bits on
// every platform, which keeps seeded searches reproducible.
inline float tanh_approx(float x) noexcept {
  x = std::clamp(x, -9.0f, 9.0f);  // tanh(9) is 1 within float's precision
  const float y = x * x;
  const float num = x * (3.16234143e11f + y * (4.58310352e10f + y * (1.57134978e9f + y * (1.837836e7f + y * (75075.0f + y * 78.0f)))));
  const float den =
      3.16234143e11f + y * (1.51242416e11f + y * (9.82093612e9f + y * (1.9297278e8f + y * (1351350.0f + y * (3003.0f + y)))));
  return std::clamp(num / den, -1.0f, 1.0f);
}

// The networks in 16-bit fixed point, made once from the trained weights:
// 16-bit sums are half the vector work and memory traffic of floats, and one
// network's rows (30 KB) stay in the first-level cache. The scale is the
// largest that no sum of a hidden unit can overflow: at most kMostOn
// features are on at once (81 marks, four per board, the board sent to), so
// no sum exceeds the bias plus the kMostOn largest weights of the unit, in
// size, plus their rounding. Evaluation and the training script's float
// network then differ by the rounding alone (tests/test_ultimate_eval.py).
constexpr int kMostOn = 81 + 4 * Ultimate::kBoards + 1;
using Sum = std::int16_t;

struct FixedNetwork {
  alignas(64) Sum input[w::kFeatures][w::kHidden];
  alignas(64) Sum bias[w::kHidden];
  alignas(64) Sum output[w::kHidden];  // the output weights in fixed point of their own
  Sum one = 0;                         // a hidden unit's 1.0 (the scale of the sums)
  float to_value = 0;                  // what a unit of the output's sum is worth
};

FixedNetwork fixed_network(int net) {
  FixedNetwork f{};
  float bound = 0, largest_output = 0;
  for (int i = 0; i < w::kHidden; ++i) {
    std::array<float, w::kFeatures> size{};
    for (int k = 0; k < w::kFeatures; ++k) size[static_cast<std::size_t>(k)] = std::abs(w::kInput[net][k][i]);
    std::partial_sort(size.begin(), size.begin() + kMostOn, size.end(), std::greater<>());
    float unit = std::abs(w::kHiddenBias[net][i]);
    for (int k = 0; k < kMostOn; ++k) unit += size[static_cast<std::size_t>(k)];
    bound = std::max(bound, unit);
    largest_output = std::max(largest_output, std::abs(w::kOutput[net][i]));
  }
  constexpr float kRoom = 32767.0f - (kMostOn + 1) * 0.5f;  // what the rounding of kMostOn + 1 numbers leaves
  const float scale = std::min(kRoom / std::max(bound, 1.0f), 8192.0f);
  auto fixed = [](float v, float by) { return static_cast<Sum>(std::lround(v * by)); };
  f.one = fixed(1.0f, scale);
  // Output weights as large as 16 bits and a 32-bit sum of kHidden products
  // of them with units of at most `one` allow.
  const float output_room = std::min(32767.0f, 2147483647.0f / (w::kHidden * static_cast<float>(f.one)));
  const float output_scale = std::floor(output_room) / std::max(largest_output, 1e-6f);
  for (int k = 0; k < w::kFeatures; ++k)
    for (int i = 0; i < w::kHidden; ++i) f.input[k][i] = fixed(w::kInput[net][k][i], scale);
  for (int i = 0; i < w::kHidden; ++i) {
    f.bias[i] = fixed(w::kHiddenBias[net][i], scale);
    f.output[i] = fixed(w::kOutput[net][i], output_scale);
  }
  f.to_value = 1.0f / (static_cast<float>(f.one) * output_scale);
  return f;
}

// Each rule set's network, made on the first evaluation (the exported bot
// unpacks its weights when it starts, before that).
const FixedNetwork& network(int net) noexcept {
  static const std::array<FixedNetwork, w::kRuleSets> networks = [] {
    std::array<FixedNetwork, w::kRuleSets> n{};
    for (int r = 0; r < w::kRuleSets; ++r) n[static_cast<std::size_t>(r)] = fixed_network(r);
    return n;
  }();
  return networks[static_cast<std::size_t>(net)];
}

// The network's value of a hidden layer of sums: clipped ReLU, then the
// output's sum in integers (exact, so the compiler may add in any order).
inline float output(int net, const FixedNetwork& f, const Sum* hidden) noexcept {
  const std::int32_t one = f.one;
  std::int32_t sum = 0;
  for (int i = 0; i < w::kHidden; ++i) {
    std::int32_t unit = hidden[i];  // written out: std::clamp of references stays scalar
    unit = unit < 0 ? 0 : unit;
    unit = unit > one ? one : unit;
    sum += unit * std::int32_t{f.output[i]};
  }
  return tanh_approx(static_cast<float>(sum) * f.to_value + w::kOutputBias[net]);
}

// Adds (or takes away) a feature's row to a hidden layer of sums.
inline void add_row(const FixedNetwork& f, Sum* hidden, int feature) noexcept {
  const Sum* row = f.input[feature];
  for (int i = 0; i < w::kHidden; ++i) hidden[i] = static_cast<Sum>(hidden[i] + row[i]);
}
inline void take_row(const FixedNetwork& f, Sum* hidden, int feature) noexcept {
  const Sum* row = f.input[feature];
  for (int i = 0; i < w::kHidden; ++i) hidden[i] = static_cast<Sum>(hidden[i] - row[i]);
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
// eval_features() share. Always inlined: at -O2 (CMake's RelWithDebInfo,
// or a project that embeds the headers) GCC left it a call of its own,
// outside the AVX2 clone of its caller, and Ultimate's MCTS ran a quarter
// slower.
template <class On>
[[gnu::always_inline]] inline void for_each_feature(std::span<const std::uint16_t, Ultimate::kBoards> own,
                                                    std::span<const std::uint16_t, Ultimate::kBoards> theirs,
                                                    int sent, On&& on) {
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
  const FixedNetwork& f = network(net);
  alignas(64) Sum hidden[w::kHidden];
  std::copy(std::begin(f.bias), std::end(f.bias), hidden);
  const Player me = to_move(), them = opponent(me);
  for_each_feature(marks_[static_cast<int>(me)], marks_[static_cast<int>(them)], forced_board(),
                   [&](int feature) { add_row(f, hidden, feature); });
  return output(net, f, hidden);
}

NOUGHTS_HOT_CLONES void Ultimate::evaluate_moves(std::span<const Move> moves, std::span<float> values) const noexcept {
  // After a move the opponent is to move: the features are theirs. One
  // hidden layer for the position as it stands, seen from their side; each
  // move then adds the few features it changes (its mark, the board it
  // decides, the board it sends to) and swaps its board's small-board
  // features for their new values. Sums of integers: the same as
  // evaluate() of the position after the move, to the bit.
  const Player me = to_move();
  const int p = static_cast<int>(me), net = tiebreak_ ? 1 : 0;
  const FixedNetwork& f = network(net);
  alignas(64) Sum base[w::kHidden];
  std::copy(std::begin(f.bias), std::end(f.bias), base);
  // The base is the position as it stands, seen from their side, without a
  // board to be sent to: each move adds its own.
  for_each_feature(marks_[p ^ 1], marks_[p], -1, [&](int feature) {
    if (feature != kSentTo + 9) add_row(f, base, feature);
  });
  alignas(64) Sum hidden[w::kHidden];
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
    add_row(f, hidden, kTheirMarks + 9 * b + c);
    const unsigned before = board_features(marks_[p ^ 1][b], marks_[p][b]);
    const unsigned after = (wins_board || fills_board) ? 0u : board_features(marks_[p ^ 1][b], own);
    bits::for_each(before & ~after, [&](int i) { take_row(f, hidden, board_feature(i, b)); });
    bits::for_each(after & ~before, [&](int i) { add_row(f, hidden, board_feature(i, b)); });
    if (wins_board) add_row(f, hidden, kTheirBoards + b);
    else if (fills_board) add_row(f, hidden, kDrawnBoards + b);
    add_row(f, hidden, kSentTo + ((decided >> c & 1) ? 9 : c));
    values[k] = -output(net, f, hidden);
  }
}

void Ultimate::eval_features(std::span<const std::uint16_t, kBoards> own, std::span<const std::uint16_t, kBoards> theirs,
                             int sent, std::span<std::uint8_t, kEvalFeatures> out) noexcept {
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  for_each_feature(own, theirs, sent, [&](int f) { out[static_cast<std::size_t>(f)] = 1; });
}

}  // namespace noughts
