"""Tables of friends in a real browser, one browser context per seat: a 4-player Kitsu table
(two humans, two AI seats) made with the New game form and played to the end of a round by
clicking in both seats' browsers, live in each, with a reload of every seat and a spectator,
and no other seat's hidden card in any page's HTML or websocket traffic; a 3-player Keyside
table where one player leaves and the host hands the seat to the AI; two clicks at once;
refused links; a Keyside seat on a phone. Screenshots go to test-output/e2e/ ("table-*").

The browser, the server and the helpers are those of test_browser.py; the tables are made
(where the form is not under test) and their records read with the Python store on the
server's database (the same $BOARDLAB_DATA_DIR)."""
import json
import os
import re
import time

import pytest
from test_browser import (DECISION, browser, key_of, open_app, pointer_off,  # noqa: F401
                          server, settle, shots)

import boardlab
from boardlab.streamlit_app.session import AI, HUMAN, PlaySession, actors, start_of
from boardlab.streamlit_app.store import GameStore

VIEWPORT = {"width": 1400, "height": 1200}
INPUT = ".st-key-play_input"
ANY_DECISION = DECISION + ", div[class*=\"-island\"] button.blb-place"
MOVED_ON = "The game moved on before your click arrived"


@pytest.fixture(scope="module")
def app_store():
    """The store of the test server's database."""
    store = GameStore(os.environ["BOARDLAB_DATA_DIR"])
    yield store
    store.close()


def make_table(store, name, seats, seed, names=None, **params):
    sess = PlaySession(game=boardlab.make(name, players=len(seats), **params), seats=list(seats),
                       preset="Beginner", seed=seed)
    return store.create_table(sess, names=names)


def link(server, gid, seat=None, host=None) -> str:
    q = f"/?game={gid}" + (f"&seat={seat}" if seat else "") + (f"&host={host}" if host else "")
    return server + q


def open_table(browser, url, frames=None):
    """A new context on a table link; ``frames``: a list that gets every websocket frame and
    every message the page fetched (Streamlit's cache of large messages)."""
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(
            f if isinstance(f, str) else bytes(f).decode("latin-1"))))
        page.on("response", lambda r: frames.append(r.text()) if "/_stcore/" in r.url
                and "message" in r.url else None)
    page.goto(url)
    page.locator(".st-key-play_log").wait_for(timeout=60000)
    settle(page)
    return ctx, page


def log_text(page) -> str:
    return page.locator(".st-key-play_log").inner_text()


def shows_text(page, text: str) -> None:
    """The page shows ``text`` (once its current run has drawn it)."""
    page.get_by_text(text).first.wait_for(timeout=60000)


def decision(page):
    """The seat's choices now: in its input area, or a lit place on the board (a Kitsu
    Katana's target is clicked on the table)."""
    return page.locator(INPUT).locator(ANY_DECISION).or_(
        page.locator(".st-key-tbl_board button.blb-place"))


def next_mover(pages):
    """The page whose seat has a decision now (the AI seats move meanwhile on the server)."""
    for _ in range(600):
        for i, page in enumerate(pages):
            if decision(page).count():
                return i
        time.sleep(0.1)
    raise AssertionError("no seat got a decision")


def click_first(page):
    button = decision(page).first
    pointer_off(page)
    key = key_of(button)
    button.click()
    # every element of that key gone (the page may hold a hidden copy for a moment: it
    # reads a board's click before drawing the page, see table_page.play_click)
    page.wait_for_function("k => !document.querySelector('.' + k)", arg=key, timeout=60000)


def wait_change(page, before: str) -> str:
    """The page's log once it differs from ``before`` (live: nothing is clicked there)."""
    for _ in range(1200):
        now = log_text(page)
        if now != before:
            return now
        time.sleep(0.05)
    raise AssertionError("the page did not show the move")


def record_of(store, gid):
    import sqlalchemy as sa
    from boardlab.streamlit_app.store import schema
    with store.engine.connect() as c:
        return json.loads(c.execute(sa.select(schema.games.c.record)
                                    .where(schema.games.c.id == gid)).scalar())


# --- hidden cards in the traffic ---------------------------------------------------------------
CARD = re.compile(r"^(B|O)\d$")


def kitsu_secrets(record, viewer):
    """Card names that were in another seat's hand at some point of the game and that
    ``viewer`` (a seat, or None: a spectator) never saw in any of its observations."""
    from boardlab.streamlit_app.store.access import public_observation
    state = boardlab.replay(record)
    s = start_of(state)
    seen, held = set(), set()
    for a in list(state.history) + [None]:
        if s.current_player != boardlab.CHANCE:
            for q, hand in enumerate(s.full_observation()["hands"]):
                if q != viewer:
                    held.update(c for c in hand if CARD.match(c))
            obs = public_observation(s) if viewer is None else s.observation(viewer)
            seen.update(re.findall(r"\b[BO]\d\b", json.dumps(obs)))
        if a is not None:
            s.apply(a)
    return held - seen


def card_patterns(card):
    """How a card shows in a page: its name in notation, a log or a place id ("B3", "h2-B3"),
    and its drawing's accessible name or a place's label ("Blue 3")."""
    long = ("Blue " if card[0] == "B" else "Orange ") + card[1:]
    return [rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", rf"aria-label=\\?[\"']{long}\\?[\"']",
            rf"{long}:"]


def shows(blob, card) -> bool:
    return any(re.search(p, blob) for p in card_patterns(card))


def assert_no_leak(texts, secrets, what):
    assert secrets, f"{what}: nothing hidden to look for (the check would prove nothing)"
    blob = "\n".join(texts)
    found = sorted(c for c in secrets if shows(blob, c))
    assert not found, f"{what} shows another seat's hidden cards: {found}"


# --- the tests ------------------------------------------------------------------------------------
def create_with_the_form(page):
    """New game → Kitsu, 4 players, track 3, P0 and P1 Human, P2 and P3 AI, Beginner, with
    friends (Ann and Bob, Ann sits at P0) → Create the table."""
    page.locator(".st-key-ng_players").click()
    page.get_by_role("option", name="4", exact=True).click()
    settle(page)
    track = page.get_by_role("spinbutton", name="Wisdom track length")
    track.fill("3")
    track.press("Enter")
    settle(page)
    page.locator(".st-key-ng_seat_1").click()
    page.get_by_role("option", name="Human", exact=True).click()
    settle(page)
    page.get_by_text("Beginner", exact=True).first.click()
    seed_box = page.get_by_label("Seed (same seed, same deals)")
    seed_box.fill("31")
    seed_box.press("Enter")
    settle(page)
    page.get_by_text("With friends: a link per seat").click()
    settle(page)
    page.get_by_role("textbox", name="P0 (Blue)").fill("Ann")
    page.get_by_role("textbox", name="P1 (Orange)").fill("Bob")
    page.get_by_role("textbox", name="P1 (Orange)").press("Enter")
    settle(page)
    page.get_by_role("button", name="Create the table").click()
    page.locator(".st-key-play_log").wait_for(timeout=60000)
    settle(page)


def test_kitsu_table_two_humans_two_ai_to_the_end_of_a_round(browser, server, shots, app_store):
    frames = {"a": [], "b": [], "c": []}
    ctx_a, a = open_app(browser, server, viewport=VIEWPORT)
    a.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames["a"].append(
        f if isinstance(f, str) else bytes(f).decode("latin-1"))))
    create_with_the_form(a)
    assert "seat=" in a.url and "host=" in a.url
    gid = re.search(r"game=([A-Za-z0-9_-]+)", a.url).group(1)
    shows_text(a, "you play P0 (Blue) — Ann")
    # the host panel lists the links to send: one per other human seat, and the host's
    a.locator('[data-testid="stCode"]').first.wait_for(timeout=60000)
    codes = [c.inner_text() for c in a.locator('[data-testid="stCode"]').all()]
    seat_links = [c for c in codes if "seat=" in c]
    assert len(seat_links) == 1 and any("host=" in c and "seat=" not in c for c in codes)
    a.screenshot(path=str(shots / "table-01-host-links.png"), full_page=True)
    url_b = server + "/?" + seat_links[0].split("?", 1)[1]
    ctx_b, b = open_table(browser, url_b, frames["b"])
    shows_text(b, "you play P1 (Orange) — Bob")
    ctx_c, c = open_table(browser, link(server, gid), frames["c"])
    shows_text(c, "you are watching")
    assert not decision(c).count()

    checked = {"a": 0, "b": 0, "c": 0}

    def check_leaks():
        """No page carried another seat's hidden card (the spectator's: nobody's), in its
        HTML now or in any websocket frame so far; the cards are those that seat has not
        seen so far in the game (the more is public, the fewer to look for: checked as
        the game goes)."""
        rec = record_of(app_store, gid)
        for name, page, viewer in (("a", a, 0), ("b", b, 1), ("c", c, None)):
            secrets = kitsu_secrets(rec, viewer)
            if secrets:
                settle(page)
                assert_no_leak([page.content()] + frames[name], secrets,
                               f"the page of {'P%d' % viewer if viewer is not None else 'the spectator'}")
                checked[name] += 1

    check_leaks()
    pages, moves, strips, reloaded = [a, b], 0, 0, False
    while "wins the round" not in log_text(a):
        assert moves < 40, "the round did not end"
        mover = next_mover(pages)
        other = pages[1 - mover]
        settle(other)
        before, before_c = log_text(other), log_text(c)
        click_first(pages[mover])
        moves += 1
        wait_change(other, before)                     # live in the other seat's browser
        wait_change(c, before_c)                       # and in the spectator's
        settle(other)
        if other.locator(".bl-changes").filter(has_text="Since your last move").count():
            strips += 1
        if moves in (1, 2, 3):
            check_leaks()
        if moves == 3 and not reloaded:                # a reload of every seat
            for page in (a, b, c):
                settle(page)
                kept = log_text(page)
                page.reload()
                page.locator(".st-key-play_log").wait_for(timeout=60000)
                settle(page)
                assert log_text(page) == kept
            shows_text(a, "you play P0 (Blue) — Ann")
            shows_text(b, "you play P1 (Orange) — Bob")
            reloaded = True
            a.screenshot(path=str(shots / "table-02-seat-a.png"), full_page=True)
            b.screenshot(path=str(shots / "table-03-seat-b.png"), full_page=True)
    for page in (b, c):
        for _ in range(600):
            if "wins the round" in log_text(page):
                break
            time.sleep(0.1)
        assert "wins the round" in log_text(page)
    assert moves >= 4 and strips >= 1
    c.screenshot(path=str(shots / "table-04-spectator.png"), full_page=True)
    rec = record_of(app_store, gid)
    who = actors(boardlab.replay(rec))
    assert who.count(2) and who.count(3)               # the AI seats played on the server
    check_leaks()
    assert all(checked.values()), f"a page had no hidden card to look for: {checked}"
    assert not any(p.locator('[data-testid="stException"]').count() for p in (a, b, c))
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()


def test_the_positive_control_of_the_leak_check(browser, server, app_store):
    """The leak check sees cards: a seat's own hand is in its page."""
    t = make_table(app_store, "kitsu", [HUMAN, HUMAN], seed=8, track_length=3)
    ctx, page = open_table(browser, link(server, t.game_id, t.seat_tokens[0]))
    hand = [c for c in app_store.view(t.game_id, t.seat_tokens[0]).observation["hands"][0]
            if CARD.match(c)]
    long = ("Blue " if hand[-1][0] == "B" else "Orange ") + hand[-1][1:]
    page.locator(f'svg[aria-label="{long}"]').first.wait_for(timeout=60000)
    html = page.content()
    assert all(shows(html, c) for c in hand)
    with pytest.raises(AssertionError, match="hidden cards"):
        assert_no_leak([html], set(hand), "this seat's own page")
    ctx.close()


def host_hands_to_ai(page, seat):
    settle(page)
    if not page.locator(f".st-key-host_seat_{seat}").first.is_visible():
        page.get_by_text("Host: links, seats and settings").click()
        settle(page)
    page.locator(f'.st-key-host_ai_{seat}:not([data-stale="true"]) button').first.click()
    settle(page)


def test_keyside_a_player_leaves_and_the_host_hands_the_seat_to_the_ai(browser, server, shots,
                                                                        app_store):
    t = make_table(app_store, "keyside", [HUMAN] * 3, seed=12, names=["Host", "Bea", "Cy"])
    gid = t.game_id
    ctxs, pages = [], []
    for s in range(3):
        ctx, page = open_table(browser, link(server, gid, t.seat_tokens[s],
                                             t.host_token if s == 0 else None))
        ctxs.append(ctx)
        pages.append(page)
    # the others' secret dice stay secret in each page (values from the record)
    left = False
    for _ in range(60):
        live = pages if not left else pages[:2]
        mover = next_mover_or_waiting(live, pages[0])
        if mover is None:                               # everybody waits for P2, who left
            break
        click_first(live[mover])
        if mover == 2 and not left:                     # P2 decides once, then leaves
            ctxs[2].close()
            left = True
    assert left and waiting_for_p2(pages[0])
    check_keyside_dice(pages[0], app_store, gid, 0)
    pages[0].screenshot(path=str(shots / "table-05-keyside-waiting.png"), full_page=True)
    before = log_text(pages[1])
    p2_moves = before.count("P2 ")
    host_hands_to_ai(pages[0], 2)
    after = wait_change(pages[1], before)               # the AI moved for P2
    for _ in range(600):
        after = log_text(pages[1])
        if after.count("P2 ") > p2_moves and (decision(pages[0]).count()
                                              or decision(pages[1]).count()):
            break
        time.sleep(0.1)
    assert after.count("P2 ") > p2_moves
    shows_text(pages[0], "AI (handed over)")
    pages[0].screenshot(path=str(shots / "table-06-keyside-handed.png"), full_page=True)
    for ctx in ctxs[:2]:
        ctx.close()


def waiting_for_p2(page) -> bool:
    status = page.locator(".bl-tstatus")
    return bool(status.count()) and status.first.inner_text().startswith("Waiting for P2")


def next_mover_or_waiting(pages, host):
    for _ in range(600):
        for i, page in enumerate(pages):
            if decision(page).count():
                return i
        if waiting_for_p2(host):
            settle(host)
            if not any(decision(p).count() for p in pages):
                return None
        time.sleep(0.1)
    raise AssertionError("no seat got a decision")


def check_keyside_dice(page, store, gid, viewer):
    """Every die another seat set in secret shows '?' on this seat's mats."""
    state = boardlab.replay(record_of(store, gid))
    full, mine = state.full_observation(), state.observation(viewer)
    mats = page.locator(".ks-mat")
    hidden = 0
    for q in range(len(full["seats"])):
        shown = [d.inner_text().strip() for d in mats.nth(q).locator(".ks-die").all()]
        for i, (colour, value) in enumerate(full["seats"][q]["dice"].items()):
            if value is not None and mine["seats"][q]["dice"][colour] is None:
                hidden += 1
                assert shown[i] == "?", f"P{q}'s secret {colour} die shows {shown[i]}"
    assert hidden, "no secret die to check"


def test_two_clicks_at_once_one_is_played_the_other_is_told(browser, server, shots, app_store):
    t = make_table(app_store, "kitsu", [HUMAN, HUMAN], seed=21, track_length=3)
    gid = t.game_id
    seat = app_store.view(gid).to_move
    url = link(server, gid, t.seat_tokens[seat])
    (cx, x), (cy, y) = open_table(browser, url), open_table(browser, url)
    for page in (x, y):
        decision(page).first.wait_for(timeout=60000)
        settle(page)
    version = app_store.version(gid)
    # Both buttons are taken before either click: once the first is played, y's page may
    # refresh to the next seat's turn and its buttons go, so a locator resolved after the
    # first click could wait for a button that no longer exists.
    first, last = decision(x).first.element_handle(), decision(y).last.element_handle()
    first.evaluate("b => b.click()")                   # the same seat in two browsers, at once
    last.evaluate("b => b.click()")
    for page in (x, y):
        settle(page)
    for _ in range(300):                                # both show the position now
        if log_text(x) == log_text(y) and MOVED_ON in x.content() + y.content():
            break
        time.sleep(0.1)
    told = [p for p in (x, y) if MOVED_ON in p.content()]
    assert len(told) == 1                               # the loser is told
    assert log_text(x) == log_text(y)
    rec = record_of(app_store, gid)
    who = actors(boardlab.replay(rec))
    assert app_store.version(gid) == version + 1        # one decision applied, not two
    assert who.count(seat) == 1
    told[0].screenshot(path=str(shots / "table-07-moved-on.png"), full_page=True)
    cx.close()
    cy.close()


def test_bad_links_are_refused_without_any_state(browser, server, app_store):
    t = make_table(app_store, "kitsu", [HUMAN, HUMAN], seed=5, track_length=3)
    gid = t.game_id
    hand = app_store.view(gid, t.seat_tokens[0]).observation["hands"][0]
    forged = t.seat_tokens[0][:-1] + ("A" if t.seat_tokens[0][-1] != "A" else "B")
    for url, says in ((link(server, gid, forged), "not one of this table's"),
                      (link(server, gid, "short"), "malformed"),
                      (link(server, "nosuchgame123", t.seat_tokens[0]), "no such table"),
                      (link(server, gid, t.seat_tokens[0], "x"), "open the host's page"),
                      (link(server, gid, None, t.seat_tokens[1]), "open the host's page")):
        ctx = browser.new_context(viewport=VIEWPORT)
        page = ctx.new_page()
        page.goto(url)
        page.get_by_text(says).first.wait_for(timeout=60000)
        settle(page)
        html = page.content()
        assert not page.locator(".st-key-play_log").count()
        assert not page.get_by_text("Host: links, seats and settings").count()
        assert not any(shows(html, c) for c in hand if CARD.match(c))
        ctx.close()


PHONE_JS = """() => {
  const top = (sel) => { const e = [...document.querySelectorAll(sel)]
                           .find((x) => x.getBoundingClientRect().height > 0);
                         return e ? e.getBoundingClientRect().top : null; };
  const input = document.querySelector('.st-key-play_input');
  const choices = [...input.querySelectorAll('button:not([disabled]), [role="radio"]')]
    .filter((b) => !b.closest('[class*="st-key-hint_"]') && b.getBoundingClientRect().height > 0)
    .map((b) => b.getBoundingClientRect().bottom);
  return {island: top('div[class*="-island"]'), input: top('.st-key-play_input'),
          mats: top('.ks-mats, .ks-phone-mats'), lowest: Math.max(...choices), height: innerHeight};
}"""


def test_a_seat_on_a_phone_has_the_table_then_its_choices_then_the_mats(browser, server, shots,
                                                                         app_store):
    """A Keyside seat on a phone: the island, then the decision panel with every choice in
    the first screen, then the players' mats (not the mats between the island and the
    choices), for the decisions of the first turns."""
    t = make_table(app_store, "keyside", [HUMAN, AI], seed=11)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(link(server, t.game_id, t.seat_tokens[0]))
    for k in range(10):
        decision(page).first.wait_for(timeout=60000)
        settle(page, quiet=0.4)
        page.evaluate("""() => { document.querySelector('[data-testid="stMain"]').scrollTo(0, 0); }""")
        seen = page.evaluate(PHONE_JS)
        assert seen["island"] < seen["input"] < seen["mats"], (k, seen)
        assert seen["lowest"] <= seen["height"], (k, seen)
        if k in (0, 9):
            page.screenshot(path=str(shots / f"table-08-keyside-phone-{k}.png"))
        click_first(page)
    ctx.close()
