"""Who may do and see what: game ids, seat and host tokens, display names, and the view of a
game that each kind of visitor gets.

A token is ``secrets.token_urlsafe(24)`` (192 random bits, 32 characters). Only its SHA-256
is stored (a token that random needs no salt); a presented token is checked for its form
before any lookup and compared with ``hmac.compare_digest``. No token is ever logged or put
in a message, an exception or a ``repr``.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field
from functools import cached_property

import boardlab

GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
NAME_MAX = 40

#: Who a view is for: a game without tokens (solo or hot-seat: the link is the key, the
#: screen is shared); a seat of a table; its host; anyone else with the game id.
LOCAL, SEAT, HOST, SPECTATOR = "local", "seat", "host", "spectator"


class AccessDenied(PermissionError):
    """This link may not do or see that (a wrong, altered or malformed token, a spectator
    trying to move, a seat trying a host action). Carries no game state."""


def new_game_id() -> str:
    return secrets.token_urlsafe(12)


def check_game_id(game_id) -> str:
    """``game_id`` if it has the form of a game id, else ValueError (before any lookup: an
    id is never used as a path)."""
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise ValueError(f"not a game id: {str(game_id)[:60]!r} (expected 8-40 letters, "
                         "digits, '-' or '_')")
    return game_id


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def check_token(token) -> str:
    """``token`` if it has the form of a seat or host token, else AccessDenied (the message
    never repeats what was given)."""
    if not isinstance(token, str) or not TOKEN.fullmatch(token):
        raise AccessDenied("not a valid seat or host link (its token is malformed)")
    return token


def same_token(token_hash_: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented token's hash with a stored one."""
    return stored_hash is not None and hmac.compare_digest(token_hash_, stored_hash)


def check_name(name) -> str | None:
    """A display name: None, or 1-40 printable characters (spaces trimmed); else ValueError."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise ValueError(f"a name must be text, got {type(name).__name__}")
    name = name.strip()
    if not name or len(name) > NAME_MAX or not name.isprintable():
        raise ValueError(f"a name must be 1-{NAME_MAX} printable characters")
    return name


# --- what a visitor may see -------------------------------------------------------------------
def public_observation(state) -> dict:
    """What every seat knows: the parts of the seats' observations that are the same for all
    of them (a seat's own hand, its secret choices, what only it was shown, differ and
    become None). For a one-seat game, that seat's view (no other seat to hide it from)."""
    views = [state.observation(p) for p in range(state.game.num_players)]
    out = _common(views)
    if isinstance(out, dict) and "viewer" in out:
        out["viewer"] = None
    return out


def _common(values: list):
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in first if all(k in v for v in values[1:])]
        return {k: _common([v[k] for v in values]) for k in keys}
    if all(isinstance(v, list) and len(v) == len(first) for v in values):
        return [_common([v[i] for v in values]) for i in range(len(first))]
    return None


def move_log(state, viewer: int | None, everything: bool = False) -> list[str]:
    """Every seat's move so far as ``viewer`` may read it ("P1 play B3", "P2 exchanges a
    card"): a seat's own moves in full, the others' as the rules let that seat see them;
    ``viewer`` None: as a spectator may (what a seat other than the mover sees);
    ``everything``: every move in full. Chance is not listed. ``state`` is the real
    position; the lines say nothing ``viewer`` may not know."""
    from boardlab.cli import move_text
    from ..session import start_of
    n = state.game.num_players
    s = start_of(state)
    lines = []
    for a in state.history:
        actor = s.current_player
        if actor >= 0:
            if everything:
                look = actor
            else:
                look = viewer if viewer is not None else ((actor + 1) % n if n > 1 else -1)
            lines.append(move_text(state.game.name, s, a, actor, look))
        s.apply(a)
    return lines


@dataclass(frozen=True)
class Settings:
    """A table's settings (the host's to change)."""
    public: bool = False            # listed in the lobby, with its free seats
    hints: bool = False             # hints and the evaluation bar (off: a fair game)
    undo: str = "consent"           # "consent": the other humans must agree; "off"
    move_timer: float | None = None  # seconds a seat has to move before the AI moves for it

    def checked(self) -> "Settings":
        if type(self.public) is not bool or type(self.hints) is not bool:
            raise ValueError("public and hints must be True or False")
        if self.undo not in ("consent", "off"):
            raise ValueError(f"undo must be 'consent' or 'off', got {self.undo!r}")
        t = self.move_timer
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float))
                              or not 5 <= t <= 86400):
            raise ValueError(f"move_timer must be None or 5-86400 seconds, got {t!r}")
        return self


@dataclass(frozen=True)
class SeatInfo:
    """What everyone at a table may know of a seat."""
    seat: int
    kind: str                       # "human" or "ai", as the table was created
    to_ai: bool                     # a human seat the host handed to the AI
    name: str | None
    joined: bool                    # its link has been used (or it was taken in the lobby)
    last_seen: float | None         # unix time of its browser's last sign of life (None
                                    # once joined: its player left the table)

    @property
    def played_by_ai(self) -> bool:
        return self.kind == "ai" or self.to_ai


@dataclass(frozen=True)
class UndoRequest:
    seat: int                       # who asked to take back their last decision
    version: int                    # the position it is for (a move cancels it)
    agreed: tuple[int, ...]         # the seats that agreed so far
    waiting: tuple[int, ...]        # the seats whose answer is still needed


@dataclass(frozen=True, repr=False)
class TableView:
    """One visitor's view of a game at one version: only what that visitor may know.

    ``role`` says whose view it is: LOCAL (a game without tokens: the whole game, as the one
    shared screen shows it today), SEAT (``seat``'s own observation and choices), HOST or
    SPECTATOR (what every seat knows). Once the table has ended every role sees everything:
    ``record`` and ``state`` are then the real game."""
    game_id: str
    version: int                    # of the position: pass it back as expected_version
    revision: int                   # of the whole table (seats, settings, undo requests too)
    role: str
    seat: int | None                # the seat this link holds (role SEAT)
    game: str                       # "kitsu", ...
    params: dict
    players: int
    status: str                     # "open" (free human seats), "running", "ended"
    settings: Settings
    seats: tuple[SeatInfo, ...]
    to_move: int                    # the seat to move, or boardlab.TERMINAL
    ai_to_move: bool                # the AI plays the seat to move now (a server will move)
    turn_deadline: float | None     # unix time the move timer gives the seat to move to the AI
    observation: dict               # this visitor's view of the position
    legal: tuple[tuple[int, str], ...]  # (action, notation) when this seat is to move, else ()
    log: tuple[str, ...]            # the seats' moves as this visitor may read them
    # ``state`` (made on first use: a page that only shows the view never needs it): role
    # SEAT, game running: a position consistent with everything the seat knows, its hidden
    # parts invented (State.determinize): for move widgets, and for hints or the evaluation
    # bar (search it with player=seat). LOCAL or ended: the real position. Else None.
    make_state: object = field(repr=False, compare=False)    # () -> state
    record: dict | None             # the full record: LOCAL, or any role once ended
    result: tuple[float, ...] | None  # each seat's return once the game is over
    undo: UndoRequest | None
    can_undo: bool                  # this seat may ask to take back its last decision
    story: object = None            # the store's story hook's answer for this visitor, if any

    @cached_property
    def state(self):
        return self.make_state()

    @property
    def my_turn(self) -> bool:
        return self.role == SEAT and bool(self.legal)

    def __repr__(self):
        return (f"<TableView {self.role}{'' if self.seat is None else ' ' + str(self.seat)} of "
                f"{self.game} at version {self.version}, {self.status}>")


@dataclass(frozen=True, repr=False)
class NewTable:
    """A table just created: its id and its links' tokens (shown once: only hashes are
    kept). ``seat_tokens`` maps each human seat to its token."""
    game_id: str
    host_token: str
    seat_tokens: dict

    def __repr__(self):          # tokens stay out of logs and tracebacks
        return f"<NewTable {self.game_id}: host and {len(self.seat_tokens)} seat links>"


@dataclass(frozen=True)
class LobbyEntry:
    game_id: str
    game: str
    params: dict
    players: int
    free_seats: tuple[int, ...]     # human seats nobody has taken yet
    names: tuple[str | None, ...]   # each seat's display name
    created: float


TERMINAL = boardlab.TERMINAL
