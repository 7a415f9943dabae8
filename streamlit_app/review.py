"""Game review, without Streamlit: every decision of a game searched in small steps (so a
page can show progress and stop), each move played compared with the search's choice, the
loss classified, and a summary per seat.

The comparison of one decision is :func:`boardlab.analysis.decision_row` (the same as
``boardlab analyse``). Win percentages come with their uncertainty: the search's mean
outcome of a move over ``visits`` iterations, with a 95% Wilson interval, so 63.2% and
63.1% are not read as different.

Classification of the win % a move lost (percentage points, best move minus move played,
both from the same search), applied only when the loss is larger than its noise (the two
moves' ± combined):

    inaccuracy  >= 5     mistake  >= 10     blunder  >= 20

A seat's **accuracy** is the share of its reviewed decisions that are none of these.

The graph (and the evaluation bar beside the board) reads every decision from one seat's
knowledge, the ``observer`` (the viewer): at another seat's decision a second search runs
for the observer (its own knowledge then, so nothing hidden leaks). Read from the mover's
knowledge instead, the line swapped viewpoints at every turn: in Kyūshū's simultaneous Map
phase the second seat cannot see the first seat's committed placement, which its search
replaces by a random one, so it believed itself far ahead (P0 98.6% at its own turn, 7.3% a
decision later, in a game P0 won). A finished game's graph ends at its result.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
import time
from dataclasses import dataclass, field

from boardlab import search
from boardlab.analysis import decision_row

from boardlab.arena import sides_of

from .session import mix, search_line, start_of

__all__ = ["THRESHOLDS", "Review", "asked_budget", "load_review", "move_words", "review_data",
           "review_from_data", "review_in_record", "save_review", "budget_warning",
           "noise_note", "classify", "content_key", "evaluation",
           "observer_view", "resolution", "result_point", "side_lines", "side_value", "summary",
           "verdict", "win_interval"]

# A page's background review analyses decisions for about this long per run of its fragment
# (at least one), then draws what it has: a small budget goes fast, a large one still shows
# progress. A run analyses for at least SLICE_PER_DRAW times as long as the page's last
# drawing took (Review.draw_seconds): drawing grows with the graph and slows on a loaded
# machine, and a review that spent most of its time redrawing took several times its budget.
SLICE_SECONDS = 0.3
SLICE_PER_DRAW = 2.0

THRESHOLDS = (("blunder", 20.0), ("mistake", 10.0), ("inaccuracy", 5.0))
Z95 = 1.96


def win_interval(win_prob: float, visits: int, z: float = Z95) -> tuple[float, float]:
    """(win %, ± half-width in percentage points) of a mean outcome in [0, 1] over
    ``visits`` iterations: the Wilson score interval (centre and half-width)."""
    n = int(visits)
    if n <= 0:
        return 100.0 * float(win_prob), 50.0
    p = min(max(float(win_prob), 0.0), 1.0)
    den = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return 100.0 * centre, 100.0 * half


def _stat(result, action: int) -> dict | None:
    for s in result.stats:
        if int(s["action"]) == int(action):
            return s
    return None


def evaluation(result) -> dict:
    """The evaluation of a position from a search there: ``win_pct`` and ``pm`` (±) of the
    seat to move playing the best move, ``seat``, ``best_move``, and ``within_noise`` (the
    runner-up's interval overlaps the best's: the search cannot tell them apart)."""
    best = _stat(result, result.best_action)
    pct, pm = win_interval(best["win_prob"], best["visits"])
    ranked = sorted(result.stats, key=lambda s: -s["visits"])
    noise = False
    others = [s for s in ranked if int(s["action"]) != int(result.best_action)]
    if others:
        o_pct, o_pm = win_interval(others[0]["win_prob"], others[0]["visits"])
        # the review's test (Review.analyse): a difference of two moves is noise up to the
        # two ± combined as a difference's (hypot), not up to their sum (intervals that
        # overlap): with the sum, a played runner-up the review flagged was "within noise"
        noise = abs(pct - o_pct) <= math.hypot(pm, o_pm)
    return {"win_pct": pct, "pm": pm, "seat": int(result.player),
            "best_move": result.best_move, "within_noise": noise,
            "runner_up": others[0]["move"] if others else None}


def observer_view(result, mover: int, side_of: list[int]) -> tuple[float, float]:
    """(win %, ±) of the seat ``result`` searched for (``result.player``) when another seat,
    ``mover``, was to move: the search's mean over all its iterations (the mover's value of each of its
    moves, weighted by visits, as the observer's tree played them), turned to the
    observer's side. Two sides only (with more, the mover's value says nothing of a third
    side's)."""
    total = sum(int(s["visits"]) for s in result.stats)
    mover_p = (sum(float(s["win_prob"]) * int(s["visits"]) for s in result.stats) / total
               if total else 0.5)
    p = mover_p if side_of[mover] == side_of[int(result.player)] else 1.0 - mover_p
    return win_interval(p, total)


def move_words(move: str | None, player: int | None, searcher: int, short: bool = False) -> str:
    """A move of a search's tree or line in words. The search names a move it cannot replay
    in any world the searching seat imagines "#<action number>" (the move of another seat
    it cannot see, e.g. a card from a hidden hand, or a move after such a move): said here
    in words. ``short``: a label for a small space."""
    if move is None:
        return "root" if short else "the position searched"
    if not re.fullmatch(r"#\d+", move):
        return move
    if short:
        return f"P{player} hidden move"
    # shown after "P<player>": the seat is not repeated
    if player == searcher:
        return "a move after moves it cannot see (no world it imagines has it: no name)"
    return f"a hidden move (one of the moves P{searcher} cannot see)"


def classify(lost: float, noise: float) -> str:
    """"blunder" / "mistake" / "inaccuracy" for a loss of ``lost`` win-% points that is
    more than ``noise``; "" for a good move; "unknown" if the loss is unknown (NaN)."""
    if lost is None or math.isnan(lost):
        return "unknown"
    if lost <= noise:
        return ""
    for label, threshold in THRESHOLDS:
        if lost >= threshold:
            return label
    return ""


MARK_SIGN = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}


def verdict(row: dict) -> tuple[str, str]:
    """(a few words under the evaluation bar, a sentence for its tooltip): the review's
    verdict on the move played at a reviewed decision, from the same numbers as its table
    and marks (``label``, ``win_pct_lost`` and its ``noise``). The bar says this at a
    reviewed decision, not whether the best two moves are apart: that note ("within noise")
    stood beside a move the review flagged as a blunder."""
    label, lost, noise = row["label"], row["win_pct_lost"], row["noise"]
    if label == "unknown":
        return "played: not searched", "The search never tried the move played."
    if int(row["played_action"]) == int(row["ai_action"]):
        return "played the best move", "The move played is the search's best."
    loss = f"{lost:.1f} ± {noise:.1f} win-% points"
    if label:
        return (f"played: {MARK_SIGN[label]} {label}",
                f"The move played lost {loss}: a {label} ({MARK_SIGN[label]}).")
    if lost <= noise:
        return ("played ≈ best: within noise",
                f"The move played lost {loss}: within the noise, not flagged.")
    return ("played: small loss",
            f"The move played lost {loss}: less than an inaccuracy, not flagged.")


def content_key(state, *options) -> str:
    """What a result computed from ``state`` depends on, as text: the game, its parameters,
    the seed, the set-up facts of a position and the actions (the record, less what follows
    from it), plus ``options`` (budget, seat, ...; JSON values). Two states that merely share
    a seed and a history (a position form edited) get different keys."""
    record = state.to_record()
    facts = {k: record.get(k) for k in ("game", "params", "seed", "position", "actions")}
    return json.dumps([facts, list(options)], sort_keys=True, default=repr)


def check_budget(budget: dict) -> dict:
    """{"iterations": n} or {"seconds": x}; ValueError naming what is wrong."""
    if set(budget) == {"iterations"} and int(budget["iterations"]) >= 1:
        return {"iterations": int(budget["iterations"])}
    if set(budget) == {"seconds"} and float(budget["seconds"]) > 0:
        return {"seconds": float(budget["seconds"])}
    raise ValueError(f"budget must be {{'iterations': n >= 1}} or {{'seconds': x > 0}}, "
                     f"got {budget!r}")


@dataclass
class Review:
    """The review of the game ``base`` (its whole history), decision by decision.

    ``seats``: the seats whose decisions may be searched (None: all). A game still being
    played passes its human seat only: a search determinizes from the seat to move, so
    searching an AI seat's decision would use that seat's hidden hand.
    """
    base: object
    budget: dict
    seats: frozenset | None = None
    seed: int = 0
    observer: int | None = None                   # the seat whose knowledge the graph reads
    rows: dict = field(default_factory=dict)       # decision index -> row
    plies: list = field(default_factory=list)      # decision index -> ply
    movers: list = field(default_factory=list)     # decision index -> seat to move
    stopped: bool = False
    saved: bool = False                           # kept with its game in the store
    draw_seconds: float = 0.0                     # the page's last drawing of it (SLICE_PER_DRAW)
    _next: int = 0

    def __post_init__(self):
        self.budget = check_budget(self.budget)
        self.key = self.key_for(self.base, self.seats)
        self.side_of = sides_of(self.base.game.name, self.base.game.num_players)[1]
        self._start = start_of(self.base)
        s = self._start.clone()
        for ply, a in enumerate(self.base.history):
            if s.current_player >= 0:
                self.plies.append(ply)
                self.movers.append(int(s.current_player))
            s.apply(a)
        self._cursor = self._start.clone()

    @staticmethod
    def key_for(base, seats) -> str:
        """The key of a review of the game ``base`` searching ``seats``: a page shows a review
        only for the game (and seats) it was made from."""
        return content_key(base, sorted(seats) if seats is not None else None)

    def allowed(self, i: int) -> bool:
        return self.seats is None or self.movers[i] in self.seats

    @property
    def todo(self) -> list[int]:
        return [i for i in range(len(self.plies)) if self.allowed(i)]

    @property
    def done(self) -> bool:
        return self._next >= len(self.plies)

    @property
    def progress(self) -> float:
        todo = self.todo
        if not todo:
            return 1.0
        return sum(1 for i in todo if i in self.rows) / len(todo)

    def analyse(self, i: int) -> dict:
        """Search decision ``i`` and return its row (kept in ``rows``)."""
        if not 0 <= i < len(self.plies):
            raise ValueError(f"decision {i} is not in [0, {len(self.plies)})")
        if not self.allowed(i):
            raise ValueError(f"decision {i} is P{self.movers[i]}'s, which this review may "
                             "not search (its hand is hidden)")
        ply = self.plies[i]
        if len(self._cursor.history) > ply:
            self._cursor = self._start.clone()
        while len(self._cursor.history) < ply:
            self._cursor.apply(self.base.history[len(self._cursor.history)])
        state = self._cursor
        action = int(self.base.history[ply])
        result = search.ismcts(state, seed=mix(self.seed, ply), **self.budget)
        row = decision_row(state, action, result)
        ev = evaluation(result)
        played = _stat(result, action)
        played_pm = win_interval(played["win_prob"], played["visits"])[1] if played else 50.0
        noise = 0.0 if action == int(result.best_action) else math.hypot(ev["pm"], played_pm)
        row.update(decision=i, ply=ply, win_pct=ev["win_pct"], pm=ev["pm"],
                   within_noise=ev["within_noise"], played_pm=played_pm, noise=noise,
                   label=classify(row["win_pct_lost"], noise),
                   ai_line=list(search_line(result)))   # e.g. where a card it orients goes
        row.update(zip(("view_seat", "view_pct", "view_pm", "view_played", "view_played_pm"),
                       self._view(state, ply, row)))
        self.rows[i] = row
        return row

    def _view(self, state, ply: int, row: dict) -> tuple:
        """(seat, its win %, ±, its win % after the move played and that ±) for the graph at
        this decision: the observer's own search from its knowledge then (two sides), else
        the mover's. The last two are None where that search did not rate the move played
        (never visited, or a move hidden from the observer)."""
        mover, obs = row["seat"], self.observer
        if obs is None or obs == mover or len(set(self.side_of)) != 2:
            played = row["played_win_pct"]
            if math.isnan(played):
                return mover, row["win_pct"], row["pm"], None, None
            return mover, row["win_pct"], row["pm"], played, row["played_pm"]
        result = search.ismcts(state, seed=mix(self.seed, ply, 5), player=obs, **self.budget)
        st = _stat(result, row["played_action"])
        played = played_pm = None
        if st is not None and st["visits"] > 0:
            same = self.side_of[mover] == self.side_of[obs]
            played_pm = win_interval(st["win_prob"], st["visits"])[1]
            played = 100.0 * (st["win_prob"] if same else 1.0 - st["win_prob"])
        return (obs, *observer_view(result, mover, self.side_of), played, played_pm)

    def step(self, n: int = 1, seconds: float | None = None) -> list[dict]:
        """Analyse up to ``n`` more decisions (those this review may search); with
        ``seconds``, stop early once that long has passed (after at least one)."""
        out = []
        start = time.monotonic()
        while len(out) < n and not self.done and not self.stopped:
            if out and seconds is not None and time.monotonic() - start >= seconds:
                break
            i = self._next
            self._next += 1
            if self.allowed(i) and i not in self.rows:
                out.append(self.analyse(i))
        return out


# --- a review as data: in a game's record and kept with the game in the store ---------------
# A record carries its game's review in its "app" block ("app": {"review": {...}}), the same
# data as the store keeps: {"version": REVIEW_VERSION, "budget": {"iterations": n} or
# {"seconds": x}, "seed": int, "observer": seat or null, "seats": [seat, ...] or null (all),
# "rows": [row, ...]}, a row per decision reviewed as Review.analyse makes it (a win % the
# search could not measure, NaN, is written null). Reading it back checks every row against
# the game: a review of another game, or a malformed one, is refused with what is wrong.
REVIEW_VERSION = 1
_INT, _PCT, _MAYBE_PCT = "int", "number", "number or null"
ROW_FIELDS = {"decision": _INT, "ply": _INT, "seat": _INT, "legal_moves": _INT,
              "ai_move": str, "ai_action": _INT, "ai_win_pct": _PCT, "played_move": str,
              "played_action": _INT, "played_win_pct": _MAYBE_PCT, "played_visits": _INT,
              "win_pct_lost": _MAYBE_PCT, "iterations": _INT, "win_pct": _PCT, "pm": _PCT,
              "within_noise": bool, "played_pm": _PCT, "noise": _PCT, "label": str}
# fields a review kept before they existed lacks (the page reads them with .get)
OPTIONAL_ROW_FIELDS = {"ai_line": list, "view_seat": _INT, "view_pct": _PCT, "view_pm": _PCT,
                       "view_played": _MAYBE_PCT, "view_played_pm": _MAYBE_PCT}
LABELS = ("", "unknown") + tuple(label for label, _ in THRESHOLDS)


def _nan_to_null(value):
    return None if isinstance(value, float) and math.isnan(value) else value


def review_data(job: Review) -> dict:
    """The review ``job`` as JSON data (no NaN), for a record or the store (the rows as they
    are now: a review still running may be written by another page saving its game)."""
    rows = dict(job.rows)
    return {"version": REVIEW_VERSION, "budget": job.budget, "seed": job.seed,
            "observer": job.observer,
            "seats": sorted(job.seats) if job.seats is not None else None,
            "rows": [{k: _nan_to_null(v) for k, v in rows[i].items()} for i in sorted(rows)]}


def _field(where: str, name: str, value, kind):
    """``value`` of a row's field as the page reads it, or ValueError naming it."""
    def bad(what):
        return ValueError(f"{where} {name!r} must be {what}, got {value!r:.40}")
    if kind == _INT:
        if type(value) is not int:
            raise bad("an integer")
        return value
    if kind in (_PCT, _MAYBE_PCT):
        if kind == _MAYBE_PCT and (value is None or (type(value) is float
                                                     and math.isnan(value))):
            return math.nan if name in ROW_FIELDS else None    # the store's first: NaN
        if type(value) not in (int, float) or not math.isfinite(value):
            raise bad("a number" + (" or null" if kind == _MAYBE_PCT else ""))
        return float(value)
    if kind is list:
        if not (isinstance(value, list) and all(isinstance(x, str) for x in value)):
            raise bad("a list of moves")
        return value
    if type(value) is not kind:
        raise bad({str: "text", bool: "true or false"}[kind])
    return value


def review_from_data(data, base) -> Review:
    """The review ``data`` (:func:`review_data`'s) of the game ``base`` as a Review: done,
    or stopped where it has fewer rows than decisions to search. ValueError naming what is
    wrong: not a review, another version, a field of the wrong kind, a row that is not a
    decision of this game (its ply, seat, move played or better move)."""
    if not isinstance(data, dict):
        raise ValueError(f"the review must be an object, got {type(data).__name__}")
    version = data.get("version", REVIEW_VERSION)     # the store's first reviews had none
    if version != REVIEW_VERSION:
        raise ValueError(f"review version {version!r:.20} is not one this app reads "
                         f"({REVIEW_VERSION})")
    missing = [k for k in ("budget", "seed", "observer", "seats", "rows") if k not in data]
    if missing:
        raise ValueError(f"the review lacks {', '.join(map(repr, missing))}")
    n = base.game.num_players
    try:
        budget = check_budget(data["budget"])
    except (ValueError, TypeError, AttributeError):
        raise ValueError(f"review 'budget' must be {{'iterations': n}} or {{'seconds': x}}, "
                         f"got {data['budget']!r:.60}") from None
    seed, observer, seats, rows = data["seed"], data["observer"], data["seats"], data["rows"]
    if type(seed) is not int or not 0 <= seed < 2**64:
        raise ValueError(f"review 'seed' must be an integer in [0, 2**64), got {seed!r:.40}")
    if observer is not None and (type(observer) is not int or not 0 <= observer < n):
        raise ValueError(f"review 'observer' must be null or a seat in [0, {n}), "
                         f"got {observer!r:.40}")
    if seats is not None and not (isinstance(seats, list) and seats and all(
            type(s) is int and 0 <= s < n for s in seats) and len(set(seats)) == len(seats)):
        raise ValueError(f"review 'seats' must be null or distinct seats in [0, {n}), "
                         f"got {seats!r:.60}")
    if not isinstance(rows, list):
        raise ValueError(f"review 'rows' must be a list, got {type(rows).__name__}")
    job = Review(base.clone(), budget, seats=frozenset(seats) if seats is not None else None,
                 seed=seed, observer=observer)
    checked = {}
    for k, row in enumerate(rows):
        where = f"review rows[{k}]"
        if not isinstance(row, dict):
            raise ValueError(f"{where} must be an object, got {type(row).__name__}")
        lacking = [f for f in ROW_FIELDS if f not in row]
        if lacking:
            raise ValueError(f"{where} lacks {', '.join(map(repr, lacking))}")
        clean = {f: _field(where, f, row[f], kind) for f, kind in ROW_FIELDS.items()}
        clean.update({f: _field(where, f, row[f], kind)
                      for f, kind in OPTIONAL_ROW_FIELDS.items() if f in row})
        _check_row(where, clean, job, checked)
        checked[clean["decision"]] = clean
    _check_moves(checked, job)
    job.rows = checked
    if all(i in checked for i in job.todo):
        job._next = len(job.plies)                # done: nothing left to search
    else:
        job.stopped = True                        # as a review stopped part way
    return job


def _check_row(where: str, row: dict, job: Review, seen: dict) -> None:
    """A row that is a decision of ``job``'s game, once, by a seat it may search."""
    d = row["decision"]
    if not 0 <= d < len(job.plies):
        raise ValueError(f"{where} 'decision' {d} is not one of this game's "
                         f"{len(job.plies)} decisions")
    if d in seen:
        raise ValueError(f"{where}: decision {d} is reviewed twice")
    ply, seat = job.plies[d], job.movers[d]
    if row["ply"] != ply or row["seat"] != seat:
        raise ValueError(f"{where}: decision {d} is P{seat}'s after {ply} actions in this "
                         f"game, not P{row['seat']}'s after {row['ply']}")
    if not job.allowed(d):
        raise ValueError(f"{where}: decision {d} is P{seat}'s, a seat the review's 'seats' "
                         "leave out")
    if row["played_action"] != int(job.base.history[ply]):
        raise ValueError(f"{where}: the move played at decision {d} is action "
                         f"{int(job.base.history[ply])} in this game, not "
                         f"{row['played_action']}")
    if row["label"] not in LABELS:
        raise ValueError(f"{where} 'label' must be one of {', '.join(map(repr, LABELS))}, "
                         f"got {row['label']!r:.40}")
    if "view_seat" in row and not 0 <= row["view_seat"] < job.base.game.num_players:
        raise ValueError(f"{where} 'view_seat' {row['view_seat']} is not a seat")


def _check_moves(rows: dict, job: Review) -> None:
    """Each row's better move is a legal move at its decision (the board draws it)."""
    s = start_of(job.base)
    for d in range(len(job.plies)):
        while len(s.history) < job.plies[d]:
            s.apply(job.base.history[len(s.history)])
        if d in rows and rows[d]["ai_action"] not in {int(a) for a in s.legal_actions()}:
            raise ValueError(f"review row of decision {d}: its better move (action "
                             f"{rows[d]['ai_action']}) is not legal there")


def review_in_record(record, base) -> tuple[Review | None, str | None]:
    """The review a record (a dict) carries for its game ``base`` ("app"."review"), and
    None; or None and why it cannot be read (the record is still good); (None, None)
    when it carries none."""
    app = record.get("app") if isinstance(record, dict) else None
    data = app.get("review") if isinstance(app, dict) else None
    if data is None:
        return None, None
    try:
        return review_from_data(data, base), None
    except ValueError as e:
        return None, str(e)


# --- kept with the game in the store ------------------------------------------------------------
def _store_key(base, seats) -> str:
    return hashlib.sha256(Review.key_for(base, seats).encode()).hexdigest()


def save_review(store, game_id: str, job: Review) -> None:
    """Keep the finished review ``job`` of a finished game with the game ``game_id`` in
    ``store`` (a GameStore), replacing an earlier review of the same game and seats. A game
    still being played is refused (ValueError): its review holds what one seat may know."""
    if not job.base.is_terminal() or not job.done:
        raise ValueError("only the finished review of a finished game is kept with it")
    store.keep_review(game_id, _store_key(job.base, job.seats), json.dumps(review_data(job)))


def load_review(store, game_id: str, base, seats=None) -> Review | None:
    """The review of the finished game ``base`` (searching ``seats``) kept with the game
    ``game_id`` in ``store``, done, or None (ValueError for one that does not read)."""
    if not base.is_terminal():
        return None
    text = store.kept_review(game_id, _store_key(base, seats))
    if text is None:
        return None
    job = review_from_data(json.loads(text), base)
    job.saved = True
    return job


def summary(rows, seats=None) -> list[dict]:
    """Per seat (of ``seats``, default all in ``rows``): decisions reviewed, accuracy (%),
    mean win % lost, and the count of each label."""
    rows = list(rows)
    seats = sorted({r["seat"] for r in rows} if seats is None else seats)
    out = []
    for seat in seats:
        mine = [r for r in rows if r["seat"] == seat and r["label"] != "unknown"]
        losses = [max(r["win_pct_lost"], 0.0) for r in mine]
        entry = {"seat": seat, "decisions": len(mine),
                 "accuracy": (100.0 * sum(1 for r in mine if not r["label"]) / len(mine)
                              if mine else math.nan),
                 "mean_lost": sum(losses) / len(losses) if losses else math.nan}
        for label, _ in reversed(THRESHOLDS):
            entry[label] = sum(1 for r in mine if r["label"] == label)
        out.append(entry)
    return out


# --- the graph and how far the review can be trusted -----------------------------------------
def side_value(row: dict, side: int, side_of: list[int]) -> tuple[float, float] | None:
    """(win %, ±) of ``side`` at a reviewed decision, as the graph draws it: the estimate of
    the seat the row was read from (``view_seat``: the observer's, else the mover's); with
    two sides the other side's is the rest; with more, None for a side not its own."""
    seat = row.get("view_seat", row["seat"])
    pct, pm = row.get("view_pct", row["win_pct"]), row.get("view_pm", row["pm"])
    if side_of[seat] == side:
        return pct, pm
    if len(set(side_of)) == 2:
        return 100.0 - pct, pm
    return None


def result_point(state, side_of: list[int]) -> dict[int, float] | None:
    """Each side's "win %" at the end of a finished game, from its returns (in [-1, 1]):
    100 for a win, 0 for a loss, 50 for an even tie; None while the game goes on."""
    if not state.is_terminal():
        return None
    returns = [float(x) for x in state.returns()]
    return {side: 100.0 * (returns[side_of.index(side)] + 1.0) / 2.0 for side in set(side_of)}


def network_points(base, observer: int, side: int, side_of: list[int]
                   ) -> list[tuple[int, float]] | None:
    """The shipped network's win % of ``side`` at every decision of the game ``base``
    (numbered as the review numbers them), read at once from ``observer``'s knowledge
    without search; None where no network ships for the game's configuration."""
    from boardlab.nets import reading
    state, seat, out, decision = start_of(base), side_of.index(side), [], 0
    for action in list(base.history) + [None]:
        if state.current_player >= 0:
            r = reading(state, observer)
            if r is None:
                return None
            out.append((decision, 50.0 + 50.0 * r[0][seat]))
            decision += 1
        if action is not None:
            state.apply(action)
    return out


def side_lines(rows, side_of: list[int], final: tuple[int, dict] | None = None
               ) -> dict[int, list[tuple[int, float, float]]]:
    """Per side (``side_of``: the side of each seat, e.g. Kitsu's clans), its win % at the
    decisions reviewed: ``[(decision, win %, ±), ...]`` (:func:`side_value`: with two sides
    a line over every decision, with more a side's line has its own decisions only), and
    ``final`` = (the end position's decision number, :func:`result_point`) last."""
    sides = sorted(set(side_of))
    out: dict[int, list] = {s: [] for s in sides}
    for r in sorted(rows, key=lambda r: r["decision"]):
        for side in sides:
            v = side_value(r, side, side_of)
            if v is not None:
                out[side].append((r["decision"], *v))
    if final is not None and final[1] is not None:
        for side in sides:
            out[side].append((final[0], final[1][side], 0.0))
    return out


def resolution(rows) -> float | None:
    """How finely the review measured a loss (win-% points): the median over the decisions
    reviewed of the noise of "best move minus move played" (where the two were the same
    move, the best move's ± taken twice). None if nothing was reviewed."""
    values = sorted(r["noise"] if r.get("noise") else math.hypot(r["pm"], r["pm"])
                    for r in rows if r["label"] != "unknown")
    if not values:
        return None
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def asked_budget(rows, budget: dict) -> int | None:
    """The iterations a decision the warning asks for: the budget at which the median
    noise would come under the smallest flagged loss if it shrank as 1/sqrt(visits)
    (rounded up to a thousand); None for a budget in seconds or nothing reviewed."""
    res = resolution(rows)
    if res is None or "iterations" not in budget:
        return None
    smallest = min(t for _, t in THRESHOLDS)
    return math.ceil(budget["iterations"] * (res / smallest) ** 2 / 1000) * 1000


def budget_warning(rows, budget: dict, asked: int | None = None) -> str | None:
    """A warning (markdown) when the review's budget is too low to tell moves apart: its
    :func:`resolution` is coarser than the smallest loss it flags; with how many losses it
    left unflagged and the budget that would do (:func:`asked_budget`).

    ``asked``: the budget an earlier warning for this game asked for. The noise of the move
    played shrinks more slowly than 1/sqrt(budget) (the search gives it a smaller share of a
    larger budget), so a review at the budget asked for may still be coarse: it then does
    not ask again for more (the page says the noise in a caption, :func:`noise_note`)."""
    rows = list(rows)
    res = resolution(rows)
    smallest = min(t for _, t in THRESHOLDS)
    if res is None or res < smallest:
        return None
    if asked is not None and budget.get("iterations", 0) >= asked:
        return None
    hidden = sum(1 for r in rows if r["label"] == "" and r["win_pct_lost"] >= smallest)
    need = asked_budget(rows, budget)
    return (f"**The review budget is too low to tell moves apart.** Here a move's loss is known "
            f"only to ±{res:.0f} win-% points (the median over the decisions reviewed): more "
            f"than the {smallest:g} points an inaccuracy is. "
            + (f"{hidden} decision{'s' if hidden != 1 else ''} lost {smallest:g} points or more "
               "but within that noise, so they are not flagged; " if hidden else "")
            + "the accuracy says little."
            + (f" Review again with about **{need:,} iterations** per decision (asked once: "
               "at that budget the page says how fine the review is, without asking for "
               "more)." if need else ""))


def noise_note(rows) -> str | None:
    """A line for a review at the budget an earlier warning asked for, still coarser than
    the smallest flagged loss: how fine it is, and where the table shows it."""
    res = resolution(list(rows))
    smallest = min(t for _, t in THRESHOLDS)
    if res is None or res < smallest:
        return None
    return (f"At this budget a move's loss is known to ±{res:.0f} win-% points (median): a "
            "loss within its noise is not flagged; the table shows each loss with its ±.")
