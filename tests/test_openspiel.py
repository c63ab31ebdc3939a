"""The OpenSpiel adapter (sniff_rules.adapters.openspiel): OpenSpiel's checks, the golden playthrough, resampling."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the [openspiel] extra")
np = pytest.importorskip("numpy", reason="the OpenSpiel adapter needs the [openspiel] extra")

import sniff_rules.adapters.openspiel  # noqa: E402  (registers the game, after the skip)
from sniff_rules.adapters.actions import DRAW_ACTION  # noqa: E402
from sniff_rules.errors import InvalidRulesError, InvalidStateError, SniffError  # noqa: E402

PLAYTHROUGH = Path(__file__).parent.parent / "specs" / "playthroughs" / "python_american_sniff.txt"
PLAYTHROUGH_GAME = "python_american_sniff(players=4)"
PLAYTHROUGH_SEED = 17


def _load(**params: object) -> Any:
    return pyspiel.load_game(sniff_rules.adapters.openspiel.GAME_NAME, params)


def _random_states(game: Any, games: int, seed: int) -> list[Any]:
    """Every state of ``games`` random playthroughs, chance included."""
    chooser = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            states.append(state.clone())
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(chooser.choices(outcomes, chances)[0])
            else:
                state.apply_action(chooser.choice(state.legal_actions()))
    return states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_passes(players: int) -> None:
    """OpenSpiel's random_sim_test (legal actions, chance, clones, serialization, returns) at each table size."""
    pyspiel.random_sim_test(_load(players=players), num_sims=4, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_passes_for_a_match(players: int) -> None:
    """The match scope passes random_sim_test too at each table size, rounds dealt after played-out and blocked
    rounds, states serialized and read back."""
    game = _load(players=players, scope="match", max_rounds=4)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_api_checks_of_openspiel_hold(players: int) -> None:
    """OpenSpiel's per-game API checks: terminal player at the end, no information state at chance
    nodes, observations of the declared size and finite, returns within the utilities and summing to 0."""
    game = _load(players=players)
    low, high = game.min_utility(), game.max_utility()
    for state in _random_states(game, 3, players):
        if state.is_terminal():
            assert pyspiel.PlayerId.TERMINAL == state.current_player()
            returns = state.returns()
            assert all(low <= value <= high for value in returns)
            assert 0.0 == pytest.approx(sum(returns))
        if state.is_chance_node():
            with pytest.raises(RuntimeError):
                state.information_state_string()
            with pytest.raises(RuntimeError):
                state.information_state_tensor()
            assert 1.0 == pytest.approx(sum(chance for _, chance in state.chance_outcomes()))
        for player in range(players):
            observation = state.observation_tensor(player)
            information = state.information_state_tensor(player)
            assert game.observation_tensor_size() == len(observation)
            assert game.information_state_tensor_size() == len(information)
            assert np.isfinite(observation).all()
            assert np.isfinite(information).all()
        if not state.is_terminal() and not state.is_chance_node():
            actions = state.legal_actions()
            assert sorted(set(actions)) == actions


def test_partners_share_and_round_returns_are_the_points() -> None:
    """At four players partners get the same return: half the difference of the sides' net points (END-1, SETTLE-2)."""
    game = _load(players=4)
    ends = [state for state in _random_states(game, 4, 9) if state.is_terminal()]
    for state in ends:
        scores = state.core.state.scores
        half = (scores[0] - scores[1]) / 2
        assert [half, -half, half, -half] == state.returns()


def test_a_match_is_won_by_one_side() -> None:
    """In match scope the winner, or at the round cap the one leader, gets 1 and the others -1/2 (MATCH-1)."""
    game = _load(players=3, scope="match", max_rounds=20)
    ends = [state for state in _random_states(game, 3, 4) if state.is_terminal()]
    for state in ends:
        scores = state.core.state.scores
        winner = state.core.state.winner
        leader = winner if winner is not None else scores.index(max(scores))
        if winner is None and scores.count(max(scores)) > 1:
            continue
        expected = [1.0 if seat == leader else -0.5 for seat in range(3)]
        assert expected == state.returns()
    assert 3 == len(ends)


def test_leaders_at_the_round_cap_share_the_win() -> None:
    """Two of three sides level at the cap each get (3 - 2) / (2 * 2) = 1/4, the third -1/2."""
    from sniff_rules.adapters.openspiel.core import OVER, make_core, returns_of

    state = next(s for s in _random_states(_load(players=3, scope="match", max_rounds=1), 1, 2) if s.is_terminal())
    core = state.core
    level = attrs.evolve(core.state, scores=(-5, 40, 40))
    ended = make_core(core.shape, OVER, level, 0, (), core.log, core.past, core.steps, core.deal_at, core.start)
    assert [-0.5, 0.25, 0.25] == returns_of(ended)


def test_the_round_cap_ends_a_match() -> None:
    """With max_rounds=1 a match ends after its first round, so max_game_length is one round's bound."""
    game = _load(players=2, scope="match", max_rounds=1)
    rounds = {state.core.round_number for state in _random_states(game, 2, 1)}
    assert ({1}, _load(players=2).max_game_length()) == (rounds, game.max_game_length())


@pytest.mark.parametrize("params", [{"players": 5}, {"scope": "rubber"}, {"scope": "match", "max_rounds": 0}], ids=str)
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    """Players outside 2..4 (SETUP-2), an unknown scope or a round cap below 1 (MATCH-1) are refused."""
    with pytest.raises(SniffError) as refused:
        sniff_rules.adapters.openspiel.AmericanSniffGame(params)
    assert ("SETUP-2" if "players" in params else "MATCH-1") == refused.value.rule
    assert isinstance(refused.value, InvalidRulesError)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    """A draw while a placement exists is refused citing DRAW-1, and the state is unchanged."""
    game = _load(players=2)
    state = next(s for s in _random_states(game, 1, 3) if not s.is_chance_node() and not s.is_terminal())
    before = str(state)
    with pytest.raises(SniffError) as refused:
        state.apply_action(DRAW_ACTION)
    assert ("DRAW-1", before) == (refused.value.rule, str(state))


def _playthrough() -> str:
    from open_spiel.python.algorithms import generate_playthrough

    return str(generate_playthrough.playthrough(PLAYTHROUGH_GAME, action_sequence=None, seed=PLAYTHROUGH_SEED))


def test_the_golden_playthrough_replays_unchanged() -> None:
    """OpenSpiel's playthrough tool replays the committed playthrough to the same text, line for line."""
    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    expected, actual = generate_playthrough.replay(str(PLAYTHROUGH))
    assert expected.splitlines() == actual.splitlines()


def _decision_states(game: Any, games: int, seed: int) -> list[Any]:
    return [s for s in _random_states(game, games, seed) if not s.is_chance_node() and not s.is_terminal()]


@pytest.mark.parametrize(("players", "scope"), [(2, "round"), (4, "round"), (3, "match")])
def test_resampling_keeps_the_information_state(players: int, scope: str) -> None:
    """After resample_from_infostate the player to move has the same information-state string and
    tensor, while the hidden tiles are re-dealt (SETUP-6)."""
    game = _load(players=players, scope=scope, max_rounds=3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    states = _decision_states(game, 1, players)
    for state in states[:: max(1, len(states) // 12)]:
        player = state.current_player()
        for _ in range(3):
            resampled = state.resample_from_infostate(player, sampler)
            assert state.information_state_string(player) == resampled.information_state_string(player)
            assert (
                state.information_state_tensor(player).tolist() == resampled.information_state_tensor(player).tolist()
            )
            assert state.legal_actions() == resampled.legal_actions()
            changed += str(state) != str(resampled)
    assert changed > 0


def test_is_mcts_plays_a_round_against_a_random_bot() -> None:
    """OpenSpiel's IS-MCTS, resampling through the adapter, plays whole rounds against a random bot."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load(players=2)
    generator = np.random.RandomState(5)
    searcher = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=generator),
        uct_c=2.0,
        max_simulations=12,
        random_state=generator,
    )
    bots = [searcher, pyspiel.make_uniform_random_bot(1, 7)]
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(generator.choice(outcomes, p=chances)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        assert 0.0 == pytest.approx(sum(state.returns()))


def test_importing_the_library_imports_neither_numpy_nor_pyspiel() -> None:
    """`import sniff_rules` (and its action space) leaves numpy and pyspiel unimported: the extra stays optional."""
    code = (
        "import sys, sniff_rules, sniff_rules.adapters.actions; print(sorted({'numpy', 'pyspiel'} & set(sys.modules)))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "[]" == found.stdout.strip()


if __name__ == "__main__":
    # Regenerate the golden playthrough: python tests/test_openspiel.py
    PLAYTHROUGH.parent.mkdir(parents=True, exist_ok=True)
    PLAYTHROUGH.write_text(_playthrough(), encoding="utf-8")


@pytest.mark.parametrize("observed", [False, True])
def test_the_speed_benchmark_counts_the_actions_and_chance_outcomes_it_plays(observed: bool) -> None:
    """benchmarks.adapters plays whole games through pyspiel and counts each player action and chance outcome once."""
    from benchmarks.adapters import play_openspiel

    played = play_openspiel("python_american_sniff", {"players": 4}, math.inf, 3, observed=observed, max_games=2)
    game = pyspiel.load_game("python_american_sniff", {"players": 4})
    uniform = random.Random(3).random
    actions = chance = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            chance += state.is_chance_node()
            actions += not state.is_chance_node()
            options = state.legal_actions()
            pick = options[int(uniform() * len(options))]
            state.apply_action(pick)
    assert (2, actions, chance) == (played.games, played.actions, played.chance)


def test_a_pass_is_logged_without_a_tile() -> None:
    """PASS-1: a pass enters the round's log with tile -1, so the history tensor shows no tile for it."""
    from sniff_rules.adapters.actions import PASS_ACTION

    passes = []
    for state in _random_states(_load(players=4), 40, 5):
        log = state.core.log
        if log and log[-1][1] == PASS_ACTION:
            passes.append(log[-1][2])
    assert passes
    assert [-1] * len(passes) == passes


@pytest.mark.parametrize("outcome", [3, 28, -1, True, "5", 5.0])
def test_a_deal_outcome_not_among_the_undealt_tiles_is_refused(outcome: Any) -> None:
    """SETUP-5: a deal node takes only a tile not yet dealt; any other outcome is refused and changes nothing."""
    state = _load(players=4).new_initial_state()
    for action in (0, 3):  # the lot names seat 0, then tile 3 is dealt
        state.apply_action(action)
    before = (str(state), state.chance_outcomes())
    with pytest.raises(SniffError) as refused:
        state._apply_action(outcome)
    assert ("SETUP-5", before) == (refused.value.rule, (str(state), state.chance_outcomes()))
    assert 3 not in [tile for tile, _ in state.chance_outcomes()]


def test_a_draw_outcome_not_in_the_boneyard_is_refused() -> None:
    """DRAW-2: a draw's chance node takes only a boneyard tile; any other outcome is refused and changes nothing."""
    from sniff_rules.adapters.openspiel.core import DRAW

    state = next(s for s in _random_states(_load(players=2), 20, 8) if s.core.phase == DRAW)
    boneyard = [tile for tile, _ in state.chance_outcomes()]
    held = next(index for index in range(28) if index not in boneyard)
    before = str(state)
    for outcome in (held, 28, -1, True, str(boneyard[0]), float(boneyard[0])):
        with pytest.raises(SniffError) as refused:
            state._apply_action(outcome)
        assert ("DRAW-2", before) == (refused.value.rule, str(state))
    state.apply_action(boneyard[-1])
    assert boneyard[-1] == state.core.log[-1][2]


@pytest.mark.parametrize("game_string", ["python_american_sniff", "python_team_dominoes"])
@pytest.mark.parametrize("information_state", [True, False])
def test_the_rl_environment_benchmark_plays_the_games_of_the_bare_loop(
    game_string: str, information_state: bool
) -> None:
    """benchmarks.adapters' rl_environment loop draws the chance outcomes and picks from one stream in the bare
    loop's order, so it plays the same games and counts the same player actions, in either observation mode."""
    from benchmarks.adapters import play_openspiel, play_rl_environment

    params = {"players": 4} if game_string == "python_american_sniff" else {}
    bare = play_openspiel(game_string, params, math.inf, 5, max_games=2)
    through = play_rl_environment(game_string, params, math.inf, 5, information_state=information_state, max_games=2)
    assert (bare.games, bare.actions) == (through.games, through.actions)


@pytest.mark.parametrize(
    "value", [float("nan"), -1.0, 1.0, -1e-300, 1.5, float("inf"), 10**400, True, "0.5", None], ids=repr
)
def test_resampling_refuses_a_sampler_value_outside_the_unit_interval(value: object) -> None:
    """FORMAT-3: as OpenSpiel's own games require of a re-deal's value (SampleAction checks 0 <= z < 1),
    NaN, a value outside [0, 1) or one that is not a number is refused with a typed error; nothing changes."""
    game = _load(players=2)
    state = _decision_states(game, 1, 3)[0]
    before = (str(state), state.history())
    with pytest.raises(InvalidStateError) as caught:
        state.resample_from_infostate(state.current_player(), lambda: value)
    assert ("FORMAT-3", before) == (caught.value.rule, (str(state), state.history()))


@pytest.mark.parametrize("value", [0.0, 0.5, 1.0 - 2**-53, 0], ids=repr)
def test_resampling_takes_every_value_of_the_unit_interval(value: float) -> None:
    """The bounds of [0, 1) as OpenSpiel's samplers give them, 0 and the largest double below 1, re-deal."""
    game = _load(players=2)
    state = _decision_states(game, 1, 3)[0]
    player = state.current_player()
    resampled = state.resample_from_infostate(player, lambda: value)
    assert state.information_state_string(player) == resampled.information_state_string(player)
