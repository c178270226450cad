"""Observations, action masks and VectorGame, checked against the game objects themselves."""

import random

import noughts
import numpy as np
import pytest
from noughts import Classic, Player, Quantum, Ultimate

FACTORIES = {
    "classic": lambda: Classic(),
    "classic-gravity-free": lambda: Classic(4, 5, 3, gravity=True, free_choice=True),
    "ultimate": Ultimate,
    "quantum": Quantum,
}


def random_positions(factory, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        g = factory()
        for _ in range(rng.randrange(0, 30)):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_actions()))
        yield g


def test_classic_observation_is_relative_to_the_mover():
    g = Classic()
    g.play("a1")  # X
    obs = g.observation()
    assert obs.shape == (3, 3, 3) and obs.dtype == np.float32
    assert obs[0].sum() == 0 and obs[1][0, 0] == 1  # O to move: X's mark is the opponent's
    assert obs[2].sum() == 8 and obs[2][0, 0] == 0
    g.play("b2")
    obs = g.observation()
    assert obs[0][0, 0] == 1 and obs[1][1, 1] == 1


def test_classic_gravity_observation_marks_landing_cells():
    g = Classic(3, 3, gravity=True)
    g.play("b")
    legal = g.observation()[2]
    assert legal.tolist() == [[0, 0, 0], [0, 1, 0], [1, 0, 1]]


def test_ultimate_observation_planes():
    g = Ultimate()
    g.play("e5")  # X in the centre of the centre board: O is sent to board 4
    obs = g.observation()
    assert obs.shape == (6, 9, 9)
    assert obs[1][4, 4] == 1 and obs[0].sum() == 0
    assert obs[2].sum() == 8 and obs[2][3:6, 3:6].sum() == 8
    assert obs[3:].sum() == 0


def test_ultimate_won_board_plane():
    g = Ultimate()
    # X wins board 0 with cells 0, 1, 2 while O's answers send X back to board 0.
    for m in ["0/0", "0/4", "4/4", "4/0", "0/1", "1/0", "0/2"]:
        g.play(m)
    assert g.board_states()[0] == noughts.BoardState.X
    obs = g.observation()  # O to move
    assert obs[4][0:3, 0:3].sum() == 9 and obs[3].sum() == 0


def test_quantum_observation_planes():
    g = Quantum()
    g.play("a1-b2")
    g.play("a1-b2")  # closes a 2-cycle: X chooses
    obs = g.observation()
    assert obs.shape == (13, 3, 3)
    assert obs[2][0, 0] == obs[2][1, 1] == 1  # spooky mark 1
    assert obs[3][0, 0] == obs[3][1, 1] == 1  # spooky mark 2
    assert obs[11].sum() == 2 and obs[12].sum() == 9
    g.play("@a1")  # o2 lands in a1, x1 in b2; X moves again
    obs = g.observation()
    assert obs[0][1, 1] == 1 and obs[1][0, 0] == 1 and obs[2:12].sum() == 0 and obs[12].sum() == 7


def illegal_action(g, rng):
    """A move id g refuses: taken from the id space when one is illegal there, or out of range."""
    legal = set(g.legal_actions())
    return rng.choice([a for a in range(-1, g.num_actions + 1) if a not in legal])


@pytest.mark.parametrize("name", FACTORIES)
def test_vector_game_matches_single_games(name):
    factory = FACTORIES[name]
    n = 16
    rng = random.Random(7)
    env = noughts.VectorGame(factory, n, seed=3)
    obs, masks, to_move = env.reset()
    replicas = [factory() for _ in range(n)]
    shape = replicas[0].observation_shape
    assert obs.shape == (n, *shape) and obs.dtype == np.uint8 and masks.shape == (n, replicas[0].num_actions)
    for _ in range(400):
        actions = env.random_actions()
        # One bad action among good ones: refused, naming its game, and no game moves.
        j = rng.randrange(n)
        bad = actions.copy()
        bad[j] = illegal_action(replicas[j], rng)
        with pytest.raises(noughts.IllegalMoveError, match=rf"^game {j}: illegal action {bad[j]}: ."):
            env.step(bad)
        assert all(env.game(i) == g for i, g in enumerate(replicas))
        step = env.step(actions)
        for i, g in enumerate(replicas):
            mover = g.to_move
            g.play(int(actions[i]))
            ended = g.is_over()
            reward = 0.0 if not ended or g.winner is None else (1.0 if g.winner == mover else -1.0)
            assert step.terminated[i] == ended and step.rewards[i] == reward
            if ended:
                replicas[i] = g = factory()
            assert np.array_equal(step.observations[i], g.observation(np.uint8))
            assert np.array_equal(step.action_masks[i], g.action_mask())
            assert step.to_move[i] == int(g.to_move)
            assert env.game(i) == g


def test_vector_game_rejects_bad_actions_and_changes_nothing():
    env = noughts.VectorGame("classic", 4)
    env.reset()
    env.step([4, 4, 4, 4])
    before = [env.game(i) for i in range(4)]
    with pytest.raises(noughts.IllegalMoveError, match="game 2"):
        env.step([0, 1, 4, 3])  # 4 is taken in game 2
    assert [env.game(i) for i in range(4)] == before
    with pytest.raises(noughts.IllegalMoveError):
        env.step([0, 1, 99, 3])
    with pytest.raises(noughts.InvalidMoveError):
        env.step([0, 1, 2])  # wrong length
    with pytest.raises(noughts.InvalidMoveError):
        env.step(np.array([0.0, 1.0, 2.0, 3.0]))  # not ids
    assert [env.game(i) for i in range(4)] == before
    with pytest.raises(noughts.InvalidOptionError):
        noughts.VectorGame("classic", 0)
    with pytest.raises(noughts.InvalidOptionError):
        noughts.VectorGame("chess", 2)


@pytest.mark.parametrize("name", FACTORIES)
def test_vector_game_accepts_exactly_the_legal_actions(name):
    # VectorGame tests legality without the games' messages: it must agree
    # with legal_actions() on every id, in and out of range.
    for g in random_positions(FACTORIES[name], 60, 2):
        if g.is_over():
            continue
        legal = g.legal_actions()
        env = noughts.VectorGame(g, len(legal))
        env.step(legal)  # game i plays the i-th legal move
        for i, a in enumerate(legal):
            after = g.copy()
            after.play(a)
            assert env.game(i) == (g if after.is_over() else after)  # a finished game restarts at g
        one = noughts.VectorGame(g, 1)
        for a in set(range(-2, g.num_actions + 2)) - set(legal):
            with pytest.raises(noughts.IllegalMoveError, match=f"^game 0: illegal action {a}: ."):
                one.step([a])
            assert one.game(0) == g


def ultimate_planes(g):
    """Ultimate's observation planes built from the board as a player reads it (not from the C++ planes)."""
    planes = np.zeros((6, 9, 9), np.uint8)
    me, them = ("X", "O") if g.to_move == Player.X else ("O", "X")
    for r, row in enumerate(g.board()):
        for c, mark in enumerate(row):
            planes[0, r, c] = mark == me
            planes[1, r, c] = mark == them
    for a in g.legal_actions():
        b, cell = divmod(a, 9)
        planes[2, b // 3 * 3 + cell // 3, b % 3 * 3 + cell % 3] = 1
    won_me = noughts.BoardState.X if me == "X" else noughts.BoardState.O
    won_them = noughts.BoardState.O if me == "X" else noughts.BoardState.X
    for b, state in enumerate(g.board_states()):
        block = (slice(b // 3 * 3, b // 3 * 3 + 3), slice(b % 3 * 3, b % 3 * 3 + 3))
        for plane, wanted in ((3, won_me), (4, won_them), (5, noughts.BoardState.DRAWN)):
            planes[(plane, *block)] = state == wanted
    return planes


def test_ultimate_observation_matches_the_board():
    # Whole games, so that won, drawn, forced and free boards and finished games all occur.
    rng = random.Random(11)
    seen = set()
    for _ in range(60):
        g = Ultimate()
        while True:
            planes = ultimate_planes(g)
            assert np.array_equal(g.observation(np.uint8), planes)
            seen.update(p for p in range(3, 6) if planes[p].any())
            if g.is_over():
                break
            g.play(rng.choice(g.legal_actions()))
    assert seen == {3, 4, 5}


def test_vector_game_is_deterministic_for_a_seed():
    def run(seed):
        env = noughts.VectorGame("ultimate", 8, seed=seed)
        env.reset()
        return [env.step(env.random_actions()).rewards.tolist() for _ in range(100)]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_vector_game_from_a_position():
    start = Ultimate()
    start.play("e5")
    env = noughts.VectorGame(start, 3)
    obs, masks, to_move = env.reset()
    assert (to_move == int(Player.O)).all() and masks.sum() == 3 * 8


def test_observation_for_the_player_not_to_move_swaps_the_owned_planes():
    g = Ultimate()
    for m in ["0/0", "0/4", "4/4", "4/0", "0/1", "1/0", "0/2"]:  # X wins board 0; O to move
        g.play(m)
    mover = g.observation()
    other = g.observation(player=Player.X)
    assert np.array_equal(other[0], mover[1]) and np.array_equal(other[1], mover[0])
    assert np.array_equal(other[3], mover[4]) and np.array_equal(other[4], mover[3])
    assert np.array_equal(other[2], mover[2]) and np.array_equal(other[5], mover[5])
    assert np.array_equal(g.observation(player=Player.O), mover)


MASK_FACTORIES = {
    **FACTORIES,
    "classic-misere": lambda: Classic(misere=True),
    "classic-free": lambda: Classic(3, 3, free_choice=True),
    "classic-gravity": lambda: Classic(6, 7, 4, gravity=True),
    "classic-8x8-free": lambda: Classic(8, 8, 5, free_choice=True),  # 128 ids: both halves of the doubled mask
    "classic-5x7-misere-free-gravity": lambda: Classic(5, 7, 4, misere=True, free_choice=True, gravity=True),
}


@pytest.mark.parametrize("name", MASK_FACTORIES)
def test_action_mask_matches_legal_actions_through_whole_games(name):
    # Masks are written from bit sets, apart from legal_actions(): compare them
    # at every position of whole games, finished ones (an empty mask) included.
    rng = random.Random(13)
    collapses = 0
    for _ in range(30):
        g = MASK_FACTORIES[name]()
        while True:
            mask = g.action_mask()
            assert mask.dtype == bool and mask.shape == (g.num_actions,)
            assert list(np.flatnonzero(mask)) == g.legal_actions()
            if g.is_over():
                break
            collapses += any(a >= 36 for a in g.legal_actions()) if name == "quantum" else 0
            g.play(rng.choice(g.legal_actions()))
    assert name != "quantum" or collapses > 0


MASK64 = 2**64 - 1


class ReferenceRng:
    """The C++ generator (SplitMix64-seeded wyrand) in Python, to draw actions as legal_actions()[below(len)]."""

    def __init__(self, seed):
        z = (seed + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        self.state = z ^ (z >> 31)

    def below(self, n):
        self.state = (self.state + 0xA0761D6478BD642F) & MASK64
        t = self.state * (self.state ^ 0xE7037ED1A0B428DB)
        x = (t >> 64) ^ (t & MASK64)
        return ((x >> 32) * n) >> 32


@pytest.mark.parametrize("name", MASK_FACTORIES)
def test_random_actions_draw_from_the_legal_list(name):
    # random_actions draws from bit sets without building move lists; it must
    # give exactly legal_actions()[rng.below(len)] of the same generator, so
    # that seeded runs do not depend on how the draw is made.
    n = 12
    env = noughts.VectorGame(MASK_FACTORIES[name], n, seed=2024)
    reference = ReferenceRng(2024)
    env.reset()
    for _ in range(150):
        expected = []
        for i in range(n):
            legal = env.game(i).legal_actions()
            expected.append(legal[reference.below(len(legal))])
        actions = env.random_actions()
        assert actions.tolist() == expected
        env.step(actions)
    again = noughts.VectorGame(MASK_FACTORIES[name], n, seed=2024)
    again.reset()
    first = noughts.VectorGame(MASK_FACTORIES[name], n, seed=2024)
    first.reset()
    assert again.random_actions().tolist() == first.random_actions().tolist()
