"""A game in progress in the app: seats, AI budgets, chance, undo, records.

No Streamlit here, only the public ``boardlab`` API, so it is testable on its own. One
:class:`PlaySession` lives in each browser session's ``st.session_state``; the configured
``boardlab.Game`` it plays may be shared (it is immutable), the ``State`` never is.
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field

import numpy as np

import boardlab
from boardlab import search

# label -> (agent spec, what it means, shown in the UI)
AI_PRESETS: dict[str, tuple[str, str]] = {
    "Beginner": ("ismcts:200", "200 search iterations per move (instant)"),
    "Casual": ("ismcts:2000", "2,000 search iterations per move (about 0.02 s)"),
    "Strong": ("ismcts:0.5s", "0.5 seconds of search per move"),
    "Expert": ("ismcts:2s", "2 seconds of search per move"),
    "Master": ("ismcts:2s:net=default", "the strongest: 2 seconds per move of search guided "
               "by a network learned from self-play"),
}
#: Levels that need the network shipped for the game's configuration (boardlab.nets, its
#: manifest).
NEEDS_NETWORK = {"Master"}
DEFAULT_PRESET = "Casual"
HUMAN, AI = "human", "ai"

# The hint and the evaluation bar search at a budget of their own, whatever the AI seats'
# strength: at a Beginner's 200 iterations the candidates are all "within noise".
ANALYSIS_CHOICES = (2000, 5000, 20000)      # iterations
ANALYSIS_ITERATIONS = ANALYSIS_CHOICES[0]


def budget_of(spec: str) -> dict:
    """Search keyword arguments of an "ismcts:N" / "ismcts:Xs" spec, with ":net=default"
    for the guided search."""
    spec, guided = (spec[:-len(":net=default")], True) if spec.endswith(":net=default") \
        else (spec, False)
    extra = {"net": "default"} if guided else {}
    m = re.fullmatch(r"ismcts:(\d+)", spec)
    if m:
        return {"iterations": int(m.group(1)), **extra}
    m = re.fullmatch(r"ismcts:([0-9]*\.?[0-9]+)s", spec)
    if m:
        return {"seconds": float(m.group(1)), **extra}
    raise ValueError(f"unknown AI budget {spec!r}")


def presets_for(game) -> list[str]:
    """The AI levels offered for a game: Master only where the manifest of the shipped
    networks lists one for its configuration (and its file is there)."""
    from boardlab.nets import default_path
    path = default_path(game)
    has_net = path is not None and path.is_file()
    return [p for p in AI_PRESETS if has_net or p not in NEEDS_NETWORK]


def closest_preset(game, wanted: str) -> str:
    """The level a seat plays at when ``wanted`` is chosen for ``game``: that level where it
    is offered, else the strongest offered (Expert where Master needs a network none ships)."""
    offered = presets_for(game)
    return wanted if wanted in offered else offered[-1]


def configuration_words(game) -> str:
    """The configuration a network is made for, in words: "3 players", "solo (chasing)"."""
    solo = game.params.get("solo", "none")
    if game.num_players == 1:
        return f"solo ({solo.replace('_', ' ')})" if solo not in (None, "none") else "solo"
    return f"{game.num_players} players"


def refuse_open_hands(budget: dict) -> None:
    """A seat in play (AI move or hint) never gets the open-hands search: it sees every hand."""
    if budget.get("open_hands"):
        raise ValueError("the open-hands search sees hidden information: never for a seat in play")


def budget_text(budget: dict) -> str:
    text = f"{budget['iterations']:,} iterations" if "iterations" in budget \
        else f"{budget['seconds']:g} s"
    return text + (", guided by the learned network" if budget.get("net") else "")


def duration_text(seconds: float) -> str:
    """A search's time as read: "0.9 ms", "24 ms", "0.52 s". 2,000 iterations of Kitsu take
    about a millisecond, which two decimals of a second showed as "0.00 s"."""
    if seconds < 0.01:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 0.1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2f} s"


def mix(*values: int) -> int:
    """A 63-bit seed from integers (stable across runs)."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h ^= int(v) & 0xFFFFFFFFFFFFFFFF
        h = (h * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        h ^= h >> 29
    return h >> 1


def sample_chance(state, seed: int) -> int:
    """A chance outcome drawn with its probability, determined by (seed, ply)."""
    outcomes = state.chance_outcomes()
    probs = np.array([p for _, p in outcomes], dtype=float)
    rng = np.random.default_rng([seed & 0xFFFFFFFF, seed >> 32, len(state.history)])
    return int(outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0])


def run_search(state, budget: dict, seed: int, progress=None, player=None):
    """ISMCTS for the seat to move (or ``player``); ``progress(fraction, text)`` is called
    between batches."""
    total = budget.get("iterations")
    seconds = budget.get("seconds")

    def cb(done, total_, elapsed):
        if progress is None:
            return
        if total_:
            frac = done / total_
        else:
            frac = min(elapsed / seconds, 1.0) if seconds else 0.0
        progress(frac, f"{done:,} iterations, {elapsed:.1f} s")

    return search.ismcts(state, seed=seed, progress=cb, player=player, **budget)


def start_of(state):
    """The state ``state``'s game started from: the initial state of its seed, or the
    set-up position a record of a position (Game.position) starts from."""
    return state.game.replay({**state.to_record(), "actions": [], "moves": None,
                              "result": None})


def decision_plies(record_state) -> list[int]:
    """Plies (history lengths) at which a seat decides, plus the end position."""
    s = start_of(record_state)
    plies = []
    for i, a in enumerate(record_state.history):
        if s.current_player >= 0:
            plies.append(i)
        s.apply(a)
    plies.append(len(record_state.history))
    return plies


def log_text(ui, state, action: int, actor: int, viewer):
    """``ui.log_text`` of a move, with " (forced)" on the mover's own line when it had one
    legal choice (its only choice may come from what only the mover knows, e.g. its hand:
    the other seats' lines never say it)."""
    text = ui.log_text(state, action, actor, viewer)
    if text and actor >= 0 and viewer == actor and len(state.legal_actions()) == 1:
        text += " (forced)"
    return text


def state_at(state, ply: int):
    """The position after the first ``ply`` actions of ``state``'s history."""
    s = start_of(state)
    for a in state.history[:ply]:
        s.apply(a)
    return s


def actors(state) -> list[int]:
    """Who took each action of the history (a seat, or boardlab.CHANCE)."""
    s = start_of(state)
    out = []
    for a in state.history:
        out.append(s.current_player)
        s.apply(a)
    return out


@dataclass
class PlaySession:
    """One game being played in one browser session."""
    game: "boardlab.Game"
    seats: list                     # HUMAN or AI per seat
    preset: str = DEFAULT_PRESET
    seed: int = 0
    state: "boardlab.State" = None
    revealed: int | None = None     # hot-seat: the human seat whose hand is on screen
    last_human: int | None = None   # the human seat that decided last
    hint: object = None             # SearchResult of the last hint
    hint_ply: int = -1
    last_ai: object = None          # SearchResult of the last AI move
    app_meta: dict = field(default_factory=dict)
    groups: list = field(default_factory=list)  # (start, end) plies of multi-action human moves
    finishing: bool = False         # "Let the AI finish": AI plays every seat, seats unchanged
    peeked_at_ply: int | None = None  # "Show all hands" was on at this ply of a live game
    # A human seat's decision with one legal choice plays itself (as on Board Game Arena).
    # Off for a table of friends: there each seat's own page plays it (table_page).
    auto_forced: bool = True
    forced: list = field(default_factory=list)  # plies of human decisions that had one choice
    cache: dict = field(default_factory=dict, repr=False, compare=False)  # derived, per viewer
    # the review of this game (review.Review) made on the Analyse page or carried by its
    # record: a record written at the position it reviewed carries it ("app"."review")
    review: object = field(default=None, repr=False, compare=False)
    # what loading its record could not keep as it was (a review that does not read, a level
    # not offered here), for the page to say once
    notes: list = field(default_factory=list, repr=False, compare=False)
    # the store's version of this game when this object was loaded or last saved (None: not
    # from the store); the store saves it only over that version (see store.GameStore.save)
    stored_version: int | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if len(self.seats) != self.game.num_players:
            raise ValueError(f"{len(self.seats)} seats given for {self.game.num_players} players")
        if self.preset not in presets_for(self.game):
            raise ValueError(f"AI level {self.preset!r} is not offered for this game"
                             + (" (no learned network ships for its configuration yet)"
                                if self.preset in AI_PRESETS else ""))
        if self.state is None:
            self.state = self.game.new_initial_state(seed=self.seed)
        self._actors = actors(self.state)
        self.advance_chance()

    def copy(self) -> "PlaySession":
        """An independent copy of the game (without search results or the view cache)."""
        new = object.__new__(PlaySession)
        new.__dict__.update(self.__dict__)
        new.state = self.state.clone()
        new.seats, new.groups, new._actors = list(self.seats), list(self.groups), list(self._actors)
        new.forced = list(self.forced)
        new.app_meta, new.cache = dict(self.app_meta), {}
        new.hint = new.last_ai = None
        return new

    # -- seats ------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [s for s, kind in enumerate(self.seats) if kind == HUMAN]

    @property
    def to_move(self) -> int:
        return self.state.current_player

    def plays(self, seat: int) -> str:
        """Who decides for ``seat`` now: AI while the AI finishes the game, else its seat."""
        return AI if self.finishing else self.seats[seat]

    def is_human_turn(self) -> bool:
        p = self.state.current_player
        return p >= 0 and self.plays(p) == HUMAN

    def is_ai_turn(self) -> bool:
        p = self.state.current_player
        return p >= 0 and self.plays(p) == AI

    def finish_by_ai(self) -> None:
        """Let the AI play every seat to the end; the seats are kept for Undo and replay."""
        self.finishing = True

    def viewer(self) -> int | None:
        """The seat whose view is on screen: the human to move; else the human who moved
        last; else the first human; None when every seat is an AI."""
        p = self.state.current_player
        if p >= 0 and self.seats[p] == HUMAN and not self.finishing:
            return p
        if self.last_human is not None:
            return self.last_human
        return self.humans[0] if self.humans else None

    @property
    def ply(self) -> int:
        return len(self.state.history)

    def since_last_decision(self, seat) -> int:
        """History length right after ``seat``'s last decision (0 if it has not decided):
        what happened from there on is new to that seat."""
        return self.last_decision(seat)[1]

    def last_decision(self, seat) -> tuple[int, int]:
        """(start, end): the history lengths before and after ``seat``'s last decision (its
        actions, a grouped move's every one); (0, 0) if it has not decided."""
        for i in range(len(self._actors) - 1, -1, -1):
            if self._actors[i] == seat:
                for start, end in self.groups:
                    if start <= i < end:
                        return start, end
                return i, i + 1
        return 0, 0

    # -- moves ------------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        actor = self.state.current_player
        self.state.apply(action)            # IllegalActionError: nothing changed
        self._actors.append(actor)

    def advance_chance(self) -> None:
        """Play chance events (deals, draws) until a seat decides or the game ends; with
        ``auto_forced``, a human seat's forced decision (one legal choice) is played too: it
        is no decision (a chance event never is one either)."""
        while True:
            if self.state.is_chance():
                self._apply(sample_chance(self.state, self.seed))
            elif self.auto_forced and (a := self.forced_action()) is not None:
                self.apply_human(a)
            else:
                return

    def forced_action(self) -> int | None:
        """The one legal choice of the human seat to move, or None (a choice to make, an AI
        seat, chance or the end). Hot-seat: only for the human at the screen (the one who
        decided last), since another seat's choice left single by its hidden hand must not
        be played before the device is passed to it."""
        p = self.state.current_player
        if p < 0 or self.plays(p) != HUMAN:
            return None
        if len(self.humans) > 1 and p != self.last_human:
            return None
        legal = self.state.legal_actions()
        return int(legal[0]) if len(legal) == 1 else None

    def apply_human(self, action) -> None:
        """Play a human decision: one action, or a list of actions the same seat takes in a
        row (confirmed together in the UI, so undone together). Nothing is applied unless
        every action is legal in turn."""
        p = self.state.current_player
        if p < 0 or self.seats[p] != HUMAN:
            raise ValueError("it is not a human seat's turn")
        actions = [int(a) for a in action] if isinstance(action, (list, tuple)) else [int(action)]
        trial = self.state.clone()
        for i, a in enumerate(actions):
            if i and trial.current_player != p:
                raise ValueError("a grouped move must stay with one seat")
            trial.apply(a)                 # IllegalActionError if not legal
        start = len(self.state.history)
        if len(actions) == 1 and len(self.state.legal_actions()) == 1:
            self.forced.append(start)       # no choice: Undo goes back past it
        self.state = trial
        self._actors += [p] * len(actions)
        if len(actions) > 1:
            self.groups.append((start, start + len(actions)))
        self.last_human = p
        self.hint = None
        self.advance_chance()

    @property
    def ai_budget(self) -> dict:
        return budget_of(AI_PRESETS[self.preset][0])

    def ai_seed(self) -> int:
        return mix(self.seed, len(self.state.history), 0xA1)

    def play_ai(self, progress=None):
        """Search and play the AI seat's move; returns the SearchResult."""
        if not self.is_ai_turn():
            raise ValueError("it is not an AI seat's turn")
        result = self.search_ai(progress)
        self.apply_ai(result.best_action)
        self.last_ai = result
        return result

    def search_ai(self, progress=None):
        """The AI's search for the seat to move, whoever plays that seat (the store decides
        that for a shared table); nothing is played. Returns the SearchResult."""
        if self.state.current_player < 0:
            raise ValueError("no seat is to move")
        refuse_open_hands(self.ai_budget)
        return run_search(self.state, self.ai_budget, self.ai_seed(), progress)

    def apply_ai(self, action: int) -> None:
        """Play the AI's decision for the seat to move, then the chance events after it."""
        if self.state.current_player < 0:
            raise ValueError("no seat is to move")
        self._apply(int(action))
        self.advance_chance()

    def compute_hint(self, progress=None, iterations: int = ANALYSIS_ITERATIONS):
        """The hint for the seat to move: a search of its own (``iterations``, at least
        ANALYSIS_ITERATIONS), not at the AI seats' strength."""
        budget = analysis_budget(iterations)
        refuse_open_hands(budget)
        result = run_search(self.state, budget, self.hint_seed(), progress)
        self.hint, self.hint_ply = result, len(self.state.history)
        return result

    def hint_seed(self) -> int:
        return mix(self.seed, len(self.state.history), 0x4E1)

    # -- peeking ----------------------------------------------------------------------------
    def peek(self) -> bool:
        """"Show all hands" is on: a live game with a human seat is marked as peeked at
        (at the first ply it happened; kept in the record, never undone). Returns whether
        the game is marked."""
        if self.peeked_at_ply is None and self.humans and not self.state.is_terminal():
            self.peeked_at_ply = self.ply
        return self.peeked_at_ply is not None

    def can_undo(self) -> bool:
        return self.undo_target() is not None

    def undo_target(self, seat: int | None = None) -> int | None:
        """History length just before the last decision of a human seat (of ``seat``, if
        given), or None if there is none."""
        acts = self._actors
        humans = set(self.humans) if seat is None else {seat}
        forced = set(self.forced)
        for i in range(len(acts) - 1, -1, -1):
            if acts[i] in humans and i not in forced:
                for start, end in self.groups:
                    if start <= i < end:
                        return start
                return i
        return None

    def undo(self, seat: int | None = None) -> bool:
        """Take back to the last human decision (of ``seat``, if given): that seat decides
        again. False if there is none."""
        target = self.undo_target(seat)
        if target is None:
            return False
        self.state = state_at(self.state, target)
        del self._actors[target:]
        self.groups = [(s, e) for s, e in self.groups if e <= target]
        self.forced = [f for f in self.forced if f < target]
        self.last_human = self.state.current_player
        self.hint = None
        self.finishing = False
        return True

    # -- records ----------------------------------------------------------------------------
    def record(self) -> dict:
        """The game record with the app's block: seats, AI strength, and what Undo and the
        screen need to resume exactly (grouped moves, the last human, "AI finishes"), and
        the game's review if it is of this very position (review.review_data)."""
        rec = self.state.to_record()
        rec["app"] = {"seats": list(self.seats), "ai": self.preset,
                      "ai_budget": AI_PRESETS[self.preset][0],
                      "groups": [list(g) for g in self.groups], "last_human": self.last_human,
                      "finishing": self.finishing, "auto_forced": self.auto_forced,
                      "forced": list(self.forced)}
        if self.peeked_at_ply is not None:
            rec["app"]["peeked_at_ply"] = self.peeked_at_ply
        if self.review is not None and list(self.review.base.history) == rec["actions"]:
            from .review import review_data
            rec["app"]["review"] = review_data(self.review)
        return rec

    def record_json(self) -> str:
        return json.dumps(self.record(), indent=1)


def load_record(data) -> "boardlab.State":
    """A State from record bytes/text/dict, or boardlab.RecordError with the reason
    (for every malformed record: boardlab.replay raises nothing else)."""
    if isinstance(data, (bytes, bytearray)) and len(data) > 5_000_000:
        raise boardlab.RecordError("record file is too large (over 5 MB)")
    return boardlab.replay(data)


def session_from_record(data, seats=None, preset=None) -> PlaySession:
    """A PlaySession continuing a saved game (seats, AI level and review from the record's
    "app" block; what of it cannot be kept is said in the session's ``notes``)."""
    state = load_record(data)
    rec = data
    if isinstance(rec, (bytes, bytearray)):
        rec = rec.decode("utf-8")
    if isinstance(rec, str):
        rec = json.loads(rec)
    app = rec.get("app") if isinstance(rec.get("app"), dict) else {}
    n = state.game.num_players
    if seats is None:
        seats = app.get("seats")
        if not (isinstance(seats, list) and len(seats) == n and all(s in (HUMAN, AI) for s in seats)):
            seats = [HUMAN] + [AI] * (n - 1)
    notes = []
    if preset is None:              # the "app" block is optional: ignore what is not ours
        ai = app.get("ai")
        known = isinstance(ai, str) and ai in AI_PRESETS
        preset = closest_preset(state.game, ai) if known else DEFAULT_PRESET
        if known and preset != ai:
            notes.append(f"The AI seats play at {preset}, the strongest level here: {ai} "
                         "needs a learned network, and none ships for this game's "
                         f"configuration ({configuration_words(state.game)}).")
    sess = PlaySession(game=state.game, seats=list(seats), preset=preset,
                       seed=int(rec["seed"]), state=state,
                       auto_forced=app.get("auto_forced") is True)   # older records: off
    forced = app.get("forced")
    if isinstance(forced, list):        # (with any played on loading)
        sess.forced = sorted(set(sess.forced) | {
            f for f in forced if isinstance(f, int) and not isinstance(f, bool)
            and 0 <= f < sess.ply and sess._actors[f] in sess.humans})
    sess.groups = _groups_of(app.get("groups"), sess)
    last = app.get("last_human")
    if isinstance(last, int) and not isinstance(last, bool) and last in sess.humans:
        sess.last_human = last
    sess.finishing = app.get("finishing") is True and not sess.state.is_terminal()
    sess.peeked_at_ply = peeked_at(rec, sess.ply)
    from .review import review_in_record
    sess.review, why = review_in_record(rec, sess.state)
    if why:
        notes.append(f"The game is loaded without its review, which cannot be read: {why}.")
    sess.notes = notes
    return sess


def peeked_at(record: dict, plies: int) -> int | None:
    """The ply at which "Show all hands" was switched on in the live game of ``record``
    (its "app" block; None: never, or a value that does not fit its ``plies`` actions)."""
    app = record.get("app") if isinstance(record, dict) else None
    ply = app.get("peeked_at_ply") if isinstance(app, dict) else None
    return ply if type(ply) is int and 0 <= ply <= plies else None


def analysis_budget(iterations: int = ANALYSIS_ITERATIONS) -> dict:
    """The hint's and the evaluation bar's search budget: ValueError below the minimum."""
    if type(iterations) is not int or iterations < ANALYSIS_ITERATIONS:
        raise ValueError(f"the analysis budget must be at least {ANALYSIS_ITERATIONS:,} "
                         f"iterations, got {iterations!r}")
    return {"iterations": iterations}


def _groups_of(value, sess: PlaySession) -> list:
    """The record's grouped human moves, kept only where they fit its history (a hand-edited
    or foreign block is ignored, never trusted)."""
    if not isinstance(value, list):
        return []
    out, last_end = [], 0
    for g in value:
        if not (isinstance(g, list) and len(g) == 2 and all(type(x) is int for x in g)):
            return []
        start, end = g
        if not (last_end <= start < end <= sess.ply) or len(set(sess._actors[start:end])) != 1 \
                or sess._actors[start] not in sess.humans:
            return []
        out.append((start, end))
        last_end = end
    return out


def search_line(result) -> tuple[str, ...]:
    """The moves a search (a SearchResult) expects its seat to make right after its best
    move, before another seat moves (e.g. where the card it orients goes), as notations."""
    pv = list(getattr(result, "principal_variation", None) or ())
    out = []
    for player, move in pv[1:]:
        if pv and player != pv[0][0]:
            break
        out.append(str(move))
    return tuple(out)


def search_rows(result, priors: dict | None = None, names: dict | None = None) -> list[dict]:
    """The per-move table of a SearchResult, most visited first; with the learned
    network's prior of each move (``priors``: action -> probability, or the guided
    search's own) beside the search's visits; ``names``: action -> the move in words (its
    notation then in a last column, "notation")."""
    rows = sorted(result.stats, key=lambda s: (-s["visits"], s["action"]))
    if priors is None and rows and rows[0].get("prior") is not None:
        priors = {s["action"]: s["prior"] for s in rows}
    out = []
    for s in rows:
        row = {"move": names.get(int(s["action"]), s["move"]) if names else s["move"]}
        if priors:
            row["network %"] = round(100.0 * priors.get(s["action"], 0.0), 1)
        row.update({"visits": int(s["visits"]), "share %": round(100.0 * s["share"], 1),
                    "win %": round(100.0 * s["win_prob"], 1),
                    "mean value": round(float(s["mean"]), 3)})
        if names:
            row["notation"] = s["move"]
        out.append(row)
    return out


def network_reading(state, seat: int):
    """The shipped network's reading of ``state`` from ``seat``'s knowledge (values per
    seat, priors of the legal moves when ``seat`` is to move), or None where none ships."""
    from boardlab.nets import reading
    return reading(state, seat)


def now() -> float:
    return time.perf_counter()
