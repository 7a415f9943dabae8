"""The open-hands searcher: the same search on the true state (every hand face up), and
every place it must be refused because hidden information would reach a seat in play."""
import os
import subprocess
import sys

import pytest

import boardlab
from boardlab import agents, arena, search
from boardlab.open_hands import compare
from boardlab.streamlit_app.session import AI, AI_PRESETS, HUMAN, PlaySession, budget_of
from boardlab.streamlit_app import session


def dealt(seed, game="kitsu", **params):
    """A state after the opening chance steps, each the first listed outcome (so two
    different ``seed``s give the same position with different game streams)."""
    st = boardlab.make(game, seed=0, **params).new_initial_state(seed=seed)
    while st.current_player == boardlab.CHANCE:
        st.apply(int(st.chance_outcomes()[0][0]))
    return st


def signature(result):
    return [(s["action"], s["visits"], round(s["mean"], 9)) for s in result.stats]


GAMES = [("kitsu", {"players": 2}), ("kitsu", {"players": 4}), ("kyushu", {"players": 2})]


# --- the search ----------------------------------------------------------------------------
@pytest.mark.parametrize("game,params", GAMES)
def test_open_hands_sees_the_hidden_cards(game, params):
    """Two positions the seat cannot tell apart: ISMCTS gives the same search, the
    open-hands search (which looks at the hidden cards) does not."""
    state = dealt(3, game, **params)
    seat = state.current_player
    other = state.determinize(seat, 12345)
    assert other.observation(seat) == state.observation(seat)
    assert other.full_observation() != state.full_observation()
    kw = dict(iterations=1500, seed=4)
    assert signature(search.ismcts(state, **kw)) == signature(search.ismcts(other, **kw))
    assert signature(search.ismcts(state, open_hands=True, **kw)) != \
        signature(search.ismcts(other, open_hands=True, **kw))


@pytest.mark.parametrize("game,params", GAMES)
def test_open_hands_does_not_see_the_future(game, params):
    """Same position, different game streams (the future draws): the open-hands search
    resamples future chance every iteration, so the streams make no difference."""
    a, b = dealt(1, game, **params), dealt(2, game, **params)
    assert a.full_observation() == b.full_observation() and a != b
    kw = dict(iterations=2000, seed=5, rollout_depth=-1, open_hands=True)
    assert signature(search.ismcts(a, **kw)) == signature(search.ismcts(b, **kw))


def test_open_hands_result_is_deterministic_and_labelled():
    state = dealt(7, "kitsu", players=2)
    r1 = search.ismcts(state, iterations=800, seed=2, open_hands=True)
    r2 = search.ismcts(state, iterations=800, seed=2, open_hands=True)
    assert signature(r1) == signature(r2) and r1.open_hands
    assert r1.best_action in state.legal_actions()
    assert r1.to_dict()["open_hands"] is True and "sees every hand" in str(r1)
    assert not search.ismcts(state, iterations=100, seed=2).open_hands
    tree = r1.tree(depth=2)
    assert tree["children"] and all(c["move"] for c in tree["children"])


def test_open_hands_argument_checked():
    state = dealt(7, "kitsu", players=2)
    with pytest.raises(ValueError, match="open_hands"):
        search.ismcts(state, iterations=10, open_hands=1)


def test_compare_reports_both_moves_and_the_cost():
    state = dealt(5, "kitsu", players=2)
    c = compare(state, iterations=1500, seed=1)
    assert not c.ismcts.open_hands and c.open_hands.open_hands
    assert c.player == state.current_player
    if c.same_move:
        assert c.cost == 0.0
    else:
        assert c.cost is None or 0.0 <= c.cost <= 1.0
    d = c.to_dict()
    assert d["ismcts_move"] == c.ismcts_move and d["open_hands_move"] == c.open_hands_move
    with pytest.raises(ValueError, match="open_hands"):
        compare(state, iterations=10, open_hands=False)


# --- agents --------------------------------------------------------------------------------
def test_agent_spec_refused_unless_allowed():
    with pytest.raises(ValueError, match="sees hidden information"):
        agents.make_agent("cheat:100")
    with pytest.raises(ValueError, match="sees hidden information"):
        agents.make_agent("cheat:0.1s:c=0.5")
    a = agents.make_agent("cheat:0.1s:c=0.5", seed=3, allow_open_hands=True)
    assert isinstance(a, agents.OpenHandsAgent) and a.sees_hidden_information
    assert a.name == "cheat:0.1s:c=0.5" and a.seconds == 0.1 and a.c == 0.5
    assert not agents.make_agent("ismcts:100").sees_hidden_information
    assert agents.sees_hidden_information("cheat:5") and not agents.sees_hidden_information("greedy")
    with pytest.raises(ValueError, match="budget"):
        agents.make_agent("cheat:zero", allow_open_hands=True)


def test_open_hands_agent_plays_from_the_true_state():
    state = dealt(3, "kitsu", players=2)
    seat = state.current_player
    other = state.determinize(seat, 999)
    a = agents.make_agent("cheat:1500", seed=1, allow_open_hands=True)
    assert signature(a.analyse(state)) != signature(a.analyse(other))
    assert signature(a.analyse(state)) == signature(
        search.ismcts(state, iterations=1500, seed=a.analyse(state).seed, open_hands=True))


# --- arena ---------------------------------------------------------------------------------
def test_arena_refuses_an_unmarked_open_hands_agent():
    with pytest.raises(ValueError, match="sees hidden information"):
        arena.play_match("kitsu", {"players": 2}, ["ismcts:50", "cheat:50"], games=2)
    with pytest.raises(ValueError, match="sees hidden information"):
        arena.play_one("kitsu", {"players": 2}, ["cheat:50", "random"], 0, 0)


def test_arena_marks_an_allowed_open_hands_agent():
    r = arena.play_match("kitsu", {"players": 2}, ["random", "cheat:30"], games=2, seed=1,
                         allow_open_hands=True)
    assert r.sees_hidden == [False, True] and len(r.outcomes) == 2
    assert "1:cheat:30 (sees hidden information)" in r.table()
    assert "0:random (sees" not in r.table()
    assert r.to_dict()["sees_hidden"] == [False, True]


def test_ladder_refuses_open_hands():
    from boardlab.ladder import run_ladder
    with pytest.raises(ValueError, match="sees hidden information"):
        run_ladder("kitsu", {"players": 2}, ["random", "cheat:20"], games=2, seed=0)


# --- command line --------------------------------------------------------------------------
def run_cli(*args, stdin=""):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "boardlab", *args], input=stdin,
                          capture_output=True, text=True, env=env)


@pytest.mark.parametrize("option", ["--ai", "--hint-ai"])
def test_cli_play_refuses_open_hands(option):
    r = run_cli("play", "kitsu", "--players", "2", "--seed", "1", option, "cheat:100",
                stdin="quit\n")
    assert r.returncode == 2 and "sees hidden information" in r.stderr
    assert "Your turn" not in r.stdout and "Traceback" not in r.stderr


def test_cli_arena_needs_the_flag_and_marks_the_agent():
    r = run_cli("arena", "kitsu", "--players", "2", "--agents", "random", "cheat:20",
                "--games", "2")
    assert r.returncode == 2 and "sees hidden information" in r.stderr and "--allow-open-hands" \
        in r.stderr
    r = run_cli("arena", "kitsu", "--players", "2", "--agents", "random", "cheat:20",
                "--games", "2", "--allow-open-hands")
    assert r.returncode == 0, r.stderr
    assert "1:cheat:20 (sees hidden information)" in r.stdout


# --- app -----------------------------------------------------------------------------------
def test_app_presets_never_see_hidden_information():
    for label, (spec, _text) in AI_PRESETS.items():
        assert not agents.sees_hidden_information(spec), label
        assert not budget_of(spec).get("open_hands"), label
    with pytest.raises(ValueError):
        budget_of("cheat:200")


@pytest.mark.parametrize("move", ["play_ai", "compute_hint"])
def test_app_session_refuses_an_open_hands_budget(monkeypatch, move):
    game = boardlab.make("kitsu", players=2)
    seats = [AI, AI] if move == "play_ai" else [HUMAN, AI]
    sess = PlaySession(game=game, seats=seats, preset="Beginner", seed=3)
    if move == "compute_hint":
        while not sess.is_human_turn():
            sess.play_ai()
    monkeypatch.setattr(PlaySession, "ai_budget",
                        property(lambda self: {"iterations": 50, "open_hands": True}))
    monkeypatch.setattr(session, "analysis_budget",     # the hint's budget, of its own
                        lambda iterations=0: {"iterations": 50, "open_hands": True})
    before = list(sess.state.history)
    with pytest.raises(ValueError, match="hidden information"):
        getattr(sess, move)()
    assert list(sess.state.history) == before and sess.hint is None
