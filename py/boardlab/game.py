"""The public game API: ``make()``, ``Game`` and ``State``.

>>> import boardlab
>>> game = boardlab.make("kitsu", players=4, seed=7)
>>> state = game.new_initial_state()
>>> state.is_chance()                  # the first leader is drawn
True
>>> state.apply(int(state.legal_actions()[0]))
>>> len(state.history)
1
>>> a = int(state.legal_actions()[0])
>>> state.parse_action(state.action_to_string(a)) == a
True
"""
from __future__ import annotations

import json
import math
import operator
import re
from dataclasses import dataclass

import numpy as np

from . import _core
from . import games as _games
from .errors import CHANCE, HIDDEN, TERMINAL, IllegalActionError, RecordError, brief_repr
from .facts import param_values
from .games.seen_history import SeenHistory
from .records import make_record, parse_record

_MAX_SEED = 2**64
#: A move number in parse_action: ASCII digits only ("٣" is not 3), at most 9 of
#: them after the sign and leading zeros (action ids are int32; longer is no move).
_INT_TEXT = re.compile(r"[+-]?0*([0-9]{1,9})", re.ASCII)
_LIST_LIMIT = 80  # legal moves listed in an error message
#: Largest ``n`` of Game.random_playouts (the kernel counts playouts in an int32).
MAX_PLAYOUTS = 2**31 - 1


def _norm(text: str) -> str:
    """Move notation compared case-insensitively with whitespace collapsed."""
    return " ".join(text.split()).casefold()


def _check_seed(seed, what="seed"):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"{what} must be an int in [0, 2**64), got {brief_repr(seed)}")
    seed = int(seed)
    if not 0 <= seed < _MAX_SEED:
        raise ValueError(f"{what} must be an int in [0, 2**64), got {brief_repr(seed)}")
    return seed


def _as_int(value):
    """int(value) for ints and numpy integers (not bools); None otherwise."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _json_facts(value, where: str = ""):
    """Position facts as the record will hold them: plain JSON (numpy scalars become numbers,
    a tuple a list, an int key a string), so that the position built and the one its record
    replays are the same. A value JSON cannot hold is a ValueError naming where it is."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
    elif isinstance(value, (list, tuple)):
        return [_json_facts(v, f"{where}[{i}]") for i, v in enumerate(value)]
    elif isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(k, np.generic):
                k = k.item()
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                raise ValueError(f"{where or 'facts'}: key {brief_repr(k)} is not a string")
            out[str(k)] = _json_facts(v, f"{where}.{k}" if where else str(k))
        return out
    raise ValueError(f"{where or 'facts'} must be a JSON value (a number, string, true/false, null, "
                     f"list or object), got {brief_repr(value)}")


def games_available() -> list[str]:
    """Names accepted by :func:`make`.

    >>> "kitsu" in games_available()
    True
    """
    compiled = set(_core.game_names())
    return [name for name in _games.GAMES if name in compiled]


def make(name: str, seed: int | None = None, **params) -> "Game":
    """Configure game ``name``; parameters not given take the game's defaults.

    >>> import boardlab
    >>> boardlab.make("kitsu", players=4)
    boardlab.make('kitsu', players=4, track_length=15)
    >>> boardlab.make("kitsu", player=4)
    Traceback (most recent call last):
    ...
    ValueError: kitsu: unknown parameter 'player'; parameters are: players, track_length
    """
    if name not in games_available():
        raise ValueError(
            f"unknown game {brief_repr(name)}; available games: {', '.join(games_available())}"
        )
    module = _games.get(name)
    unknown = [k for k in params if k not in module.DEFAULTS]
    if unknown:
        raise ValueError(
            f"{name}: unknown parameter {brief_repr(unknown[0])}; parameters are: "
            f"{', '.join(module.DEFAULTS)}"
        )
    if seed is not None:
        seed = _check_seed(seed)
    full = dict(module.DEFAULTS)
    full.update(param_values(name, module.DEFAULTS, params))
    vector = module.kernel_params(dict(full))
    core = _core.CoreGame(module.NAME, vector)
    return Game(name, full, seed, module, core)


@dataclass
class PlayoutStats:
    """Result of :meth:`Game.random_playouts`."""

    #: (n, num_players) array, row i = returns of playout i.
    returns: np.ndarray
    #: Total number of actions applied over all playouts (chance included).
    actions: int

    @property
    def mean(self) -> np.ndarray:
        """Mean return per seat."""
        return self.returns.mean(axis=0)


def sides(module, num_players: int) -> tuple[list[str], list[int]]:
    """:attr:`Game.sides` of a game module's table of ``num_players`` seats."""
    teams = getattr(module, "TEAMS", None)
    if teams:
        return list(teams), [s % len(teams) for s in range(num_players)]
    return [f"P{s}" for s in range(num_players)], list(range(num_players))


class Game:
    """A configured game. Build one with :func:`boardlab.make`."""

    def __init__(self, name, params, seed, module, core):
        self._name = name
        self._params = dict(params)
        self._seed = seed
        self._module = module
        self._core = core

    # -- description ------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def params(self) -> dict:
        """Every parameter, defaults filled in (a copy)."""
        return dict(self._params)

    @property
    def seed(self) -> int | None:
        """The seed given to make() (None if none was)."""
        return self._seed

    @property
    def num_players(self) -> int:
        return self._core.num_players

    @property
    def num_actions(self) -> int:
        """Size of the fixed action space: actions are ints in [0, num_actions)."""
        return self._core.num_actions

    @property
    def sides(self) -> tuple[list[str], list[int]]:
        """``(side names, side of each seat)``: who wins and loses together. A game module's
        ``TEAMS`` names teams whose seats alternate (Kitsu's clans); else each seat is a side
        of its own, P0, P1, ..."""
        return sides(self._module, self.num_players)

    @property
    def zero_sum(self) -> bool:
        """Whether the seats' returns always sum to 0. Every game's returns rank the seats on
        [-1, 1] (a clan's seats share theirs), so every table of two or more seats is; a solo
        game's return is the player's result alone."""
        return self.num_players > 1

    def _same_config(self, other: "Game") -> bool:
        return self._name == other._name and self._params == other._params

    def __eq__(self, other):
        if not isinstance(other, Game):
            return NotImplemented
        return self._same_config(other) and self._seed == other._seed

    def __hash__(self):
        return hash((self._name, tuple(sorted(self._params.items())), self._seed))

    def __repr__(self):
        parts = [repr(self._name)]
        if self._seed is not None:
            parts.append(f"seed={self._seed!r}")
        parts += [f"{k}={v!r}" for k, v in self._params.items()]
        return f"boardlab.make({', '.join(parts)})"

    # -- states -----------------------------------------------------------
    def new_initial_state(self, seed: int | None = None) -> "State":
        """The initial state. ``seed`` seeds the state's own random stream
        (None: the make() seed, or 0); same seed, same state."""
        if seed is None:
            seed = 0 if self._seed is None else self._seed
        seed = _check_seed(seed)
        return State(self, self._core.new_state(seed), seed)

    def position(self, seat: int, seed: int = 0, **facts) -> "State":
        """A position as one seat knows it at a real table, to analyse it.

        ``facts`` are game-specific JSON values (they are saved in the
        record; for Kitsu: hand, leader, trick, discard, pawns, rounds_won,
        tokens, ...; see the game module's ``position_params``). What the seat
        cannot know is dealt at random with ``seed``: search from that seat
        determinizes it anyway. A bad or inconsistent fact (wrong type, out of
        range, impossible with the rest) raises ValueError naming it.
        """
        seat = self._position_seat(seat)
        seed = _check_seed(seed)
        try:
            plain = _json_facts(facts)
        except ValueError:      # the game's own check names a bad fact its way, if it finds it
            self._start(seed, {"seat": seat, "facts": facts})
            raise
        position = {"seat": seat, "facts": plain}
        return State(self, self._start(seed, position), seed, position=position)

    def _position_seat(self, seat) -> int:
        n = self.num_players
        p = _as_int(seat)
        if p is None or not 0 <= p < n:
            raise ValueError(f"seat must be a seat in [0, {n}), got {brief_repr(seat)}")
        return p

    def _start(self, seed: int, position: dict | None):
        """The kernel state a game (or a record) starts from."""
        if position is None:
            return self._core.new_state(seed)
        build = getattr(self._module, "position_params", None)
        if build is None:
            raise ValueError(f"{self._name}: setting up a position is not supported")
        seat = self._position_seat(position["seat"])
        vector = build(self._params, seat, dict(position["facts"]))
        return self._core.setup_state(vector, seed)

    def replay(self, record) -> "State":
        """Rebuild the state a record (dict or JSON text) describes, checking
        every action; :class:`boardlab.RecordError` naming the first problem
        (which key, which action index) if it does not replay."""
        rec = parse_record(record)
        if rec["game"] != self.name:
            raise RecordError(f"record is of game {brief_repr(rec['game'])}, not {self.name!r}")
        unknown = [k for k in rec["params"] if k not in self._module.DEFAULTS]
        if unknown:
            raise RecordError(
                f"record 'params' has unknown parameter {brief_repr(unknown[0])} for {self.name}")
        params = dict(self._module.DEFAULTS)
        params.update(rec["params"])
        if params != self.params:
            raise RecordError(
                f"record 'params' {brief_repr(params)} differ from this game's {self.params}")

        seed = rec["seed"]
        position = rec.get("position")
        try:
            start = self._start(seed, position)
        except ValueError as e:
            raise RecordError(f"record 'position' rejected: {e}") from None
        state = State(self, start, seed, position=position)
        core = state._core
        moves = rec.get("moves")
        for i, a in enumerate(rec["actions"]):
            legal = state.legal_actions().tolist()
            if a not in legal:
                where = "the game is already over" if state.is_terminal() else "it is not legal there"
                raise RecordError(f"actions[{i}] = {brief_repr(a)} cannot be applied: {where}")
            if moves is not None:
                note = core.action_to_string(a)
                if _norm(note) != _norm(moves[i]):
                    raise RecordError(
                        f"moves[{i}] = {brief_repr(moves[i])} does not match actions[{i}] = {a} ({note!r})")
            core.apply(a)
            state._history.append(a)

        result = rec.get("result")
        if state.is_terminal():
            returns = state.returns()
            if result is None:
                raise RecordError(
                    f"record 'result' is null but the game is over with returns {returns.tolist()}")
            if len(result) != len(returns) or not np.allclose(result, returns, rtol=0, atol=1e-9):
                raise RecordError(
                    f"record 'result' {brief_repr(result)} does not match the replayed returns {returns.tolist()}")
        elif result is not None:
            raise RecordError(
                f"record gives 'result' {brief_repr(result)} but the game is not over after "
                f"{len(rec['actions'])} actions")
        return state

    def random_playouts(self, n: int, seed: int = 0, state: "State | None" = None) -> PlayoutStats:
        """Play ``n`` uniformly random games to the end, in C.

        Starts from ``state`` (default: the initial state); each playout gets
        its own chance stream derived from ``seed``. Same seed, same result.
        """
        n_int = _as_int(n)
        if n_int is None or not 0 <= n_int <= MAX_PLAYOUTS:
            raise ValueError(f"n must be an int in [0, {MAX_PLAYOUTS}], got {brief_repr(n)}")
        seed = _check_seed(seed)
        if state is None:
            state = self.new_initial_state()
        elif not isinstance(state, State) or not self._same_config(state._game):
            raise ValueError("state must be a State of this game")
        returns, actions = self._core.random_playouts(state._core, n_int, seed)
        return PlayoutStats(returns, int(actions))


def _restore_state(game_args, seed, history, determinized, raw, position=None, anchors=()):
    name, game_seed, params = game_args
    game = make(name, seed=game_seed, **params)
    state = State(game, game._core.state_from_bytes(raw), seed, history, determinized, position)
    state._anchors = tuple((k, game._core.state_from_bytes(b)) for k, b in anchors)
    return state


class _Replay:
    """A kernel state replaying a State's history from its start, across the out-of-band
    changes a test scenario made (State._changed_out_of_band): after the k-th action it
    continues from the copy taken at that change, so every action replayed was legal
    where it was played."""

    def __init__(self, start, anchors):
        self._state, self._anchors, self._n = start, list(anchors), 0
        self._switch()

    def _switch(self):
        while self._anchors and self._anchors[0][0] == self._n:
            self._state = self._anchors.pop(0)[1].clone()

    def apply(self, action):
        self._state.apply(action)
        self._n += 1
        self._switch()

    def __getattr__(self, name):
        return getattr(self._state, name)


def replay(record):
    """Make the record's game and replay it (``boardlab.replay``)."""
    rec = parse_record(record)
    try:
        game = make(rec["game"], seed=rec["seed"], **rec["params"])
    except RecordError:
        raise
    except (ValueError, TypeError) as e:
        raise RecordError(f"record 'game'/'params' rejected: {e}") from None
    return game.replay(rec)


class State:
    """One position of a game. Build with :meth:`Game.new_initial_state`."""

    __slots__ = ("_game", "_core", "_seed", "_history", "_determinized", "_position", "_anchors",
                 "_seen")

    def __init__(self, game, core, seed, history=(), determinized=False, position=None):
        self._game = game
        self._core = core
        self._seed = seed
        self._history = list(history)
        self._determinized = determinized
        self._position = position  # set-up facts when made by Game.position()
        self._anchors = ()          # (history length, kernel copy) at each out-of-band change
        self._seen = {}             # seat -> (SeenHistory class, history length, its reader)

    def _changed_out_of_band(self):
        """A test scenario (boardlab._<game>_scenario) edited the kernel state directly:
        the history no longer replays from the start into it, so keep a copy to replay on from."""
        kept = tuple(a for a in self._anchors if a[0] != len(self._history))
        self._anchors = kept + ((len(self._history), self._core.clone()),)
        self._seen = {}

    def _replay_start(self):
        """A kernel state at the start of the history, to replay it action by action."""
        start = self._game._start(self._seed, self._position)
        return _Replay(start, self._anchors) if self._anchors else start

    # -- whose turn -------------------------------------------------------
    @property
    def game(self) -> Game:
        return self._game

    @property
    def current_player(self) -> int:
        """Seat to move, :data:`boardlab.CHANCE` or :data:`boardlab.TERMINAL`."""
        return self._core.current_player()

    def is_chance(self) -> bool:
        return self._core.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self._core.current_player() == TERMINAL

    @property
    def history(self) -> list[int]:
        """Every action applied since the initial state (chance included)."""
        return list(self._history)

    @property
    def is_determinized(self) -> bool:
        """True for states made by :meth:`determinize` (and their clones)."""
        return self._determinized

    # -- actions ----------------------------------------------------------
    def legal_actions(self) -> np.ndarray:
        """Legal actions, ascending (at a chance node: the possible outcomes;
        at a terminal state: empty)."""
        player = self._core.current_player()
        if player == TERMINAL:
            return np.zeros(0, dtype=np.int32)
        if player == CHANCE:
            acts, probs = self._core.chance_outcomes()
            return np.sort(acts[probs > 0])
        return self._core.legal_actions()

    def legal_mask(self) -> np.ndarray:
        """Bool array of length game.num_actions, True at legal actions."""
        mask = np.zeros(self._game.num_actions, dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask

    def _describe_legal(self, legal) -> str:
        if len(legal) == 0:
            return "none (the game is over)" if self.is_terminal() else "none"
        items = [f"{a} ({name})" for a, name in self._core.legal_action_names()[:_LIST_LIMIT]]
        if len(legal) > _LIST_LIMIT:
            items.append(f"... {len(legal) - _LIST_LIMIT} more")
        return ", ".join(items)

    def _checked(self, action) -> int:
        """action as an int if legal here, else IllegalActionError."""
        legal = self.legal_actions().tolist()
        a = _as_int(action)
        if a is None:
            raise IllegalActionError(
                f"action must be an int, got {brief_repr(action)}; legal actions: {self._describe_legal(legal)}",
                action, legal)
        if a not in legal:
            why = ("out of range [0, %d)" % self._game.num_actions
                   if not 0 <= a < self._game.num_actions else "not legal here")
            raise IllegalActionError(
                f"illegal action {brief_repr(a)} ({why}); legal actions: {self._describe_legal(legal)}",
                a, legal)
        return a

    def apply(self, action: int) -> None:
        """Apply a legal action; otherwise raise :class:`IllegalActionError`
        (naming the action and the legal ones) and leave the state unchanged."""
        a = self._checked(action)
        self._core.apply(a)
        self._history.append(a)

    def action_to_string(self, action: int) -> str:
        """Move notation of a legal action in this state."""
        return self._core.action_to_string(self._checked(action))

    def parse_action(self, text: str) -> int:
        """The legal action whose notation is ``text`` (case and spacing
        ignored), or whose number ``text`` is (ASCII digits only: "3", "+3",
        "003"; not "٣"); else IllegalActionError."""
        legal = self.legal_actions().tolist()
        if not isinstance(text, str):
            raise IllegalActionError(f"move text must be a str, got {brief_repr(text)}", text, legal)
        key = _norm(text)
        named = self._core.legal_action_names()
        for a, name in named:
            if _norm(name) == key:
                return a
        number = _INT_TEXT.fullmatch(key)
        if number:
            value = int(number.group(1)) * (-1 if key.startswith("-") else 1)
            if value in legal:
                return value
        names = [name for _, name in named[:_LIST_LIMIT]]
        listed = ", ".join(repr(n) for n in names) or "none"
        raise IllegalActionError(
            f"no legal move matches {brief_repr(text)}; legal moves: {listed}", text, legal)

    def apply_string(self, text: str) -> int:
        """Parse ``text`` (see :meth:`parse_action`), apply it, return the action."""
        a = self.parse_action(text)
        self.apply(a)
        return a

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """[(action, probability)] at a chance node, ascending; [] elsewhere."""
        if self._core.current_player() != CHANCE:
            return []
        acts, probs = self._core.chance_outcomes()
        order = np.argsort(acts, kind="stable")
        return [(int(acts[i]), float(probs[i])) for i in order]

    # -- values -----------------------------------------------------------
    def returns(self) -> np.ndarray:
        """Reward per seat (all zero until the game is over)."""
        return self._core.returns()

    def evaluate(self) -> np.ndarray:
        """Heuristic value per seat in [-1, 1]. Reads the full state: call it
        on a determinized state or your own perfect-information copy. At the
        end it is what the search backs up: the returns, except that a lost
        Keyside solo game is graded by how near it came (-1 to -0.5)."""
        return self._core.evaluate()

    # -- information ------------------------------------------------------
    def _seat(self, player, what="player") -> int:
        p = _as_int(player)
        n = self._game.num_players
        if p is None or not 0 <= p < n:
            raise ValueError(f"{what} must be a seat in [0, {n}), got {brief_repr(player)}")
        return p

    def observation(self, player: int) -> dict:
        """JSON-able dict of exactly what ``player`` knows."""
        return json.loads(self._core.observe_json(self._seat(player)))

    def full_observation(self) -> dict:
        """The whole state as a dict (what an onlooker who sees everything knows)."""
        return json.loads(self._core.observe_json(-1))

    def determinize(self, player: int, seed: int) -> "State":
        """A new full state sampled from ``player``'s information set: what
        they know is kept, everything else resampled with ``seed``. Its
        ``history`` is the history as ``player`` saw it (see
        :meth:`observed_history`); it cannot be saved as a record."""
        p = self._seat(player)
        seed = _check_seed(seed)
        return State(self._game, self._core.determinize(p, seed), self._seed,
                     self.observed_history(p), True, self._position)

    def observed_history(self, player: int) -> list[int]:
        """The history as ``player`` saw it: every action they never saw is
        :data:`boardlab.HIDDEN`. A game module may say precisely what each seat
        saw (its ``SeenHistory`` reader, which may also merge or drop hidden
        actions, e.g. a whole hidden turn is one entry); otherwise only the
        seat's own actions are shown. A determinized state's past is a sample,
        not a game: its whole history is hidden."""
        p = self._seat(player)
        if self._determinized:
            return [HIDDEN] * len(self._history)
        rule = getattr(self._game._module, "SeenHistory", SeenHistory)
        n = len(self._history)
        kept = self._seen.get(p)
        # The history only grows (a scenario's edit empties _seen), so a reader kept for a
        # shorter one has read this history's first actions: go on from a copy of it (the
        # kept one may be shared with clones, so it never changes).
        if kept is not None and kept[0] is rule:
            done, reader = kept[1], kept[2]
            if done < n:
                reader = reader.copy()
        elif self._anchors:              # (a _Replay cannot be copied; scenarios are short)
            return rule.of(self._replay_start(), self._history, p)
        else:
            done, reader = 0, rule(self._replay_start(), p)
        for a in self._history[done:]:
            reader.read(a)
        self._seen[p] = (rule, n, reader)
        return reader.entries()

    def clone(self) -> "State":
        """An independent copy."""
        copy = State(self._game, self._core.clone(), self._seed, self._history,
                     self._determinized, self._position)
        copy._anchors = self._anchors
        copy._seen = dict(self._seen)
        return copy

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        g = self._game
        return (_restore_state, ((g._name, g._seed, g._params), self._seed,
                                 self._history, self._determinized, self._core.to_bytes(),
                                 self._position,
                                 tuple((k, c.to_bytes()) for k, c in self._anchors)))

    def to_record(self) -> dict:
        """The versioned JSON record of this game so far (see boardlab.records)."""
        if self._determinized:
            raise ValueError("a determinized state is a sample, not a real game: it has no record")
        if self._anchors:
            raise ValueError("a test scenario edited this state directly: its actions do not "
                             "replay into it, so it has no record")
        return make_record(self)

    # -- comparison and display ---------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return (self._game._same_config(other._game)
                and self._core.to_bytes() == other._core.to_bytes())

    def __hash__(self):
        # Hash of the current position: do not mutate a state kept in a set.
        return hash((self._game._name, self._core.to_bytes()))

    def __str__(self):
        return self._game._module.render(self.full_observation())

    def __repr__(self):
        p = self.current_player
        who = {CHANCE: "chance", TERMINAL: "over"}.get(p, f"seat {p} to move")
        flag = ", determinized" if self._determinized else ""
        return (f"<boardlab.State of {self._game!r}: seed={self._seed}, "
                f"{len(self._history)} actions, {who}{flag}>")
