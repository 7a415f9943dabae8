"""The "How to play" panel of each game names every rule a player needs, for the configuration in
play: each fact below is taken from the game's rulebook (shared/rules/*.txt: the goal, the set-up
that matters to a player, a turn, the scoring, how it ends, the player-count variants, the solo
modes and options) and looked for in the panel's text (a regular expression, case-insensitive).
A fact of one configuration only (the Kitsu 2-player draw after each trick) is not in another's
panel."""
import re

import pytest

from boardlab.streamlit_app.games import ui_for

KITSU = [
    ("the goal: the pawn to the end of the wisdom track", r"pawn to the end of the wisdom track"),
    ("a round won; 2 rounds win the game", r"wins a round.*\*\*2 rounds\*\* wins the game"),
    ("the pawns start again each round", r"pawns go back to the\s+start"),
    ("the cards: numerals 1 to 6 and the specials", r"Numeral cards 1 to 6 in each clan colour"),
    ("a card a turn, a token with it", r"plays one card face up, and may play\s+a Power token"),
    ("numerals count for their colour", r"add their value to \*their colour's\* total"),
    ("the winner moves by the difference", r"forward by the \*\*difference\*\*"),
    ("a tie moves nobody", r"tie moves nobody"),
    ("the leader passes on", r"next player leads the next trick"),
    ("Katana", r"\*Katana\* destroys a numeral card in front of another player"),
    ("White Kitsune, two cancel", r"\*White Kitsune\* swaps the colours.*two of them cancel"),
    ("Black Kitsune", r"\*Black Kitsune\* forces the next player to play a numeral card of your"),
    ("a token after the others move 4+", r"other clan moves 4 or more spaces in one trick"),
    ("one Power token per team", r"a clan may hold only \*\*one token\*\* at a time"),
    ("a token is played once; back next round", r"played once.*come back the next round"),
    ("+3", r"\*\+3\*: adds 3 to the colour you choose"),
    ("No-advance", r"\*No-advance\*: the winner of this trick does not move"),
    ("Hidden card", r"\*Hidden card\*: your card goes face down, safe from the Katana"),
    ("Recover card", r"\*Recover card\*: take one card of the last trick's discards"),
    ("Colour inversion", r"\*Colour inversion\*: swaps the colours"),
    ("a redeal when the hands run out, pawns stay", r"shuffled and dealt again; the pawns stay"),
    ("round end: hands discarded, tokens kept", r"hands\s+are discarded, tokens held are kept"),
    ("the round's winner chooses the leader", r"clan that won chooses who leads"),
]
KITSU_PLAYERS = {
    2: [("1 against 1", r"With 2 players\*\* \(1 against 1\)"),
        ("6 cards each, a draw pile", r"6 cards each, the rest is a face-down draw pile"),
        ("no exchange", r"no\s+card exchange"),
        ("2 cards each a trick", r"until each has played \*\*2\s+cards\*\*"),
        ("the draw of 2 cards after each trick", r"After each trick each of you \*\*draws 2 "
                                                 r"cards\*\* while the draw pile lasts"),
        ("a redeal of 6 each", r"6 cards each are dealt again")],
    4: [("2 against 2", r"With 4 players\*\* \(2 against 2\)"),
        ("6 cards each", r"\(2 against 2\): 6 cards each"),
        ("the exchange with the partner", r"passes \*\*one card\*\* face down to their partner"),
        ("a trick of 4 cards", r"A trick has 4\s+cards")],
    6: [("3 against 3", r"With 6 players\*\* \(3 against 3\)"),
        ("more low cards", r"more 1s, 2s and 3s are added"),
        ("5 cards each", r"added to the deck; 5 cards\s+each"),
        ("the exchange to the left", r"one card\*\* face down to the partner on their\s+left"),
        ("a trick of 6 cards", r"A trick has 6 cards")],
}

KYUSHU = [
    ("12 rounds", r"\*\*12 rounds\*\*"),
    ("forests 2 each", r"\*\*forests\*\* 2 each"),
    ("hot springs: forests around, diagonals too", r"\*\*hot springs\*\* 1 per forest around"
                                                   r"\s+them \(diagonals too\)"),
    ("the largest town", r"largest \*\*town\*\* area 1 per square"),
    ("lakes", r"\*\*lakes\*\* 3 per square after the\s+first"),
    ("factories 2, 3 or 4", r"2 points for a\s+single factory square, 3 in a pair of two "
                            r"colours, 4 in a pair of one colour"),
    ("ties: the most Fallows", r"ties: the most Fallows"),
    ("a hand of 6", r"hand of \*\*6\*\* Map cards"),
    ("the Starting Province", r"Starting Province"),
    ("your own pick box", r"into their own \*\*pick box\*\*"),
    ("your own box: any card", r"Your own box is free \(refill it with any"),
    ("left box: a higher card", r"on your left is free if you refill it with a \*\*higher\*\*"),
    ("right box: a lower card", r"on your right with a \*\*lower\*\* card"),
    ("any box for a resource", r"any box if you discard a resource"),
    ("the last round: your own box", r"last round everyone takes the card in their own box"),
    ("placing: overlap and show", r"at least one square covering or covered\s+and at least one"
                                  r" square showing"),
    ("never cover a lake", r"never covering a lake"),
    ("a covered resource is lost", r"resource on a covered square is\s+lost"),
    ("new production squares", r"each new production square receives a resource"),
    ("terraforming", r"discard 2 resources to turn a Fallow into a lake"),
    ("a new hand after round 6", r"After round 6 everyone gets a new hand of 6"),
]
KYUSHU_TWO = [
    ("the two middle pick boxes", r"two \*\*middle pick boxes\*\* between you"),
    ("filled from the draw pile", r"filled from the draw\s+pile"),
    ("they count as the neighbours' boxes", r"counts as your left neighbour's box"),
    ("the opponent's box only for a resource", r"opponent's own box can be taken \*\*only by "
                                               r"discarding a resource\*\*"),
    ("new middle cards after round 6", r"After round 6 the two\s+middle boxes get two new cards"),
]
KYUSHU_MORE = [("a box each", r"With 3–5 players\*\* each player has a pick box")]
KYUSHU_MOST_FEWEST = [("Most/Fewest cards", r"\*\*Most/Fewest cards\*\*"),
                      ("3 points, a tie 1 each", r"scores \*\*3\*\*; a tie\s+scores 1 each")]
KYUSHU_TRAVELERS = [("travelers after round 6", r"\*\*Travelers\*\*.*after round 6"),
                    ("onto a neighbour's hot spring", r"onto a hot spring of a neighbour's map"),
                    ("1 per forest around", r"scores its owner 1 per forest around")]
KYUSHU_TRAVELERS_TWO = [("one traveler each with 2 players", r"2 players: one traveler each")]

KEYSIDE = [
    ("three years", r"three years"),
    ("keyples score the harbour's scoring tile", r"each keyple in a harbour scores that "
                                                 r"harbour's \*\*scoring tile\*\*"),
    ("buildings, gems, headlands, skill tiles, fields", r"buildings, gems, headlands, skill "
                                                        r"tiles and the forest"),
    ("a tie shares", r"tie shares the win"),
    ("6 keyples in the town, 12 on the mat", r"6 keyples in the town.*12 in the store"),
    ("dice set in secret, each value once", r"six coloured dice in secret \(each value 1–6 once"),
    ("a boat sails 1 to the die's value", r"at\s+least 1 and up to the die's value, either way"),
    ("the sailor and die land", r"sailor of that colour and your die land there"),
    ("follow with a lower or equal die", r"\*\*follow\*\*\s+with a lower or equal die"),
    ("advance the colour's track", r"\*\*advance that colour's track\*\*"),
    ("move a keyple up to 3 places", r"\*\*move a keyple\*\* \(up to 3 places"),
    ("followers move a keyple too", r"so may each follower"),
    ("or put the die on your mat", r"put the die on your mat"),
    ("resolve a harbour with your keyple", r"\*\*resolve\*\* a harbour that holds your keyple"),
    ("everyone there gains", r"everyone with a keyple there\s+gains its benefit"),
    ("by the dice total", r"by the dice total"),
    ("none to resolve: 2 resources or a track", r"take 2 stone, wood or wheat, or advance a"),
    ("harbour I: the next start player", r"resolves harbour \*\*I\*\* starts the next year"),
    ("skill tiles and fish any time", r"spend a skill tile to advance a track.*fish\s+to flip a "
                                      r"market"),
    ("markets need a keyple, flip after use", r"a keyple there lets you use them; the market "
                                              r"flips after use"),
    ("forest, quarry, wheat fields: claim, double, 3 points", r"claim one: its owner gets\s+"
                                                             r"double.*3 points at the end"),
    ("headlands", r"\*\*Headlands\*\* are built between\s+harbours with wood or stone"),
    ("a year ends when nothing is left to resolve", r"year ends when no harbour is left"),
    ("the start player marker counts as an item", r"start player marker counts as one\s+item"),
]
KEYSIDE_PLAYERS = {
    2: [("2 boats, 4 keyples a harbour", r"two boats.*room for 4 keyples")],
    3: [("3 boats, 5 keyples a harbour", r"three boats.*room for 5\s+keyples")],
    4: [("3 boats, 7 keyples a harbour", r"three boats.*room for 7\s+keyples")],
    1: [("against Keytoma", r"\*\*Solo\*\* against \*\*Keytoma\*\*"),
        ("120 points", r"\*\*120 points\*\*"),
        ("2 of 3 beacons", r"\*\*2 of your 3\s+beacons\*\*"),
        ("Keytoma lands at the flag", r"\*\*flag\*\* \(no boat, no sailor\)"),
        ("Keytoma follows on 2+ / 5+", r"roll of 2\+\s+at a flagged harbour, 5\+ elsewhere"),
        ("pirates and landslides", r"\*\*pirates\*\*.*\*\*landslides\*\*"),
        ("sailors are not replaced", r"sailors are\s+not replaced")],
}
KEYSIDE_OPTIONS = {
    "solo_all_beacons": r"all 3 beacons must be lit",
    "solo_keytoma_keyple": r"Keytoma starts with a keyple",
    "solo_landslide": r"a landslide is placed at the start",
    "solo_pirates": r"2 pirates are placed at the start",
    "first_game": r"\*\*First-game set-up:\*\*",
    "dice_strips": r"\*\*Dice strips:\*\*",
}

NUKUMI = [
    ("5 rounds, most points", r"most points after \*\*5 rounds\*\*"),
    ("a tie shares", r"tie shares the\s+win"),
    ("scoring sources", r"buildings, the Helpers you played, your Coins \(1 each\), the fun and\s+"
                        r"oishi tracks, your partner board"),
    ("the start player card's 7 points", r"start player card \(7 if you hold it face down\)"),
    ("the starting bag", r"bag holds 1 Stone, 1 Wood, 1 Networking and 1 Food"),
    ("Nukumaru placed by a die", r"die roll puts Nukumaru"),
    ("the event", r"event \(accept or decline it\)"),
    ("a Helper each round", r"everyone draws a Helper"),
    ("the draw from the bag", r"draws\s+resources from their bag"),
    ("+1 resource for the start player card", r"\+1 for the start player\s+card"),
    ("one action a turn", r"\*\*one action\*\* a turn"),
    ("each spot once a round", r"each once a round"),
    ("gold replaces any but not for moving", r"Gold stands for any resource, but not for Moving"),
    ("Add an Action: 4 Coins, 6 for a second, at most 2", r"1 resource and 4 Coins, 6 Coins for "
                                                          r"a second; at most 2"),
    ("gains go into the bag", r"Resources you gain go into your bag"),
    ("nothing carries over", r"did not use goes back into the bag"),
    ("Helpers only when an action allows", r"Helpers are played only when an\s+action lets you"),
    ("free actions", r"\*\*Free actions\*\*.*sell a resource for 1 Coin.*discard a\s+Helper or "
                     r"pay 3 Coins to move 1 square.*carriage"),
    ("Helper and 2 Coins squares", r"Helper square draws a Helper, a 2 Coins\s+square gives 2"),
    ("catching Nukumaru", r"\*\*catches\*\* it: 3 Coins and the start player\s+card"),
    ("Nukumaru moves on", r"Nukumaru moves on by a die roll"),
    ("construction: where", r"not a ribbon square, not one built on"),
    ("buildings: more resources", r"which lets you draw more resources"),
    ("the fun and oishi tracks", r"\*\*fun\*\* track gives die-roll bonuses, the\s+\*\*oishi\*\* "
                                 r"track Coins"),
]
NUKUMI_MODES = {
    "score_attack": [("Score Attack", r"\*\*Solo: Score Attack\.\*\*"),
                     ("NPCs walk 2, 3 or 4 squares", r"walks 2, 3 or 4 squares"),
                     ("NPC cubes count as built", r"\*\*cube\*\* on each\s+square.*counts as built"),
                     ("an NPC catch turns the card face up", r"catches Nukumaru turns the start "
                                                             r"player card face up"),
                     ("the titles up to 200", r"\*\*200\*\* World Famous Pioneer")],
    "chasing": [("Chasing Nukumaru", r"\*\*Solo: Chasing Nukumaru\.\*\*"),
                ("a cube on each catch", r"a cube goes on its\s+square"),
                ("all six squares clear it", r"\*\*all six\*\* Nukumaru\s+squares"),
                ("the rating by rounds", r"within 3 rounds World Best!.*Try Harder Next Time!")],
    "none": [("the plain 1-player game", r"plain game for one player")],
}
NUKUMI_ADVANCED = [("face-up Helpers and cards", r"\*\*Advanced rules:\*\* 3 Helpers and 3 "
                                                 r"additional action cards lie face up")]


def cases():
    """(game, params, facts that must be named, facts that must not) per configuration."""
    out = []
    for n, own in KITSU_PLAYERS.items():
        others = [f for m, fs in KITSU_PLAYERS.items() if m != n for f in fs
                  if not any(f[1] == g[1] for g in own)]
        out.append(("kitsu", {"players": n, "track_length": 15},
                    KITSU + own + [("the track's length", r"\(15 spaces here\)")], others))
    for n in (2, 3, 4, 5):
        for mf in (False, True):
            for trav in (False, True):
                travelers = KYUSHU_TRAVELERS + (KYUSHU_TRAVELERS_TWO if n == 2 else [])
                facts = (KYUSHU + (KYUSHU_TWO if n == 2 else KYUSHU_MORE)
                         + (KYUSHU_MOST_FEWEST if mf else []) + (travelers if trav else []))
                absent = ((KYUSHU_MORE if n == 2 else KYUSHU_TWO)
                          + ([] if mf else KYUSHU_MOST_FEWEST) + ([] if trav else travelers))
                out.append(("kyushu", {"players": n, "side": "A", "most_fewest": mf,
                                       "travelers": trav}, facts, absent))
    kys = {n: [f for m, fs in KEYSIDE_PLAYERS.items() if m != n for f in fs] for n in (1, 2, 3, 4)}
    for n in (2, 3, 4):
        for first in (False, True):
            params = {"players": n, "scoring": "black", "first_game": first, "dice_strips": False}
            out.append(("keyside", params, KEYSIDE + KEYSIDE_PLAYERS[n] + (
                [("first game", KEYSIDE_OPTIONS["first_game"])] if first else []), kys[n]))
    for opt in ("solo_all_beacons", "solo_keytoma_keyple", "solo_landslide", "solo_pirates"):
        params = {"players": 1, "scoring": "red", "dice_strips": True, opt: True}
        out.append(("keyside", params, KEYSIDE + KEYSIDE_PLAYERS[1] + [
            (opt, KEYSIDE_OPTIONS[opt]), ("dice strips", KEYSIDE_OPTIONS["dice_strips"])],
            kys[1] + [(o, r) for o, r in KEYSIDE_OPTIONS.items()
                      if o not in (opt, "dice_strips")]))
    for players in (1, 2, 4):
        for solo in (("score_attack", "chasing", "none") if players == 1 else ("none",)):
            for adv in (False, True):
                own = NUKUMI_MODES[solo] if players == 1 else []
                others = [f for m, fs in NUKUMI_MODES.items() if fs is not own for f in fs]
                out.append(("nukumi", {"players": players, "partner_side": "A",
                                       "board_side": "A", "advanced": adv, "solo": solo},
                            NUKUMI + own + (NUKUMI_ADVANCED if adv else []),
                            others + ([] if adv else NUKUMI_ADVANCED)))
    return [pytest.param(*c, id=f"{c[0]}-" + "-".join(f"{k}={v}" for k, v in c[1].items()))
            for c in out]


def find(pattern: str, text: str):
    return re.search(pattern, text, re.IGNORECASE | re.DOTALL)


@pytest.mark.parametrize("game,params,facts,absent", cases())
def test_the_panel_names_every_rule_of_its_configuration(game, params, facts, absent):
    text = ui_for(game).how_to_play(params)
    missing = [name for name, pattern in facts if not find(pattern, text)]
    assert not missing, f"{game} {params}: the panel leaves out {missing}"
    wrong = [name for name, pattern in absent if find(pattern, text)]
    assert not wrong, f"{game} {params}: the panel names rules of another configuration {wrong}"


@pytest.mark.parametrize("game,count", [("kitsu", 3), ("kyushu", 2), ("keyside", 4),
                                        ("nukumi", 2)])
def test_the_panel_without_a_configuration_names_every_variant(game, count):
    """Outside a game (no configuration) the panel names every player count and option."""
    text = ui_for(game).how_to_play()
    variants = {"kitsu": [r"With 2 players", r"With 4 players", r"With 6 players"],
                "kyushu": [r"With 2 players", r"With 3–5 players", r"Most/Fewest", r"Travelers"],
                "keyside": [r"With 2 players", r"With 3 players", r"With 4 players", r"Keytoma",
                            r"First-game set-up", r"Dice strips"],
                "nukumi": [r"Score Attack", r"Chasing Nukumaru", r"Advanced rules"]}[game]
    assert len(variants) >= count
    assert [v for v in variants if not find(v, text)] == []
    assert "{" not in text and "}" not in text          # every slot of the template filled
