"""noughts.gymnasium: one game as a Gymnasium Env (checked by Gymnasium's env checker) and VectorEnv over
VectorGame, compared step by step with Gymnasium's own SyncVectorEnv of that Env in same-step auto-reset."""

import noughts
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402
from noughts.gymnasium import Env, VectorEnv  # noqa: E402

GAMES = [
    ("classic", {}),
    ("classic", {"rows": 4, "cols": 4, "k": 3, "gravity": True}),
    ("ultimate", {}),
    ("quantum", {}),
]
IDS = ["classic", "gravity", "ultimate", "quantum"]


@pytest.mark.parametrize("game, options", GAMES, ids=IDS)
def test_gymnasiums_env_checker_accepts_the_single_env(game, options):
    from gymnasium.utils.env_checker import check_env

    check_env(Env(game, **options), skip_render_check=True)


def test_an_illegal_action_ends_the_episode_with_minus_one():
    env = Env("classic")
    env.reset(seed=0)
    env.step(4)
    obs, reward, terminated, truncated, info = env.step(4)  # occupied
    assert (reward, terminated, truncated) == (-1.0, True, False) and info["illegal_action"]


@pytest.mark.parametrize("game, options", GAMES, ids=IDS)
def test_vector_env_matches_gymnasiums_sync_vector_env_step_by_step(game, options):
    n = 6
    ours = VectorEnv(game, n, **options)
    theirs = SyncVectorEnv([lambda: Env(game, **options)] * n, autoreset_mode=AutoresetMode.SAME_STEP)
    assert ours.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.single_action_space == theirs.single_action_space
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    obs_a, info_a = ours.reset(seed=3)
    obs_b, info_b = theirs.reset(seed=3)
    assert (obs_a == obs_b).all() and (info_a["action_mask"] == info_b["action_mask"]).all()
    rng = np.random.default_rng(0)
    ended_games = 0
    for _ in range(60):
        masks = info_a["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs_a, r_a, t_a, u_a, info_a = ours.step(actions)
        obs_b, r_b, t_b, u_b, info_b = theirs.step(actions)
        assert ours.observation_space.contains(obs_a)
        assert (obs_a == obs_b).all() and (r_a == r_b).all() and (t_a == t_b).all() and (u_a == u_b).all()
        assert (info_a["action_mask"] == info_b["action_mask"]).all() and (info_a["to_move"] == info_b["to_move"]).all()
        assert ("final_obs" in info_a) == ("final_obs" in info_b)
        if "final_obs" in info_a:
            assert (info_a["_final_obs"] == info_b["_final_obs"]).all()
            for i in np.flatnonzero(t_a):
                assert (info_a["final_obs"][i] == info_b["final_obs"][i]).all()
                ended_games += 1
            assert all(info_a["final_obs"][i] is None for i in np.flatnonzero(~t_a))
    assert ended_games > 0  # the final observations were compared


def test_vector_env_seeded_reset_is_reproducible_and_masks_are_usable():
    envs = VectorEnv("ultimate", 4)
    envs.reset(seed=11)
    first = envs.action_space.sample(mask=tuple(envs.action_masks()))
    envs.reset(seed=11)
    assert (envs.action_space.sample(mask=tuple(envs.action_masks())) == first).all()
    assert envs.game(0).to_string() == noughts.Ultimate().to_string()
    with pytest.raises(noughts.IllegalMoveError):
        envs.step(np.array([0, 0, 0, 0]) + 81)


def test_env_renders_text_and_pixels():
    env = Env("classic", render_mode="ansi")
    env.reset()
    env.step(4)
    assert env.render() == str(env.game) and "X" in env.render()
    pytest.importorskip("resvg_py")
    env = Env("ultimate", render_mode="rgb_array")
    env.reset()
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    with pytest.raises(ValueError, match="render_mode"):
        Env("classic", render_mode="human")
