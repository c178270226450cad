// Ultimate tic-tac-toe (docs/rules.md section 2): nine small 3x3 boards in a 3x3
// big board, the cell of each move sending the opponent to a board.
//
// Representation, chosen for playout and perft speed:
//   - per player and small board, a 9-bit mask of their marks;
//   - per small board, its number of empty cells, 0 once decided (a byte
//     array: the numbers of boards 0-7 also read as one word);
//   - per player, a 9-bit mask of the small boards they won, and one mask of
//     the decided boards (won by either, or drawn);
//   - the cell index of the last move (the board it sends to).
// A random move is then a load of the sent-to board's count, a multiply and
// a table look-up of the r-th empty cell (bits::kSmallSets): the chain from one move to the next
// is short, which is what bounds playout speed. A position is 56 bytes,
// copied at every node of a search (copy-make).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "noughts/bits.hpp"
#include "noughts/board3.hpp"
#include "noughts/game.hpp"
#include "noughts/move_list.hpp"
#include "noughts/player.hpp"
#include "noughts/rng.hpp"

namespace noughts {


// What a small board is: still open, won by a player, or drawn (full, no line).
enum class BoardState : std::uint8_t { Open = 0, XWon = 1, OWon = 2, Drawn = 3 };

class Ultimate {
 public:
  static constexpr int kBoards = 9;
  static constexpr int kMaxActions = 81;
  using MoveList = noughts::MoveList<kMaxActions>;
  // random_playouts runs four games interleaved (see search/playout.hpp).
  static constexpr int kPlayoutLanes = 4;

  Ultimate() noexcept = default;
  // With `tiebreak`, a game that ends with every small board decided and no
  // line of boards is won by the player who won more small boards (a draw
  // when they won as many): the rule of CodinGame's referee. Without it (the
  // default, docs/rules.md) such a game is a draw.
  explicit Ultimate(bool tiebreak) noexcept : tiebreak_(tiebreak) {}
  bool tiebreak() const noexcept { return tiebreak_; }
  // Whether another position is of the same rules (search/book.hpp).
  bool same_rules(const Ultimate& other) const noexcept { return tiebreak_ == other.tiebreak_; }

  // ---- the game concept (hot paths, inline) ----
  Player to_move() const noexcept { return static_cast<Player>(ply_ & 1); }
  int ply() const noexcept { return ply_; }
  Outcome outcome() const noexcept { return outcome_; }

  void legal_moves(MoveList& out) const noexcept {
    out.clear();
    if (outcome_.over()) return;
    // Ascending ids: boards in order, cells in order within each board.
    bits::for_each(playable_boards(), [&](int b) {
      bits::for_each(empty_cells(b), [&](int c) { out.push(b * 9 + c); });
    });
  }

  // m must be legal (History checks; search only plays generated moves).
  void play(Move m) noexcept {
    const int b = m / 9;
    place(b, m - 9 * b);
  }

  // One uniformly random legal move, drawn as legal_moves() + rng.below(size)
  // would draw it (the same move for the same generator state), without
  // building the list. This is the playout hot path.
  void play_random(Rng& rng) noexcept {
    const Cell c = random_cell(rng);
    place(c.board, c.cell);
  }
  // The same draw as play_random, returned as an id instead of played
  // (VectorGame::random_actions). The game must not be over.
  Move random_move(Rng& rng) const noexcept {
    const Cell c = random_cell(rng);
    return 9 * c.board + c.cell;
  }

  std::uint64_t hash() const noexcept {
    std::array<std::uint32_t, kBoards> marks{};
    for (int b = 0; b < kBoards; ++b) marks[b] = marks_[0][b] | marks_[1][b] << 9;
    return hash_of(marks, forced_board()) ^ tiebreak_key();
  }
  // The hash of symmetric(s) without building it (the solver's table key
  // takes the smallest over the eight symmetries at every node).
  std::uint64_t symmetric_hash(int s) const noexcept {
    using board3::kSymmetry;
    using board3::map_mask;
    std::array<std::uint32_t, kBoards> marks{};
    for (int b = 0; b < kBoards; ++b)
      marks[kSymmetry[s][b]] = map_mask(s, marks_[0][b]) | map_mask(s, marks_[1][b]) << 9;
    const int forced = forced_board();
    return hash_of(marks, forced < 0 ? -1 : kSymmetry[s][forced]) ^ tiebreak_key();
  }

  // ---- MCTS hook (see search/mcts.hpp) ----
  // The rollout policy: a move that wins the game at once when there is one;
  // else a uniformly random move among those that do not hand the opponent a
  // win at once (by sending them to a board where they would complete a line
  // of boards, or to a decided board while they have such a board to go to);
  // else any uniformly random move. Random play throws away won games one
  // move before the end; a rollout that sees one-move wins judges positions
  // by what they are worth against a player who does. The game must not be
  // over.
  Move rollout_move(Rng& rng) const noexcept {
    using board3::kFull;
    using board3::kWinningCells;
    const auto& sets = bits::kSmallSets;
    const int p = ply_ & 1, q = p ^ 1;
    const int forced = forced_board();
    const unsigned boards = forced >= 0 ? 1u << forced : open_boards();
    for (unsigned f = boards & kWinningCells[won_[p]]; f; f &= f - 1) {
      const int b = std::countr_zero(f);
      if (const unsigned cells = kWinningCells[marks_[p][b]] & empty_cells(b)) return 9 * b + std::countr_zero(cells);
    }
    unsigned threats = 0;  // open boards where the opponent would win the game
    for (unsigned f = kWinningCells[won_[q]] & open_boards(); f; f &= f - 1) {
      const int b = std::countr_zero(f);
      if (kWinningCells[marks_[q][b]] & empty_cells(b)) threats |= 1u << b;
    }
    if (threats == 0) [[likely]]
      return random_move(rng);
    const unsigned safe = ~(threats | decided_) & kFull;  // cells whose board sends the opponent nowhere dangerous
    if (forced >= 0) {
      const unsigned cells = empty_cells(forced) & safe;
      if (cells == 0) return random_move(rng);
      return 9 * forced + sets.member[cells][rng.below(sets.count[cells])];
    }
    // A free move (rare with threats about): the r-th safe cell of the open boards.
    std::uint32_t total = 0;
    bits::for_each(boards, [&](int b) { total += sets.count[empty_cells(b) & safe]; });
    if (total == 0) return random_move(rng);
    std::uint32_t r = rng.below(total);
    for (unsigned f = boards;; f &= f - 1) {
      const int b = std::countr_zero(f);
      const unsigned cells = empty_cells(b) & safe;
      if (r < sets.count[cells]) return 9 * b + sets.member[cells][r];
      r -= sets.count[cells];
    }
  }

  // The learned value of the position for the player to move, -1 .. +1
  // (ultimate_eval.cpp; the network is trained by
  // scripts/train_ultimate_eval.py). The game must not be over.
  float evaluate() const noexcept;
  // The values for the player to move of the positions after each of
  // `moves` (see HasEvaluateMoves): one hidden layer shared by all of them.
  void evaluate_moves(std::span<const Move> moves, std::span<float> values) const noexcept;
  // The network's input (docs/mcts.md) of a position given by its marks, seen
  // by the player whose 9-bit masks per board are `own` and who is sent to
  // board `sent` (-1: a free move): out[f] is 1 for each feature f that is
  // on, else 0 (kEvalFeatures entries). What the training script learns from;
  // evaluate() reads the same features.
  static constexpr int kEvalFeatures = 235;
  static void eval_features(std::span<const std::uint16_t, kBoards> own, std::span<const std::uint16_t, kBoards> theirs,
                            int sent, std::span<std::uint8_t, kEvalFeatures> out) noexcept;

  // The MCTS prior: a move that gives the opponent a free move (it sends
  // them to a decided board, or closes the board it sends them to) is
  // discouraged, since a free move is worth much to the player who gets it.
  // In the opening (the first kSendBackPlies plies), sent to an empty board,
  // every move but the one that sends the opponent back to that same board
  // is discouraged too: the opponent's answer then lands in a board the
  // mover already leads. A move that wins the game is never discouraged.
  static constexpr int kSendBackPlies = 20;
  bool is_discouraged(Move m) const noexcept {
    const int b = m / 9, c = m - 9 * b, p = ply_ & 1;
    const bool wins_board = board3::kHasLine[marks_[p][b] | 1u << c];
    if (wins_board && board3::kHasLine[won_[p] | 1u << b]) return false;
    if (decided_ >> c & 1) return true;
    if (ply_ <= kSendBackPlies && occupied(b) == 0 && sent_ == b) return c != b;
    return c == b && (wins_board || open_cells_[b] == 1);
  }

  // ---- solver hooks (see search/solver.hpp) ----
  // Whether the player to move can win the game with their next move: win a
  // small board they may play in that completes a line of boards.
  bool can_win_now() const noexcept {
    if (outcome_.over()) return false;
    const int forced = forced_board();
    return wins_next(to_move(), forced >= 0 ? 1u << forced : open_boards());
  }
  // Whether the opponent could win at once after some move of the mover. A
  // move adds none of the opponent's marks, so they need a winning cell now,
  // in some open board.
  bool opponent_may_win_next() const noexcept {
    return !outcome_.over() && wins_next(opponent(to_move()), open_boards());
  }
  // Whether p can still make a line of boards: a line of boards each won by
  // p or open with a small line free of the opponent's marks.
  // With the tie-break, p can also win on boards while they can still end
  // with more won boards than the opponent holds now.
  bool can_still_win(Player p) const noexcept {
    if (outcome_.over()) return outcome_.winner() == p;
    const unsigned alive = boards_alive(p);
    if (board3::kHasLine[alive]) return true;
    return tiebreak_ && bits::count(alive) > bits::count(won_[static_cast<int>(opponent(p))]);
  }
  // The lines of boards p can still make (those can_still_win looks for),
  // and the fewest boards p still has to win in one of them.
  LineProspects line_prospects(Player p) const noexcept {
    const unsigned alive = boards_alive(p), won = won_[static_cast<int>(p)];
    LineProspects prospects;
    for (unsigned line : board3::kLines) {
      if ((alive & line) != line) continue;
      const int needed = 3 - bits::count(line & won);
      prospects.fewest = prospects.open++ == 0 ? needed : std::min(prospects.fewest, needed);
    }
    return prospects;
  }

  // What the solver carries down its search path (search/hooks.hpp): a
  // Zobrist key of the marks of each of the eight symmetric images, so that
  // a move updates the canonical key by eight XORs where hashing the images
  // afresh would cost eight passes over the boards.
  struct SearchState {
    std::array<std::uint64_t, board3::kSymmetries> images;
  };
  SearchState search_state() const noexcept {
    SearchState state{};
    for (int p = 0; p < 2; ++p)
      for (int b = 0; b < kBoards; ++b)
        bits::for_each(marks_[p][b], [&](int c) {
          for (int s = 0; s < board3::kSymmetries; ++s) state.images[s] ^= kMarkKeys[s][p][9 * b + c];
        });
    return state;
  }
  // The state after the legal move m, from this position's.
  SearchState search_state_after(const SearchState& state, Move m) const noexcept {
    SearchState after = state;
    const int p = ply_ & 1;
    for (int s = 0; s < board3::kSymmetries; ++s) after.images[s] ^= kMarkKeys[s][p][m];
    return after;
  }
  // The canonical key: the smallest over the images of the image's marks
  // with the image of the forced board (and the tie-break rule).
  std::uint64_t key_of(const SearchState& state) const noexcept {
    const int forced = forced_board();
    std::uint64_t best = ~std::uint64_t{0};
    for (int s = 0; s < board3::kSymmetries; ++s)
      best = std::min(best, state.images[s] ^ kForcedKeys[forced < 0 ? 0 : 1 + board3::kSymmetry[s][forced]]);
    return best ^ tiebreak_key();
  }
  // The same for every symmetric image of the position: key_of(search_state()).
  std::uint64_t canonical_hash() const noexcept { return key_of(search_state()); }

  int num_symmetries() const noexcept { return 8; }
  Ultimate symmetric(int s) const noexcept {
    using board3::kSymmetry;
    using board3::map_mask;
    Ultimate g(tiebreak_);
    for (int b = 0; b < kBoards; ++b)
      for (int p = 0; p < 2; ++p) g.marks_[p][kSymmetry[s][b]] = static_cast<std::uint16_t>(map_mask(s, marks_[p][b]));
    g.derive();
    g.sent_ = sent_ == kNowhere ? kNowhere : static_cast<std::uint8_t>(kSymmetry[s][sent_]);
    return g;
  }

  // The marks and the forced board determine everything else.
  friend bool operator==(const Ultimate& a, const Ultimate& b) noexcept {
    return a.marks_ == b.marks_ && a.forced_board() == b.forced_board() && a.tiebreak_ == b.tiebreak_;
  }

  // ---- reading the position ----
  // The board the mover must play in, or -1 when they may play in any open
  // board (the first move, after being sent to a decided board, and once the
  // game is over).
  int forced_board() const noexcept { return open_cells_[sent_] ? sent_ : -1; }
  // Cells of small board b (bit c = cell c) holding player p's marks.
  unsigned marks(Player p, int b) const noexcept { return marks_[static_cast<int>(p)][b]; }
  unsigned empty_cells(int b) const noexcept { return ~occupied(b) & board3::kFull; }
  // The small boards the mover may play in (none once the game is over).
  unsigned playable_boards() const noexcept {
    if (outcome_.over()) return 0;
    const int forced = forced_board();
    return forced >= 0 ? 1u << forced : open_boards();
  }
  // Boards (bit b = board b) won by p; decided = won by either or drawn.
  unsigned won_boards(Player p) const noexcept { return won_[static_cast<int>(p)]; }
  unsigned decided_boards() const noexcept { return decided_; }
  unsigned open_boards() const noexcept { return ~decided_ & board3::kFull; }
  BoardState board_state(int b) const noexcept {
    if (won_[0] >> b & 1) return BoardState::XWon;
    if (won_[1] >> b & 1) return BoardState::OWon;
    return (decided_ >> b & 1) ? BoardState::Drawn : BoardState::Open;
  }

  // The lines of small boards won by one player (the winner's, once the game
  // is won by a line).
  std::vector<CompletedLine> completed_lines() const;

  // ---- the 9x9 grid ----
  // Grid squares are numbered from the top left, row 0..8 and column 0..8;
  // move id board * 9 + cell is the square in grid row 3 * (board / 3) +
  // cell / 3 and column 3 * (board % 3) + cell % 3.
  struct GridSquare {
    int row, col;
  };
  static constexpr Move grid_to_id(int row, int col) noexcept {
    return (row / 3 * 3 + col / 3) * 9 + row % 3 * 3 + col % 3;
  }
  static constexpr GridSquare id_to_grid(Move m) noexcept {
    const int b = m / 9, c = m % 9;
    return {b / 3 * 3 + c / 3, b % 3 * 3 + c % 3};
  }
  // The mark in a grid square: 'x', 'o' or '.'.
  char mark_at(int row, int col) const noexcept {
    const Move m = grid_to_id(row, col);
    const unsigned bit = 1u << (m % 9);
    return (marks_[0][m / 9] & bit) ? 'x' : (marks_[1][m / 9] & bit) ? 'o' : '.';
  }

  // ---- text and ids (not hot) ----
  int num_actions() const noexcept { return kMaxActions; }
  // Every move fills a cell.
  static constexpr int max_game_length() noexcept { return 81; }
  // Whether the move id m is legal: what why_illegal(m).empty() says,
  // without building the message (VectorGame tests every action of a batch).
  bool is_legal(Move m) const noexcept {
    if (m < 0 || m >= kMaxActions) return false;
    const int b = m / 9, c = m - 9 * b;
    return (playable_boards() >> b & 1) && (empty_cells(b) >> c & 1);
  }
  // The grid squares (row * 9 + col) a move marks: its one square.
  std::vector<int> move_cells(Move m) const;
  std::string why_illegal(Move m) const;
  // Algebraic on the 9x9 grid: columns a..i from the left, rows 1..9 from the
  // top (id 0 = a1, 40 = e5, 80 = i9).
  std::string move_name(Move m) const;
  // Reads "e5" (any case) or "board/cell" with 0-based digits ("4/4").
  Move parse_move(std::string_view text) const;
  std::string to_string() const;
  static Ultimate from_string(std::string_view text);
  std::string render() const;
  // One line for people: whose turn it is and what they play, or the result
  // and why (render() of Ultimate and Quantum ends with it).
  std::string status() const;
  // A finished game's result in full sentences: who won and why, in the
  // rules' terms, with the cells or boards that decided it. A game still
  // being played gets its status().
  std::string explanation() const;

  // ---- learning (cpp/src/ultimate_planes.cpp) ----
  // Six 9x9 planes, seen by `view`: view's marks, the other player's marks,
  // cells of legal moves, boards won by view, boards won by the other
  // player, drawn boards (every cell of such a board set).
  static constexpr ObservationShape observation_shape() noexcept { return {6, 9, 9}; }
  void observe(std::uint8_t* out, Player view) const noexcept;
  // num_actions() bytes: 1 where the move id is legal.
  void write_legal_mask(std::uint8_t* out) const noexcept;

  // "board 4 (d4-f6)": a small board with the grid cells it spans.
  static std::string board_name(int b);
  static std::string cell_name(int board, int cell);

 private:
  // The boards p won, and the open boards where p can still make a small
  // line (one free of the opponent's marks).
  unsigned boards_alive(Player p) const noexcept {
    unsigned alive = won_[static_cast<int>(p)];
    bits::for_each(open_boards(), [&](int b) {
      if (board3::kLineFree[marks(opponent(p), b)]) alive |= 1u << b;
    });
    return alive;
  }
  // Whether some order of the marks follows the sending rule, as far as
  // from_string checks it (ultimate.cpp says what exactly).
  static bool follows_sending_rule(const Ultimate& g, int forced);

  unsigned occupied(int b) const noexcept { return marks_[0][b] | marks_[1][b]; }

  // Whether p, free to play in `boards`, has a cell there that wins a board
  // completing p's line of boards.
  bool wins_next(Player p, unsigned boards) const noexcept {
    const unsigned won = won_[static_cast<int>(p)];
    bool found = false;
    bits::for_each(boards & ~decided_, [&](int b) {
      found = found || (board3::kHasLine[won | 1u << b] &&
                        (board3::kWinningCells[marks(p, b)] & empty_cells(b)) != 0);
    });
    return found;
  }

  // Three words of three boards, 18 bits each (X's 9 bits, then O's); the
  // forced board rides in the spare high bits of the last word.
  static std::uint64_t hash_of(const std::array<std::uint32_t, kBoards>& marks, int forced) noexcept {
    auto word = [&](int b) {
      std::uint64_t w = 0;
      for (int i = 0; i < 3; ++i) w |= std::uint64_t{marks[b + i]} << (18 * i);
      return w;
    };
    return bits::combine(bits::combine(bits::mix(word(0)), word(3)), word(6) | std::uint64_t(forced + 1) << 54);
  }

  // A board and a cell in it: what play_random places and random_move names
  // (kept apart so that play_random needs no division of an id by 9).
  struct Cell {
    int board, cell;
  };
  Cell random_cell(Rng& rng) const noexcept {
    // Sent to an open board: it has empty cells.
    const int b = sent_;
    if (const std::uint32_t n = open_cells_[b]) [[likely]]
      return {b, bits::kSmallSets.member[empty_cells(b)][rng.below(n)]};
    // Free: every empty cell of every open board (decided boards count no
    // cells). The r-th of them is found without a branch: a loop that
    // stops at the right board mispredicts its exit at almost every free
    // move, one move in seven of a random game.
    return nth_free(rng);
  }

  // The r-th (r uniform) empty cell of the open boards, boards and cells in
  // id order. The counts of boards 0-7 sit in the bytes of one word (board 8
  // apart, the ninth group of bits::select_byte).
  Cell nth_free(Rng& rng) const noexcept {
    std::uint64_t counts;  // byte i: the open cells of board i (bytes in memory order)
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(&counts, open_cells_.data(), sizeof counts);
    } else {
      counts = 0;
      for (int i = 0; i < 8; ++i) counts |= std::uint64_t{open_cells_[i]} << (8 * i);
    }
    const std::uint64_t through = counts * bits::kEachByte;  // byte i: cells in boards 0..i (at most 72)
    const std::uint32_t r = rng.below(static_cast<std::uint32_t>(through >> 56) + open_cells_[8]);
    const bits::ByteSelect at = bits::select_byte(through, r);
    return {at.group, bits::kSmallSets.member[empty_cells(at.group)][r - at.before]};
  }

  // Writes the mover's mark in cell c of board b and updates everything the
  // move decides. Closing a board is done without a branch: it happens about
  // one move in seven of a random game, at unpredictable moments, and a
  // branch there costs more in mispredictions than these few bit operations
  // at every move. The end of the game is the one rare branch.
  void place(int b, int c) noexcept {
    using board3::kFull;
    using board3::kHasLine;
    // Every load comes before the first store: byte stores may alias any
    // byte, and the compiler would load the same fields again.
    const unsigned ply = ply_, p = ply & 1, left = open_cells_[b] - 1u;
    const unsigned own = marks_[p][b] | 1u << c;
    const unsigned line = kHasLine[own];
    const unsigned open = (line | (left == 0)) - 1u;  // all ones while the board stays open
    const unsigned bit = 1u << b;
    const unsigned won = won_[p] | (bit & (0u - line)), decided = decided_ | (bit & ~open);
    marks_[p][b] = static_cast<std::uint16_t>(own);
    open_cells_[b] = static_cast<std::uint8_t>(left & open);
    won_[p] = static_cast<std::uint16_t>(won);
    decided_ = static_cast<std::uint16_t>(decided);
    ply_ = static_cast<std::uint8_t>(ply + 1);
    if (kHasLine[won] | (decided == kFull)) [[unlikely]]
      return finish(kHasLine[won] ? Outcome::win(static_cast<Player>(p), Termination::Line) : all_decided());
    // Whether board c is open is read by the next move, from its count.
    sent_ = static_cast<std::uint8_t>(c);
  }
  // The result when every small board is decided and nobody has a line of
  // boards.
  Outcome all_decided() const noexcept {
    const int x = bits::count(won_[0]), o = bits::count(won_[1]);
    if (!tiebreak_ || x == o) return Outcome::draw();
    return Outcome::win(x > o ? Player::X : Player::O, Termination::MoreBoards);
  }
  std::uint64_t tiebreak_key() const noexcept { return tiebreak_ ? 0x5bd1e9955bd1e995ULL : 0; }
  // The search state's random keys: kMarkKeys[s][p][m] is the key of a mark
  // of player p on the image under symmetry s of cell m (9 * board + cell);
  // kForcedKeys[0] that of a free move, [1 + b] that of being sent to board b.
  static constexpr auto kMarkKeys = [] {
    std::array<std::array<std::array<std::uint64_t, 81>, 2>, board3::kSymmetries> t{};
    for (int s = 0; s < board3::kSymmetries; ++s)
      for (int p = 0; p < 2; ++p)
        for (int b = 0; b < kBoards; ++b)
          for (int c = 0; c < 9; ++c) {
            const int image = 9 * board3::kSymmetry[s][b] + board3::kSymmetry[s][c];
            t[s][p][9 * b + c] = bits::mix(0x7a3c0000u + 81u * static_cast<unsigned>(p) + static_cast<unsigned>(image));
          }
    return t;
  }();
  static constexpr auto kForcedKeys = [] {
    std::array<std::uint64_t, kBoards + 1> t{};
    for (int i = 0; i <= kBoards; ++i) t[i] = bits::mix(0x7a3d0000u + static_cast<unsigned>(i));
    return t;
  }();
  // A finished game has no board to play in.
  void finish(Outcome o) noexcept {
    outcome_ = o;
    sent_ = kNowhere;
  }
  // Recomputes everything else from marks_ (position strings, symmetries).
  void derive() noexcept;

  static constexpr std::uint8_t kNowhere = kBoards;  // sent to no board: open_cells_[kNowhere] stays 0

  std::array<std::array<std::uint16_t, kBoards>, 2> marks_{};  // [player][board]: 9-bit masks of cells
  std::array<std::uint16_t, 2> won_{};
  std::uint16_t decided_ = 0;
  std::uint8_t sent_ = kNowhere;
  std::uint8_t ply_ = 0;
  bool tiebreak_ = false;
  Outcome outcome_{};
  // The number of empty cells of each open board, 0 for a decided one and
  // for kNowhere (last, where the byte array packs without padding).
  std::array<std::uint8_t, kBoards + 1> open_cells_ = {9, 9, 9, 9, 9, 9, 9, 9, 9, 0};
};

static_assert(TextGame<Ultimate>);
static_assert(sizeof(Ultimate) <= 64, "a position should stay small: search copies it at every node");

}  // namespace noughts
