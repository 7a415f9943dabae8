"""SVG ids of drawn boards (issue 39): a page holds several boards drawn from the same pictures
(Analyse: the "Step through a game" tab, hidden, and the "From a seat's knowledge" one), and a
reference url(#x) resolves to the first element of id x in the whole page - in a hidden tab a
gradient paints nothing. Every game's boards, drawn twice into one page, repeat no id and
resolve every reference inside their own board (AppTest, no browser)."""
import json
import re

import numpy as np
import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app import board_component as bc  # noqa: E402

ID = re.compile(r"""(?<![\w-])id=(['"])([^'"]+)\1""")
REF = re.compile(r"""(?:url\(\s*['"]?#|(?<![\w-])(?:xlink:)?href=['"]#)([^)'"\s]+)""")


def _two_boards(game, record):
    import streamlit as st

    import boardlab
    from boardlab.streamlit_app.games import ui_for
    s = boardlab.replay(record)
    p = s.current_player
    ui = ui_for(game)
    for key in ("one", "two"):          # as on Analyse: the game's tab and the seat's tab
        ui.board(s.observation(p), key=key, viewer=p)
    ui.move_input(s, s.observation(p), key="mv")            # the hand, a placement's previews
    st.markdown(ui.idle_input(s.observation(p), p), unsafe_allow_html=True)


def at_decision(game: str, seed: int, stop, **params):
    """A seeded random game of ``game`` until ``stop(state, obs)`` at a seat's decision."""
    s = boardlab.make(game, **params).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(5000):
        if s.is_chance():
            o = s.chance_outcomes()
            s.apply(o[rng.integers(len(o))][0])
            continue
        if s.is_terminal():
            break
        if stop(s, s.observation(s.current_player)):
            return s
        s.apply(int(rng.choice(s.legal_actions())))
    raise AssertionError(f"{game}: no such decision in seed {seed}")


CASES = {
    "kitsu": lambda: at_decision("kitsu", 3, lambda s, o: o["phase"] == "play" and o["trick"]
                                 and o["last_trick"]["cards"], players=4),
    "kyushu": lambda: at_decision("kyushu", 5, lambda s, o: o["phase"] == "map"
                                  and len(o["maps"][s.current_player]["cards"]) > 1),
    "keyside": lambda: at_decision("keyside", 2, lambda s, o: len(s.history) > 40),
    "nukumi": lambda: at_decision("nukumi", 2, lambda s, o: len(s.history) > 40),
}


def page_boards(state):
    at = AppTest.from_function(_two_boards, args=(state.game.name,
                                                  json.dumps(state.to_record())),
                               default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    boards = []
    for el in at.get("bidi_component"):
        data = json.loads(el.proto.json)
        text = [data.get("svg") or ""]
        for p in data["places"]:
            text += [p.get("svg") or "", p.get("preview") or ""]
        boards.append((el.key, "".join(text)))
    boards += [(f"markdown{i}", m.value) for i, m in enumerate(at.markdown) if "<svg" in m.value]
    return boards


@pytest.mark.parametrize("game", sorted(CASES))
def test_two_boards_of_a_game_on_one_page_share_no_id(game):
    boards = page_boards(CASES[game]())
    assert len([k for k, _ in boards if k.startswith("one")]) >= 1
    seen = {}
    for key, text in boards:
        ids = [m.group(2) for m in ID.finditer(text)]
        for i in ids:
            assert i not in seen, f"{game}: id {i!r} in {key} and in {seen[i]}"
            seen[i] = key
        missing = {r for r in REF.findall(text) if r not in ids}
        assert not missing, f"{game}: {key} refers to ids it does not hold: {sorted(missing)}"


def test_scope_ids_prefixes_ids_and_their_references():
    svg = ("<svg><defs><linearGradient id='g'/><filter id=\"f\"/></defs><rect fill='url(#g)' "
           "filter=\"url(#f)\" data-id='keep'/><use href='#g'/><use xlink:href=\"#f\"/></svg>")
    out = bc.scope_ids(svg, bc.scope_prefix("an board/1"))
    assert "id='an_board_1--g'" in out and 'id="an_board_1--f"' in out
    assert "url(#an_board_1--g)" in out and "url(#an_board_1--f)" in out
    assert "href='#an_board_1--g'" in out and 'xlink:href="#an_board_1--f"' in out
    assert "data-id='keep'" in out
