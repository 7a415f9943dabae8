"""Shared helpers for the API and conformance suites."""
import math
import os
import sys
import sysconfig
import tempfile
from pathlib import Path

import numpy as np
import pytest

import boardlab
import boardlab.games

#: Parameter sets every game is exercised with (player counts, variants);
#: a game not listed here uses its module's PARAMETER_SETS, else defaults.
PARAM_SETS = {
    "kitsu": [{"players": 2}, {"players": 4}, {"players": 6}],
}

# Hypothesis: no per-example deadline and no "too slow" health check anywhere (the tests run
# in parallel workers on a busy machine; slowness is not a failure), unless a test says so.
try:
    import hypothesis
except ImportError:
    pass
else:
    hypothesis.settings.register_profile(
        "boardlab", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow])
    hypothesis.settings.load_profile("boardlab")

#: Safety net against a kernel that never ends a game.
MAX_GAME_LENGTH = 100_000


def game_cases():
    """pytest params, each a (name, params) pair, over every available game and its sets."""
    cases = []
    for name in boardlab.games_available():
        module = boardlab.games.get(name)
        sets = PARAM_SETS.get(name) or getattr(module, "PARAMETER_SETS", None) or [{}]
        for params in sets:
            label = ",".join(f"{k}={v}" for k, v in params.items()) or "default"
            cases.append(pytest.param((name, params), id=f"{name}-{label}"))
    return cases


def random_action(state, rng):
    """A chance outcome drawn with its probability, or a uniform legal action: the draws of
    ``rng.choice(len(outcomes), p=probs)`` and ``rng.choice(legal)``, without their per-call
    overhead (this runs at every step of every random game of the suite)."""
    if state.is_chance():
        outcomes = state.chance_outcomes()
        probs = np.array([p for _, p in outcomes])
        cdf = np.cumsum(probs / probs.sum())
        cdf /= cdf[-1]
        return outcomes[int(cdf.searchsorted(rng.random(), side="right"))][0]
    legal = state.legal_actions()
    return int(legal[rng.integers(0, len(legal))])


def play_random(state, rng, stop=None, check=None):
    """Play random actions until terminal (or `stop` actions); returns state."""
    n = 0
    while not state.is_terminal() and (stop is None or n < stop):
        if check is not None:
            check(state)
        state.apply(random_action(state, rng))
        n += 1
        assert n < MAX_GAME_LENGTH, "game does not end"
    if check is not None:
        check(state)
    return state


def random_positions(game, seed, count):
    """`count` (state, rng) pairs at random points of random games."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state(seed=int(rng.integers(2**32)))
        full = play_random(state.clone(), np.random.default_rng(int(rng.integers(2**32))))
        length = len(full.history)
        stop = int(rng.integers(0, max(length, 1)))
        out.append(play_random(state, rng, stop=stop))
    return out


def decision_states(game, seed, limit=400, watched=False):
    """Decision states of one seeded random game (at most ``limit``), then its last state.
    ``watched``: every seat's observed history is kept along the game, as an agent's state
    in play keeps it, so each state's determinizations read only its newest actions."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=seed)
    out = []
    while not state.is_terminal() and len(out) < limit:
        if not state.is_chance():
            if watched:
                for seat in range(game.num_players):
                    state.observed_history(seat)
            out.append(state.clone())
        state.apply(random_action(state, rng))
    out.append(state)
    return out


def check_invariants(state):
    """The invariants every state of every game satisfies."""
    game = state.game
    player = state.current_player
    legal = state.legal_actions()
    assert player in (boardlab.CHANCE, boardlab.TERMINAL) or 0 <= player < game.num_players
    # The checks run at every state of every random game: plain comparisons, not np.diff,
    # np.array_equal or np.allclose, whose per-call overhead was most of the suite's time here.
    assert (legal[1:] > legal[:-1]).all(), "legal actions not strictly ascending"
    assert len(legal) == 0 or (legal[0] >= 0 and legal[-1] < game.num_actions), \
        "legal action out of range"
    mask = state.legal_mask()
    assert mask.shape == (game.num_actions,) and mask.dtype == np.bool_
    on = mask.nonzero()[0]
    assert len(on) == len(legal) and (on == legal).all(), "legal_mask disagrees with legal_actions"
    if state.is_terminal():
        assert len(legal) == 0
        assert state.chance_outcomes() == []
        returns = state.returns()
        assert returns.shape == (game.num_players,)
        assert all(math.isfinite(r) for r in returns)
    elif state.is_chance():
        outcomes = state.chance_outcomes()
        assert outcomes, "chance node without outcomes"
        assert all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=0, abs_tol=1e-9)
        assert np.array_equal(legal, [a for a, _ in outcomes])
    else:
        assert len(legal) > 0, "decision node without legal actions"
        assert state.chance_outcomes() == []
        assert (np.abs(state.returns()) <= 1e-8).all(), "returns before the end"


@pytest.fixture
def game4():
    return boardlab.make("kitsu", players=4, seed=11)


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def _imported_from() -> str:
    return os.path.realpath(boardlab.__file__)


def pytest_report_header(config):
    return f"boardlab {boardlab.__version__} imported from {_imported_from()}"


def pytest_configure(config):
    """With BOARDLAB_TEST_INSTALLED=1 (.ci/run) the tests must exercise the installed
    package, not the source tree. Games the app keeps (boardlab.streamlit_app.store) go to a
    throw-away directory, for the in-process AppTests and for the servers the end-to-end
    tests start (one directory for all pytest-xdist workers: game ids are random)."""
    if os.environ.get("BOARDLAB_TEST_INSTALLED") == "1":
        site = os.path.realpath(sysconfig.get_paths()["platlib"])
        if not _imported_from().startswith(site + os.sep):
            raise pytest.UsageError(f"BOARDLAB_TEST_INSTALLED=1 but boardlab was imported from "
                                    f"{_imported_from()}, not from {site}")
    if not os.environ.get("BOARDLAB_DATA_DIR"):
        config._boardlab_data = tempfile.TemporaryDirectory(prefix="boardlab-test-games-")
        os.environ["BOARDLAB_DATA_DIR"] = config._boardlab_data.name


def pytest_unconfigure(config):
    data = getattr(config, "_boardlab_data", None)
    if data is not None:
        data.cleanup()


E2E = Path(__file__).resolve().parent / "e2e"


def _runs_browser_tests(config) -> bool:
    """Whether this run collects tests/e2e (an argument at or above it, or inside it, and
    no --ignore of it)."""
    ignored = [Path(p).resolve() for p in config.getoption("ignore") or []]
    if any(E2E == p or p in E2E.parents for p in ignored):
        return False
    args = [Path(a.split("::")[0]).resolve() for a in config.args] or [Path.cwd()]
    return any(a == E2E or a in E2E.parents or E2E in a.parents for a in args)


@pytest.hookimpl(optionalhook=True)    # tests/smoke runs without pytest-xdist
def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject.toml): a worker a core, and two a core when the browser tests run.
    A browser test mostly waits for the app, the AI and the page (a table's twenty decisions:
    8 CPU seconds in 31 s, app server and Chromium included), so with a worker a core both
    cores idle through most of tests/e2e; the CPU-bound tests lose nothing to the extra
    workers. The tests that must not share a worker are grouped (pytest_collection_modifyitems)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return cores * 2 if _runs_browser_tests(config) else cores


#: The longest tests (node-id prefixes, longest first), started first: pytest-xdist hands
#: tests to its workers in collection order, so a long one started last would keep one
#: worker busy while the other has finished (measured with --durations; see docs/developing.md, Tests).
LONG_FIRST = (
    "tests/e2e/test_review_games.py",
    "tests/e2e/test_browser.py",
    "tests/e2e/test_board_nukumi.py",
    "tests/e2e/test_board_keyside.py",
    "tests/e2e/",
    "tests/test_tensors.py::test_every_visible_field_moves_the_tensor[kyushu-players=5",
    "tests/test_tensors.py::test_every_visible_field_moves_the_tensor[kyushu-players=3",
    "tests/test_openspiel.py::test_random_sim_test[kyushu-players=5",
    "tests/test_openspiel.py::test_random_sim_test[keyside-players=4",
    "tests/test_tensors.py::test_every_visible_field_moves_the_tensor[kyushu",
    "tests/test_openspiel.py::test_random_sim_test[kyushu",
    "tests/test_openspiel.py::test_random_sim_test[keyside",
    "tests/test_tensors.py::test_every_visible_field_moves_the_tensor[keyside",
    "tests/test_net_features.py::test_features_are_a_function_of_the_seats_observation[kyushu",
    "tests/test_tensors.py::test_every_visible_field_moves_the_tensor",
    "tests/test_tensors.py::test_distinct_observations_give_distinct_tensors",
    "tests/test_openspiel.py::test_random_sim_test",
)


def pytest_collection_modifyitems(config, items):
    """The LONG_FIRST tests first (in that order, the rest as collected). pytest-xdist
    (--dist loadgroup, pyproject.toml): the Ray tests share one local Ray instance (a module
    fixture), so they run in one worker rather than start one per worker."""
    def rank(item):
        return next((k for k, prefix in enumerate(LONG_FIRST) if item.nodeid.startswith(prefix)),
                    len(LONG_FIRST))
    items.sort(key=rank)
    for item in items:
        if getattr(item.module, "__name__", None) == "test_ray":
            item.add_marker(pytest.mark.xdist_group("ray"))


@pytest.fixture(autouse=True)
def keep_main_module():
    """An AppTest script run in this process can leave sys.modules["__main__"] pointing at its
    temporary script; a spawned or forkserver child (the arena's local back end) re-runs
    __main__ from that path and dies. Put the real one back after each test."""
    main = sys.modules.get("__main__")
    saved = {k: getattr(main, k) for k in ("__file__", "__spec__") if hasattr(main, k)}
    yield
    sys.modules["__main__"] = main
    for k in ("__file__", "__spec__"):
        if k in saved:
            setattr(main, k, saved[k])
        elif hasattr(main, k) and k == "__file__":
            delattr(main, k)
