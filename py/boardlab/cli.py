"""The ``boardlab`` command line.

    boardlab play kitsu --players 2 [--seat N] [--ai SPEC] [--seed S] [--track-length L]
    boardlab arena kitsu --players 4 --agents random ismcts:200 [--games G] [--seed S] [--jobs J]
    boardlab arena kitsu --players 2 --ladder [--agents A B C ...] [--games G per pair] [--plot F]
    boardlab arena ... --backend ray [--address HOST:PORT]      (games as Ray tasks)
    boardlab analyse RECORD.json ... --out FILE.parquet|.csv [--budget 1000] [--backend ray]
    boardlab app [--port N] [--host H]
    boardlab train kitsu --players 2 --hours 6 --out DIR [--jobs N] [--ray ADDRESS] [--seed S]
    boardlab nets [--markdown] [--nets-dir DIR]
    boardlab nets ship RUN [--nets-dir DIR]

``play`` lets a person play in the terminal against AI seats (every other seat, teammates
included). Before each of the person's decisions it shows only what their seat may see
(the seat's observation, drawn by the game module's ``render``) and the numbered legal moves.
It reads standard input line by line, so a script can drive it through a pipe.

``app`` serves the browser app (Streamlit) from the installed package.

``arena`` plays a match between agents (see :mod:`boardlab.arena`) and prints win rates with
95% Wilson intervals; ``--backend ray`` plays the games as Ray tasks (:mod:`boardlab.parallel`).

``analyse`` reviews every decision of saved game records (:mod:`boardlab.analysis`).

``train`` trains a policy-value network by self-play (:mod:`boardlab.learn.run`; needs the
``train`` extra), resuming the run already in ``--out`` if there is one.

``nets`` lists the networks that ship (:mod:`boardlab.nets.manifest`) and checks every file
against the manifest, exiting 1 with each fault; ``nets ship RUN`` copies a finished run's
best network into the networks folder with its manifest entry (:mod:`boardlab.learn.ship`).

Bad options and unknown games end with a message and exit code 2, never a traceback.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import importlib
import json
import pkgutil
import random
import sys
from pathlib import Path

__all__ = ["main", "build_parser"]

DEFAULT_AI = "ismcts:50000"   # about a quarter of a second a move, reproducible by seed
HINT_AI = "ismcts:1000"     # hints when the opponents are random


class UsageError(Exception):
    """A bad option value found after parsing (exit code 2)."""


# --- games and parameters --------------------------------------------------------------------
def available_games() -> list[str]:
    """Names of the registered games (``boardlab.games.GAMES``)."""
    try:
        from boardlab.games import GAMES
        return list(GAMES)
    except ImportError:
        import boardlab.games as games_pkg
        return sorted(m.name for m in pkgutil.iter_modules(games_pkg.__path__)
                      if not m.name.startswith("_"))


def _game_module(name: str):
    games = available_games()
    if name not in games:
        raise UsageError(f"unknown game {name!r} (available: {', '.join(games) or 'none'})")
    return importlib.import_module(f"boardlab.games.{name}")


def _parse_value(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return text


def _game_params(args) -> dict:
    """Game parameters from --players, --track-length and --param KEY=VALUE."""
    params = {}
    for item in args.param or []:
        if "=" not in item:
            raise UsageError(f"--param expects KEY=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        params[key.strip().replace("-", "_")] = _parse_value(value.strip())
    if args.players is not None:
        params["players"] = args.players
    if getattr(args, "track_length", None) is not None:
        params["track_length"] = args.track_length
    return params


def _make_game(name: str, params: dict, seed=None):
    import boardlab
    _game_module(name)
    try:
        return boardlab.make(name, seed=seed, **params)
    except (ValueError, TypeError, KeyError) as e:
        raise UsageError(f"bad parameters for {name}: {e}") from None


def _make_agent(spec: str, seed: int, allow_open_hands: bool = False, game=None):
    """The agent of ``spec``; UsageError if the spec is bad or (given ``game``) the agent
    cannot play it."""
    from .agents import check_fits
    from .arena import _build_agent
    try:
        agent = _build_agent(spec, seed, allow_open_hands)
    except (ValueError, TypeError, KeyError) as e:
        raise UsageError(f"bad agent spec {spec!r}: {e}") from None
    if game is not None:
        try:
            check_fits(agent, game)
        except ValueError as e:
            raise UsageError(f"agent {spec!r}: {e}") from None
    return agent


# --- what a seat may see of a move ----------------------------------------------------------
# Kitsu action ranges (kernel/kitsu/kitsu.h).
_K_PLAY_TOKEN, _K_GIVE, _K_SIDE, _K_RECOVER, _K_TOKEN, _K_DEAL = 15, 30, 45, 53, 68, 79
_K_TOKEN_HIDDEN = 2


def _kitsu_hidden_token_holder(state, viewer: int):
    """Seat holding the Hidden-card token as ``viewer`` sees it (holders are public), or None."""
    try:
        obs = state.observation(viewer)
    except Exception:   # noqa: BLE001 - a view we cannot read: assume not held
        return None
    for key in ("token_holder", "token_holders", "tokens"):
        holders = obs.get(key) if isinstance(obs, dict) else None
        if isinstance(holders, list) and len(holders) > _K_TOKEN_HIDDEN:
            h = holders[_K_TOKEN_HIDDEN]
            if isinstance(h, dict):
                h = h.get("holder", h.get("seat"))
            return h if isinstance(h, int) and h >= 0 else None
        if isinstance(holders, dict):
            for k, h in holders.items():
                if "hidden" in str(k).lower():
                    if isinstance(h, dict):
                        h = h.get("holder", h.get("seat"))
                    return h if isinstance(h, int) and h >= 0 else None
    return None


def _kitsu_public_text(state, action: int, actor: int, viewer: int):
    """What ``viewer`` may read of ``actor``'s move, or None when the notation is public."""
    if _K_GIVE <= action < _K_SIDE:
        return f"P{actor} exchanges a card"
    if _K_PLAY_TOKEN <= action < _K_GIVE and _kitsu_hidden_token_holder(state, viewer) == actor:
        return f"P{actor} plays a card face down under the Hidden-card token"
    return None


def _kitsu_events(before: dict, after: dict) -> list[str]:
    """Public events between two observations of one seat: tricks and rounds won."""
    events = []
    if after.get("tricks", 0) > before.get("tricks", 0):
        last = after.get("last_trick") or {}
        cards = ", ".join(f"P{c['seat']} {c['card'] or '?'}" + (" (destroyed)" if c.get("destroyed")
                                                                    else "")
                          for c in last.get("cards", []))
        won = last.get("winner")
        result = f"{won} wins the trick, +{last.get('moved', 0)}" if won else "no winner"
        events.append(f"Trick: {cards} -> {result}. Pawns: Blue {after['pawns'][0]}, "
                      f"Orange {after['pawns'][1]} of {after.get('track_length', '?')}")
    rw0, rw1 = before.get("rounds_won", [0, 0]), after.get("rounds_won", [0, 0])
    for clan, name in enumerate(("Blue", "Orange")):
        if rw1[clan] > rw0[clan]:
            events.append(f"{name} wins round {sum(rw1)} ({rw1[0]}-{rw1[1]} in rounds).")
    return events


_KY_OFFER = 1178   # kernel/kyushu/kyushu.h: KA_OFFER (provinces), then KA_MF (Most/Fewest cards)


def _kyushu_public_text(state, action: int, actor: int, viewer: int):
    """Map turns are simultaneous: the others see nothing until every map is revealed."""
    try:
        phase = state.observation(viewer).get("phase")
    except Exception:   # noqa: BLE001 - a view we cannot read: hide the move
        phase = "map"
    if phase == "map":
        return f"P{actor} works on their map (revealed when everyone has placed)"
    return None


def _keyside_public_text(state, action: int, actor: int, viewer: int):
    """Dice are set in secret, as six values or (year 3, with the option) a dice strip's side:
    the others read one line when a seat has set all six, never its steps (their number would
    tell a strip, and the strips are public)."""
    from .games.keyside import SECRET_DICE, STRIP_SIDES
    if action in SECRET_DICE:
        done = action in STRIP_SIDES or state.observation(actor)["seats"][actor]["dice_set"] == 5
        return f"P{actor} sets their dice in secret" if done else ""
    return None


_PUBLIC_TEXT = {"kitsu": _kitsu_public_text, "kyushu": _kyushu_public_text,
                "keyside": _keyside_public_text}
_EVENTS = {"kitsu": _kitsu_events}
# Chance outcomes everybody sees (the rest -- deals, draws -- are private to their receiver).
_PUBLIC_CHANCE = {"kitsu": lambda action: action < _K_DEAL, "kyushu": lambda action: action >= _KY_OFFER,
                  "keyside": lambda action: action < 96}   # Keyside's setup is all public (< KA_DSET)


def move_text(game_name: str, state, action: int, actor: int, viewer: int) -> str:
    """Notation of a player's move as ``viewer`` may see it (``state`` is before the move);
    "" for a hidden step that is not shown on its own line."""
    if actor != viewer and game_name in _PUBLIC_TEXT:
        hidden = _PUBLIC_TEXT[game_name](state, action, actor, viewer)
        if hidden is not None:
            return hidden
    return f"P{actor} {state.action_to_string(action)}"


# --- play ------------------------------------------------------------------------------------
HELP_TEXT = """\
Enter the number of a move, or its notation as listed.
  hint        what the AI would play in your place (its top 3 moves)
  help, ?     this help
  quit        leave the game"""


def _side_name(game_name: str, seat: int, players: int) -> str:
    from .arena import sides_of
    names, side_of_seat = sides_of(game_name, players)
    return names[side_of_seat[seat]]


def _print(*a, **k):
    print(*a, **k, flush=True)


def _read(prompt: str):
    """One line of input, or None at end of input."""
    try:
        return input(prompt)
    except EOFError:
        return None


def _show_hint(agent, state) -> None:
    try:
        result = agent.analyse(state)
    except Exception as e:  # noqa: BLE001 - a hint must never end the game
        _print(f"(no hint available: {e})")
        return
    if result is None:
        _print("(this AI gives no analysis: try --hint-ai ismcts:1000)")
        return
    stats = list(getattr(result, "stats", None) or [])
    stats.sort(key=lambda s: -float(s.get("visits", 0)))
    if not stats:
        best = getattr(result, "best_action", None)
        if best is not None:
            _print(f"AI suggests: {state.action_to_string(int(best))}")
        return
    _print("AI suggests:")
    for rank, s in enumerate(stats[:3], 1):
        move = s.get("move") or state.action_to_string(int(s["action"]))
        parts = [f"{rank}. {move:<12}"]
        if "visits" in s:
            parts.append(f"visits {int(s['visits']):>6}")
        if s.get("win_prob") is not None:
            parts.append(f"win {100 * float(s['win_prob']):5.1f}%")
        elif s.get("mean") is not None:
            parts.append(f"value {float(s['mean']):+.3f}")
        _print("  " + "  ".join(parts))


def _choose(state, legal, agent_for_hint) -> int | None:
    """Ask the person for a move; None if they quit or input ended."""
    names = [state.action_to_string(int(a)) for a in legal]
    _print("Legal moves:")
    col = max(len(n) for n in names) + 6
    per_line = max(1, 78 // col)
    for i in range(0, len(names), per_line):
        _print("  " + "".join(f"{f'{j + 1}) {names[j]}':<{col}}"
                              for j in range(i, min(i + per_line, len(names)))).rstrip())
    while True:
        line = _read(f"Your move [1-{len(legal)}, notation, hint, help, quit]: ")
        if line is None:
            _print("\nEnd of input: leaving the game.")
            return None
        if not sys.stdin.isatty():      # piped input: echo it so the transcript reads well
            _print(line)
        text = line.strip()
        low = text.lower()
        if not text:
            _print("Please enter a move number or notation ('help' for help).")
            continue
        if low in ("quit", "exit", "q"):
            _print("You left the game.")
            return None
        if low in ("?", "help", "h"):
            _print(HELP_TEXT)
            continue
        if low == "hint":
            _show_hint(agent_for_hint, state)
            continue
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(legal):
                return int(legal[k - 1])
            _print(f"No move number {k}: choose 1 to {len(legal)}.")
            continue
        # notation: exact listed name first (case-insensitive), then the game's parser
        for a, n in zip(legal, names):
            if n.lower() == low:
                return int(a)
        try:
            a = int(state.parse_action(text))
        except Exception as e:  # noqa: BLE001 - any parse failure is a re-prompt
            _print(f"Not a move: {text!r} ({e}). Enter a number 1-{len(legal)} or 'help'.")
            continue
        if a not in [int(x) for x in legal]:
            _print(f"{text!r} is not legal now. Enter a number 1-{len(legal)} or 'help'.")
            continue
        return a


def _result_text(game_name: str, state, seat: int, players: int) -> str:
    from .arena import _winner_side, sides_of
    names, side_of_seat = sides_of(game_name, players)
    returns = [float(r) for r in state.returns()]
    ws = _winner_side(returns, side_of_seat, len(names))
    lines = ["Game over."]
    if players == 1:   # a solo game: won or lost against the game itself
        lines.append("You win!" if returns[0] > 0 else "You lose.")
    elif ws is None:
        lines.append("It is a draw.")
    else:
        seats = [s for s in range(players) if side_of_seat[s] == ws]
        who = names[ws] + (f" ({', '.join(f'P{s}' for s in seats)})"
                           if names[ws] != f"P{seats[0]}" else "")
        lines.append(f"Winner: {who}.")
        lines.append("You win!" if side_of_seat[seat] == ws else "You lose.")
    lines.append("Returns: " + ", ".join(f"P{s} {r:+g}" for s, r in enumerate(returns)))
    return "\n".join(lines)


def cmd_play(args) -> int:
    import boardlab
    module = _game_module(args.game)
    params = _game_params(args)
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    game = _make_game(args.game, params, seed=seed)
    players = game.num_players
    seat = args.seat
    if not 0 <= seat < players:
        raise UsageError(f"--seat must be between 0 and {players - 1}, got {seat}")
    from .arena import _mix
    ai = {s: _make_agent(args.ai, _mix(seed, s, 0xA1), game=game) for s in range(players)
          if s != seat}
    hint_spec = args.hint_ai or (args.ai if args.ai.strip().lower() != "random" else HINT_AI)
    hint_agent = _make_agent(hint_spec, _mix(seed, seat, 0x4E1), game=game)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    side = _side_name(args.game, seat, players)
    you = f"P{seat}" if side == f"P{seat}" else f"P{seat} ({side})"   # no "P0 (P0)"
    you_short = f"P{seat}" if side == f"P{seat}" else f"P{seat}, {side}"
    if players == 1:   # a solo game: no AI seat (hints still use --hint-ai)
        _print(f"{args.game}: solo game, seed {seed}. You are {you}, against the game itself.")
    else:
        _print(f"{args.game}: {players} players, seed {seed}. You are {you}; "
               f"the other seats are played by {args.ai}.")
    _print("Type 'help' at any prompt for help.")
    public_chance = _PUBLIC_CHANCE.get(args.game, lambda a: False)
    events = _EVENTS.get(args.game)
    from .arena import _sample_chance
    while not state.is_terminal():
        player = state.current_player
        before = state.observation(seat) if events else None
        if player == boardlab.CHANCE:
            action = _sample_chance(state, rng)
            if public_chance(action):
                _print(f"* {state.action_to_string(action)}")
            state.apply(action)
            continue
        if player == seat:
            _print("")
            _print(f"===== Your turn ({you_short}) =====")
            _print(module.render(state.observation(seat)))
            action = _choose(state, state.legal_actions(), hint_agent)
            if action is None:
                return 0
        else:
            action = int(ai[player].step(state))
        text = move_text(args.game, state, action, player, seat)
        if text:
            _print(f"> {text}")
        state.apply(action)
        if events:
            for line in events(before, state.observation(seat)):
                _print(f"* {line}")
    _print("")
    _print(module.render(state.observation(seat)))
    _print(_result_text(args.game, state, seat, players))
    return 0


# --- arena -----------------------------------------------------------------------------------
def _check_run_options(args) -> None:
    if getattr(args, "games", 1) < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address needs --backend ray")


def _run_on_backend(run):
    """``run()``, with a missing Ray or an unreachable cluster as a usage error."""
    try:
        return run()
    except (ImportError, ConnectionError) as e:
        raise UsageError(str(e)) from None


def cmd_ladder(args, params) -> int:
    from .ladder import DEFAULT_LADDER, run_ladder
    specs = args.agents or list(DEFAULT_LADDER)
    game = _make_game(args.game, params)
    for spec in specs:
        _make_agent(spec, 0, game=game)
    _check_run_options(args)

    def progress(done, total, a, b, m):
        if args.progress:
            print(f"pair {done}/{total}: {a} vs {b}: {m.wins[0]}-{m.wins[1]}"
                  f"{f' ({m.draws} draws)' if m.draws else ''}", file=sys.stderr, flush=True)
    try:
        result = _run_on_backend(lambda: run_ladder(
            args.game, params, specs, games=args.games, seed=args.seed, jobs=args.jobs,
            bootstrap=args.bootstrap, progress=progress, backend=args.backend,
            address=args.address))
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.json:
        _print(json.dumps(result.to_dict(), indent=1))
    else:
        _print(result.table())
    if args.plot != "none":
        path = args.plot or f"ladder-{args.game}.png"
        _print(f"plot: {result.plot(path)}")
    return 0


def cmd_arena(args) -> int:
    from .arena import play_match, sides_of
    params = _game_params(args)
    game = _make_game(args.game, params)
    if args.ladder:
        return cmd_ladder(args, params)
    if not args.agents:
        raise UsageError("give --agents (one spec per side), or --ladder")
    names, _ = sides_of(args.game, game.num_players)
    if len(args.agents) != len(names):
        hint = ""
        if "players" not in params:   # the game's default count, which the user may not know
            hint = (f" ({game.num_players} players is {args.game}'s default; "
                    f"choose the count with --players)")
        raise UsageError(f"{args.game} with {game.num_players} players needs {len(names)} "
                         f"agents (one per side: {', '.join(names)}), got {len(args.agents)}{hint}")
    for spec in args.agents:
        _make_agent(spec, 0, args.allow_open_hands, game=game)
    _check_run_options(args)

    def progress(done, total):
        if args.progress:
            print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)

    nodes = collections.Counter()
    result = _run_on_backend(lambda: play_match(
        args.game, params, args.agents, args.games, seed=args.seed, jobs=args.jobs,
        progress=progress, backend=args.backend, address=args.address,
        allow_open_hands=args.allow_open_hands, nodes=nodes))
    if args.progress:
        print(file=sys.stderr)
        if args.backend == "ray":   # on a cluster: did every node take part?
            print("games by node: " + ", ".join(f"{n} {c}" for n, c in sorted(nodes.items())),
                  file=sys.stderr)
    if args.json:
        _print(json.dumps(result.to_dict(), indent=1))
    else:
        _print(result.table())
    return 0


# --- analyse ---------------------------------------------------------------------------------
def cmd_analyse(args) -> int:
    from .analysis import analyse_files
    from .errors import RecordError
    _check_run_options(args)
    try:
        summary = _run_on_backend(lambda: analyse_files(
            args.records, args.out, budget=args.budget, seed=args.seed, backend=args.backend,
            jobs=args.jobs, address=args.address, progress=not args.quiet))
    except (ValueError, RecordError) as e:
        raise UsageError(str(e)) from None
    _print(f"{args.out}: {summary['rows']} decisions; {summary['analysed']} records analysed, "
           f"{summary['skipped']} already done")
    return 0


# --- app -------------------------------------------------------------------------------------
def cmd_app(args) -> int:
    if args.port is not None and not 0 < args.port < 65536:
        raise UsageError(f"--port must be between 1 and 65535, got {args.port}")
    try:
        import streamlit  # noqa: F401
    except ImportError:
        raise UsageError("the app needs streamlit: pip install streamlit plotly") from None
    from .streamlit_app import launch
    return launch(port=args.port, host=args.host)


# --- train -----------------------------------------------------------------------------------
#: `boardlab train` options that are settings of the run (RunConfig fields), with their help.
_TRAIN_OPTIONS = [
    ("--seed", int, "seed of the whole run (default {seed})"),
    ("--games-per-gen", int, "self-play games per generation (default {games_per_gen})"),
    ("--iterations", int, "self-play search iterations per decision (default {iterations})"),
    ("--width", int, "network width (default {width})"),
    ("--blocks", int, "residual blocks (default {blocks})"),
    ("--window", int, "generations of self-play the network trains on (default {window})"),
    ("--epochs", int, "passes over the window per generation (default {epochs})"),
    ("--batch", int, "minibatch size (default {batch})"),
    ("--lr", float, "Adam learning rate (default {lr})"),
    ("--weight-decay", float, "Adam weight decay (default {weight_decay})"),
    ("--value-search-weight", float, "share of the self-play search's root estimate in the "
                                     "value target, against the game's outcome (default {value_search_weight})"),
    ("--val-fraction", float, "share of each generation's games held out for validation "
                              "(default {val_fraction}, at least one game)"),
    ("--temperature-moves", int, "decisions of a self-play game chosen by sampling the "
                                 "search's visits, before most-visited (default {temperature_moves})"),
    ("--explore-rate", float, "share of the later self-play decisions played uniformly at "
                              "random, the search's own moves between them (default {explore_rate})"),
    ("--gate-games", int, "games of each gate match, a multiple of the sides; 0: no gate, "
                          "every new network is the best (default {gate_games})"),
    ("--gate-budget", str, "budget per move in gate and strength matches, both sides: "
                           "seconds (0.1s, equal time) or iterations (400) (default {gate_budget})"),
    ("--gate-by", str, "what a solo gate compares on the same deals: wins, or return (the "
                       "mean return, for a result that is a score) (default {gate_by})"),
    ("--strength-games", int, "games against plain ISMCTS per generation, 0 for none "
                              "(default {strength_games})"),
    ("--cpuct", float, "guided search: PUCT constant (default: the search's)"),
    ("--mix", float, "guided search: weight of the network's value against the rollout's "
                     "(default {mix})"),
    ("--late", str, "guided search: the prior of a move new at a grown node, net or uniform "
                    "(default: the search's, net)"),
]


def cmd_train(args) -> int:
    try:
        from .learn.run import ConfigError, train_run
    except ImportError as e:            # pragma: no cover - a damaged install
        raise UsageError(str(e)) from None
    cfg, given = run_config(args)
    params = cfg.params
    tty = sys.stderr.isatty()

    def report(text, transient=False):
        if transient and not tty:           # a log file gets the finished lines only
            return
        print(f"\r{text}\x1b[K" if tty else text, end="" if transient else "\n",
              file=sys.stderr, flush=True)
    backend, address = ("ray", None if args.ray == "local" else args.ray) if args.ray \
        else ("local", None)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    start_net = _start_net(args, params) if args.start_from is not None else None
    try:
        why = _run_on_backend(lambda: train_run(
            args.out, cfg, hours=args.hours, generations=args.generations, backend=backend,
            jobs=args.jobs, address=address, report=report, given=given, start_net=start_net))
    except ConfigError as e:
        option = {"game": f"game {args.game!r}", "params": "game parameters"}.get(
            e.option, "--" + e.option.replace("_", "-"))
        raise UsageError(f"{option}: {e.detail}") from None
    _print(why)
    best = Path(args.out) / "best.blnet"
    _print(f"best network: {best}" if best.exists() else
           "no network has passed its gate yet (no best.blnet)")
    return 0


def run_config(args):
    """(RunConfig, the options the command line set) of parsed `boardlab train` options."""
    from .learn.config import RunConfig
    settings = {f.name: getattr(args, f.name) for f in dataclasses.fields(RunConfig)
                if f.name not in ("game", "params", "variants")
                and getattr(args, f.name, None) is not None}
    params = _game_params(args)
    _make_game(args.game, params)
    if args.vary:
        settings["variants"] = _variants(args.vary)
    given = {"game", *settings} | ({"params"} if params else set())
    return RunConfig(game=args.game, params=params, **settings), given


def _variants(items: list[str]) -> list[dict]:
    """--vary KEY=V1,V2 (repeatable) as game parameter sets: every combination, the first
    KEY slowest."""
    import itertools
    axes = []
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not key.strip() or not values.strip():
            raise UsageError(f"--vary expects KEY=V1,V2,..., got {item!r}")
        key = key.strip().replace("-", "_")
        if any(key == k for k, _ in axes):
            raise UsageError(f"--vary names {key} twice")
        axes.append((key, [_parse_value(v.strip()) for v in values.split(",")]))
    return [dict(zip([k for k, _ in axes], combo))
            for combo in itertools.product(*(vs for _, vs in axes))]


def _start_net(args, params) -> bytes:
    """The bytes of --start-from: the network shipped for the game's configuration
    (default) or a file."""
    from . import nets
    if nets.is_default(args.start_from):
        path = nets.default_path(_make_game(args.game, params))
        if path is None:
            raise UsageError(f"--start-from default: no network ships for {args.game} with "
                             f"these parameters")
    else:
        path = Path(args.start_from)
    try:
        return path.read_bytes()
    except OSError as e:
        raise UsageError(f"--start-from: cannot read {path}: {e.strerror}") from None


# --- nets ------------------------------------------------------------------------------------
def _nets_dir(args) -> Path:
    from .nets import loader
    return Path(args.nets_dir) if args.nets_dir else loader.NETS_DIR


def cmd_nets(args) -> int:
    from .nets import check, listing, manifest
    folder = _nets_dir(args)
    faults = check.faults(folder)
    try:
        _print(listing.markdown_table(folder) if args.markdown else listing.text_table(folder),
               end="" if args.markdown else "\n")
    except manifest.ManifestError:
        pass                                # the check names it
    for fault in faults:
        print(f"boardlab nets: {fault}", file=sys.stderr)
    if faults:
        return 1
    if not args.markdown:
        n = len(manifest.read(folder)["networks"])
        _print(f"{n} networks in {folder}: every file is as the manifest says")
    return 0


def cmd_nets_ship(args) -> int:
    from .learn.ship import ShipError, ship
    from .nets import manifest
    folder = _nets_dir(args)
    try:
        entry = ship(args.run, folder)
    except (ShipError, manifest.ManifestError) as e:
        raise UsageError(f"ship: {e}") from None
    configs = ", ".join(str(c) for c in entry["configs"])
    _print(f"{folder / entry['file']}: generation {entry['made_by']['generation']} of "
           f"{entry['made_by']['run']}, for {entry['game']} {configs}; manifest entry written")
    return 0


# --- parser ----------------------------------------------------------------------------------
def _add_game_options(p) -> None:
    p.add_argument("game", help="game name, e.g. kitsu")
    p.add_argument("--players", type=int, default=None, help="number of players")
    p.add_argument("--track-length", type=int, default=None,
                   help="Kitsu: spaces to absolute wisdom (default from the game's data)")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="any other game parameter (repeatable)")


def _add_backend_options(p) -> None:
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="where the games run: local processes or Ray tasks (default local)")
    p.add_argument("--jobs", type=int, default=None,
                   help="local: worker processes (default 1); ray: CPUs of the local Ray "
                        "started here (default all)")
    p.add_argument("--address", default=None, metavar="HOST:PORT",
                   help="with --backend ray: an existing Ray cluster (HOST:PORT as printed by "
                        "`ray start --head`, ray://HOST:10001, or auto)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardlab", description="Play and analyse tabletop games against a strong AI.")
    from . import __version__
    parser.add_argument("--version", action="version", version=f"boardlab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("play", help="play a game in the terminal against the AI",
                       description="Play in the terminal; every other seat is an AI.")
    _add_game_options(p)
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    p.add_argument("--ai", default=DEFAULT_AI,
                   help=f"agent spec for the AI seats (default {DEFAULT_AI}; "
                        "e.g. random, greedy, ismcts:1000, ismcts:1.5s)")
    p.add_argument("--hint-ai", default=None, help=f"agent spec for hints (default: --ai, or {HINT_AI} if --ai is random)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed for the deal and the AI (default: random, printed)")
    p.set_defaults(func=cmd_play)

    a = sub.add_parser("arena", help="play a match between agents and report win rates",
                       description="Play games between agents (one per side, rotating sides) "
                                   "and print win rates with 95% Wilson intervals.")
    _add_game_options(a)
    a.add_argument("--agents", nargs="+", default=None, metavar="SPEC",
                   help="one agent spec per side (Kitsu: two, one per clan); with --ladder, "
                        "the agents of the ladder")
    a.add_argument("--ladder", action="store_true",
                   help="round robin of the agents (default: random, greedy, ismcts:100, "
                        "ismcts:1000, ismcts:10000, ismcts:0.1s, ismcts:1s) with --games per "
                        "pair: Elo with 95%% bootstrap intervals, a table and a plot")
    a.add_argument("--plot", default=None, metavar="PATH",
                   help="ladder plot file (.png with matplotlib, else .svg; default "
                        "ladder-GAME.png; 'none' for no plot)")
    a.add_argument("--bootstrap", type=int, default=200,
                   help="bootstrap resamples for the ladder's Elo intervals (default 200)")
    a.add_argument("--games", type=int, default=20, help="number of games (default 20)")
    a.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    _add_backend_options(a)
    a.add_argument("--json", action="store_true", help="print the full result as JSON")
    a.add_argument("--allow-open-hands", action="store_true",
                   help="allow the open-hands searcher (cheat:BUDGET), which sees every hidden "
                        "card, as an agent (marked in the report); for measurement only")
    a.add_argument("--progress", action="store_true", help="show progress on stderr")
    a.set_defaults(func=cmd_arena)

    r = sub.add_parser("analyse", aliases=["analyze"],
                       help="review every decision of saved games (Parquet or CSV)",
                       description="Search every decision of the given game records from the "
                                   "seat to move and write, per decision, the AI's move and "
                                   "win %, the move played and the win % lost. A rerun skips "
                                   "the records already in --out.")
    r.add_argument("records", nargs="+", metavar="RECORD",
                   help="game record JSON files (State.to_record(), the app's Save)")
    r.add_argument("--out", required=True, metavar="FILE",
                   help="output file, .parquet (or .pq) or .csv")
    r.add_argument("--budget", default="1000",
                   help="search budget per decision: iterations (1000) or seconds (0.5s), "
                        "optionally with search options (1000:c=0.5) (default 1000)")
    r.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_backend_options(r)
    r.set_defaults(func=cmd_analyse)

    w = sub.add_parser("app", help="open the browser app (Streamlit)",
                       description="Serve the browser app: play against the AI, analyse "
                                   "positions, inspect the search tree, read the rules.")
    w.add_argument("--port", type=int, default=None, help="port to listen on (default 8501)")
    w.add_argument("--host", default=None,
                   help="address to listen on (default: Streamlit's, all interfaces)")
    w.set_defaults(func=cmd_app)

    t = sub.add_parser("train", help="train the AI's network by self-play (needs PyTorch)",
                       description="Expert iteration: generations of self-play by the best "
                                   "agent, training on a replay window, a gate match per "
                                   "generation (docs/learning.md, Training). Resumes the run "
                                   "in --out; its settings are kept, so a resume needs only "
                                   "the game, --out and the budget.")
    _add_game_options(t)
    t.add_argument("--out", required=True, metavar="DIR", help="the run's folder")
    t.add_argument("--hours", type=float, default=None,
                   help="run time budget in hours, counted across resumes")
    t.add_argument("--generations", type=int, default=None,
                   help="stop once this many generations are complete (generation 0 included)")
    t.add_argument("--jobs", type=int, default=None,
                   help="local worker processes for the games (default 1); with --ray, CPUs of "
                        "a local Ray")
    t.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="play the games as Ray tasks on the cluster at ADDRESS (HOST:PORT, "
                        "ray://HOST:10001, auto) or on a local Ray (local)")
    from .learn.config import RunConfig
    defaults = {f.name: f.default for f in dataclasses.fields(RunConfig)}
    for option, kind, text in _TRAIN_OPTIONS:     # the defaults are RunConfig's, one source
        t.add_argument(option, type=kind, default=None, help=text.format(**defaults))
    t.add_argument("--vary", action="append", metavar="KEY=V1,V2,...",
                   help="train one network for several configurations: the game parameter KEY "
                        "takes each value in turn (repeatable: every combination), e.g. "
                        "--vary players=2,3,4,5 --vary most_fewest=false,true")
    t.add_argument("--start-from", default=None, metavar="NET",
                   help="begin with this network instead of plain ISMCTS: default (the one "
                        "shipped for the configuration) or a file such as a run's best.blnet; "
                        "it plays generation 0 and generation 1 trains on from it")
    t.set_defaults(func=cmd_train)

    n = sub.add_parser("nets", help="list the networks that ship and check them",
                       description="List the networks that ship, one row each (game, "
                                   "configurations, file, size, search settings, strength), "
                                   "and check every file against the manifest beside them: "
                                   "exit 1 naming each fault (a missing file, a wrong sha256 "
                                   "or size, a file the manifest does not list, a network the "
                                   "kernel refuses for a configuration it claims).")
    n.add_argument("--markdown", action="store_true",
                   help="print the rows as the markdown table of docs/learning.md, What ships")
    n.add_argument("--nets-dir", default=None, metavar="DIR",
                   help="the networks folder (default: the package's, read by net=default)")
    n.set_defaults(func=cmd_nets)
    ns = n.add_subparsers(dest="nets_command", metavar="COMMAND",
                          title="commands (none: list and check)")
    sh = ns.add_parser("ship", help="ship a finished training run's best network",
                       description="Copy a finished training run's best network into the "
                                   "networks folder as <game>-<key>.blnet and write its "
                                   "manifest entry (configurations, sha256, size, settings, "
                                   "the train command, seed, run, generation, the run's "
                                   "strength match), in place of an entry for the same file.")
    sh.add_argument("run", metavar="RUN", help="the run's folder (boardlab train --out)")
    sh.add_argument("--nets-dir", default=argparse.SUPPRESS, metavar="DIR",
                    help="the networks folder to ship into (default: the package's; a source "
                         "tree's py/boardlab/data/nets to ship with the next release)")
    sh.set_defaults(func=cmd_nets_ship)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UsageError as e:
        parser.exit(2, f"boardlab {args.command}: error: {e}\n")
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
