"""Gymnasium's conventions for the one-seat environment and the observation space: registration, action masks,
render_fps, bounds that are true and tight."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'sniff-rules[pettingzoo]'")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

from sniff_rules.adapters.pettingzoo import GYMNASIUM_ID, ObservationShape, SingleAgentEnv, raw_env
from sniff_rules.rules import Rules


def test_gymnasium_make_builds_the_one_seat_environment_under_its_documented_id() -> None:
    """gymnasium.make("sniff_rules/AmericanSniff-v1", ...) builds a SingleAgentEnv with those arguments and a spec."""
    made = gymnasium.make(GYMNASIUM_ID, players=3, seat=1)
    inner: Any = made.unwrapped
    assert ("sniff_rules/AmericanSniff-v1", SingleAgentEnv, 3, 1) == (
        made.spec.id if made.spec else None,
        type(inner),
        inner.table.rules.players,
        inner.seat,
    )


def test_gymnasiums_checker_passes_without_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    """check_env on the made environment passes and warns of nothing: a spec, render_fps, no equal bounds."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(GYMNASIUM_ID, players=2).unwrapped)
    capsys.readouterr()  # check_env renders in human mode, which prints
    assert [] == [str(warning.message) for warning in caught]


def test_render_fps_is_declared() -> None:
    """Both environments declare metadata["render_fps"], as Gymnasium's recorders read it."""
    assert (2, 2) == (SingleAgentEnv.metadata["render_fps"], raw_env.metadata["render_fps"])


def test_action_masks_is_the_learners_mask_as_booleans() -> None:
    """action_masks() is the observation's action_mask as bools at every learner turn, and all False once an
    action the mask refuses has ended the episode (what MaskablePPO calls)."""
    table = SingleAgentEnv(players=2)
    observation, _ = table.reset(seed=5)
    pick = random.Random(5)
    done = False
    while not done:
        masks = table.action_masks()
        assert (np.bool_, observation["action_mask"].astype(bool).tolist()) == (masks.dtype.type, masks.tolist())
        legal = np.flatnonzero(masks)
        observation, _, done, truncated, _ = table.step(int(legal[pick.randrange(len(legal))]))
        done = done or truncated
    table.reset(seed=6)
    refused = int(np.flatnonzero(~table.action_masks())[0])
    table.step(refused)
    assert not table.action_masks().any()


def random_observations(players: int, scope: str, seed: int, games: int) -> list[Any]:
    """Every agent's observation vector at every step of ``games`` random episodes."""
    environment = raw_env(players=players, scope=scope)
    pick = random.Random(seed)
    seen = []
    for game in range(games):
        environment.reset(seed=seed + game)
        for _agent in environment.agent_iter():
            seen += [environment.observe(other)["observation"] for other in environment.agents]
            observation, _, terminated, truncated, _ = environment.last()
            assert observation is not None
            if terminated or truncated:
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[pick.randrange(len(legal))]))
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("scope", ["round", "match"])
def test_every_observation_lies_within_the_bounds(players: int, scope: str) -> None:
    """The bounds are true: every observation of random episodes lies within them, entry by entry."""
    low, high = ObservationShape(players, scope).bounds()
    seen = np.array(random_observations(players, scope, players, 3 if scope == "round" else 1))
    assert (True, True) == (bool((seen >= low).all()), bool((seen <= high).all()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_entry_is_always_the_same(players: int) -> None:
    """No entry's bounds are equal, and random rounds move every entry of the layout's part but a few rare
    ones off zero: none is a constant the space declares."""
    shape = ObservationShape(players)
    low, high = shape.bounds()
    assert [] == np.flatnonzero(low == high).tolist()
    seen = np.array(random_observations(players, "round", 10 + players, 40))
    moved = (seen != 0).any(axis=0)
    layout_part = range(shape.table, shape.end_count + 1)
    assert sum(1 for entry in layout_part if not moved[entry]) < 0.1 * len(layout_part)


def test_the_count_of_double_blank_is_how_often_it_is_listed() -> None:
    """[0|0] adds no pips, so its count entry says how many times it is listed: 1 as a lone lead (COUNT-2)."""
    from sniff_rules.adapters.pettingzoo.observation import _table_part
    from sniff_rules.layout import Layout
    from sniff_rules.tiles import Tile

    shape = ObservationShape(2)
    part = _table_part(shape, Layout.EMPTY.place(Tile(0, 0), None))
    assert 1 == part[shape.counted - shape.table]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bounds_follow_the_rules(players: int) -> None:
    """A hand holds at most its deal and the whole boneyard, the boneyard at most what the deal left, a round's
    score lies between its largest settlement and the target less 5 plus the highest play, 48."""
    rules = Rules.standard(players)
    shape = ObservationShape(players)
    low, high = shape.bounds()
    boneyard = 28 - players * rules.hand_size
    assert (rules.hand_size + boneyard, boneyard, 48, -170, rules.target + 43) == (
        high[shape.hand_sizes],
        high[shape.boneyard],
        high[shape.end_count],
        low[shape.scores],
        high[shape.scores],
    )
    capped_low, _ = ObservationShape(players, "match", max_cycles=10).bounds()
    assert -170 * 10 * players == capped_low[shape.scores]
