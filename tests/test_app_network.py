"""The learned network in the app (docs/learning.md): the "Master" level where a network
ships for the game's configuration, the network's prior beside the search's visits, and its
reading on the evaluation bar and the review graph before any search. A random network stands
in for the shipped one (these tests check the wiring, not strength)."""
import numpy as np
import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.nets import loader, manifest, netfile  # noqa: E402
from boardlab.nets.features import feature_size  # noqa: E402
from boardlab.streamlit_app import MAIN_SCRIPT  # noqa: E402
from boardlab.streamlit_app import session as app_session  # noqa: E402
from boardlab.streamlit_app.review import network_points  # noqa: E402
from boardlab.streamlit_app.session import (AI, HUMAN, PlaySession, network_reading,  # noqa: E402
                                            presets_for, search_rows, session_from_record)

ANALYSE = "views/analyse.py"


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A random Kitsu 2-player network in place of the shipped ones (none for the rest)."""
    game = boardlab.make("kitsu", players=2)
    spec = netfile.random_spec("kitsu", "players=2", feature_size(game), 16, 1, 2,
                               game.num_actions, seed=3)
    data = netfile.to_bytes(spec, "float16")
    (tmp_path / "kitsu-players2.blnet").write_bytes(data)
    manifest.put_entry(tmp_path, manifest.make_entry("kitsu-players2.blnet", "kitsu",
                                                     [{"players": 2}], data))
    monkeypatch.setattr(loader, "NETS_DIR", tmp_path)
    # a Master move at test speed: the same guided search, 200 iterations
    monkeypatch.setitem(app_session.AI_PRESETS, "Master",
                        ("ismcts:200:net=default", app_session.AI_PRESETS["Master"][1]))
    return game


@pytest.fixture
def none_shipped(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "NETS_DIR", tmp_path / "empty")


def test_master_is_offered_only_where_a_network_ships(shipped):
    assert presets_for(shipped)[-1] == "Master"
    assert "Master" not in presets_for(boardlab.make("kitsu", players=4))
    assert "Master" not in presets_for(boardlab.make("kyushu", players=2))
    with pytest.raises(ValueError, match="no learned network ships"):
        PlaySession(game=boardlab.make("kyushu", players=2), seats=[HUMAN, AI], preset="Master")


def test_a_master_seat_plays_with_the_guided_search_and_its_record_keeps_the_level(shipped):
    sess = PlaySession(game=shipped, seats=[AI, AI], preset="Master", seed=4)
    assert sess.ai_budget == {"iterations": 200, "net": "default"}
    assert sess.is_ai_turn()
    result = sess.play_ai()
    assert all(row["prior"] is not None for row in result.stats)
    assert sum(row["prior"] for row in result.stats) == pytest.approx(1.0, abs=1e-4)
    assert session_from_record(sess.record()).preset == "Master"


def test_a_master_record_opens_at_the_strongest_level_where_no_network_ships_and_says_so(
        shipped, monkeypatch, tmp_path):
    rec = PlaySession(game=shipped, seats=[HUMAN, AI], preset="Master", seed=4).record()
    monkeypatch.setattr(loader, "NETS_DIR", tmp_path / "gone")
    sess = session_from_record(rec)
    assert sess.preset == "Expert"
    assert sess.notes == ["The AI seats play at Expert, the strongest level here: Master needs "
                          "a learned network, and none ships for this game's configuration "
                          "(2 players)."]


def test_the_networks_prior_stands_beside_the_visits(shipped):
    state = PlaySession(game=shipped, seats=[HUMAN, AI], preset="Beginner", seed=4).state
    seat = state.current_player
    values, priors = network_reading(state, seat)
    assert sorted(priors) == sorted(int(a) for a in state.legal_actions())
    assert sum(priors.values()) == pytest.approx(1.0, abs=1e-5)
    assert len(values) == 2 and all(-1.0 <= v <= 1.0 for v in values)
    result = boardlab.search.ismcts(state, iterations=300, seed=1)
    rows = search_rows(result, priors)
    assert [list(r)[:3] for r in rows][0] == ["move", "network %", "visits"]
    by_move = {s["move"]: s["action"] for s in result.stats}
    for r in rows:
        assert r["network %"] == round(100 * priors[by_move[r["move"]]], 1)
    assert "network %" not in search_rows(result)[0]        # none given, none shown
    # the guided search carries its own prior
    guided = boardlab.search.ismcts(state, iterations=300, seed=1, net="default")
    assert "network %" in search_rows(guided)[0]


def test_the_reading_tells_nothing_hidden(shipped):
    """The reading of a seat is the same in every world that seat cannot tell apart."""
    state = PlaySession(game=shipped, seats=[HUMAN, AI], preset="Beginner", seed=9).state
    seat = state.current_player
    ref = network_reading(state, seat)
    for s in range(1, 4):
        other = state.determinize(seat, s)
        assert network_reading(other, seat) == ref
        assert network_reading(other, 1 - seat) is not None


def test_no_reading_where_no_network_ships(none_shipped):
    state = boardlab.make("kitsu", players=2).new_initial_state(seed=1)
    while state.is_chance():
        state.apply(state.chance_outcomes()[0][0])
    assert network_reading(state, state.current_player) is None
    assert network_points(state, 0, 0, [0, 1]) is None


def test_the_review_graph_reads_the_network_at_every_decision(shipped):
    sess = PlaySession(game=shipped, seats=[AI, AI], preset="Beginner", seed=6)
    for _ in range(12):
        sess.play_ai()
    base = sess.state
    pts = network_points(base, 0, 1, [0, 1])
    from boardlab.streamlit_app.session import decision_plies, state_at
    plies = decision_plies(base)        # the decisions, then the position now (a decision)
    assert [d for d, _ in pts] == list(range(len(plies)))
    for d, pct in pts:
        values, _ = network_reading(state_at(base, plies[d]), 0)
        assert pct == pytest.approx(50 + 50 * values[1])


def test_the_analyse_page_shows_the_networks_reading_before_any_search(shipped):
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=60).run()
    at.selectbox(key="ng_players").set_value(2)
    at.run()
    assert "Master" in at.radio(key="ng_preset").options
    at.radio(key="ng_preset").set_value("Master")
    at.number_input(key="ng_seed").set_value(5)
    at.run()
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    at.switch_page(ANALYSE).run()
    assert not at.exception, at.exception
    html = " ".join(str(h.proto.body) for h in at.get("html"))
    assert 'data-source="network"' in html and "the learned network" in html
    assert any("learned network's reading of every decision" in c.value for c in at.caption)
