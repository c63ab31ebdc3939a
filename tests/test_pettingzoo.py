"""The PettingZoo environment and its single-agent form (sniff_rules.adapters.pettingzoo):
PettingZoo's and Gymnasium's own checks, whole matches, secrecy (SETUP-6).

PettingZoo's ``max_cycles_test`` does not apply: it builds ``mod.parallel_env``
and expects every agent to act in every cycle, and American Sniff is played
one seat at a time (``is_parallelizable`` is False), so it has no parallel
form. The environment's own ``max_cycles`` cap is tested here instead.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the pettingzoo extra is not installed: pip install 'sniff-rules[pettingzoo]'")
pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed: pip install 'sniff-rules[pettingzoo]'")
pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'sniff-rules[pettingzoo]'")

import gymnasium
import numpy as np
import pettingzoo
from gymnasium.utils.env_checker import check_env
from pettingzoo.test.api_test import api_test
from pettingzoo.test.seed_test import seed_test

import sniff_rules.adapters.actions as actions
from sniff_rules.adapters.pettingzoo import ENV_ID, SingleAgentEnv, agent_name, env, observation_of, raw_env
from sniff_rules.adapters.pettingzoo.environment import NUM_ACTIONS, SeedError, UnknownAgentError
from sniff_rules.adapters.pettingzoo.observation import _lacking_of, _observation, _table_part
from sniff_rules.errors import IllegalMoveError, InvalidMoveError, InvalidRulesError, InvalidStateError, SniffError
from sniff_rules.play.events import Event
from sniff_rules.play.sampler import DealSampler
from sniff_rules.play.view import observe, seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.state import Phase, State

PLAYERS = (2, 3, 4)


def seat_of(agent: str) -> int:
    """The seat of ``player_N``."""
    return int(agent.removeprefix("player_"))


def random_action(observation: dict[str, Any], pick: random.Random) -> int:
    """A uniformly random action among those the mask allows."""
    legal = np.flatnonzero(observation["action_mask"])
    return int(legal[int(pick.random() * len(legal))])


def play(environment: Any, seed: int) -> Iterator[str]:
    """Random play through the AEC loop, yielding each agent before it acts (None once it is done)."""
    environment.reset(seed=seed)
    pick = random.Random(seed)
    for agent in environment.agent_iter():
        yield agent
        observation, _, terminated, truncated, _ = environment.last()
        environment.step(None if terminated or truncated else random_action(observation, pick))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("scope", ["round", "match"])
def test_pettingzoo_api_test_passes(players: int, scope: str) -> None:
    """PettingZoo's api_test passes on the wrapped environment at every player count and scope."""
    with warnings.catch_warnings():
        # api_test warns that a Dict observation space is unusual; classic envs share it.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(players=players, scope=scope), num_cycles=60)  # type: ignore[no-untyped-call]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("scope", ["round", "match"])
def test_pettingzoo_seed_test_passes(players: int, scope: str) -> None:
    """PettingZoo's seed_test: two environments reset with one seed play alike (SETUP-5), in either scope."""
    seed_test(lambda: env(players=players, scope=scope), num_cycles=40)  # type: ignore[no-untyped-call]


def test_the_same_seed_deals_the_same_match_and_reset_goes_on_with_the_stream() -> None:
    """reset(seed=n) restarts the environment's source; reset() deals the next match of that stream."""
    first, second = raw_env(players=3), raw_env(players=3)
    first.reset(seed=9)
    second.reset(seed=9)
    assert first.game_state == second.game_state
    dealt = first.game_state
    first.reset()
    assert dealt != first.game_state
    second.reset()
    assert first.game_state == second.game_state
    # Unseeded, each environment takes fresh entropy, as Gymnasium's do; its stream_seed replays it.
    fresh, other = raw_env(players=3), raw_env(players=3)
    fresh.reset()
    other.reset()
    assert fresh.stream_seed != other.stream_seed
    assert fresh.game_state != other.game_state
    assert fresh.stream_seed is not None
    replayed = raw_env(players=3)
    replayed.reset(seed=fresh.stream_seed)
    assert fresh.game_state == replayed.game_state


@pytest.mark.parametrize("players", PLAYERS)
def test_random_agents_play_whole_matches_with_the_action_mask(players: int) -> None:
    """Random agents using the mask play whole matches to a win (MATCH-1); the mask is non-zero for the
    agent to move only and allows exactly its legal moves (TURN-1); partners share the +1 (SETUP-2)."""
    for seed in range(2):
        environment = raw_env(players=players, scope="match")
        final: dict[str, float] = {}
        for agent in play(environment, seed):
            state = environment.game_state
            for other in environment.agents:
                mask = environment.observe(other)["action_mask"]
                expected = sorted(actions.action_of(move) for move in observe(state, seat_of(other)).legal_moves)
                assert expected == np.flatnonzero(mask).tolist()
                assert (other == agent and state.phase is Phase.PLAYING) == bool(mask.any())
            if environment.terminations[agent]:
                final[agent] = environment._cumulative_rewards[agent]
        state = environment.game_state
        assert state.is_over
        rules = state.rules
        expected_rewards = {
            agent_name(seat): 1.0 if rules.side_of(seat) == state.winner else -1.0 / (rules.sides - 1)
            for seat in range(players)
        }
        assert expected_rewards == final
        assert 0.0 == pytest.approx(sum(final.values()))


@pytest.mark.parametrize("players", PLAYERS)
def test_round_rewards_are_each_sides_points_less_the_mean_over_the_target(players: int) -> None:
    """A round episode ends with the round (END-1, BLOCK-1); each agent gets its side's points of the
    round (POINTS-2, SETTLE-2) less the mean of the sides', over the target, partners alike."""
    given: list[float] = []
    for seed in (3, 5):
        environment = raw_env(players=players, scope="round")
        rewards: dict[str, float] = {}
        for agent in play(environment, seed):
            if environment.terminations[agent]:
                rewards[agent] = environment._cumulative_rewards[agent]
        state = environment.game_state
        assert state.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
        assert 1 == state.round_number
        rules = state.rules
        mean = sum(state.scores) / rules.sides
        expected = {agent_name(seat): (state.score_of(seat) - mean) / rules.target for seat in range(players)}
        assert expected == rewards
        given += rewards.values()
    assert any(given)


def test_max_cycles_truncates_after_that_many_actions_per_agent() -> None:
    """max_cycles=2 at three players truncates every agent after six actions, with no reward."""
    environment = raw_env(players=3, scope="match", max_cycles=2)
    steps = 0
    for agent in play(environment, 1):
        if environment.truncations[agent]:
            assert 0.0 == environment._cumulative_rewards[agent]
            assert not environment.terminations[agent]
        else:
            steps += 1
    assert 6 == steps
    assert [] == environment.agents


def history_states(players: int, seed: int, every: int) -> Iterator[tuple[raw_env, State, tuple[Event, ...]]]:
    """Every ``every``-th position of a random match through the environment, with the round's events."""
    environment = raw_env(players=players, scope="match")
    for count, agent in enumerate(play(environment, seed)):
        if environment.terminations[agent]:
            continue
        if count % every == 0:
            yield environment, environment.game_state, tuple(environment._events)


@pytest.mark.parametrize("players", PLAYERS)
def test_observations_equal_those_built_from_the_complete_seat_view(players: int) -> None:
    """The environment's cheap observation equals observation_of, built from seat_view (SETUP-6)."""
    for environment, state, events in history_states(players, 5, 1):
        for agent in environment.agents:
            seen, reference = environment.observe(agent), observation_of(state, events, seat_of(agent))
            assert reference["observation"].tolist() == seen["observation"].tolist()
            assert reference["action_mask"].tolist() == seen["action_mask"].tolist()
            assert environment.observation_space(agent).contains(seen)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_lacking_values_kept_step_by_step_are_those_of_the_rounds_log(players: int) -> None:
    """DRAW-1 PASS-1: after every step, each seat's lacking values, folded event by event, equal
    RoundLog.lacking of the round's public log rebuilt from its events."""
    seen = 0
    for seed in range(3):
        for environment, _state, events in history_states(players, seed, 1):
            public = [event.seen_by(None) for event in events]
            assert list(_lacking_of(public, players)) == environment._lacking
            seen += any(environment._lacking)
    assert seen > 10


@pytest.mark.parametrize("players", PLAYERS)
def test_observations_do_not_change_when_the_hidden_tiles_are_dealt_again(players: int) -> None:
    """Re-dealing every tile a seat cannot see (DealSampler) leaves its observation unchanged:
    no other hand, no boneyard order, no random source reaches it (SETUP-6)."""
    source: RandomSource = SplitMix64.from_seed(players)
    redealt = 0
    for environment, state, events in history_states(players, 11, 4):
        seat = state.to_move
        shape = environment.shape
        seen = environment.observe(agent_name(seat))
        sampler = DealSampler(seat_view(state, seat, events))
        for _ in range(3):
            deal, source = sampler.sample(source)
            other, other_events = sampler.replay(deal, source)
            redealt += other.hands != state.hands or other.boneyard != state.boneyard
            public = [event.seen_by(None) for event in other_events]
            again = _observation(
                shape, observe(other, seat), _lacking_of(public, players), _table_part(shape, other.layout)
            )
            assert seen["observation"].tolist() == again["observation"].tolist()
            assert seen["action_mask"].tolist() == again["action_mask"].tolist()
            assert seen["observation"].tolist() == observation_of(other, other_events, seat)["observation"].tolist()
    assert redealt > 10


def test_an_action_the_mask_refuses_ends_the_wrapped_episode_with_minus_one() -> None:
    """Through env(), a masked-out action ends the episode for all, -1 to the offender (TURN-1)."""
    environment = env(players=2)
    environment.reset(seed=4)
    agent = environment.agent_selection
    observed = environment.observe(agent)
    assert observed is not None
    environment.step(int(np.flatnonzero(observed["action_mask"] == 0)[0]))
    assert all(environment.terminations.values())
    assert -1.0 == environment.rewards[agent]


def test_the_raw_environment_refuses_a_bad_action_and_changes_nothing() -> None:
    """An illegal move raises IllegalMoveError, an id outside the space InvalidMoveError; the state stays."""
    environment = raw_env(players=2)
    environment.reset(seed=4)
    before = environment.game_state
    agent = environment.agent_selection
    mask = environment.observe(agent)["action_mask"]
    with pytest.raises(IllegalMoveError):
        environment.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(InvalidMoveError):
        environment.step(NUM_ACTIONS)
    with pytest.raises(InvalidMoveError):
        environment.step(1.0)  # type: ignore[arg-type]
    assert before is environment.game_state
    assert agent == environment.agent_selection


@pytest.mark.parametrize(
    ("arguments", "error", "rule"),
    [
        ({"players": 5}, InvalidRulesError, "SETUP-2"),
        ({"scope": "game"}, InvalidRulesError, "MATCH-1"),
        ({"render_mode": "rgb_array"}, InvalidStateError, "FORMAT-3"),
    ],
)
def test_bad_arguments_are_refused_with_their_rule(
    arguments: dict[str, Any], error: type[SniffError], rule: str
) -> None:
    """A player count or scope the environment lacks is a house rule refused; a render mode it lacks is a
    malformed request, no house rule (a ValueError, as Gymnasium's own environments raise)."""
    with pytest.raises(SniffError) as refused:
        raw_env(**arguments)
    assert (error, rule) == (type(refused.value), refused.value.rule)
    assert isinstance(refused.value, ValueError)


def test_ansi_rendering_shows_the_selected_seat_its_own_hand_and_no_other(capsys: pytest.CaptureFixture[str]) -> None:
    """render() in ansi mode is the selected agent's view as text: its tiles, no tile of another
    hand (SETUP-6); human mode prints it after each step."""
    environment = raw_env(players=3, render_mode="ansi")
    environment.reset(seed=2)
    state = environment.game_state
    text = environment.render()
    assert isinstance(text, str)
    seat = state.to_move
    assert all(str(tile) in text for tile in state.hand(seat))
    assert not any(str(tile) in text for other in range(3) if other != seat for tile in state.hand(other))
    shown = raw_env(players=3, render_mode="human")
    shown.reset(seed=2)
    shown.step(random_action(shown.observe(shown.agent_selection), random.Random(0)))
    printed = capsys.readouterr().out
    assert all(str(tile) in printed for tile in shown.game_state.hand(shown.game_state.to_move))
    assert shown.render() is None
    assert printed == capsys.readouterr().out


def test_importing_the_module_registers_the_environment() -> None:
    """pettingzoo.make builds the registered environment with its keyword arguments."""
    made = pettingzoo.make("aec", ENV_ID, players=3)
    made.reset(seed=1)
    assert ["player_0", "player_1", "player_2"] == made.possible_agents


def learner_episode(table: SingleAgentEnv, seed: int) -> tuple[list[float], bool]:
    """A random learner's whole episode: the rewards it got and whether it ended (not truncated)."""
    pick = random.Random(seed)
    observation, _ = table.reset(seed=seed)
    rewards = []
    while True:
        observation, reward, terminated, truncated, _ = table.step(random_action(observation, pick))
        rewards.append(float(reward))
        if terminated or truncated:
            return rewards, terminated


def test_the_single_agent_environment_passes_gymnasiums_checker() -> None:
    """Gymnasium's check_env accepts one seat against the bots, refused actions included."""
    with warnings.catch_warnings():
        # The counted entry of [0|0] is always 0 (COUNT-2): its bounds are equal, which the checker notes.
        warnings.simplefilter("ignore", UserWarning)
        check_env(SingleAgentEnv(players=3, seat=1), skip_render_check=True)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_learner_plays_whole_episodes_against_the_bots(players: int) -> None:
    """A learner at the last seat plays rounds to their end against greedy bots; its only reward is the
    round's, at the end (END-1), and the same seed replays the same episode (SETUP-5)."""
    table = SingleAgentEnv(players=players, seat=players - 1)
    for seed in range(3):
        rewards, ended = learner_episode(table, seed)
        assert ended
        assert table.table.game_state.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
        state = table.table.game_state
        mean = sum(state.scores) / state.rules.sides
        assert [(state.score_of(players - 1) - mean) / state.rules.target] == [sum(rewards)]
        assert all(0.0 == reward for reward in rewards[:-1])
        assert (rewards, ended) == learner_episode(table, seed)


def test_a_refused_action_ends_the_learners_episode_with_minus_one() -> None:
    """An action the learner's mask refuses ends its episode with -1 and changes nothing (TURN-1)."""
    table = SingleAgentEnv(players=2, seat=0)
    observation, _ = table.reset(seed=4)
    before = table.table.game_state
    refused = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = table.step(refused)
    assert (-1.0, True, False, refused) == (reward, terminated, truncated, info["illegal_action"])
    assert before is table.table.game_state


def test_the_speed_benchmark_counts_the_actions_of_the_match_it_plays() -> None:
    """benchmarks.adapters --part pettingzoo counts every agent action of a match, no finished agent's step."""
    from benchmarks.adapters import play_pettingzoo

    environment = raw_env(players=4, scope="match")
    expected = sum(1 for agent in play(environment, 6) if not environment.terminations[agent])
    played = play_pettingzoo(lambda: raw_env(players=4, scope="match"), "raw_env", float("inf"), 6, max_games=1)
    assert (1, expected, 0) == (played.games, played.actions, played.chance)


_STRANGERS: list[Any] = ["nobody", "player_4", "player_-1", "", 0, None, ["player_0"]]


@pytest.mark.parametrize("agent", _STRANGERS, ids=repr)
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw_env", "env"])
def test_an_unknown_agent_is_refused_everywhere_as_pettingzoo_refuses_one(agent: Any, wrapped: bool) -> None:
    """SETUP-2: observe, observation_space and action_space refuse an agent the table does not have with an
    error that is a KeyError (as rock-paper-scissors' dict lookup) and a ValueError (as chess's
    possible_agents.index), naming the rule; nothing changes."""
    environment: Any = env(players=3) if wrapped else raw_env(players=3)
    environment.reset(seed=5)
    before = (environment.agent_selection, environment.unwrapped.game_state)
    calls = [environment.observe, environment.observation_space, environment.action_space]
    for call in calls:
        for kind in (KeyError, ValueError, UnknownAgentError):
            with pytest.raises(kind) as caught:
                call(agent)
            assert ("SETUP-2", True) == (caught.value.rule, str(caught.value).startswith("SETUP-2: "))  # type: ignore[attr-defined]
    assert before == (environment.agent_selection, environment.unwrapped.game_state)


@pytest.mark.parametrize("seed", ["x", "7", 1.5, -1, True, [1], np.int64(3)], ids=repr)
def test_a_reset_seed_that_is_not_a_non_negative_int_is_refused_as_gymnasium_refuses_it(seed: Any) -> None:
    """FORMAT-3: reset refuses a seed Gymnasium's seeding.np_random refuses (a string, a fraction, a
    negative int, a numpy int), and a boolean, with a gymnasium.error.Error that names the rule;
    the environment is left as it was."""
    environment = raw_env(players=2)
    environment.reset(seed=3)
    before = (environment.stream_seed, environment.game_state)
    for kind in (SeedError, gymnasium.error.Error, SniffError):
        with pytest.raises(kind) as caught:
            environment.reset(seed=seed)
        assert "FORMAT-3" == caught.value.rule  # type: ignore[attr-defined]
    assert before == (environment.stream_seed, environment.game_state)


def test_the_single_agent_env_refuses_a_bad_seed_before_dealing() -> None:
    """The one-seat Gymnasium wrapper refuses a string seed as every Gymnasium environment does."""
    table = SingleAgentEnv(players=2)
    with pytest.raises(gymnasium.error.Error):
        table.reset(seed="x")  # type: ignore[arg-type]
