// Every optional hook a game may offer search, in one place. Search is
// written over the Game concept (game.hpp) and works without any of these;
// a game that has one is searched faster, and each hook promises exactly
// what its comment says (tests compare each game's hooks with the plain
// path: the same draws, keys, values and nodes).
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <span>

#include "noughts/game.hpp"
#include "noughts/rng.hpp"

namespace noughts {

// ---- random play (search/playout.hpp, MCTS rollouts) ------------------------

// Plays one uniformly random legal move of a game that is not over, drawn as
// legal_moves()[rng.below(size)] would be or with the same distribution.
template <class G>
concept HasPlayRandom = requires(G& g, Rng& rng) { g.play_random(rng); };

// How many games random_playouts runs interleaved, move by move: worth more
// than 1 when one game's moves form a chain of dependent loads that leaves
// the core idle. The counts stay a function of the seed.
template <class G>
concept HasPlayoutLanes = requires {
  { G::kPlayoutLanes } -> std::convertible_to<int>;
};

// ---- MCTS (search/mcts.hpp) -------------------------------------------------

// The move the game's rollout policy plays here (take an immediate win,
// block an immediate loss, ...); called only on positions that are not over.
template <class G>
concept HasRolloutMove = requires(const G& g, Rng& rng) {
  { g.rollout_move(rng) } -> std::convertible_to<Move>;
};

// Whether the game's knowledge advises against move m here (a legal move of
// a position that is not over). MCTS starts such a child with
// MctsConfig::prior_visits virtual losses, so that the search tries the
// others first and comes back to it only when they turn out no better.
template <class G>
concept HasDiscouraged = requires(const G& g, Move m) {
  { g.is_discouraged(m) } -> std::convertible_to<bool>;
};

// The game's own value of a position for the player to move, -1 (lost) ..
// +1 (won), with which MCTS values new nodes instead of rolling them out
// (with MctsConfig::evaluation); called only on positions that are not over.
template <class G>
concept HasEvaluate = requires(const G& g) {
  { g.evaluate() } -> std::convertible_to<float>;
};

// The values of the positions after each of `moves` (legal moves of a
// position that is not over) for the player to move here: what playing the
// move and calling evaluate() would give, seen from this side (within float
// rounding), or the exact result (+1 / 0 / -1) for a move that ends the
// game. MCTS values all the children of a node at once with it; a game
// offers it when that is much cheaper than one evaluate() a child.
template <class G>
concept HasEvaluateMoves = requires(const G& g, std::span<const Move> moves, std::span<float> values) {
  g.evaluate_moves(moves, values);
};

// ---- the exact solver (search/solver.hpp) -----------------------------------

// The same 64-bit key for every symmetric image of a position (the table
// key); without it the solver takes the smallest hash over the images.
template <class G>
concept HasCanonicalHash = requires(const G& g) {
  { g.canonical_hash() } -> std::convertible_to<std::uint64_t>;
};

// symmetric(s).hash() without building the image.
template <class G>
concept HasSymmetricHash = requires(const G& g, int s) {
  { g.symmetric_hash(s) } -> std::convertible_to<std::uint64_t>;
};

// Whether the player to move has a move that wins at once.
template <class G>
concept HasWinNow = requires(const G& g) {
  { g.can_win_now() } -> std::convertible_to<bool>;
};

// False only when no move here can leave the opponent an immediate win (so
// the children need no can_win_now() test).
template <class G>
concept HasThreatHint = requires(const G& g) {
  { g.opponent_may_win_next() } -> std::convertible_to<bool>;
};

// Whether player p can still win at all (false: at best a draw for p).
template <class G>
concept HasCanStillWin = requires(const G& g, Player p) {
  { g.can_still_win(p) } -> std::convertible_to<bool>;
};

// What p can still make of the winning lines (LineProspects in game.hpp).
// Proof-number search sets a new leaf's numbers of "does p win?" from it:
// the more lines p has left, the further a disproof; the more p still
// needs, the further a proof.
template <class G>
concept HasLineProspects = requires(const G& g, Player p) {
  { g.line_prospects(p) } -> std::same_as<LineProspects>;
};

// A state the solver carries down its search path, updated a move at a time
// instead of recomputed at every node: search_state() from scratch,
// search_state_after(s, m) for the position after the legal move m (equal
// to the child's search_state()), and key_of(s) the position's canonical key.
template <class G>
concept HasSearchState = requires(const G& g, const typename G::SearchState& s, Move m) {
  { g.search_state() } -> std::same_as<typename G::SearchState>;
  { g.search_state_after(s, m) } -> std::same_as<typename G::SearchState>;
  { g.key_of(s) } -> std::same_as<std::uint64_t>;
};

// The search state of G, or an empty one for games without the hook.
struct NoSearchState {};
template <class G>
struct SearchStateOf {
  using type = NoSearchState;
};
template <HasSearchState G>
struct SearchStateOf<G> {
  using type = typename G::SearchState;
};

// The search state of a position, and of its child after the legal move m
// (empty for games without the hook).
template <class G>
typename SearchStateOf<G>::type search_state_of(const G& g) noexcept {
  if constexpr (HasSearchState<G>) return g.search_state();
  else return {};
}
template <class G>
typename SearchStateOf<G>::type search_state_after(const G& g, const typename SearchStateOf<G>::type& s,
                                                   Move m) noexcept {
  if constexpr (HasSearchState<G>) return g.search_state_after(s, m);
  else return {};
}

// The key of a position in a search table: its canonical key (the same for
// every symmetric image) when `symmetry`, else its hash. From the search
// state where the game has one, else from canonical_hash, else the smallest
// hash of the images.
template <Game G>
std::uint64_t canonical_key(const G& g, const typename SearchStateOf<G>::type& state, bool symmetry) noexcept {
  if (!symmetry) return g.hash();
  if constexpr (HasSearchState<G>) {
    return g.key_of(state);
  } else if constexpr (HasCanonicalHash<G>) {
    return g.canonical_hash();
  } else {
    std::uint64_t best = g.hash();
    for (int s = 1; s < g.num_symmetries(); ++s) {
      if constexpr (HasSymmetricHash<G>) best = std::min<std::uint64_t>(best, g.symmetric_hash(s));
      else best = std::min<std::uint64_t>(best, g.symmetric(s).hash());
    }
    return best;
  }
}

// The position's immediate facts and the moves worth searching (Tactics in
// game.hpp), given its search state: wins in one, losses in one or two,
// who can still win, the moves left to search in legal_moves() order and an
// ordering hint for each (0 .. 2^14 - 1, higher first). A game with it is
// searched without playing every move up front.
template <class G>
concept HasTactics =
    requires(const G& g, typename G::MoveList& moves, int* hints, const typename SearchStateOf<G>::type& s) {
      { g.tactics(moves, hints, s) } -> std::same_as<Tactics>;
    };

// The ordering hints of tactics() computed apart, for games whose hints cost
// more than the rest of the tactics: with this hook tactics() may leave the
// hints unset, and the solver asks order_hints() for the moves tactics()
// listed (same order, same state) only at nodes the table does not settle.
template <class G>
concept HasOrderHints = HasTactics<G> &&
    requires(const G& g, const typename G::MoveList& moves, int* hints, const typename SearchStateOf<G>::type& s) {
      { g.order_hints(moves, hints, s) } -> std::same_as<void>;
    };

// Whether some move of g may let the opponent win at once, for a game
// without the tactics hook (which settles such moves itself): false
// without can_win_now (nothing to test) or where opponent_may_win_next says
// no move can.
template <class G>
bool threats_possible(const G& g) noexcept {
  if constexpr (HasTactics<G> || !HasWinNow<G>) {
    (void)g;
    return false;
  } else if constexpr (HasThreatHint<G>) {
    return g.opponent_may_win_next();
  } else {
    return true;
  }
}
// Whether `child`, the position after a move of `mover`, lets the opponent
// win at once: a loss for the mover that needs no search.
template <class G>
bool lets_opponent_win_now(const G& child, Player mover) noexcept {
  if constexpr (HasWinNow<G>) {
    return !child.outcome().over() && child.to_move() != mover && child.can_win_now();
  } else {
    (void)child, (void)mover;
    return false;
  }
}

}  // namespace noughts
