"""Scenario tests: one or more per rule and clarification of shared/rules/kitsu.txt."""
import hashlib
from collections import Counter

import numpy as np
import pytest

import boardlab
from kitsu_table import hand, names, play, table

# 2p hands used by most scenarios; the draw pile then holds
# B1 B2 B4 B5 B6 O1 O1 O2 O4 O5 White Katana.
P0 = ["B1", "B1", "B2", "B3", "Black", "Katana"]
P1 = ["O6", "O3", "O1", "O2", "White", "Black"]

# 4p hands (whole deck); each gives its last card: after the exchange
# P0 = B2 B1 B1 White Black O4, P1 = O3 O1 O1 B6 Katana O2,
# P2 = B4 B3 B5 White Katana O1, P3 = O5 O6 B1 B2 Black O2.
H4 = {0: ["B2", "B1", "B1", "White", "Black", "O1"],
      1: ["O3", "O1", "O1", "B6", "Katana", "O2"],
      2: ["B4", "B3", "B5", "White", "Katana", "O4"],
      3: ["O5", "O6", "B1", "B2", "Black", "O2"]}


BLUE = {f"B{v}" for v in range(1, 7)}


def two_player(track_length=15, p0=P0, p1=P1):
    return table(2, {0: p0, 1: p1}, track_length=track_length)


def obs(s, seat=None):
    return s.full_observation() if seat is None else s.observation(seat)


def blue_gains_token(token, track_length=15):
    """2p: Orange advances 6 on the first trick, so Blue (P0) takes `token`."""
    s = play(two_player(track_length), "play B1", "play O6", "play B1", "play O2")
    assert obs(s)["pawns"] == [0, 6]
    assert s.current_player == 0 and obs(s)["phase"] == "token_pick"
    return play(s, f"take {token}")


def refill(s, p1_cards, p0_cards):
    """2p refill: the new leader (P1 after the first trick) draws first."""
    for card in p1_cards:
        s.apply_string(f"draw {card} to P1")
    for card in p0_cards:
        s.apply_string(f"draw {card} to P0")
    return s


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players,deck,b1", [(2, 24, 3), (4, 24, 3), (6, 30, 4)])
def test_deck_follows_the_distribution_table(players, deck, b1):
    s = boardlab.make("kitsu", players=players).new_initial_state()
    s.apply_string("first leader P0")
    assert obs(s)["stock_size"] == deck
    probs = dict((s.action_to_string(a), p) for a, p in s.chance_outcomes())
    assert probs["deal B1 to P0"] == pytest.approx(b1 / deck)
    assert probs["deal Katana to P0"] == pytest.approx(2 / deck)


def test_first_leader_is_drawn_at_random():
    s = boardlab.make("kitsu", players=4).new_initial_state()
    assert s.is_chance()
    assert [p for _, p in s.chance_outcomes()] == pytest.approx([0.25] * 4)


@pytest.mark.parametrize("players,size,next_phase", [(2, 6, "play"), (4, 6, "exchange"), (6, 5, "exchange")])
def test_dealing(players, size, next_phase):
    s = boardlab.make("kitsu", players=players, seed=3).new_initial_state()
    rng = np.random.default_rng(1)
    while s.is_chance():
        acts, probs = zip(*s.chance_outcomes())
        s.apply(int(rng.choice(acts, p=probs)))
    o = obs(s)
    assert o["hand_sizes"] == [size] * players
    assert o["phase"] == next_phase
    assert o["stock_size"] == (12 if players == 2 else 0)


def test_two_player_has_no_exchange_and_a_draw_pile():
    s = two_player()
    assert obs(s)["phase"] == "play" and obs(s)["stock_size"] == 12
    assert hand(s, 0) == sorted(P0) and hand(s, 1) == sorted(P1)


def test_four_player_exchange_is_hidden_and_with_the_partner_opposite():
    game = boardlab.make("kitsu", players=4)
    s = game.new_initial_state()
    s.apply_string("first leader P0")
    for i in range(24):
        seat = i % 4
        s.apply_string(f"deal {H4[seat][i // 4]} to P{seat}")
    play(s, "give O1")
    # P2 cannot see what P0 put down; P0 can.
    assert obs(s, 2)["exchange"][0] == {"put_down": True, "card": None, "gave": None, "received": None}
    assert obs(s, 0)["exchange"][0]["card"] == "O1"
    play(s, "give O2", "give O4", "give O2")
    assert obs(s)["phase"] == "play"
    assert hand(s, 0) == sorted(["B2", "B1", "B1", "White", "Black", "O4"])
    assert hand(s, 2) == sorted(["B4", "B3", "B5", "White", "Katana", "O1"])
    o0 = obs(s, 0)
    assert o0["exchange"][0]["gave"] == "O1" and o0["exchange"][0]["received"] == "O4"
    assert o0["known"][2] == ["O1"]                 # the giver remembers
    assert obs(s, 1)["known"][2] == []              # an opponent does not
    assert obs(s, 1)["exchange"][0]["gave"] is None


def test_six_player_exchange_goes_to_the_partner_on_the_left():
    deck30 = (["B1"] * 4 + ["B2"] * 3 + ["B3"] * 2 + ["B4", "B5", "B6"]
              + ["O1"] * 4 + ["O2"] * 3 + ["O3"] * 2 + ["O4", "O5", "O6"]
              + ["White"] * 2 + ["Black"] * 2 + ["Katana"] * 2)
    hands = {seat: deck30[seat * 5:(seat + 1) * 5] for seat in range(6)}
    gives = {seat: hands[seat][0] for seat in range(6)}
    s = table(6, hands, gives=gives)
    for seat in range(6):
        target = (seat + 2) % 6
        assert obs(s, seat)["known"][target] == [gives[seat]]
        expected = Counter(hands[target]) - Counter([gives[target]]) + Counter([gives[seat]])
        assert Counter(hand(s, target)) == expected


# ---------------------------------------------------------------- tricks

def test_two_player_tricks_alternate_until_each_has_two_cards():
    s = two_player()
    seats = []
    for move in ("play B1", "play O6", "play B2", "play O1"):
        seats.append(s.current_player)
        s.apply_string(move)
    assert seats == [0, 1, 0, 1]
    assert obs(s)["trick"] == [] and obs(s)["tricks"] == 1


def test_two_player_refill_two_cards_each_while_the_pile_lasts():
    s = play(two_player(), "play B1", "play O3", "play B2", "play O1")  # 3 v 4: orange +1
    assert s.is_chance() and obs(s)["stock_size"] == 12
    refill(s, ["B5", "B6"], ["O4", "O5"])
    o = obs(s)
    assert o["hand_sizes"] == [6, 6] and o["stock_size"] == 8
    assert o["leader"] == 1 and s.current_player == 1  # the Leader token passed clockwise


def test_rulebook_example_blue_6_orange_8_orange_moves_2():
    s = play(table(4, H4), "play B2", "play O3", "play B4", "play O5")
    assert obs(s)["pawns"] == [0, 2]
    assert obs(s)["last_trick"]["winner"] == "orange" and obs(s)["last_trick"]["moved"] == 2


def test_six_player_trick_has_six_cards():
    deck30 = (["B1"] * 4 + ["B2"] * 3 + ["B3"] * 2 + ["B4", "B5", "B6"]
              + ["O1"] * 4 + ["O2"] * 3 + ["O3"] * 2 + ["O4", "O5", "O6"]
              + ["White"] * 2 + ["Black"] * 2 + ["Katana"] * 2)
    hands = {seat: deck30[seat::6][:5] for seat in range(6)}
    s = table(6, hands)
    for k in range(5):
        assert len(obs(s)["trick"]) == k
        s.apply(int(s.legal_actions()[0]))
    assert len(obs(s)["trick"]) == 5
    s.apply(int(s.legal_actions()[0]))
    assert obs(s)["tricks"] == 1


def test_a_tie_moves_nobody():
    s = play(two_player(), "play B3", "play O3", "play B1", "play O1")
    assert obs(s)["pawns"] == [0, 0] and obs(s)["last_trick"]["winner"] is None


# ---------------------------------------------------------------- special cards

def test_katana_destroys_a_numeral_card_of_another_person():
    s = play(table(4, H4), "play B1", "play Katana")
    assert obs(s)["phase"] == "katana" and s.current_player == 1
    assert names(s) == ["katana #1 P0 B1"]           # never its own card
    play(s, "katana #1 P0 B1", "play B3", "play O2")  # blue 3 (B1 destroyed) v orange 2
    assert obs(s)["pawns"] == [1, 0]
    assert obs(s)["last_trick"]["cards"][0]["destroyed"] is True


def test_katana_may_destroy_a_partners_card():
    s = play(table(4, H4), "play O4", "play O1", "play Katana")
    assert names(s) == ["katana #1 P0 O4", "katana #2 P1 O1"]


def test_katana_with_no_numeral_card_in_play_has_no_effect():
    s = play(table(4, H4), "play B2", "play O3", "play B4", "play O5")  # P1 leads next
    play(s, "play Katana")
    assert obs(s)["phase"] == "play" and s.current_player == 2


def test_white_kitsune_inverts_the_colours():
    s = play(table(4, H4), "play White", "play O3", "play B4", "play O5")
    assert obs(s)["pawns"] == [4, 0]   # O3+O5 count blue (8) against B4 orange (4)


def test_two_white_kitsunes_cancel():
    s = play(table(4, H4), "play White", "play O3", "play White", "play O5")
    assert obs(s)["pawns"] == [0, 8]


def test_black_kitsune_forces_the_next_person_to_play_its_clan_colour():
    s = play(table(4, H4), "play Black")
    assert obs(s)["forced"] == {"seat": 1, "colour": "blue"}
    assert names(s) == ["play B6"]


def test_black_kitsune_without_that_colour_allows_anything_and_reveals_the_void():
    p1 = ["O3", "O4", "O5", "O6", "White", "Katana"]
    p0 = ["Black", "B1", "B2", "B3", "O1", "O2"]
    s = play(two_player(p0=p0, p1=p1), "play Black")
    assert names(s) == ["play O3", "play O4", "play O5", "play O6", "play White", "play Katana"]
    play(s, "play O3")
    assert obs(s, 0)["colour_caps"][1] == [0, None]
    # No world the AI imagines gives P1 a blue card now.
    for seed in range(30):
        assert not any(c in BLUE for c in s.determinize(0, seed).full_observation()["hands"][1])


def test_black_kitsune_as_last_card_of_a_trick_lapses():
    s = blue_gains_token("no-advance")
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O1", "play B5", "play O1", "play Black")   # P1 leads, P0 plays 4th
    assert obs(s)["forced"] is None and obs(s)["trick"] == []


# ---------------------------------------------------------------- power tokens

def test_an_advance_of_three_gives_no_token():
    s = play(two_player(), "play B1", "play O6", "play B2", "play Black")  # 3 v 6
    assert obs(s)["pawns"] == [0, 3]
    assert s.is_chance()  # straight on to the refill: no token decision


def test_an_advance_of_four_gives_the_other_clan_a_token():
    s = play(two_player(), "play B1", "play O6", "play B1", "play Black")  # 2 v 6
    assert obs(s)["pawns"] == [0, 4]
    assert s.current_player == 0
    assert names(s) == ["take +3", "take no-advance", "take hidden", "take recover", "take invert"]
    play(s, "take hidden")
    assert obs(s)["tokens"]["hidden"]["holder"] == 0


def test_the_clan_chooses_which_member_receives_the_token():
    s = play(table(4, H4), "play B1", "play O3", "play B3", "play O6")  # 4 v 9: orange +5
    assert s.current_player == 0 and obs(s)["phase"] == "token_pick"
    play(s, "take +3")
    assert names(s) == ["token to P0", "token to P2"]
    play(s, "token to P2")
    assert obs(s)["tokens"]["+3"]["holder"] == 2


def test_a_team_holds_at_most_one_token():
    s = blue_gains_token("+3")
    refill(s, ["O5", "O4"], ["B5", "B6"])
    play(s, "play O5", "play B2", "play O4", "play B3")   # orange 9 v blue 5: +4
    assert obs(s)["pawns"] == [0, 10]
    assert s.is_chance()      # Blue already holds a token: nothing to take


def test_plus3_token_adds_to_the_chosen_side():
    s = blue_gains_token("+3")
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O3", "play B5 with +3")
    assert obs(s)["phase"] == "plus3_side" and names(s) == ["+3 to blue", "+3 to orange"]
    play(s, "+3 to blue", "play O1", "play B6")
    assert obs(s)["pawns"] == [10, 6]   # 5+6+3 = 14 v 3+1 = 4
    assert obs(s)["tokens"]["+3"] == {"holder": None, "used": True, "in_trick": False}


def test_plus3_token_is_inverted_by_white_kitsune():
    s = blue_gains_token("+3", track_length=30)
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O3", "play B5 with +3", "+3 to blue", "play White", "play B6")
    assert obs(s)["pawns"] == [0, 6 + 11]  # orange: B5+B6+3 = 14, blue: O3 = 3


def test_no_advance_token_stops_the_winner():
    s = blue_gains_token("no-advance")
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O1", "play B5 with no-advance", "play O1", "play B6")
    assert obs(s)["pawns"] == [0, 6]


def test_hidden_card_token_plays_face_down_and_is_immune_to_katana():
    s = blue_gains_token("hidden")
    refill(s, ["Katana", "O1"], ["B5", "B6"])
    play(s, "play O3")
    assert "play Katana with hidden" not in names(s) and "play Black with hidden" not in names(s)
    play(s, "play B3 with hidden")
    assert obs(s, 1)["trick"][1] == {"seat": 0, "card": None, "hidden": True, "destroyed": False}
    assert obs(s, 0)["trick"][1]["card"] == "B3"
    play(s, "play Katana")               # O3 is its own, B3 is hidden: no target
    assert s.current_player == 0 and obs(s)["phase"] == "play"
    play(s, "play B2")
    assert obs(s)["last_trick"]["cards"][1]["card"] == "B3"   # revealed
    assert obs(s)["pawns"] == [2, 6]     # 3+2 v 3


def test_recover_card_token_takes_a_card_of_the_last_trick():
    s = blue_gains_token("recover")
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O3", "play B2 with recover")
    assert names(s) == ["recover B1", "recover O2", "recover O6"]
    play(s, "recover O6")
    assert obs(s)["hand_sizes"] == [6, 5]
    assert obs(s, 1)["known"][0] == ["O6"]     # taken in the open
    assert "O6" not in obs(s)["discard"]


def test_recover_card_is_not_offered_on_the_first_trick_of_a_deal():
    # Orange reaches the end of a 6-space track; Blue still takes a token.
    s = play(two_player(track_length=6), "play B1", "play O6", "play B1", "play O2")
    play(s, "take recover")
    o = obs(s)
    assert o["rounds_won"] == [0, 1] and o["pawns"] == [0, 0] and o["round"] == 2
    assert o["tokens"]["recover"]["holder"] == 0          # kept between rounds
    assert o["leader"] == 1 and o["stock_size"] == 24     # the winner leads the next round
    rng = np.random.default_rng(0)
    while s.is_chance():
        acts, probs = zip(*s.chance_outcomes())
        s.apply(int(rng.choice(acts, p=probs)))
    s.apply(int(s.legal_actions()[0]))                    # P1 leads
    assert not any("with recover" in n for n in names(s))


def test_recovered_extra_card_is_discarded_when_the_others_run_out():
    s = blue_gains_token("recover", track_length=100)
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O3", "play B2 with recover", "recover O6", "play O1", "play B3")
    rng = np.random.default_rng(5)
    while obs(s)["deal"] == 1:
        o = obs(s)
        if o["phase"] == "play" and not o["trick"]:
            assert o["hand_sizes"][1] > 0, "P1 ran out but the deal went on"
            assert o["hand_sizes"][0] == o["hand_sizes"][1] + 1    # the extra card
        if s.is_chance():
            acts, probs = zip(*s.chance_outcomes())
            s.apply(int(rng.choice(acts, p=probs)))
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    o = obs(s)
    assert o["stock_size"] == 24 and o["discard"] == []   # the extra card went back with the rest


def test_colour_inversion_token():
    s = blue_gains_token("invert")
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O3", "play B5 with invert", "play O1", "play B6")
    assert obs(s)["pawns"] == [0, 6 + 7]   # B5+B6 count orange (11) v O3+O1 blue (4)


def test_colour_inversion_token_cancels_with_white_kitsune():
    s = blue_gains_token("invert")
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O3", "play B5 with invert", "play White", "play B6")
    assert obs(s)["pawns"] == [8, 6]       # no inversion: blue 11 v orange 3


def test_used_tokens_return_next_round_and_held_tokens_stay():
    s = blue_gains_token("+3", track_length=12)
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O3", "play B5 with +3", "+3 to orange", "play O1", "play B6")  # orange 3+1+3 v 11
    assert obs(s)["tokens"]["+3"]["used"] is True
    assert obs(s)["pawns"] == [4, 6]
    # Blue moved 4: Orange takes a token, but not the +3, used this round.
    assert obs(s)["phase"] == "token_pick" and s.current_player == 1
    assert "take +3" not in names(s)       # used this round
    play(s, "take invert")
    rng = np.random.default_rng(2)
    while obs(s)["round"] == 1:
        if s.is_chance():
            acts, probs = zip(*s.chance_outcomes())
            s.apply(int(rng.choice(acts, p=probs)))
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    o = obs(s)                                             # round 2 has begun
    assert o["tokens"]["+3"]["used"] is False              # back under the board
    assert o["tokens"]["invert"]["holder"] in (1, None)    # kept, unless played in round 1
    assert o["pawns"] == [0, 0]


# ---------------------------------------------------------------- what a seat knows

def test_determinize_keeps_the_exchanged_card_with_the_partner_and_varies_the_rest():
    s = table(4, H4)
    worlds = set()
    for seed in range(40):
        d = s.determinize(0, seed)
        full = d.full_observation()
        assert "O1" in full["hands"][2]                 # P0 gave O1 to P2
        assert sorted(full["hands"][0]) == hand(s, 0)  # P0's own hand never changes
        assert d.observation(0) == s.observation(0)
        worlds.add(tuple(tuple(sorted(h)) for h in full["hands"]))
    assert len(worlds) > 20


def test_determinize_never_hides_a_katana_or_black_kitsune():
    s = blue_gains_token("hidden")
    refill(s, ["O1", "O1"], ["B5", "B6"])
    play(s, "play O3", "play B3 with hidden")
    seen = set()
    for seed in range(60):
        card = s.determinize(1, seed).full_observation()["trick"][1]["card"]
        assert card not in ("Katana", "Black")
        seen.add(card)
    assert len(seen) > 2


# ---------------------------------------------------------------- deals, rounds, game

def _random_until(s, stop, seed=0):
    rng = np.random.default_rng(seed)
    while not stop(s):
        if s.is_chance():
            acts, probs = zip(*s.chance_outcomes())
            s.apply(int(rng.choice(acts, p=probs)))
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    return s


@pytest.mark.parametrize("players", [2, 4, 6])
def test_running_out_of_cards_redeals_everything(players):
    s = boardlab.make("kitsu", players=players, track_length=100).new_initial_state()
    _random_until(s, lambda s: obs(s)["deal"] == 1 and obs(s)["phase"] == "play")
    pawns = obs(s)["pawns"]
    _random_until(s, lambda s: obs(s)["deal"] == 2)
    o = obs(s)
    assert o["phase"] == "deal" and o["stock_size"] == (30 if players == 6 else 24)
    assert o["discard"] == [] and o["round"] == 1 and o["pawns"] >= [0, 0]
    assert o["pawns"][0] >= pawns[0] and o["pawns"][1] >= pawns[1]
    _random_until(s, lambda s: not s.is_chance())
    assert obs(s)["phase"] == ("play" if players == 2 else "exchange")
    if players == 2:
        assert obs(s)["hand_sizes"] == [6, 6] and obs(s)["stock_size"] == 12


def test_round_end_in_four_players_the_winners_choose_the_next_leader():
    s = play(table(4, H4, track_length=5), "play B1", "play O3", "play B3", "play O6")  # orange +5
    play(s, "take +3", "token to P2")            # Blue takes a token on the round's last trick
    o = obs(s)
    assert o["rounds_won"] == [0, 1] and o["phase"] == "round_leader" and s.current_player == 1
    assert names(s) == ["leader P1", "leader P3"]
    assert o["hand_sizes"] == [0, 0, 0, 0]       # remaining hands discarded
    play(s, "leader P3")
    o = obs(s)
    assert o["leader"] == 3 and o["pawns"] == [0, 0] and o["tokens"]["+3"]["holder"] == 2


def test_game_ends_when_a_clan_wins_a_second_round():
    s = play(two_player(track_length=6), "play B1", "play O6", "play B1", "play O2", "take hidden")
    assert s.is_chance() and obs(s)["leader"] == 1
    p1 = ["O6", "O5", "O1", "O1", "O2", "O2"]
    p0 = ["B1", "B1", "B1", "B2", "B2", "B3"]
    for a, b in zip(p1, p0):
        s.apply_string(f"deal {a} to P1")
        s.apply_string(f"deal {b} to P0")
    play(s, "play O6", "play B1", "play O5", "play B1")      # orange +9
    assert s.is_terminal()
    assert obs(s)["winner"] == "orange" and obs(s)["rounds_won"] == [0, 2]
    assert list(s.returns()) == [-1.0, 1.0]


def test_four_player_returns_are_team_returns():
    s = boardlab.make("kitsu", players=4, track_length=4).new_initial_state()
    _random_until(s, lambda s: s.is_terminal(), seed=9)
    r = s.returns()
    assert r[0] == r[2] and r[1] == r[3] and r[0] == -r[1]


# ---------------------------------------------------------------- conservation, golden

@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_card_is_somewhere_exactly_once(players):
    s = boardlab.make("kitsu", players=players).new_initial_state()
    rng = np.random.default_rng(players)
    total = 30 if players == 6 else 24
    while not s.is_terminal():
        o = obs(s)
        if o["phase"] != "round_leader":
            where = (sum(len(h) for h in o["hands"]) + len(o["stock"]) + len(o["discard"])
                     + len(o["trick"]) + sum(e["put_down"] for e in o["exchange"]))
            assert where == total, o
        if s.is_chance():
            acts, probs = zip(*s.chance_outcomes())
            s.apply(int(rng.choice(acts, p=probs)))
        else:
            s.apply(int(rng.choice(s.legal_actions())))


def test_golden_playthrough():
    """A fixed-seed game: catches any change of behaviour in the kernel."""
    s = boardlab.make("kitsu", players=4).new_initial_state()
    rng = np.random.default_rng(2026)
    while not s.is_terminal():
        if s.is_chance():
            acts, probs = zip(*s.chance_outcomes())
            s.apply(int(rng.choice(acts, p=probs)))
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    moves = s.to_record()["moves"]
    digest = hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]
    assert (len(moves), [float(r) for r in s.returns()], digest) == GOLDEN


GOLDEN = (258, [-1.0, 1.0, -1.0, 1.0], "478bc4c4152ea2a8")


# ---------------------------------------------------------------- a position from one seat's knowledge

def test_position_from_what_a_seat_knows():
    g = boardlab.make("kitsu", players=4)
    s = g.position(1, seed=3, hand=["O3", "O1", "B6", "Katana", "O2"], leader=0, trick=["B2"],
                   discard=["B1", "O1", "B4", "O5"], last_trick=["B1", "O1", "B4", "O5"],
                   pawns=[3, 5], rounds_won=[1, 0], tokens={"+3": 0, "hidden": "used"},
                   known={3: ["O2"]})
    o = s.observation(1)
    assert s.current_player == 1 and o["pawns"] == [3, 5] and o["rounds_won"] == [1, 0]
    assert sorted(o["hands"][1]) == sorted(["O3", "O1", "B6", "Katana", "O2"])
    assert o["hand_sizes"] == [4, 5, 5, 5] and o["known"][3] == ["O2"]
    assert o["tokens"]["+3"]["holder"] == 0 and o["tokens"]["hidden"]["used"]
    assert "O2" in s.full_observation()["hands"][3]
    # The rest really is random, and search from the seat works on it.
    others = {tuple(g.position(1, seed=k, **s._position["facts"]).full_observation()["hands"][2])
              for k in range(10)}
    assert len(others) > 1
    s.apply(int(s.legal_actions()[0]))
    assert boardlab.replay(s.to_record()) == s


def test_position_carries_black_kitsune_and_hidden_cards():
    g = boardlab.make("kitsu", players=2)
    s = g.position(0, hand=["B1", "B2", "O3", "White"], leader=1, trick=["Black"],
                   discard=["O1", "O2", "B4", "B5"])
    assert names(s) == ["play O3"]            # forced to play orange
    s = g.position(0, hand=["B1", "B2", "O3", "White"], leader=1, trick=["O6", "B1", "hidden"],
                   discard=["O1", "O2", "B4", "B5"])
    assert s.observation(0)["trick"][2] == {"seat": 1, "card": None, "hidden": True, "destroyed": False}
    assert s.observation(0)["tokens"]["hidden"]["used"] is True


@pytest.mark.parametrize("facts,message", [
    (dict(hand=["O3"] * 5, leader=0), "more O3 than the deck has"),
    (dict(hand=["O3"], leader=9), "leader must be"),
    (dict(hand=["O3"], leader=0, trick=["B2 with +3"]), "needs a side"),
    (dict(hand=["X1"], leader=0), "unknown card 'X1'"),
    (dict(hand=["O3"], leader=0, colour=1), "unknown kitsu position fact"),
    (dict(hand=["O3"], leader=0), "unaccounted for"),
    (dict(leader=0), "needs 'hand'"),
    (dict(hand=["O3"], leader=0, trick=["Katana with hidden"]), "cannot be played face down"),
    (dict(hand=["O3"], leader=0, pawns=[15, 0]), "pawns"),
    (dict(hand=["O3"], leader=0, tokens={"+3": 0, "invert": 2}), "two tokens"),
])
def test_position_rejects_inconsistent_facts(facts, message):
    with pytest.raises(ValueError, match=message):
        boardlab.make("kitsu", players=4).position(1, **facts)
