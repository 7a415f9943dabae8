"""Shared tables, below the browser: each visitor's story (the log with its events and
headings, "since your last move") as the store hands it out, the server's AI worker (AI
seats, seats handed to the AI, move timers; exactly once with two servers), and the mask
that keeps seat and host tokens out of log lines. The pages themselves are tested in a
browser (tests/e2e/test_tables_browser.py)."""
import json
import logging
import re
import threading

import numpy as np
import pytest

import boardlab
from boardlab.streamlit_app.friends.ai_worker import AiWorker
from boardlab.streamlit_app.common import log_lines
from boardlab.streamlit_app.session import AI, HUMAN, PlaySession
from boardlab.streamlit_app.store import GameStore
from boardlab.streamlit_app.friends.story import StoryTeller


def table(store, name, seats, seed=5, **params):
    sess = PlaySession(game=boardlab.make(name, players=len(seats), **params),
                       seats=list(seats), preset="Beginner", seed=seed)
    return store.create_table(sess)


def play_randomly(store, t, decisions, rng):
    """``decisions`` human decisions by random legal moves (the AI seats moved in between)."""
    gid = t.game_id
    for _ in range(decisions):
        while store.play_ai(gid):
            pass
        v = store.view(gid)
        if v.to_move < 0:
            return
        seat_view = store.view(gid, t.seat_tokens[v.to_move])
        store.apply(gid, t.seat_tokens[v.to_move], seat_view.version,
                    int(rng.choice([a for a, _ in seat_view.legal])))


def real_state(store, gid):
    """The real position, read straight from the database (what no link may see)."""
    import sqlalchemy as sa
    from boardlab.streamlit_app.store import schema
    with store.engine.connect() as c:
        rec = c.execute(sa.select(schema.games.c.record).where(schema.games.c.id == gid)).scalar()
    return boardlab.replay(rec)


@pytest.fixture
def store(tmp_path):
    s = GameStore(tmp_path, story=StoryTeller())
    yield s
    s.close()


# --- the story -------------------------------------------------------------------------------
def test_a_seat_reads_the_same_log_as_on_one_screen_and_what_changed_since_its_move(store):
    t = table(store, "kitsu", [HUMAN, HUMAN, AI, AI], track_length=3)
    play_randomly(store, t, 9, np.random.default_rng(1))
    gid = t.game_id
    state = real_state(store, gid)
    for seat in (0, 1):
        story = store.view(gid, t.seat_tokens[seat]).story
        # the solo log of that seat, computed from the real position, line for line
        assert story.texts() == [ln.text for ln in log_lines(state, seat)]
        changes = story.changes()
        assert changes.viewer == seat and changes.since == story.since
        assert changes.lines == [ln.raw for ln in story.lines
                                 if ln.ply >= story.since and ln.kind != "section"]
        assert bool(changes) == bool(changes.lines)
        assert changes.before == _observation_at(state, seat, story.since)
        assert all(a == boardlab.HIDDEN for _, a in changes.moves)


def _observation_at(state, seat, ply):
    from boardlab.streamlit_app.session import state_at
    return state_at(state, ply).observation(seat)


def test_a_spectator_reads_only_what_every_seat_reads(store):
    t = table(store, "kitsu", [HUMAN] * 4, track_length=3)
    play_randomly(store, t, 14, np.random.default_rng(2))
    gid = t.game_id
    public = store.view(gid).story
    seats = [store.view(gid, t.seat_tokens[s]).story for s in range(4)]
    assert public.changes() is None
    texts = [ln.raw for ln in public.lines]
    assert any(x.startswith("Trick:") for x in texts)          # public events are there
    assert any("exchanges a card" in x or "puts a card face down" in x for x in texts)
    assert not any(x.split()[1:2] == ["gives"] and "partner" in x for x in texts)   # no gift named
    for ln in public.lines:                                     # each line read alike by all
        readers = [s for s in seats
                   if any(m.ply == ln.ply and m.raw == ln.raw for m in s.lines)]
        assert len(readers) >= 3, ln
    # the same table seen by a seat names its own gift
    mine = [ln.raw for ln in seats[0].lines]
    assert any(re.match(r"P0 gives .* to their partner$", x) for x in mine)


def test_a_spectator_never_reads_a_private_draw():
    """Nukumi's Helper draws are chance that only the drawer sees: a spectator's log has
    none of their names, the drawer's has its own."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        store = GameStore(d, story=StoryTeller())
        t = table(store, "nukumi", [HUMAN, HUMAN], seed=3)
        play_randomly(store, t, 12, np.random.default_rng(3))
        public = " ".join(store.view(t.game_id).story.texts())
        seat0 = " ".join(store.view(t.game_id, t.seat_tokens[0]).story.texts())
        store.close()
    assert "draws the Helper" not in public and "draws S-" not in public
    assert "P0 draws the Helper " in seat0 and "P1 draws the Helper" not in seat0
    assert "P1 draws a Helper" in seat0 and "S-" not in seat0


NOTATION = re.compile(r"\b(S|E|EX)-\d\d\b|P\d (play|give|katana|leader|token to|take|recover|"
                      r"discard|sell|step|accept|decline|place|orient|pick|province|terraform|"
                      r"end) |\b[BO]\d\b")


@pytest.mark.parametrize("game, players, params", [("kitsu", 4, {"track_length": 3}),
                                                   ("keyside", 2, {}), ("nukumi", 2, {}),
                                                   ("nukumi", 2, {"advanced": True}),
                                                   ("kyushu", 2, {})])
def test_every_log_line_is_a_sentence_about_its_player_with_the_buttons_names(store, game,
                                                                              players, params):
    """A seat's log and "since your last move": a move is "P1 <does something>" about P1 (never
    "your" of another player's mat), with the names the buttons use, never a card's code or
    the kernel's notation; another seat's hidden draw stays unnamed."""
    t = table(store, game, [HUMAN] * players, **params)
    play_randomly(store, t, 40, np.random.default_rng(7))
    gid = t.game_id
    for seat in range(players):
        story = store.view(gid, t.seat_tokens[seat]).story
        moves = [ln.raw for ln in story.lines if ln.kind == "move"]
        assert len(moves) >= 20
        for line in moves + list(story.changes().lines):
            assert not NOTATION.search(line), line
            m = re.match(r"P(\d) (\S+)", line)
            if m:                                   # a player's line: a verb in the third person
                assert re.fullmatch(r"[a-z]+s", m.group(2)), line
                assert not re.search(r"\byou(r)?\b", line), line
    if game == "nukumi" and not params:     # (advanced: a Helper draw is a decision)
        seat0 = " ".join(store.view(gid, t.seat_tokens[0]).story.texts())
        assert "P0 draws the Helper " in seat0 and "P1 draws a Helper" in seat0
        assert "P1 draws the Helper" not in seat0


def test_after_the_end_everyone_reads_everything(store):
    t = table(store, "kitsu", [HUMAN] * 4, track_length=3)
    play_randomly(store, t, 5, np.random.default_rng(4))
    store.end_table(t.game_id, t.host_token)
    public = store.view(t.game_id).story.texts()
    seat1 = store.view(t.game_id, t.seat_tokens[1]).story.texts()
    assert public == seat1 and any(re.search(r" gives .* to their partner$", x) for x in public)


# --- the AI worker ------------------------------------------------------------------------------
def wait_for(condition, what):
    """Poll ``condition`` (a hang guard only: the worker is woken at once)."""
    done = threading.Event()
    for _ in range(2400):
        if condition():
            return
        done.wait(0.05)
    raise AssertionError(f"never happened: {what}")


def test_the_worker_plays_ai_seats_and_handed_seats_until_a_human_is_to_move(store):
    worker = AiWorker(store, interval=0.05).start()
    try:
        t = table(store, "kitsu", [HUMAN, AI, HUMAN, AI], track_length=3)
        gid = t.game_id
        rng = np.random.default_rng(5)
        for _ in range(6):
            wait_for(lambda: not store.view(gid).ai_to_move, "the AI seats moved")
            v = store.view(gid)
            sv = store.view(gid, t.seat_tokens[v.to_move])
            assert sv.my_turn
            store.apply(gid, t.seat_tokens[v.to_move], sv.version,
                        int(rng.choice([a for a, _ in sv.legal])))
            worker.wake()
        wait_for(lambda: not store.view(gid).ai_to_move, "the AI seats moved")
        seat = store.view(gid).to_move
        store.hand_to_ai(gid, t.host_token, seat)
        worker.wake()
        wait_for(lambda: store.view(gid).to_move != seat or store.view(gid).status == "ended",
                 "the AI moved for the handed seat")
    finally:
        worker.stop()
    assert worker.played > 0


class Clock:
    def __init__(self, t=1_000_000.0):
        self.t = t

    def __call__(self):
        return self.t


def test_two_workers_on_one_database_move_each_ai_turn_once(tmp_path):
    """Two servers (two stores, two workers) on one database, an all-AI table with a move
    timer for good measure: the game's record holds one decision per turn, nothing doubled,
    and the game ends."""
    stores = [GameStore(tmp_path) for _ in range(2)]
    workers = [AiWorker(s, interval=0.01).start() for s in stores]
    try:
        t = table(stores[0], "kitsu", [AI] * 4, track_length=3)
        wait_for(lambda: stores[1].view(t.game_id).status == "ended", "the game ended")
        rec = stores[1].view(t.game_id).record
    finally:
        for w in workers:
            w.stop()
        for s in stores:
            s.close()
    assert sum(w.played for w in workers) == sum(
        1 for p in _actors(rec) if p >= 0)           # each decision committed once


def _actors(rec):
    from boardlab.streamlit_app.session import actors
    return actors(boardlab.replay(rec))


def test_the_worker_moves_for_a_seat_whose_timer_ran_out(tmp_path):
    clock = Clock()
    store = GameStore(tmp_path, clock=clock)
    worker = AiWorker(store, interval=0.01).start()
    try:
        t = table(store, "kitsu", [HUMAN, HUMAN], track_length=3)
        gid = t.game_id
        store.change_settings(gid, t.host_token, move_timer=60)
        seat, version = store.view(gid).to_move, store.version(gid)
        worker.wake()
        threading.Event().wait(0.2)
        assert store.version(gid) == version          # in time: nobody moves for the seat
        clock.t += 61
        worker.wake()
        wait_for(lambda: store.version(gid) > version, "the AI moved for the absent seat")
        assert store.view(gid).to_move != seat or store.view(gid).turn_deadline is not None
    finally:
        worker.stop()
        store.close()


# --- tokens out of the logs ----------------------------------------------------------------------
def test_a_token_in_a_log_line_is_masked(caplog):
    from boardlab.streamlit_app.friends.tables import _MaskTokens
    token = "A" * 20 + "b_-" + "9" * 9
    logger = logging.getLogger("boardlab.test.mask")
    handler = logging.Handler()
    lines = []
    handler.emit = lambda record: lines.append(record.getMessage())
    handler.addFilter(_MaskTokens())
    logger.addHandler(handler)
    try:
        logger.warning("GET /?game=abcdefgh&seat=%s&host=%s", token, token)
        logger.warning("GET /?game=abcdefgh&seat%%3D%s", token)
        logger.warning("nothing secret: seat 3")
    finally:
        logger.removeHandler(handler)
    assert token not in " ".join(lines)
    assert lines[0] == "GET /?game=abcdefgh&seat=***&host=***"
    assert lines[2] == "nothing secret: seat 3"


def test_a_server_that_watches_no_sources_stops_polling_its_config_files(tmp_path):
    from streamlit import config
    from streamlit.watcher.polling_path_watcher import PollingPathWatcher
    from boardlab.streamlit_app.friends.tables import no_config_polling
    conf = PollingPathWatcher(str(tmp_path / ".streamlit" / "config.toml"), lambda p: None,
                              allow_nonexistent=True)
    other = PollingPathWatcher(str(tmp_path / "app.py"), lambda p: None, allow_nonexistent=True)
    before = config.get_option("server.fileWatcherType")
    try:
        config.set_option("server.fileWatcherType", "auto")
        no_config_polling()
        assert conf._active                 # a live-editing setup keeps its watchers
        config.set_option("server.fileWatcherType", "none")
        no_config_polling()
        assert not conf._active and other._active
    finally:
        config.set_option("server.fileWatcherType", before)
        conf.close()
        other.close()


# --- the table watcher ------------------------------------------------------------------------
def test_the_watcher_reruns_the_pages_whose_table_moved_on(store):
    from boardlab.streamlit_app.friends.live import TableWatcher
    t = table(store, "kitsu", [HUMAN, HUMAN], track_length=3)
    other = table(store, "kitsu", [HUMAN, HUMAN], track_length=3)
    gid = t.game_id
    answers = {"a": True, "b": True, "c": None, "gone": False}
    asked = []

    def rerun(sid):
        asked.append(sid)
        return answers[sid]
    w = TableWatcher(store, rerun)
    rev = store.revision(gid)
    for sid in ("a", "b", "c", "gone"):
        w.watch(sid, gid, rev)
    w.watch("elsewhere", other.game_id, store.revision(other.game_id))
    assert w.check() == 0 and asked == []                 # nothing changed
    v = store.view(gid)
    sv = store.view(gid, t.seat_tokens[v.to_move])
    store.apply(gid, t.seat_tokens[v.to_move], sv.version, sv.legal[0][0])
    w.watch("b", gid, store.revision(gid))                # b drew the new revision already
    assert w.check() == 1 and sorted(asked) == ["a", "c", "gone"]
    assert set(w.watching()) == {"b", "c", "elsewhere"}   # c was busy: asked again next time
    asked.clear()
    answers["c"] = True
    assert w.check() == 1 and asked == ["c"]
    assert set(w.watching()) == {"b", "elsewhere"}
    w.forget("b")
    assert set(w.watching()) == {"elsewhere"}


# --- a seat's page (AppTest) -------------------------------------------------------------------
@pytest.fixture
def app_store_here():
    """The app's process-wide store opened afresh (on this test's BOARDLAB_DATA_DIR), and
    forgotten again after it: an earlier test in the same worker may have opened it elsewhere."""
    from boardlab.streamlit_app.common import game_store
    game_store.clear()
    yield
    game_store.clear()


def test_a_seats_hint_searches_its_own_knowledge_at_the_analysis_budget(tmp_path, monkeypatch,
                                                                        app_store_here):
    """Hints on: the Hint button of the seat to move searches a position made up from that
    seat's knowledge only (its observation as it is; the other hand not the real one), at
    the analysis budget, and the page shows it in words."""
    from streamlit.testing.v1 import AppTest

    from boardlab.streamlit_app import MAIN_SCRIPT
    from boardlab.streamlit_app.friends import page as table_page
    monkeypatch.setenv("BOARDLAB_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BOARDLAB_LIVE", "poll")
    s = GameStore(tmp_path)
    try:
        sess = PlaySession(game=boardlab.make("kitsu", players=2, track_length=3),
                           seats=[HUMAN, HUMAN], preset="Beginner", seed=4)
        t = s.create_table(sess, hints=True)
        seat = s.view(t.game_id).to_move
        real = real_state(s, t.game_id)
    finally:
        s.close()
    searched = []
    search = table_page.run_search

    def spy(state, budget, seed, **kw):
        searched.append((state.clone(), budget, kw))
        return search(state, budget, seed, **kw)

    monkeypatch.setattr(table_page, "run_search", spy)
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=120)
    at.query_params.update(game=t.game_id, seat=t.seat_tokens[seat])
    at.run()
    assert not at.exception, at.exception
    assert at.button(key="tbl_hint_btn").help.startswith("What the AI would play")
    at.button(key="tbl_hint_btn").click().run()
    assert not at.exception, at.exception
    # no tooltip once the hint is shown: one left open by the click would stay over the board
    assert not at.button(key="tbl_hint_btn").help
    (state, budget, kw), = searched
    assert budget == {"iterations": 2000} and kw == {"player": seat}
    assert state.observation(seat) == real.observation(seat)
    other = 1 - seat
    assert state.full_observation()["hands"][other] != real.full_observation()["hands"][other]
    assert any(m.value.startswith("**Hint: ") for m in at.markdown)


# --- forced moves --------------------------------------------------------------------------------
def keyside_dice(sess, seat, n):
    """``seat`` sets ``n`` of its six secret dice (the first value each time)."""
    for _ in range(n):
        assert sess.state.current_player == seat
        sess.apply_human(int(sess.state.legal_actions()[0]))


def test_a_forced_decision_plays_itself_and_says_so_to_its_player_only():
    from boardlab.streamlit_app.session import session_from_record, state_at
    sess = PlaySession(game=boardlab.make("keyside", players=2), seats=[HUMAN, HUMAN], seed=3)
    start = sess.ply                      # after the set-up (chance)
    keyside_dice(sess, 0, 5)              # the sixth die has one value left: it sets itself
    assert sess.state.current_player == 1 and sess.forced == [start + 5]
    assert len(state_at(sess.state, start + 5).legal_actions()) == 1
    mine = [ln.raw for ln in log_lines(sess.state, 0)]
    theirs = [ln.raw for ln in log_lines(sess.state, 1)]
    assert mine[-1].startswith("P0 sets the ") and mine[-1].endswith(" (forced)")
    assert sum("(forced)" in x for x in mine) == 1
    assert theirs[-1] == "P0 sets their dice in secret"           # no word of it: a hidden die
    assert not any("(forced)" in x for x in theirs)
    again = session_from_record(json.dumps(sess.record()))        # kept in the record
    assert again.auto_forced and again.forced == [start + 5]
    assert sess.undo_target(0) == start + 4                       # Undo: the last real choice
    sess.undo(0)
    assert sess.state.current_player == 0 and len(sess.state.legal_actions()) == 2
    assert sess.forced == []
    off = PlaySession(game=boardlab.make("keyside", players=2), seats=[HUMAN, HUMAN], seed=3,
                      auto_forced=False)                          # the switch off: it waits
    keyside_dice(off, 0, 5)
    assert off.state.current_player == 0 and off.forced_action() is not None
    assert session_from_record(json.dumps(off.record())).auto_forced is False


def test_hot_seat_a_forced_move_of_another_seat_waits_for_the_device_to_pass():
    """Two humans on one screen: P1's sixth die is not set while P0 still holds the device
    (it would show that P1 had no choice); P1's own chain plays on once P1 decides."""
    sess = PlaySession(game=boardlab.make("keyside", players=2), seats=[HUMAN, HUMAN], seed=3,
                       auto_forced=False)
    keyside_dice(sess, 0, 6)
    keyside_dice(sess, 1, 5)              # P1's sixth die: one value left
    sess.auto_forced, sess.last_human = True, 0     # P0 still holds the device
    sess.advance_chance()
    assert sess.state.current_player == 1 and sess.forced_action() is None
    sess.last_human = 1                   # P1 at the screen: it plays itself
    sess.advance_chance()
    assert sess.state.current_player == 0 and len(sess.forced) == 2


def test_a_chance_event_or_an_ai_seat_is_no_forced_decision():
    sess = PlaySession(game=boardlab.make("nukumi", players=2), seats=[AI, HUMAN], seed=1)
    chance = boardlab.make("nukumi", players=2).new_initial_state(1)
    assert chance.is_chance()
    sess.state = chance
    assert sess.forced_action() is None                           # chance: no decision at all
    ai = PlaySession(game=boardlab.make("keyside", players=2), seats=[AI, HUMAN], seed=3)
    for _ in range(5):
        ai.apply_ai(int(ai.state.legal_actions()[0]))
    assert ai.state.current_player == 0 and ai.forced_action() is None   # the AI plays it
    assert ai.forced == []


def test_a_table_session_leaves_forced_moves_to_the_seats_page(store):
    """At a table the store never plays a forced move itself (the seat's page does, as a
    click): the others then learn only what a click tells them."""
    sess = PlaySession(game=boardlab.make("keyside", players=2), seats=[HUMAN, HUMAN],
                       preset="Beginner", seed=3)       # the switch on, as in the form
    t = store.create_table(sess)
    gid = t.game_id
    for _ in range(5):
        v = store.view(gid, t.seat_tokens[0])
        store.apply(gid, t.seat_tokens[0], v.version, v.legal[0][0])
    v = store.view(gid, t.seat_tokens[0])
    assert v.my_turn and len(v.legal) == 1                        # waits for the seat's page


CHANCE_NOTATION = re.compile(r"^(offer province|middle \d|scoring card \d+ (most|fewest)|"
                             r"(Nukumaru|bonus) die \d)|\ba [aeiou]")


@pytest.mark.parametrize("game, params", [("kyushu", {"players": 2}),
                                          ("kyushu", {"players": 3, "most_fewest": True}),
                                          ("keyside", {"players": 1}), ("nukumi", {"players": 2}),
                                          ("nukumi", {"players": 1, "solo": "chasing"})])
def test_every_chance_line_of_the_log_is_a_sentence(game, params):
    """What chance did (a province laid out, a card dealt to a middle box, a die rolled) is
    told in words, as the moves are, never in the kernel's notation."""
    from boardlab.streamlit_app.games import ui_for
    ui, told = ui_for(game), 0
    for seed in range(3):
        state = boardlab.make(game, seed=seed, **params).new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.current_player < 0:
                outcomes = [a for a, _ in state.chance_outcomes()]
                a = outcomes[rng.integers(len(outcomes))]
                line = ui.log_text(state, a, state.current_player, None)
                assert line is None or not CHANCE_NOTATION.search(line), line
                told += line is not None
            else:
                legal = state.legal_actions()
                a = legal[rng.integers(len(legal))]
            state.apply(int(a))
    assert told >= 3
