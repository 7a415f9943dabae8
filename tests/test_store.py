"""The app's store of games (boardlab.streamlit_app.store) on both back ends: SQLite (a fresh
file per test) and PostgreSQL (a fresh schema per test in the server named by
$BOARDLAB_TEST_POSTGRES; skipped when it is unset, except in CI, where .ci/run starts one).

Local games (solo, hot-seat), tables (tokens, roles, views), moves as compare-and-set
transactions, concurrent moves and AI moves from several stores, undo by consent, host
actions, the lobby, schema migrations, the JSON import and the refusals."""
import json
import logging
import multiprocessing
import os
import secrets
import threading

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

import boardlab
from boardlab.streamlit_app.session import AI, HUMAN, PlaySession
from boardlab.streamlit_app.store import (HOST, LOCAL, SEAT, SPECTATOR, AccessDenied,
                                          GameMovedOn, GameStore, NoSuchGame, StoreError,
                                          database_url)
from boardlab.streamlit_app.store import schema
from boardlab.streamlit_app.store.access import public_observation

PG_ENV = "BOARDLAB_TEST_POSTGRES"


class Db:
    """One fresh database for a test: ``open()`` makes stores on it (closed at the end)."""

    def __init__(self, kind, url, directory):
        self.kind, self.url, self.directory = kind, url, directory
        self.stores = []

    def open(self, **kw) -> GameStore:
        kw.setdefault("url", self.url)
        store = GameStore(self.directory, **kw)
        self.stores.append(store)
        return store

    def engine(self):
        e = schema.engine_for(self.url)
        self.stores.append(e)
        return e


def _pg_url(base: str, schema_name: str | None = None) -> str:
    u = make_url(base).set(drivername="postgresql+psycopg")
    if schema_name:
        u = u.update_query_dict({"options": f"-csearch_path={schema_name}"})
    return u.render_as_string(hide_password=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    if request.param == "sqlite":
        d = Db("sqlite", f"sqlite:///{tmp_path / 'boardlab.db'}", tmp_path)
        yield d
        for s in d.stores:
            (s.close if hasattr(s, "close") else s.dispose)()
        return
    base = os.environ.get(PG_ENV)
    if not base:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the store tests on PostgreSQL: set {PG_ENV} (.ci/run does)")
        pytest.skip(f"{PG_ENV} is not set (bash scripts/postgres.sh start DIR prints a URL)")
    name = "t_" + secrets.token_hex(6)
    admin = sa.create_engine(_pg_url(base))
    with admin.begin() as c:                 # fails the test if the server cannot be reached
        c.execute(sa.text(f"CREATE SCHEMA {name}"))
    d = Db("postgresql", _pg_url(base, name), tmp_path)
    try:
        yield d
    finally:
        for s in d.stores:
            (s.close if hasattr(s, "close") else s.dispose)()
        with admin.begin() as c:
            c.execute(sa.text(f"DROP SCHEMA {name} CASCADE"))
        admin.dispose()


def kitsu(seats=(HUMAN, HUMAN), seed=3, preset="Beginner", **params):
    return PlaySession(game=boardlab.make("kitsu", players=len(seats), **params),
                       seats=list(seats), preset=preset, seed=seed)


def real_state(db, gid):
    """The real position, read straight from the database (what no link may see)."""
    with db.engine().connect() as c:
        rec = c.execute(sa.select(schema.games.c.record).where(schema.games.c.id == gid)).scalar()
    return boardlab.replay(rec)


def count_statements(store):
    """A list that grows by one for every SQL statement ``store`` sends."""
    seen = []
    sa.event.listen(store.engine, "before_cursor_execute", lambda *a, **k: seen.append(a[2]))
    return seen


# --- local games: solo and hot-seat -----------------------------------------------------------
def test_local_game_add_get_save_and_a_second_store(db):
    a, b = db.open(), db.open()
    sess = kitsu((HUMAN, AI))
    gid = a.add(sess)
    assert a.get(gid) is sess and a.version(gid) == 1 and a.revision(gid) == 1
    sess.apply_human(int(sess.state.legal_actions()[0]))
    assert a.save(gid, sess) == 2 and a.get(gid) is sess      # still the live object
    other = b.get(gid)                                       # another server
    assert other is not sess and other.state == sess.state and other.stored_version == 2
    while other.is_ai_turn():
        other.play_ai()
    b.save(gid, other)
    fresh = a.get(gid)                                       # a's copy is stale now
    assert fresh is not sess and fresh.state == other.state
    sess.undo()
    with pytest.raises(GameMovedOn) as moved:                # over an old version: refused
        a.save(gid, sess)
    assert moved.value.version == 3 and real_state(db, gid) == other.state
    v = a.view(gid)
    assert v.role == LOCAL and v.record["actions"] == other.state.history
    assert v.observation == other.state.full_observation()


def test_local_game_through_apply_and_play_ai(db):
    store = db.open()
    gid = store.add(kitsu((AI, HUMAN), seed=5))
    while store.play_ai(gid):
        pass
    v = store.view(gid)
    assert v.role == LOCAL and v.to_move == 1 and v.legal and not v.ai_to_move
    with pytest.raises(GameMovedOn):
        store.apply(gid, None, v.version - 1, v.legal[0][0])
    assert store.apply(gid, None, v.version, v.legal[0][0]) == v.version + 1


def test_unknown_malformed_and_corrupt_games(db):
    store = db.open()
    assert store.get("B" * 12) is None
    for call in (store.view, store.version, store.revision, store.claim_ai):
        with pytest.raises(NoSuchGame):
            call("B" * 12)
    seen = count_statements(store)
    for bad in ("../x", "a/b/c/d/e/f", "x" * 41, "short", "..%2F..%2Fetc", 12345678, None):
        for call in (store.get, store.view, store.version, store.play_ai):
            with pytest.raises(ValueError, match="not a game id"):
                call(bad)
    assert seen == []                                        # refused before any lookup
    gid = store.add(kitsu())
    with db.engine().begin() as c:
        c.execute(schema.games.update().where(schema.games.c.id == gid)
                  .values(record="{broken", version=2))
    with pytest.raises(boardlab.RecordError):
        store.get(gid)
    assert sorted(p.name for p in db.directory.iterdir()
                  if not p.name.startswith("boardlab.db")) == []   # no file from any id


# --- tables: tokens and roles -----------------------------------------------------------------
def test_tokens_are_random_shown_once_and_stored_as_hashes(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, AI, HUMAN, AI)))
    tokens = [t.host_token, *t.seat_tokens.values()]
    assert sorted(t.seat_tokens) == [0, 2] and len(set(tokens)) == 3
    assert all(len(tok) == 32 for tok in tokens)             # token_urlsafe(24): 192 bits
    assert not any(tok in repr(t) for tok in tokens)
    with db.engine().connect() as c:
        dump = json.dumps([[list(r) for r in c.execute(sa.select(table)).all()]
                           for table in schema.metadata.sorted_tables], default=str)
    assert not any(tok in dump for tok in tokens)
    import hashlib
    assert hashlib.sha256(t.host_token.encode()).hexdigest() in dump


def test_each_link_sees_only_what_it_may(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN, HUMAN, HUMAN), seed=8))
    gid = t.game_id
    state = real_state(db, gid)
    spectator, host = store.view(gid), store.view(gid, t.host_token)
    for v in (spectator, host):
        assert v.role in (SPECTATOR, HOST) and v.seat is None and v.state is None
        assert v.record is None and v.legal == ()
        assert v.observation == public_observation(state)
        assert v.observation["hands"] == [None] * 4
    for seat, tok in t.seat_tokens.items():
        v = store.view(gid, tok)
        assert v.role == SEAT and v.seat == seat and v.record is None
        assert v.observation == state.observation(seat)
        assert v.observation["hands"][seat] and all(
            v.observation["hands"][o] is None for o in range(4) if o != seat)
        assert v.state.is_determinized and v.state.observation(seat) == v.observation
        assert v.state.full_observation()["hands"] != state.full_observation()["hands"]
        assert (v.my_turn, bool(v.legal)) == (seat == state.current_player,) * 2
        if v.legal:
            assert [a for a, _ in v.legal] == state.legal_actions().tolist()
            assert v.legal[0][1] == state.action_to_string(v.legal[0][0])
    # every leaf a spectator sees is the same in every seat's view
    def leaves(x, path=()):
        if isinstance(x, dict):
            for k, y in x.items():
                yield from leaves(y, path + (k,))
        elif isinstance(x, list):
            for i, y in enumerate(x):
                yield from leaves(y, path + (i,))
        else:
            yield path, x
    for path, value in leaves(spectator.observation):
        if path == ("viewer",):
            continue
        for p in range(4):
            o = state.observation(p)
            for k in path:
                o = o[k]
            assert value is None or o == value, path


def test_a_seats_made_up_position_is_made_only_when_used(db, monkeypatch):
    """A page that only shows a seat's view (the others' turn) never determinizes: the
    position is made on first use, once, from that version."""
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN, HUMAN, HUMAN), seed=8))
    made = []
    real = boardlab.State.determinize
    monkeypatch.setattr(boardlab.State, "determinize",
                        lambda self, *a, **k: made.append(a) or real(self, *a, **k))
    state = real_state(db, t.game_id)
    waiting = next(s for s in t.seat_tokens if s != state.current_player)
    v = store.view(t.game_id, t.seat_tokens[waiting])
    assert not v.my_turn and made == []
    assert v.state.observation(waiting) == v.observation and v.state is v.state
    assert len(made) == 1


def test_the_log_of_a_seat_hides_the_others_secrets():
    # Kitsu exchanges are secret: the giver sees the card, the others only "exchanges a card"
    from boardlab.streamlit_app.store.access import move_log
    sess = kitsu((AI, AI, AI, AI), seed=4)
    while not any(" give " in line or "exchange" in line
                  for line in move_log(sess.state, 0, everything=True)):
        sess.play_ai()
    full = move_log(sess.state, 0, everything=True)
    for viewer in (None, 0, 1, 2, 3):
        mine = move_log(sess.state, viewer)
        assert len(mine) == len(full)
        for line, whole in zip(mine, full):
            actor = int(whole.split()[0][1:])
            if actor != viewer and "give" in whole:
                assert "exchanges a card" in line and line != whole
            elif actor == viewer:
                assert line == whole


def test_refusals_carry_no_state_and_no_token(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN)))
    other = store.create_table(kitsu((HUMAN, HUMAN)))
    gid, tok = t.game_id, t.seat_tokens[0]
    altered = tok[:-1] + ("A" if tok[-1] != "A" else "B")
    for bad in (altered, other.seat_tokens[0], other.host_token, secrets.token_urlsafe(24)):
        with pytest.raises(AccessDenied) as e:
            store.view(gid, bad)
        assert bad not in str(e.value) and "hands" not in str(e.value)
    seen = count_statements(store)
    for bad in ("", "x", tok + "A", tok[:-1] + "/", "../" + tok[3:], 12, b"x" * 32, [tok]):
        with pytest.raises(AccessDenied, match="malformed") as e:
            store.view(gid, bad)
        assert str(bad) not in str(e.value) or str(bad) in ("", "x")
        with pytest.raises(AccessDenied):
            store.apply(gid, bad, 1, 0)
    assert seen == []                                        # refused before any lookup
    local = store.add(kitsu())
    with pytest.raises(AccessDenied):
        store.view(local, tok)                               # a local game has no tokens
    with pytest.raises(AccessDenied, match="table"):
        store.get(gid)                                       # never a table's live session
    intruder = kitsu()
    intruder.stored_version = 1
    with pytest.raises(AccessDenied):
        store.save(gid, intruder)


# --- moves -------------------------------------------------------------------------------------
def test_apply_is_a_compare_and_set_with_legality_checked(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=6))
    gid = t.game_id
    v = store.view(gid)
    mover, waiter = t.seat_tokens[v.to_move], t.seat_tokens[1 - v.to_move]
    legal = store.view(gid, mover).legal
    with pytest.raises(ValueError, match="not your turn"):
        store.apply(gid, waiter, v.version, 0)
    with pytest.raises(AccessDenied):
        store.apply(gid, t.host_token, v.version, legal[0][0])
    with pytest.raises(AccessDenied):
        store.apply(gid, None, v.version, legal[0][0])      # a spectator
    illegal = next(a for a in range(boardlab.make("kitsu", players=2).num_actions)
                   if a not in dict(legal))
    with pytest.raises(boardlab.IllegalActionError):
        store.apply(gid, mover, v.version, illegal)
    for bad in ("1", 1.0, True, [], [None]):
        with pytest.raises(ValueError):
            store.apply(gid, mover, v.version, bad)
    assert store.version(gid) == v.version                   # nothing applied
    before = real_state(db, gid).history
    new = store.apply(gid, mover, v.version, legal[0][0])
    assert new == v.version + 1 and store.revision(gid) == v.revision + 1
    with pytest.raises(GameMovedOn) as e:                    # the same click again
        store.apply(gid, mover, v.version, legal[0][0])
    assert e.value.version == new
    after = real_state(db, gid).history
    assert after[:len(before) + 1] == before + [legal[0][0]]   # once, after chance if any


def _race(db, gid, tokens_actions, version):
    """Each (token, action) applied at ``version`` by its own store and thread, at once."""
    stores = [db.open() for _ in tokens_actions]
    barrier = threading.Barrier(len(stores))
    results = [None] * len(stores)

    def go(i, store, token, action):
        barrier.wait()
        try:
            results[i] = store.apply(gid, token, version, action)
        except Exception as e:   # noqa: BLE001 - collected for the assertions
            results[i] = e
    threads = [threading.Thread(target=go, args=(i, s, tok, a))
               for i, (s, (tok, a)) in enumerate(zip(stores, tokens_actions))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return results


def test_two_clicks_at_once_one_move_applied(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=6))
    gid = t.game_id
    v = store.view(gid)
    tok = t.seat_tokens[v.to_move]
    legal = [a for a, _ in store.view(gid, tok).legal]
    for round_ in range(4):                                  # a few races, each from scratch
        v = store.view(gid, tok)
        if not v.my_turn:
            break
        acts = [a for a, _ in v.legal][:2] * 2
        before = real_state(db, gid).history
        results = _race(db, gid, [(tok, a) for a in acts], v.version)
        won = [r for r in results if isinstance(r, int)]
        lost = [r for r in results if isinstance(r, GameMovedOn)]
        assert len(won) == 1 and len(lost) == len(results) - 1, results
        assert all(e.version == won[0] for e in lost)
        after = real_state(db, gid).history                  # the record replays: not corrupt
        assert store.version(gid) == won[0] == v.version + 1
        assert after[:len(before)] == before and after[len(before)] in acts
    assert legal and round_ >= 1


def _apply_in_process(url, directory, gid, token, version, action, start):
    start.wait()
    store = GameStore(directory, url=url, import_json=False)
    try:
        return ("ok", store.apply(gid, token, version, action))
    except GameMovedOn as e:
        return ("moved", e.version)
    finally:
        store.close()


def test_two_processes_at_once_one_move_applied(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=6))
    gid = t.game_id
    tok = t.seat_tokens[store.view(gid).to_move]
    v = store.view(gid, tok)
    acts = [a for a, _ in v.legal][:2]
    before = real_state(db, gid).history
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as m, ctx.Pool(2) as pool:
        start = m.Event()
        jobs = [pool.apply_async(_apply_in_process, (db.url, str(db.directory), gid, tok,
                                                     v.version, a, start)) for a in acts]
        start.set()
        results = sorted(j.get(timeout=600) for j in jobs)
    assert results == [("moved", v.version + 1), ("ok", v.version + 1)]
    after = real_state(db, gid).history
    assert after[:len(before)] == before and after[len(before)] in acts


# --- the AI -------------------------------------------------------------------------------------
class Clock:
    def __init__(self, t=1_000_000.0):
        self.t = t

    def __call__(self):
        return self.t


def test_the_ai_move_is_claimed_by_one_store_and_committed_once(db):
    clock = Clock()
    a, b = db.open(clock=clock, ai_lease=30), db.open(clock=clock, ai_lease=30)
    t = a.create_table(kitsu((AI, HUMAN), seed=2))
    gid = t.game_id
    assert a.view(gid).ai_to_move
    first = a.claim_ai(gid)
    assert first is not None and first.seat == 0 and "token" not in repr(first)
    assert b.claim_ai(gid) is None and a.claim_ai(gid) is None   # taken while it lasts
    clock.t += 31                                            # the first server died?
    second = b.claim_ai(gid)
    assert second is not None and second.owner != first.owner
    action = first.session.search_ai().best_action
    assert second.session.search_ai().best_action == action  # same seed, same move
    outcomes = sorted([a.commit_ai(first, action), b.commit_ai(second, action)])
    assert outcomes == [False, True]                         # exactly one commit
    assert a.version(gid) == 2 and real_state(db, gid).history.count(action) >= 1


def test_ai_moves_from_two_servers_at_once_apply_exactly_once(db):
    a, b = db.open(), db.open()
    t = a.create_table(kitsu((AI, AI), seed=9))
    gid = t.game_id
    barrier = threading.Barrier(2)
    played = {a: 0, b: 0}
    moves = 24

    def run(store):
        barrier.wait()
        while store.version(gid) <= moves:
            if store.play_ai(gid):
                played[store] += 1
    threads = [threading.Thread(target=run, args=(s,)) for s in (a, b)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    v = a.view(gid)
    assert played[a] + played[b] == len(v.log) == v.version - 1 >= moves   # each AI move once
    state = real_state(db, gid)                              # the record replays
    assert len(state.history) > len(v.log) and not state.is_chance()


def test_a_commit_after_a_human_moved_is_discarded(db):
    clock = Clock()
    store = db.open(clock=clock)
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=6), move_timer=30)
    gid = t.game_id
    v = store.view(gid)
    tok = t.seat_tokens[v.to_move]
    assert not v.ai_to_move and v.turn_deadline == clock.t + 30
    assert store.claim_ai(gid) is None                       # the human has time
    clock.t += 31
    assert store.view(gid).ai_to_move                        # the timer ran out
    claim = store.claim_ai(gid)
    mine = store.view(gid, tok)
    store.apply(gid, tok, mine.version, mine.legal[0][0])    # the human was there after all
    assert store.commit_ai(claim, claim.session.search_ai().best_action) is False
    assert store.version(gid) == mine.version + 1


def test_the_move_timer_lets_the_ai_move_for_an_absent_seat(db):
    clock = Clock()
    store = db.open(clock=clock)
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=6))
    gid = t.game_id
    absent = store.view(gid).to_move
    assert store.view(gid).turn_deadline is None
    clock.t += 100
    store.change_settings(gid, t.host_token, move_timer=30)   # counts from now, not the turn
    assert store.view(gid).turn_deadline == clock.t + 30 and not store.play_ai(gid)
    clock.t += 31
    assert store.play_ai(gid)                                 # the AI moves for the absent seat
    while store.view(gid).to_move == absent:                  # to the end of its turn
        assert store.play_ai(gid)
    v = store.view(gid)
    assert v.turn_deadline == clock.t + 30 and not v.ai_to_move   # the next seat's full timer
    assert not store.play_ai(gid)
    assert store.view(gid, t.seat_tokens[v.to_move]).my_turn


def test_a_view_is_the_callers_own(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=6))
    v = store.view(t.game_id, t.seat_tokens[0])
    before = store.view(t.game_id, t.seat_tokens[0]).observation
    v.observation.clear()
    if v.state is not None and not v.state.is_terminal() and v.state.current_player >= 0:
        v.state.apply(int(v.state.legal_actions()[0]))
    again = store.view(t.game_id, t.seat_tokens[0])
    assert again.observation == before and again.state.history == store.view(
        t.game_id, t.seat_tokens[0]).state.history


def test_the_host_hands_a_seat_to_the_ai_and_back(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=6))
    gid = t.game_id
    seat = store.view(gid).to_move
    tok = t.seat_tokens[seat]
    with pytest.raises(AccessDenied):
        store.hand_to_ai(gid, tok, seat)                     # a seat is not the host
    store.hand_to_ai(gid, t.host_token, seat)
    v = store.view(gid, tok)
    assert v.seats[seat].to_ai and v.ai_to_move and not v.legal
    with pytest.raises(AccessDenied, match="AI"):
        store.apply(gid, tok, v.version, 0)
    assert store.play_ai(gid)
    store.hand_to_ai(gid, t.host_token, seat, False)
    assert not store.view(gid).seats[seat].to_ai
    with pytest.raises(ValueError):
        store.hand_to_ai(gid, t.host_token, 7)


def test_an_all_ai_table_plays_to_the_end_and_then_shows_everything(db):
    store = db.open()
    t = store.create_table(kitsu((AI, AI), seed=1, track_length=3))
    while store.play_ai(t.game_id):
        pass
    v = store.view(t.game_id)
    assert v.status == "ended" and v.result is not None and v.record is not None
    assert v.observation == v.state.full_observation() and not v.state.is_determinized
    assert store.claim_ai(t.game_id) is None


# --- undo, host settings, seats and the lobby -----------------------------------------------
def _first_move(store, t):
    v = store.view(t.game_id)
    seat = v.to_move
    tok = t.seat_tokens[seat]
    store.apply(t.game_id, tok, v.version, store.view(t.game_id, tok).legal[0][0])
    return seat, tok


def test_undo_needs_the_other_humans_consent(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=6))
    gid = t.game_id
    for s, tok in t.seat_tokens.items():
        store.sit(gid, tok, f"P{s}")
    before = real_state(db, gid).history
    seat, tok = _first_move(store, t)
    other = t.seat_tokens[1 - seat]
    v = store.view(gid, tok)
    assert v.can_undo
    assert store.request_undo(gid, tok, v.version) is False  # waits for the other seat
    req = store.view(gid, other).undo
    assert req.seat == seat and req.waiting == (1 - seat,) and not store.view(gid, tok).can_undo
    with pytest.raises(ValueError, match="no undo request"):
        store.answer_undo(gid, tok, True)                    # not one's own
    assert store.answer_undo(gid, other, False) is False     # refused: dropped
    assert store.view(gid).undo is None
    v = store.view(gid, tok)
    store.request_undo(gid, tok, v.version)
    assert store.answer_undo(gid, other, True) is True       # agreed: taken back
    assert real_state(db, gid).history == before and store.view(gid).to_move == seat
    with pytest.raises(ValueError, match="nothing|no decision"):
        store.request_undo(gid, tok, store.version(gid))


def test_undo_alone_is_at_once_off_when_set_and_a_move_cancels_a_request(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN, HUMAN, HUMAN), seed=6))
    gid = t.game_id
    seat, tok = _first_move(store, t)                        # nobody else sat down: at once
    assert store.request_undo(gid, tok, store.version(gid)) is True
    for s, other in t.seat_tokens.items():
        store.sit(gid, other)
    seat, tok = _first_move(store, t)
    store.request_undo(gid, tok, store.version(gid))
    assert store.view(gid).undo.waiting == tuple(s for s in range(4) if s != seat)
    _first_move(store, t)                                    # the next seat moves on
    assert store.view(gid).undo is None
    with pytest.raises(AccessDenied):
        store.change_settings(gid, tok, undo="off")
    assert store.change_settings(gid, t.host_token, undo="off").undo == "off"
    v = store.view(gid, tok)
    assert not v.can_undo
    with pytest.raises(ValueError, match="off"):
        store.request_undo(gid, tok, v.version)


def test_settings_are_checked(db):
    store = db.open()
    t = store.create_table(kitsu(), public=True, hints=True, move_timer=60)
    s = store.view(t.game_id).settings
    assert (s.public, s.hints, s.undo, s.move_timer) == (True, True, "consent", 60)
    for bad in ({"colour": 1}, {"undo": "always"}, {"move_timer": 1}, {"hints": "yes"},
                {"move_timer": True}):
        with pytest.raises(ValueError):
            store.change_settings(t.game_id, t.host_token, **bad)
    with pytest.raises(ValueError):
        store.create_table(kitsu(), undo="maybe")
    assert store.change_settings(t.game_id, t.host_token, move_timer=None).move_timer is None


def test_sit_join_reissue_and_the_lobby(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, AI, HUMAN, AI)), public=True)
    private = store.create_table(kitsu((HUMAN, HUMAN)))
    gid = t.game_id
    assert [(e.game_id, e.free_seats) for e in store.lobby()] == [(gid, (0, 2))]
    r = store.revision(gid)
    assert store.sit(gid, t.seat_tokens[0], "Ann") == 0 and store.revision(gid) == r + 1
    assert store.sit(gid, t.seat_tokens[0]) == 0 and store.revision(gid) == r + 1  # again
    assert store.lobby()[0].free_seats == (2,) and store.lobby()[0].names[0] == "Ann"
    for bad in ("", "x" * 41, "a\nb", 3):
        with pytest.raises(ValueError):
            store.sit(gid, t.seat_tokens[0], bad)
    with pytest.raises(ValueError, match="not free"):
        store.join(gid, 0)
    with pytest.raises(ValueError, match="not free"):
        store.join(gid, 1)                                   # an AI seat
    with pytest.raises(AccessDenied):
        store.join(private.game_id, 0)
    bob = store.join(gid, 2, "Bob")
    with pytest.raises(AccessDenied):
        store.view(gid, t.seat_tokens[2])                    # the invite link was replaced
    assert store.view(gid, bob).seat == 2 and store.view(gid).status == "running"
    assert store.lobby() == []
    store.seen(gid, bob)
    assert store.view(gid).seats[2].last_seen is not None
    new = store.reissue(gid, t.host_token, 0)
    with pytest.raises(AccessDenied):
        store.view(gid, t.seat_tokens[0])
    assert store.view(gid, new).seat == 0 and not store.view(gid).seats[0].joined
    with pytest.raises(AccessDenied):
        store.reissue(gid, bob, 0)


def test_end_table_stops_play_and_shows_the_whole_game(db):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=6))
    gid = t.game_id
    seat, tok = _first_move(store, t)
    with pytest.raises(AccessDenied):
        store.end_table(gid, tok)
    store.end_table(gid, t.host_token)
    state = real_state(db, gid)
    for token in (None, tok, t.host_token):
        v = store.view(gid, token)
        assert v.status == "ended" and v.record["actions"] == state.history
        assert v.observation == state.full_observation() and v.legal == ()
    v = store.view(gid, t.seat_tokens[1 - seat])
    with pytest.raises(ValueError, match="ended"):
        store.apply(gid, t.seat_tokens[1 - seat], v.version, 0)
    assert store.claim_ai(gid) is None


# --- schema, migrations, configuration, import -------------------------------------------------
def test_a_version_1_database_is_migrated_and_keeps_its_games(db):
    engine = db.engine()
    assert schema.migrate(engine, upto=1) == 1
    sess = kitsu((HUMAN, AI))
    with engine.begin() as c:
        c.execute(sa.text("INSERT INTO games (id, name, params, record, version, created, "
                          "updated) VALUES ('OLDGAME123', 'kitsu', '{}', :r, 4, 0, 0)"),
                  {"r": json.dumps(sess.record())})
    store = db.open()
    with store.engine.connect() as c:
        assert schema.current_version(c) == schema.SCHEMA_VERSION == 3
        inspector = sa.inspect(c)
        for table in schema.metadata.sorted_tables:
            assert {col["name"] for col in inspector.get_columns(table.name)} == \
                set(table.columns.keys()), table.name
    back = store.get("OLDGAME123")
    assert back.state == sess.state and back.stored_version == 4
    assert store.view("OLDGAME123").status == "running"
    assert db.open().version("OLDGAME123") == 4              # a second open migrates nothing


def test_a_newer_schema_is_refused(db):
    db.open()
    with db.engine().begin() as c:
        c.execute(schema.schema_version.insert().values(version=99, name="future", applied_at=0))
    with pytest.raises(StoreError, match="schema version 99, newer"):
        db.open()


def test_stores_opening_a_new_database_together_migrate_once(db):
    barrier = threading.Barrier(3)
    errors = []

    def go():
        barrier.wait()
        try:
            db.open()
        except Exception as e:   # noqa: BLE001
            errors.append(e)
    threads = [threading.Thread(target=go) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    with db.engine().connect() as c:
        assert [r.version for r in c.execute(sa.select(schema.schema_version))] == [1, 2, 3]


def test_the_json_files_are_imported_once(db, caplog):
    d = db.directory
    sess = kitsu((HUMAN, AI))
    sess.apply_human(int(sess.state.legal_actions()[0]))
    (d / "GOODGAME1234.json").write_text(json.dumps(sess.record()))
    (d / "BROKENGAME12.json").write_text("{broken")
    (d / "not a game id.json").write_text(json.dumps(sess.record()))
    with caplog.at_level(logging.WARNING):
        store = db.open()
    assert store.get("GOODGAME1234").state == sess.state
    assert store.get("BROKENGAME12") is None
    warned = " ".join(r.getMessage() for r in caplog.records)
    assert "BROKENGAME12.json" in warned and "not a game id.json" in warned
    (d / "LATERGAME123.json").write_text(json.dumps(sess.record()))
    assert store.import_json(d) == 0 and db.open().get("LATERGAME123") is None   # once


def test_database_urls():
    assert database_url("/data/x").endswith("/data/x/boardlab.db") or os.environ.get("BOARDLAB_DB")
    for bad in ("mysql://u:secretpw@h/db", "sqlite://", "not a url", "postgres"):
        with pytest.raises(StoreError, match="postgresql://") as e:
            schema.engine_for(bad)
        assert "secretpw" not in str(e.value)


def test_an_unreachable_postgresql_is_a_clear_error(tmp_path):
    pytest.importorskip("psycopg")
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()                                                # nobody listens there
    with pytest.raises(StoreError, match="cannot open the database") as e:
        GameStore(tmp_path, url=f"postgresql://u:secretpw@127.0.0.1:{port}/db?connect_timeout=5")
    assert "secretpw" not in str(e.value) and "***" in str(e.value)


def test_the_app_opens_the_database_named_by_boardlab_db(monkeypatch, tmp_path):
    monkeypatch.setenv("BOARDLAB_DB", "mysql://x@y/z")
    with pytest.raises(StoreError):
        GameStore(tmp_path)
    monkeypatch.delenv("BOARDLAB_DB")
    assert GameStore(tmp_path).url == f"sqlite:///{tmp_path / 'boardlab.db'}"


def test_due_tables_lists_the_tables_the_ai_must_move_now(db):
    clock = Clock()
    store = db.open(clock=clock)
    ai_first = store.create_table(kitsu((HUMAN, AI), seed=6))     # P1 may move first
    humans = store.create_table(kitsu((HUMAN, HUMAN), seed=6))
    local = store.add(kitsu((AI, HUMAN), seed=6))                  # the browser plays those
    assert store.is_table(ai_first.game_id) and not store.is_table(local)
    due = set(store.due_tables())
    assert humans.game_id not in due and local not in due
    assert (ai_first.game_id in due) == store.view(ai_first.game_id).ai_to_move
    while store.play_ai(ai_first.game_id):                         # to the human's turn
        pass
    assert ai_first.game_id not in store.due_tables()
    gid = humans.game_id
    seat = store.view(gid).to_move
    store.hand_to_ai(gid, humans.host_token, seat)                  # handed to the AI: due
    assert store.due_tables() == [gid]
    claim = store.claim_ai(gid)
    assert store.due_tables() == []                                # computing: not listed
    clock.t += store.ai_lease + 1
    assert store.due_tables() == [gid]                             # the claim expired
    assert store.commit_ai(store.claim_ai(gid), int(claim.session.search_ai().best_action))
    store.hand_to_ai(gid, humans.host_token, seat, False)
    while store.due_tables():                                      # the seat's turn may go on
        store.play_ai(gid)
    store.change_settings(gid, humans.host_token, move_timer=30)
    assert store.due_tables() == []
    clock.t += 31                                                  # the timer ran out
    assert store.due_tables() == [gid]
    store.end_table(gid, humans.host_token)
    assert store.due_tables() == []
    with pytest.raises(NoSuchGame):
        store.is_table("no-such-game-id")
