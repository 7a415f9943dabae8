"""Kitsu in words: the tooltips of the cards, power tokens, pawns and track, the text of the
decision buttons and the "How to play" panel.

What a card is (its colour, value, copies in the deck) and the track's length come from the
game's data file (``data/kitsu.json``, the file the kernel's deck is built from) and from the
observation; a stand-in edited there changes the text here. What a special card or a token
does is the rulebook's wording (docs/kitsu.md).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from .. import board_component as bc

CLAN = {"B": "Blue", "O": "Orange", "blue": "Blue", "orange": "Orange"}
OTHER = {"Blue": "Orange", "Orange": "Blue"}
SPECIAL_NAME = {"White": "White Kitsune", "Black": "Black Kitsune", "Katana": "Katana"}
SPECIAL_EFFECT = {
    "Katana": "destroys a face-up numeral card (1–6) in front of another player in this "
              "trick: it is turned face down and does not count (no effect if there is none)",
    "White": "inverts the colours of the numeral cards for this trick: Blue cards count for "
             "Orange and Orange for Blue (two White Kitsunes cancel out, as do a White Kitsune "
             "and the Colour-inversion token)",
    "Black": "obliges the next player to play a numeral card of the colour of your clan if "
             "they have one",
}
TOKEN_NAME = {"+3": "+3 token", "no-advance": "No-advance token", "hidden": "Hidden-card token",
              "recover": "Recover-card token", "invert": "Colour-inversion token"}
TOKEN_EFFECT = {
    "+3": "played with a card: you choose a clan and it adds 3 to that colour's total in this "
          "trick (a colour inversion turns it too)",
    "no-advance": "played with a card: whoever wins this trick does not move forward",
    "hidden": "played with a card: the card goes face down, safe from the Katana, and is "
              "revealed when the trick ends (not with a Katana or a Black Kitsune)",
    "recover": "played with a card: take one card of the last trick back into your hand "
               "(you then hold one card more than the others)",
    "invert": "played with a card: the colours of the numeral cards are inverted for this "
              "trick (it cancels a White Kitsune and vice versa)",
}
TOKEN_GAIN = ("A clan receives a power token when the other clan moves 4 or more spaces in one "
              "trick (one token per clan at a time); it is used once, then back next round.")


@lru_cache(maxsize=1)
def game_data() -> dict:
    """The component data the kernel's deck is built from (boardlab/data/kitsu.json)."""
    return json.loads(resources.files("boardlab").joinpath("data/kitsu.json").read_text())


def card_name(card: str) -> str:
    """"Blue 3", "White Kitsune", "Katana"."""
    if is_numeral(card):
        return f"{CLAN[card[0]]} {card[1:]}"
    return SPECIAL_NAME.get(card, card)


def is_numeral(card) -> bool:
    return isinstance(card, str) and len(card) >= 2 and card[0] in "BO" and card[1:].isdigit()


def copies(card: str, players: int, data: dict | None = None) -> int | None:
    """How many copies of ``card`` the deck holds with ``players`` players (None: unknown)."""
    data = data or game_data()
    dist = data["card_distribution"]
    if is_numeral(card):
        per = dist["numerals_per_colour"].get(str(players))
        value = int(card[1:])
        return per[value - 1] if per and 1 <= value <= len(per) else None
    return dist["specials"].get(card)


def card_effect(card: str) -> str:
    """What a card does when played, in a phrase."""
    if is_numeral(card):
        clan = CLAN[card[0]]
        return (f"adds {card[1:]} to {clan}'s total in the trick (to {OTHER[clan]}'s if the "
                "colours are inverted)")
    return SPECIAL_EFFECT.get(card, "a special card")


def card_tip(card: str, players: int = 4, data: dict | None = None) -> str:
    """The tooltip of a card: what it is, what it does when played, its copies in the deck."""
    data = data or game_data()
    if card not in data["card_types"]:
        return f"{card}: not a card of this game"
    n = copies(card, players, data)
    deck = (f" {n} {'copy' if n == 1 else 'copies'} in the deck with {players} players."
            if n is not None else "")
    if is_numeral(card):
        return (f"{card_name(card)}: a numeral card, {card_effect(card)}; the higher total wins "
                f"the trick and moves forward by the difference.{deck}")
    return f"{card_name(card)}: a special card, {card_effect(card)}; it counts for neither colour.{deck}"


def token_tip(name: str, tok: dict | None = None, seat_name=None) -> str:
    """A power token: what it does and where it is now (``tok``: the observation's entry)."""
    text = f"{TOKEN_NAME.get(name, name)}: {TOKEN_EFFECT.get(name, 'a power token')}."
    if tok:
        who = seat_name or (lambda s: f"P{s}")
        if tok.get("in_trick"):
            text += " Played in this trick."
        elif tok.get("used"):
            text += " Used this round: back at the next round."
        elif tok.get("holder") is not None:
            text += f" Held by {who(tok['holder'])}."
        else:
            text += " Available: " + TOKEN_GAIN[0].lower() + TOKEN_GAIN[1:]
    return text


def track_tip(track_length: int, data: dict | None = None) -> str:
    """The wisdom track: its length (a stand-in if the data file says so) and how it is run."""
    data = data or game_data()
    info = data.get("track_length", {})
    text = (f"Wisdom track: {track_length} spaces from the start to absolute wisdom (★). The "
            "clan that wins a trick moves its pawn forward by the difference of the two colours' "
            "totals; the first pawn to reach ★ wins the round, and two rounds win the game.")
    if info.get("stand_in") and track_length == info.get("default"):
        text += f" The length {track_length} is a stand-in: the rulebook gives no number."
    return text


def pawn_tip(clan: int, pos: int, track_length: int, before: int | None = None) -> str:
    name = ("Blue", "Orange")[clan]
    left = track_length - pos
    text = (f"{name} pawn on space {pos} of {track_length}: "
            + (f"{left} space{'s' if left != 1 else ''} to absolute wisdom." if left > 0
               else "it reached absolute wisdom."))
    if before is not None and before != pos:
        moved = pos - before
        text += (f" Moved {moved:+d} since your last decision." if moved > 0 else
                 " Back at the start for a new round since your last decision.")
    return text


def rounds_tip(rounds_won) -> str:
    b, o = rounds_won
    return (f"Rounds won: Blue {b}, Orange {o}. A round ends when a pawn reaches absolute "
            "wisdom; the first clan to win 2 rounds wins the game.")


def seat_tip(obs: dict, seat: int, viewer=None) -> str:
    """A seat at the table: clan, relation to the viewer, hand size, leader, token."""
    clan = CLAN[obs["clans"][seat]]
    rel = relation_text(seat, viewer, obs["clans"])
    bits = [f"P{seat}, {clan} clan" + (f" ({rel})" if rel else "")]
    size = obs["hand_sizes"][seat]
    bits.append(f"{size} card{'s' if size != 1 else ''} in hand")
    if obs.get("leader") == seat:
        bits.append("holds the Leader token: leads this trick")
    for name, tok in obs["tokens"].items():
        if tok.get("holder") == seat:
            bits.append(f"holds the {TOKEN_NAME.get(name, name)}")
    known = (obs.get("known") or [[]] * obs["players"])[seat] if obs["hands"][seat] is None else []
    if known:
        knower = "you know" if viewer is None or bc.viewer_word() == "you" else f"P{viewer} knows"
        bits.append(f"{knower} it holds " + ", ".join(card_name(c) for c in known))
    if seat == obs.get("current_player"):
        bits.append("to move")
    return "; ".join(bits) + "."


def relation_text(seat: int, viewer, clans) -> str:
    """Whose a seat is, from the seat the board is seen from: "you", "your partner",
    "opponent"; "view", "partner" when that seat is not the person's (an AI seat seen on
    Analyse: bc.viewer_word)."""
    if viewer is None or viewer < 0:
        return ""
    you = bc.viewer_word() == "you"
    if seat == viewer:
        return "you" if you else "view"
    if clans[seat] == clans[viewer]:
        return "your partner" if you else "partner"
    return "opponent"


def trick_card_tip(entry: dict, i: int, obs: dict, viewer=None) -> str:
    """A card of the current trick: whose it is, what became of it, what it does."""
    seat = entry["seat"]
    rel = relation_text(seat, viewer, obs["clans"])
    who = f"P{seat}" + (f" ({rel})" if rel else "")
    card = entry.get("card")
    if card is None:
        return (f"Card {i + 1} of the trick, played face down by {who} under the Hidden-card "
                "token: safe from the Katana, revealed when the trick ends.")
    text = f"Card {i + 1} of the trick, played by {who}"
    if entry.get("destroyed"):
        text += "; destroyed by a Katana, it does not count"
    elif entry.get("hidden"):
        text += ", face down under the Hidden-card token"
    return f"{text}. {card_tip(card, obs['players'])}"


def last_trick_tip(entry: dict, last: dict, obs: dict) -> str:
    card = entry.get("card")
    seat = entry.get("seat")
    who = f" played by P{seat}" if seat is not None else ""
    res = (f"{CLAN.get(last.get('winner'), last.get('winner'))} won it and moved "
           f"{last.get('moved', 0)}" if last.get("winner") else "a tie: nobody moved")
    what = card_tip(card, obs["players"]) if card else "a card"
    return (f"Last trick{who} ({res}): {what}"
            + (" Destroyed by a Katana." if entry.get("destroyed") else "")
            + " The Recover-card token takes a card back from here.")


def pile_tip(obs: dict) -> str:
    text = (f"{len(obs['discard'])} cards in the discard pile (seen face up, not to be looked "
            "through).")
    if obs["players"] == 2:
        text += (f" Draw pile: {obs['stock_size']} cards; after each trick both players draw 2 "
                 "while it lasts.")
    text += " When a player runs out of cards before the round ends, every card is dealt again."
    return text


# ----------------------------------------------------------------------------------------------
# Decisions: the button text naming the effect, and its tooltip
# ----------------------------------------------------------------------------------------------
def decision_label(name: str, obs: dict | None = None, seat=None) -> str:
    """The words of a decision (``name``: its notation; ``obs``: the mover's observation)."""
    clans = (obs or {}).get("clans")
    m = re.fullmatch(r"play (\S+)(?: with (\S+))?", name)
    if m:
        card, token = m.groups()
        text = f"Play {card_name(card)}"
        if token == "hidden":
            return text + " face down with the Hidden-card token"
        if token:
            return text + f" with the {TOKEN_NAME.get(token, token)}"
        if not is_numeral(card):
            return text + f" ({short_effect(card)})"
        return text
    m = re.fullmatch(r"give (\S+)", name)
    if m:
        return f"Give {card_name(m.group(1))} to your partner"
    m = re.fullmatch(r"\+3 to (\w+)", name)
    if m:
        return f"Give the +3 to the {CLAN.get(m.group(1), m.group(1))} clan"
    m = re.fullmatch(r"katana #(\d+) P(\d+) (\S+)", name)
    if m:
        seat_t = int(m.group(2))
        rel = relation_text(seat_t, seat, clans) if clans else ""
        return f"Destroy {card_name(m.group(3))} of P{seat_t}" + (f" ({rel})" if rel else "")
    m = re.fullmatch(r"recover (\S+)", name)
    if m:
        return f"Take {card_name(m.group(1))} back into your hand"
    m = re.fullmatch(r"take (\S+)", name)
    if m:
        return f"Take the {TOKEN_NAME.get(m.group(1), m.group(1))}"
    m = re.fullmatch(r"token to P(\d+)", name)
    if m:
        s = int(m.group(1))
        rel = relation_text(s, seat, clans) if clans else ""
        return f"Give the token to P{s}" + (f" ({rel})" if rel and rel != "you" else
                                            " (yourself)" if rel == "you" else "")
    m = re.fullmatch(r"leader P(\d+)", name)
    if m:
        s = int(m.group(1))
        return "You lead the next round" if s == seat else f"P{s} leads the next round"
    return name


def log_sentence(name: str, obs: dict, actor: int, third_person) -> str:
    """What ``actor`` did, for the log after their seat ("plays Blue 3", "destroys Orange 2
    of P1 (opponent)"): their button's words in the third person (``third_person``: the
    app's converter)."""
    m = re.fullmatch(r"leader P(\d+)", name)
    if m:
        s = int(m.group(1))
        return "chooses to lead the next round" if s == actor else \
            f"chooses P{s} to lead the next round"
    label = decision_label(name, obs, actor)
    return third_person(label) or label


def short_effect(card: str) -> str:
    return {"Katana": "destroys a numeral card of another player",
            "White": "inverts the colours of this trick",
            "Black": "the next player must follow your clan's colour"}.get(card, "")


def decision_tip(name: str, obs: dict | None = None, seat=None) -> str:
    """The tooltip of a decision: the card's or token's full effect."""
    players = (obs or {}).get("players", 4)
    m = re.fullmatch(r"(?:play|give|recover) (\S+)(?: with (\S+))?", name)
    if m:
        card, token = m.groups()
        text = card_tip(card, players)
        if token:
            text += " " + token_tip(token)
        if name.startswith("give"):
            text = ("Put it face down for your partner; you receive theirs when everyone has "
                    "chosen. " + text)
        return text
    m = re.fullmatch(r"katana #(\d+) P(\d+) (\S+)", name)
    if m:
        return (f"The Katana turns {card_name(m.group(3))} face down: it does not count in "
                f"this trick. {card_tip(m.group(3), players)}")
    m = re.fullmatch(r"take (\S+)", name)
    if m:
        return token_tip(m.group(1))
    m = re.fullmatch(r"\+3 to (\w+)", name)
    if m:
        return (f"The +3 counts for {CLAN.get(m.group(1), m.group(1))} in this trick (for the "
                "other colour if the colours end up inverted).")
    if name.startswith("token to"):
        return "That player keeps the token on their clan card and may play it with a card."
    if name.startswith("leader"):
        return "The leader plays the first card of the next round."
    return ""


HOW_TO_PLAY = """\
**Kitsu** is a trick-taking game for two clans, **Blue** and **Orange** (1 against 1, 2 against 2
or 3 against 3; partners sit apart).

**Goal.** Bring your clan's fox pawn to the end of the wisdom track{track} before the other clan.
That wins a round; the first clan to win **2 rounds** wins the game. Both pawns go back to the
start for each new round.

**The cards.** Numeral cards 1 to 6 in each clan colour, and three kinds of special cards:
2 Katana, 2 White Kitsune, 2 Black Kitsune.

**A trick.** Starting with the leader, each player in turn plays one card face up, and may play
a Power token with it. Numeral cards add their value to *their colour's* total, whoever plays
them — so you may help the other clan. When the trick is full, the colour with the higher total
wins and that clan moves its pawn forward by the **difference** (6 against 8: Orange moves 2; a
tie moves nobody). The cards are discarded and the next player leads the next trick.

**Special cards.** *Katana* destroys a numeral card in front of another player in the trick (it
no longer counts); *White Kitsune* swaps the colours of the trick (two of them cancel out);
*Black Kitsune* forces the next player to play a numeral card of your clan's colour if they
have one.

**Power tokens.** When the other clan moves 4 or more spaces in one trick, your clan takes a
token — but a clan may hold only **one token** at a time. A token is played once, with a card;
used tokens come back the next round.
- *+3*: adds 3 to the colour you choose.
- *No-advance*: the winner of this trick does not move.
- *Hidden card*: your card goes face down, safe from the Katana, and is shown at the end of the
  trick (not with a Katana or a Black Kitsune).
- *Recover card*: take one card of the last trick's discards into your hand.
- *Colour inversion*: swaps the colours of the trick, like a White Kitsune.

**Dealing.** Hands are dealt at the start of each round. When the hands run out before the round
is over, all the cards are shuffled and dealt again; the pawns stay. When a round ends the hands
are discarded, tokens held are kept, and the clan that won chooses who leads the next round.

{players}

**Here:** click a card of your hand to play it; hover a card, token or pawn to read what it
does. The pawns, the last trick and the tokens are drawn above the current trick.
"""

PLAYERS_TEXT = {
    2: "**With 2 players** (1 against 1): 6 cards each, the rest is a face-down draw pile; no "
       "card exchange. In a trick you play one card each in turn until each has played **2 "
       "cards**. After each trick each of you **draws 2 cards** while the draw pile lasts. When "
       "the hands run out, 6 cards each are dealt again.",
    4: "**With 4 players** (2 against 2): 6 cards each. Before playing, each player passes "
       "**one card** face down to their partner (again after every new deal). A trick has 4 "
       "cards, one from each player.",
    6: "**With 6 players** (3 against 3): more 1s, 2s and 3s are added to the deck; 5 cards "
       "each. Before playing, each player passes **one card** face down to the partner on their "
       "left (again after every new deal). A trick has 6 cards, one from each player.",
}


def how_to_play(params: dict | None = None) -> str:
    """The panel for a game's configuration (``params``: players, track_length); every player
    count when none is given."""
    params = params or {}
    counts = [params["players"]] if params.get("players") in PLAYERS_TEXT else list(PLAYERS_TEXT)
    track = params.get("track_length")
    return HOW_TO_PLAY.format(track=f" ({track} spaces here)" if track else "",
                              players="\n\n".join(PLAYERS_TEXT[n] for n in counts))
