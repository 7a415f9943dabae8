"""Kitsu's hidden information: what each seat's observation holds, and determinization.

Worlds are checked against an independent model of what a seat knows, written here from
its observation alone (docs/kitsu.md, "Hidden information"), and against a brute-force
count of the deals that agree with it.
"""
import json
import math
from collections import Counter

import numpy as np
import pytest

import boardlab
from boardlab import search
from boardlab.games.kitsu import CARD_TYPES, deck
from kitsu_table import play, table

SPECIAL = {"White", "Black", "Katana"}


def colour(card):
    """0 blue, 1 orange, None for a special card."""
    return None if card in SPECIAL else "BO".index(card[0])


def deck_counter(players):
    return Counter({t: k for t, k in zip(CARD_TYPES, deck(players)) if k})


def random_step(s, rng):
    if s.is_chance():
        acts, probs = zip(*s.chance_outcomes())
        s.apply(int(rng.choice(acts, p=probs)))
    else:
        s.apply(int(rng.choice(s.legal_actions())))


def full_view(s):
    return json.dumps(s.full_observation(), sort_keys=True)


# ---------------------------------------------------------------- what a seat knows

def hidden_card_of(view):
    """(trick position, owner) of another seat's face-down card in the trick, or None."""
    for i, entry in enumerate(view["trick"]):
        if entry["card"] is None:
            return i, entry["seat"]
    return None


def forced_colour(view, i):
    """The colour the i-th card of the trick was forced to (a face-up Black Kitsune just
    before it obliges its player's clan colour), or None."""
    if i == 0:
        return None
    before = view["trick"][i - 1]
    if before["card"] != "Black" or before["hidden"]:
        return None
    return before["seat"] % 2


def check_world(view, full, o):
    """Assert that `full` (a full observation) is a deal that agrees with everything seat
    o's `view` holds."""
    players = view["players"]
    # Every card exactly once.
    where = Counter(full["stock"]) + Counter(full["discard"])
    for hand in full["hands"]:
        where += Counter(hand)
    where += Counter(e["card"] for e in full["trick"])
    where += Counter(e["card"] for e in full["exchange"] if e["put_down"])
    assert where == deck_counter(players)
    # What o sees is unchanged.
    assert full["hands"][o] == view["hands"][o]
    assert full["discard"] == view["discard"] and full["hand_sizes"] == view["hand_sizes"]
    assert full["stock_size"] == view["stock_size"]
    assert [e["put_down"] for e in full["exchange"]] == [e["put_down"] for e in view["exchange"]]
    for mine, world in zip(view["trick"], full["trick"]):
        if mine["card"] is not None:
            assert world["card"] == mine["card"]
    hidden = hidden_card_of(view)
    group = [Counter(h) for h in full["hands"]]
    if hidden:
        i, x = hidden
        card = full["trick"][i]["card"]
        assert card not in ("Katana", "Black"), "Katana and Black Kitsune cannot be hidden"
        group[x][card] += 1
        fc = forced_colour(view, i)
        if fc is not None and colour(card) != fc:
            # It did not follow: its owner had no card of that colour. (Its owner's next
            # card, in 2p, ends the trick and reveals it.)
            assert not any(colour(c) == fc for c in full["hands"][x])
    for q in range(players):
        if q == o:
            continue
        assert Counter(view["known"][q]) <= group[q], f"P{q} lacks a card P{o} knows it holds"
        for c, cap in enumerate(view["colour_caps"][q]):
            if cap is not None:
                assert sum(k for card, k in group[q].items() if colour(card) == c) <= cap


def decision_states(players, games, seed, every=1):
    """Every `every`-th state of random games (chance nodes included)."""
    rng = np.random.default_rng(seed)
    for g in range(games):
        s = boardlab.make("kitsu", players=players).new_initial_state(int(rng.integers(2**32)))
        k = 0
        while not s.is_terminal():
            if k % every == 0:
                yield s.clone()
            random_step(s, rng)
            k += 1


@pytest.mark.parametrize("players", [2, 4, 6])
def test_knowledge_and_bounds_hold_for_the_true_deal_and_every_world(players):
    """The constraints the observation states are true, and every world keeps them."""
    seen = Counter()
    for n, s in enumerate(decision_states(players, games=25, seed=players, every=2)):
        o = n % players
        view = s.observation(o)
        check_world(view, s.full_observation(), o)
        world = s.determinize(o, n)
        assert world.observation(o) == view
        check_world(view, world.full_observation(), o)
        seen["cap"] += any(c is not None for q, caps in enumerate(view["colour_caps"])
                           if q != o for c in caps)
        seen["hidden"] += hidden_card_of(view) is not None
        seen["known"] += any(view["known"][q] for q in range(players) if q != o)
    assert seen["cap"] and seen["hidden"] and (players == 2 or seen["known"]), seen


def test_knowledge_ends_with_the_round():
    """The reproduction of issue 8: after the round's last trick the hands are discarded,
    and with them what seats knew of them."""
    s = boardlab.make("kitsu", players=4).new_initial_state(0)
    rng = np.random.default_rng(0)
    while s.full_observation()["phase"] != "round_leader":
        random_step(s, rng)
    assert s.full_observation()["hand_sizes"] == [0, 0, 0, 0]
    for o in range(4):
        view = s.observation(o)
        assert view["known"] == [[], [], [], []]
        assert view["colour_caps"] == [[None, None]] * 4
        assert all(e["gave"] is None and e["received"] is None for e in view["exchange"])
        assert view["recover_seat"] is None


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_last_trick_shown_is_the_one_recover_can_take_from(players):
    """Recover takes from the last trick of the current deal, so after a redeal no last
    trick is shown until one is played; the Recover-card token is offered exactly then."""
    checked = Counter()
    for s in decision_states(players, games=8, seed=10 + players):
        if s.is_chance():
            continue
        view = s.observation(s.current_player)
        if view["phase"] not in ("play", "exchange"):
            continue
        # A trick of this deal lies in the discard pile from its end to the next deal.
        assert bool(view["last_trick"]["cards"]) == bool(view["discard"]), view
        checked[bool(view["discard"])] += 1
        if view["tokens"]["recover"]["holder"] == s.current_player and view["phase"] == "play":
            offered = any("with recover" in s.action_to_string(int(a)) for a in s.legal_actions())
            assert offered == bool(view["last_trick"]["cards"])
    assert checked[True] and checked[False]


# ---------------------------------------------------------------- public information

def test_the_token_a_clan_picked_is_public_before_the_receiver_is_chosen():
    h4 = {0: ["B2", "B1", "B1", "White", "Black", "O1"],
          1: ["O3", "O1", "O1", "B6", "Katana", "O2"],
          2: ["B4", "B3", "B5", "White", "Katana", "O4"],
          3: ["O5", "O6", "B1", "B2", "Black", "O2"]}
    s = play(table(4, h4), "play B1", "play O3", "play B3", "play O6")  # orange +5
    for seat in range(4):
        assert s.observation(seat)["gain"] == {"clan": "blue", "token": None}
    play(s, "take recover")
    assert s.observation(0)["phase"] == "token_seat"
    for seat in range(4):
        assert s.observation(seat)["gain"] == {"clan": "blue", "token": "recover"}
    play(s, "token to P2")
    assert s.observation(1)["gain"] is None
    assert s.observation(1)["tokens"]["recover"]["holder"] == 2


def test_dealing_is_public():
    s = boardlab.make("kitsu", players=4).new_initial_state(0)
    s.apply_string("first leader P2")
    assert s.observation(0)["dealing"] == {"to": 2, "left": 24, "refill": False}
    s.apply(int(s.chance_outcomes()[0][0]))
    assert s.observation(1)["dealing"] == {"to": 3, "left": 23, "refill": False}
    rng = np.random.default_rng(1)
    while s.is_chance():
        random_step(s, rng)
    assert s.observation(0)["dealing"] is None


def test_every_public_field_is_the_same_for_every_seat():
    """What differs between two seats' observations is only what one of them may see."""
    private = {"viewer", "hands", "known", "exchange", "trick"}
    for players in (2, 4, 6):
        for s in decision_states(players, games=2, seed=30 + players, every=5):
            views = [s.observation(p) for p in range(players)]
            public = {k: v for k, v in s.full_observation().items() if k not in private | {"stock"}}
            for view in views:
                assert {k: v for k, v in view.items() if k in public} == public
                assert set(view) == set(s.full_observation())


# ---------------------------------------------------------------- determinization: exact

def unknown_slots(view, o):
    """The places hidden from o and their sizes (seat hands, the hidden card, cards put
    down for the exchange, the stock), and the multiset of cards that fill them."""
    players = view["players"]
    seen = Counter(view["hands"][o]) + Counter(view["discard"])
    seen += Counter(e["card"] for e in view["trick"] if e["card"] is not None)
    mine = view["exchange"][o]
    if mine["put_down"]:
        seen[mine["card"]] += 1
    slots = [("hand", q, view["hand_sizes"][q]) for q in range(players) if q != o]
    hidden = hidden_card_of(view)
    if hidden:
        slots.append(("hidden", hidden[1], 1))
    slots += [("put_down", q, 1) for q in range(players) if q != o and view["exchange"][q]["put_down"]]
    if view["stock_size"]:
        slots.append(("stock", None, view["stock_size"]))
    return slots, deck_counter(players) - seen


def distributions(pool, sizes):
    """Every way to share the multiset `pool` among places of the given sizes, as
    tuples of sorted card tuples."""
    types = sorted(pool)

    def rec(i, left):
        if i == len(types):
            if all(k == 0 for k in left):
                yield [()] * len(sizes)
            return
        t, count = types[i], pool[types[i]]
        for split in _compositions(count, left):
            rest = [k - m for k, m in zip(left, split)]
            for tail in rec(i + 1, rest):
                yield [tuple([t] * m) + tuple_ for m, tuple_ in zip(split, tail)]

    for d in rec(0, list(sizes)):
        yield tuple(tuple(sorted(part)) for part in d)


def _compositions(total, bounds):
    if not bounds:
        if total == 0:
            yield ()
        return
    for k in range(min(total, bounds[0]) + 1):
        for rest in _compositions(total - k, bounds[1:]):
            yield (k,) + rest


def world_key(full, slots, view):
    hidden = hidden_card_of(view)
    parts = []
    for kind, q, _ in slots:
        if kind == "hand":
            parts.append(tuple(sorted(full["hands"][q])))
        elif kind == "hidden":
            parts.append((full["trick"][hidden[0]]["card"],))
        elif kind == "put_down":
            parts.append((full["exchange"][q]["card"],))
        else:
            parts.append(tuple(sorted(full["stock"])))
    return tuple(parts)


def consistent(key, slots, view, o):
    """Does the world `key` (cards per slot) agree with o's view? (the rules of
    check_world, on the slot form)"""
    full = {"hands": [list(h) if h is not None else None for h in view["hands"]],
            "trick": [dict(e) for e in view["trick"]],
            "exchange": [dict(e) for e in view["exchange"]],
            "stock": [], "discard": view["discard"], "hand_sizes": view["hand_sizes"],
            "stock_size": view["stock_size"]}
    hidden = hidden_card_of(view)
    for (kind, q, _), part in zip(slots, key):
        if kind == "hand":
            full["hands"][q] = list(part)
        elif kind == "hidden":
            full["trick"][hidden[0]]["card"] = part[0]
        elif kind == "put_down":
            full["exchange"][q]["card"] = part[0]
        else:
            full["stock"] = list(part)
    try:
        check_world(view, full, o)
    except AssertionError:
        return False
    return True


def weight(key):
    """Physical deals behind a world (copies of a type are distinct cards)."""
    per_type = Counter()
    denominator = 1
    for part in key:
        for t, k in Counter(part).items():
            per_type[t] += k
            denominator *= math.factorial(k)
    numerator = 1
    for k in per_type.values():
        numerator *= math.factorial(k)
    return numerator // denominator


def has_constraint(view, o):
    """A colour bound or a hidden card among what o cannot see."""
    return hidden_card_of(view) is not None or any(
        c is not None for q, caps in enumerate(view["colour_caps"]) if q != o for c in caps)


def small_information_sets(players, seed, want, max_worlds=150):
    """(state, seat, slots, worlds) where the seat knows no card in another hand (each
    deal is then equally likely) and 2 to max_worlds deals agree with its view; cases
    with a colour bound or a hidden card first."""
    found, plain = [], []
    for n, s in enumerate(decision_states(players, games=120, seed=seed, every=2)):
        o = n % players
        view = s.observation(o)
        if any(view["known"][q] for q in range(players) if q != o):
            continue
        special = has_constraint(view, o)
        if not special and len(plain) >= want // 2:
            continue
        slots, pool = unknown_slots(view, o)
        if sum(pool.values()) > 10 or len(slots) < 2:
            continue
        worlds = [k for k in distributions(pool, [size for _, _, size in slots])
                  if consistent(k, slots, view, o)]
        if 2 <= len(worlds) <= max_worlds:
            (found if special else plain).append((s, o, slots, worlds))
        if len(found) >= want - want // 2:
            break
    return found + plain


@pytest.mark.parametrize("players", [2, 4])
def test_determinize_samples_every_consistent_deal_with_its_probability(players):
    """Deals are drawn uniformly (copies of a type counted as distinct cards) among all
    that agree with the seat's knowledge: every one appears, no other one, at the rate
    expected (a chi-square test with a very small false-alarm rate)."""
    cases = small_information_sets(players, seed=40 + players, want=6)
    assert len(cases) >= 4
    constrained = 0
    for s, o, slots, worlds in cases:
        view = s.observation(o)
        constrained += has_constraint(view, o)
        n = 60 * len(worlds)
        counts = Counter(world_key(s.determinize(o, seed).full_observation(), slots, view)
                         for seed in range(n))
        assert set(counts) <= set(worlds), "a world that contradicts the seat's knowledge"
        total_w = sum(weight(k) for k in worlds)
        expected = {k: n * weight(k) / total_w for k in worlds}
        # Worlds expected fewer than 10 times are pooled into one cell.
        cells = [(counts[k], e) for k, e in expected.items() if e >= 10]
        rare = [k for k, e in expected.items() if e < 10]
        if rare:
            cells.append((sum(counts[k] for k in rare), sum(expected[k] for k in rare)))
        chi2 = sum((seen - e) ** 2 / e for seen, e in cells)
        dof = max(len(cells) - 1, 1)
        # Far beyond any plausible deviation (about 7 standard deviations of chi2).
        assert chi2 < dof + 7 * math.sqrt(2 * dof) + 10, (chi2, dof, slots)
    assert constrained >= 2, "too few cases with a colour bound or a hidden card"


def forced_void_position():
    """4p, seen by P0: P1 and P3 showed they have no blue card (each was forced by a Black
    Kitsune and did not follow), and P0 gave O6 to P2. Every blue card P0 cannot see is
    then in P2's hand."""
    hands = {0: ["Black", "B1", "B1", "B2", "B6", "O6"],
             1: ["O1", "O2", "O4", "White", "Katana", "O5"],
             2: ["Black", "B1", "B2", "B3", "B4", "B5"],
             3: ["O1", "O1", "O2", "O3", "White", "Katana"]}
    gives = {0: "O6", 1: "O5", 2: "B5", 3: "Katana"}
    s = table(4, hands, gives=gives)
    play(s, "play Black", "play O1", "play B1", "play O1")      # P1 forced: no blue
    play(s, "play O2", "play Black", "play O2")                 # P1 leads; P3 forced: no blue
    return s


def test_colour_bounds_and_known_cards_pin_down_a_hand():
    s = forced_void_position()
    view = s.observation(0)
    assert view["colour_caps"][1] == [0, None] and view["colour_caps"][3] == [0, None]
    assert view["known"][2] == ["O6"] and s.current_player == 0
    truth = sorted(s.full_observation()["hands"][2])
    assert truth == ["B2", "B3", "B4", "O6"]
    worlds = set()
    for seed in range(200):
        full = s.determinize(0, seed).full_observation()
        check_world(view, full, 0)
        assert sorted(full["hands"][2]) == truth      # forced: the blues and the O1
        worlds.add((tuple(sorted(full["hands"][1])), tuple(sorted(full["hands"][3]))))
    assert len(worlds) > 5


def test_a_hidden_card_follows_the_black_kitsune_when_its_owner_could():
    """2p: P1's Black Kitsune forces P0 to play orange; P0 plays face down. In the worlds P1
    imagines, the hidden card is orange, or P0 holds no orange at all."""
    p0 = ["B1", "B1", "B2", "B3", "Black", "Katana"]
    p1 = ["O6", "O3", "O1", "O2", "White", "Black"]
    s = play(table(2, {0: p0, 1: p1}), "play B1", "play O6", "play B1", "play O2", "take hidden")
    for card, seat in (("B4", 1), ("B5", 1), ("O4", 0), ("B6", 0)):
        s.apply_string(f"draw {card} to P{seat}")
    play(s, "play Black", "play O4 with hidden", "play B4")       # P1 leads
    view = s.observation(1)
    assert hidden_card_of(view) == (1, 0) and forced_colour(view, 1) == 1
    kinds = Counter()
    for seed in range(200):
        full = s.determinize(1, seed).full_observation()
        check_world(view, full, 1)
        hidden = full["trick"][1]["card"]
        kinds["orange" if colour(hidden) == 1 else "void"] += 1
        if colour(hidden) != 1:
            assert not any(colour(c) == 1 for c in full["hands"][0])
    assert kinds["orange"] and kinds["void"]
    # Revealed at the end of the trick, it stays marked as played face down.
    play(s, "play B2")
    assert s.observation(1)["last_trick"]["cards"][1] == {
        "seat": 0, "card": "O4", "hidden": True, "destroyed": False}


# ---------------------------------------------------------------- determinization: the view only

def positions(players, seed, count):
    """Random decision states; with 4 or 6 players a third of them in the middle of the
    exchange (some cards put down, not all)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = boardlab.make("kitsu", players=players).new_initial_state(int(rng.integers(2**32)))
        if players > 2 and len(out) % 3 == 0:
            while s.is_chance():
                random_step(s, rng)
            for _ in range(int(rng.integers(1, players))):
                random_step(s, rng)
        else:
            stop, k = int(rng.integers(0, 400)), 0
            while not s.is_terminal() and (k < stop or s.is_chance()):
                random_step(s, rng)
                k += 1
        if not s.is_terminal() and not s.is_chance():
            out.append(s)
    return out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_search_from_a_world_is_search_from_the_state(players):
    """The seat to move decides the same, with the same root statistics, on the state and
    on any world of its information set."""
    mid_exchange = 0
    for s in positions(players, seed=50 + players, count=9):
        p = s.current_player
        mid_exchange += s.full_observation()["phase"] == "exchange"
        truth = search.ismcts(s, iterations=300, seed=1)
        for k in (1, 2):
            world = search.ismcts(s.determinize(p, seed=k), iterations=300, seed=1)
            assert world.stats == truth.stats and world.best_action == truth.best_action
    assert players == 2 or mid_exchange


@pytest.mark.parametrize("players", [2, 4, 6])
def test_determinize_depends_only_on_what_the_seat_knows(players):
    """Two states with the same observation for p but different hidden cards determinize
    (same seed) to the same state, for p the seat to move and for every other seat."""
    for s in positions(players, seed=60 + players, count=12):
        for p in range(players):
            other = s.determinize(p, seed=999)
            assert other.observation(p) == s.observation(p)
            for seed in (3, 4):
                assert full_view(other.determinize(p, seed)) == full_view(s.determinize(p, seed))


@pytest.mark.parametrize("players", [4, 6])
def test_a_hidden_exchange_choice_does_not_reach_the_others(players):
    """Mid exchange, the card a seat put down is resampled: two different choices leave
    every other seat's determinizations identical."""
    checked = 0
    rng = np.random.default_rng(players)
    for n in range(6):
        s = boardlab.make("kitsu", players=players).new_initial_state(n)
        while s.is_chance():
            random_step(s, rng)
        giver = s.current_player
        a, b = s.legal_actions()[:2]
        x, y = s.clone(), s.clone()
        x.apply(int(a))
        y.apply(int(b))
        for p in range(players):
            if p == giver:
                continue
            assert x.observation(p) == y.observation(p)
            for seed in (5, 6):
                assert full_view(x.determinize(p, seed)) == full_view(y.determinize(p, seed))
            checked += 1
        nxt = x.current_player
        sx = search.ismcts(x, iterations=300, seed=2)
        sy = search.ismcts(y, iterations=300, seed=2)
        assert sx.stats == sy.stats, f"P{nxt}'s search sees P{giver}'s exchange choice"
    assert checked


def test_a_world_keeps_only_public_knowledge_for_the_other_seats():
    """P0 gave O1 to P2; in the worlds P1 imagines, nobody knows what P0 gave (P1 did not
    see it), and P1's own knowledge is unchanged."""
    h4 = {0: ["B2", "B1", "B1", "White", "Black", "O1"],
          1: ["O3", "O1", "O1", "B6", "Katana", "O2"],
          2: ["B4", "B3", "B5", "White", "Katana", "O4"],
          3: ["O5", "O6", "B1", "B2", "Black", "O2"]}
    s = table(4, h4)
    assert s.observation(0)["known"][2] == ["O1"]
    for seed in range(5):
        world = s.determinize(1, seed)
        assert world.observation(0)["known"][2] == []
        assert world.observation(0)["exchange"][0]["gave"] is None
        assert world.observation(1) == s.observation(1)


# ---------------------------------------------------------------- positions from a real table

def test_a_position_keeps_what_a_black_kitsune_revealed():
    """Game.position: P0 led a Black Kitsune (blue) and P1 played O3, so P1 has no blue
    card; in the position and in every world P2 imagines, P1 holds none."""
    g = boardlab.make("kitsu", players=4)
    hand = ["B1", "B2", "O1", "White", "Katana", "B6"]
    for seed in range(6):
        s = g.position(2, seed=seed, hand=hand, leader=0, trick=["Black", "O3"])
        view = s.observation(2)
        assert view["colour_caps"][1] == [0, None]
        check_world(view, s.full_observation(), 2)
        for k in range(20):
            world = s.determinize(2, k).full_observation()
            check_world(view, world, 2)
            assert not any(colour(c) == 0 for c in world["hands"][1])


def test_a_position_with_a_forced_hidden_card():
    g = boardlab.make("kitsu", players=4)
    hand = ["B1", "B2", "O1", "White", "Katana", "B6"]
    kinds = Counter()
    for seed in range(40):
        s = g.position(2, seed=seed, hand=hand, leader=0, trick=["Black", "hidden"])
        view = s.observation(2)
        assert forced_colour(view, 1) == 0
        check_world(view, s.full_observation(), 2)
        world = s.determinize(2, seed).full_observation()
        check_world(view, world, 2)
        kinds[colour(world["trick"][1]["card"]) == 0] += 1
    assert kinds[True] and kinds[False]


def test_a_position_where_the_seat_did_not_follow_but_could_is_refused():
    g = boardlab.make("kitsu", players=4)
    with pytest.raises(ValueError, match="did not play blue after the Black Kitsune"):
        g.position(1, hand=["B1", "O2", "O1", "White", "Katana"], leader=0,
                   trick=["Black", "O3"])
