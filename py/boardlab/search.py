"""Search for hidden-information games: SO-ISMCTS, compiled.

The tree and every iteration (determinize, descend, expand, rollout,
backpropagate) run in C (``kernel/search/ismcts.c``) with the GIL released;
this module validates parameters, runs the search in batches between time and
progress checks, and presents the statistics.

The search only ever sees what the searching seat knows: every iteration starts
by re-determinizing the root from that seat's information set, so two states
that the seat cannot tell apart give the same result for the same seed. The one
exception is asked for by name: ``open_hands=True`` searches the true state
(every hand face up), for reviews and as a yardstick, never for a seat in play.

>>> import boardlab
>>> state = boardlab.make("kitsu", players=2, seed=1).new_initial_state()
>>> while state.current_player == boardlab.CHANCE:            # deal
...     state.apply(int(state.chance_outcomes()[0][0]))
>>> result = ismcts(state, iterations=500, seed=3)
>>> sum(s["visits"] for s in result.stats)
500
>>> result.best_action in state.legal_actions()
True
"""
from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from . import _core, _search
from .errors import brief_repr

__all__ = ["ismcts", "SearchResult", "bytes_per_node", "default_rollout_depth", "default_c",
           "DEFAULT_MAX_NODES", "MAX_ITERATIONS", "MAX_THREADS", "check_budget", "check_options",
           "core_of"]

_MASK64 = (1 << 64) - 1
#: Default tree-size cap: 4M nodes = 128 MiB at 32 bytes per node (the tree
#: grows by about one node per iteration; past the cap it keeps iterating
#: without expanding).
DEFAULT_MAX_NODES = 1 << 22
DEFAULT_C = 0.7         # the UCB constant of a game that tunes none (search_defaults)
#: Most root-parallel trees one search runs. More threads than cores only slow
#: each tree down, and each thread runs a first batch before it looks at the
#: clock, so an unbounded count would overrun a time budget (and each tree may
#: grow to ``max_nodes``).
MAX_THREADS = 16
_INT32_MAX = 2**31 - 1            # the C tree's int fields (depth, node ids)
#: Largest iteration budget: root visit counts are uint32 in the C tree.
MAX_ITERATIONS = 2**32 - 1


def bytes_per_node() -> int:
    """Bytes of one ISMCTS tree node."""
    return int(_search.bytes_per_node())


MAX_INFER_WORLDS = 4096


def check_infer(infer, open_hands: bool = False) -> int:
    """``infer`` as an int in [0, MAX_INFER_WORLDS]; ValueError naming it otherwise, or
    with open hands (which has nothing to infer)."""
    infer = _check_int("infer", infer, 0, MAX_INFER_WORLDS)
    if infer and open_hands:
        raise ValueError("infer: the open-hands search sees every hand; nothing to infer")
    return infer


def inferred_worlds(state, player: int, n: int, seed: int) -> list:
    """[(kernel world, weight)]: ``n`` determinizations of ``state`` for ``player`` weighted
    by inference from play (Kitsu 2 players). ValueError where it does not apply."""
    core = core_of(state)
    if core.core_game.name != "kitsu" or core.core_game.num_players != 2:
        raise ValueError("infer: inference from play is implemented for Kitsu with 2 players "
                         f"only, not {core.core_game.name} with {core.core_game.num_players}")
    if core is state or getattr(state, "is_determinized", True):
        raise ValueError("infer: needs a game's boardlab.State (its observed history), "
                         "not a kernel state or a determinization")
    from .games.kitsu_inference import weighted_worlds
    return weighted_worlds(state, player, n, seed)


def core_of(state):
    """The kernel state of a ``boardlab.State`` (or a kernel state itself);
    TypeError for anything else."""
    core = getattr(state, "_core", state)
    if not isinstance(core, _core.CoreState):
        raise TypeError(f"state must be a boardlab.State, got {type(state).__name__}")
    return core


def _check_int(name: str, value, low: int, high: int, shown: str | None = None) -> int:
    """``value`` as an int in [low, high]; ValueError naming ``name`` and the range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
            or not low <= int(value) <= high:
        raise ValueError(f"{name} must be an integer in {shown or f'[{low}, {high}]'}, "
                         f"got {brief_repr(value)}")
    return int(value)


def _check_real(name: str, value, positive: bool) -> float:
    rule = f"a finite number {'>' if positive else '>='} 0"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be {rule}, got {brief_repr(value)}")
    try:
        number = float(value)
    except OverflowError:                  # an int past the float range
        number = math.inf
    if not math.isfinite(number) or number < 0 or (positive and number == 0):
        raise ValueError(f"{name} must be {rule}, got {brief_repr(value)}")
    return number


DEFAULT_CPUCT = 1.5     # the guided search's PUCT weight (docs/learning.md)
# The guided search's prior for a move first legal at a node that already has children:
# the network's (an evaluation there) or uniform (none; docs/learning.md measures both).
LATE_CHOICES = ("net", "uniform")


def check_options(c=None, rollout_depth=None, seed=0, max_nodes=None, threads=1,
                  final="visits", bias=0.0, cpuct=None, mix=None, late=None) -> dict:
    """The search options of :func:`ismcts`, checked (ValueError naming the
    option and its allowed range) and normalised; None keeps a default."""
    if not isinstance(final, str) or final not in FINAL_CHOICES:
        raise ValueError(f"final must be one of {', '.join(FINAL_CHOICES)}, got {brief_repr(final)}")
    if mix is not None:
        mix = _check_real("mix", mix, positive=False)
        if mix > 1.0:
            raise ValueError(f"mix must be a number in [0, 1], got {brief_repr(mix)}")
    if late is not None and (not isinstance(late, str) or late not in LATE_CHOICES):
        raise ValueError(f"late must be one of {', '.join(LATE_CHOICES)}, got {brief_repr(late)}")
    return {
        "cpuct": None if cpuct is None else _check_real("cpuct", cpuct, positive=False),
        "mix": mix,
        "late": late,
        "c": None if c is None else _check_real("c", c, positive=False),
        "rollout_depth": None if rollout_depth is None else
        _check_int("rollout_depth", rollout_depth, -1, _INT32_MAX),
        "seed": _check_int("seed", seed, 0, 2**64 - 1, "[0, 2**64)"),
        "max_nodes": None if max_nodes is None else
        _check_int("max_nodes", max_nodes, 1, _INT32_MAX),
        "threads": _check_int("threads", threads, 1, MAX_THREADS),
        "final": final,
        "bias": _check_real("bias", bias, positive=False),
    }


def check_budget(iterations=None, seconds=None) -> tuple:
    """(iterations, seconds), exactly one of them given and valid."""
    if (iterations is None) == (seconds is None):
        raise ValueError("give exactly one of iterations or seconds")
    if iterations is not None:
        return _check_int("iterations", iterations, 1, MAX_ITERATIONS), None
    return None, _check_real("seconds", seconds, positive=True)


def _notation(core, action: int) -> str:
    """Move notation of ``action`` in the kernel state ``core`` (never raises)."""
    try:
        return str(core.action_to_string(int(action)))
    except Exception:                                    # pragma: no cover - kernel quirk
        return f"#{int(action)}"


class _Walker:
    """Names moves along tree paths by replaying them on a determinization.

    Tree nodes below the root were reached from many determinizations (and
    open-loop chance), so a path is named on a representative: a
    determinization from the searching seat's point of view, chance sampled
    with fixed seeds. Where the current representative cannot play a move (a
    different seat is to move, or the move is illegal there), a few other
    representatives of the whole path are tried; failing that, the notation is
    taken from the last state reached (or "#<action>").
    """

    RETRIES = 24

    def __init__(self, root_core, observer: int, seed: int, open_hands: bool = False):
        self.base = root_core
        self.observer = observer
        self.seed = seed & _MASK64
        self.open_hands = open_hands
        self.root = self._fresh(0)

    def _fresh(self, k: int):
        s = (self.seed * 0x9E3779B97F4A7C15 + 0xD1CE + k * 0xBF58476D1CE4E5B9) & _MASK64
        self.rng = np.random.default_rng([self.seed, k, 0x7EA])
        if self.open_hands:                 # that search saw the true state: name on it
            return self.base.clone()
        return self.base.determinize(self.observer, s)

    def _settle(self, core):
        while core.current_player() == -1:                 # chance: sample, fixed seed
            acts, probs = core.chance_outcomes()
            if len(acts) == 0:
                break
            p = np.asarray(probs, dtype=np.float64)
            core.apply(int(acts[int(self.rng.choice(len(acts), p=p / p.sum()))]))
        return core

    @staticmethod
    def _playable(core, player: int, action: int) -> bool:
        return (core is not None and core.current_player() == player
                and action in set(int(a) for a in core.legal_actions()))

    def _step(self, core, player: int, action: int):
        name = _notation(core, action)
        nxt = core.clone()
        nxt.apply(int(action))
        return name, self._settle(nxt)

    def _replay(self, path):
        """A representative in which the whole path is playable, or None."""
        for k in range(1, self.RETRIES + 1):
            core = self._fresh(k)
            ok = True
            for player, action in path:
                if not self._playable(core, player, action):
                    ok = False
                    break
                core = self._step(core, player, action)[1]
            if ok:
                return core
        return None

    def child(self, core, player: int, action: int, path=None):
        """(notation, state after the move or None) for the move (player,
        action) from ``core``, the state reached by ``path`` (list of the
        (player, action) moves before it)."""
        if not self._playable(core, player, action) and path is not None:
            alt = self._replay(path)
            if self._playable(alt, player, action):
                core = alt
        if self._playable(core, player, action):
            return self._step(core, player, action)
        return (_notation(core, action) if core is not None else f"#{action}"), None


@dataclass
class SearchResult:
    """What one search found.

    ``stats`` has one dict per root action (action, move, visits, mean in
    [-1, 1] for the mover, win_prob = (mean + 1) / 2, share = visits / total,
    availability); ``principal_variation`` is the most-visited line as
    ``(seat, notation)`` pairs; :meth:`tree` exports the top of the tree.
    """
    best_action: int
    stats: list
    iterations: int
    seconds: float
    principal_variation: list
    player: int = 0
    seed: int = 0
    nodes: int = 0
    memory_bytes: int = 0
    net_evals: int = 0          # network evaluations (guided search; 0 for the plain one)
    open_hands: bool = False    # searched with every hand face up (sees hidden information)
    _tree: Any = field(default=None, repr=False, compare=False)
    _root: Any = field(default=None, repr=False, compare=False)

    @property
    def best_move(self) -> str:
        for s in self.stats:
            if s["action"] == self.best_action:
                return s["move"]
        return f"#{self.best_action}"

    def tree(self, depth: int = 3, top_k: int = 5) -> dict:
        """The top of the search tree as a plain, JSON-able nested dict.

        Each node: ``move`` (None at the root), ``action``, ``player`` (seat
        that made the move, None at the root), ``visits``, ``mean`` (mover's
        view) and ``children`` (at most ``top_k``, most visited first), down
        to ``depth`` moves below the root.
        """
        depth = _check_int("depth", depth, 0, _INT32_MAX)
        top_k = _check_int("top_k", top_k, 1, _INT32_MAX)
        if self._tree is None:                    # a one-ply analysis (no tree kept)
            kids = sorted(self.stats, key=lambda s: (-s["visits"], -s["mean"], s["action"]))
            return {"move": None, "action": None, "player": None, "visits": int(self.iterations),
                    "mean": 0.0, "children": [] if depth == 0 else [
                        {"move": s["move"], "action": int(s["action"]), "player": int(self.player),
                         "visits": int(s["visits"]), "mean": float(s["mean"]), "children": []}
                        for s in kids[:top_k]]}
        rows = self._tree.export(depth, top_k)
        walker = _Walker(self._root, self.player, self.seed, self.open_hands)
        by_id: dict[int, dict] = {}
        core_of: dict[int, Any] = {}
        path_of: dict[int, list] = {}
        root = None
        for node_id, parent, _d, action, player, visits, mean in rows:
            node = {"move": None, "action": None, "player": None, "visits": int(visits),
                    "mean": float(mean), "children": []}
            if parent < 0:
                root = node
                core_of[node_id] = walker.root
                path_of[node_id] = []
            else:
                name, nxt = walker.child(core_of.get(parent), int(player), int(action),
                                         path_of[parent])
                path_of[node_id] = path_of[parent] + [(int(player), int(action))]
                node.update(move=name, action=int(action), player=int(player))
                core_of[node_id] = nxt
                by_id[parent]["children"].append(node)
            by_id[node_id] = node
        return root

    def to_dict(self) -> dict:
        """Plain JSON-able summary (with the tree to depth 2, top 5)."""
        return {
            "best_action": int(self.best_action),
            "best_move": self.best_move,
            "player": int(self.player),
            "iterations": int(self.iterations),
            "seconds": float(self.seconds),
            "seed": int(self.seed),
            "nodes": int(self.nodes),
            "open_hands": bool(self.open_hands),
            "stats": [dict(s) for s in self.stats],
            "principal_variation": [[int(p), str(m)] for p, m in self.principal_variation],
            "tree": self.tree(depth=2, top_k=5),
        }

    def __str__(self) -> str:
        kind = "Open-hands search (sees every hand)" if self.open_hands else "ISMCTS"
        lines = [f"{kind} seat {self.player}: {self.iterations} iterations in "
                 f"{self.seconds:.2f}s, best {self.best_move}"]
        for s in sorted(self.stats, key=lambda s: -s["visits"]):
            lines.append(f"  {s['move']:<24} visits {s['visits']:>8} ({100 * s['share']:5.1f}%)"
                         f"  win {100 * s['win_prob']:5.1f}%")
        if self.principal_variation:
            lines.append("  line: " + ", ".join(f"{p}:{m}" for p, m in self.principal_variation[:8]))
        return "\n".join(lines)


def _search_defaults(game_name: str, params: Optional[dict]) -> dict:
    """The game module's ``search_defaults(params)`` where its tuning depends on the
    parameter set, else its ``SEARCH_DEFAULTS``; {} for an unknown game."""
    from . import games as _games
    try:
        module = _games.get(game_name)
    except ValueError:
        return {}
    by_params = getattr(module, "search_defaults", None)
    return by_params(params) if by_params and params is not None else getattr(module, "SEARCH_DEFAULTS", {})


def default_rollout_depth(game_name: str, params: Optional[dict] = None) -> int:
    """The game's tuned rollout cut-off (its search defaults' ``rollout_depth``; -1, full
    rollouts, when it sets none). Kitsu: 0 (its heuristic at the leaf); Kyushu, Keyside: 10;
    Nukumi: by mode (docs/search.md; the measurements in docs/experiments/)."""
    return int(_search_defaults(game_name, params).get("rollout_depth", -1))


def default_c(game_name: str, params: Optional[dict] = None) -> float:
    """The game's tuned UCB exploration constant (its search defaults' ``c``; 0.7 when it
    sets none). Only Nukumi's Score Attack sets one, 0.25
    (docs/experiments/2026-12-02-nukumi-score-attack-exploration.md)."""
    return float(_search_defaults(game_name, params).get("c", DEFAULT_C))


def _thread_seed(seed: int, k: int) -> int:
    """Seed of the k-th root-parallel tree (tree 0 keeps ``seed`` itself, so
    ``threads=1`` is exactly the single-tree search)."""
    if k == 0:
        return seed & _MASK64
    z = (seed + k * 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _run_tree(tree, quota, seconds, start, tick, progress_box):
    """Run one tree for ``quota`` iterations or until ``seconds`` have passed
    since ``start`` (in batches, the GIL released inside each batch)."""
    done = 0
    batch = 64
    while True:
        n = min(batch, quota - done) if quota is not None else batch
        if n <= 0:
            break
        t0 = time.perf_counter()
        tree.run(n)
        dt = time.perf_counter() - t0
        done += n
        if tick is not None:
            tick(n)
        elapsed = time.perf_counter() - start
        if quota is not None and done >= quota:
            break
        if seconds is not None and elapsed >= seconds:
            break
        # Aim at ~50 ms per batch (never more than the time left), growing at most
        # 2x a batch: a rate measured before the other threads got going would
        # overrate a thread, and an 8x jump then overran a time budget ~10x.
        rate = n / dt if dt > 0 else n * 1000.0
        target = 0.05 if seconds is None else min(0.05, max(seconds - elapsed, 0.001))
        batch = int(min(max(rate * target, 16), batch * 2))
    return done


FINAL_CHOICES = ("visits", "mean", "robust")


def _final_action(rows, final: str) -> int:
    """The move to play from merged root rows [(action, visits, avail, value_sum)].

    ``visits``: most visits (the robust child; ties: lowest action);
    ``mean``: best mean among moves with at least 5% of the root visits;
    ``robust``: most visits, ties broken by the better mean."""
    visited = [r for r in rows if r[1] > 0]
    if not visited:
        return -1
    if final == "visits":
        return min(visited, key=lambda r: (-r[1], r[0]))[0]
    if final == "robust":
        return min(visited, key=lambda r: (-r[1], -r[3] / r[1], r[0]))[0]
    total = sum(r[1] for r in visited)
    pool = [r for r in visited if r[1] >= 0.05 * total] or visited
    return min(pool, key=lambda r: (-r[3] / r[1], -r[1], r[0]))[0]


def ismcts(state, iterations: Optional[int] = None, seconds: Optional[float] = None,
           c: Optional[float] = None, rollout_depth: Optional[int] = None, seed: int = 0,
           progress: Optional[Callable[[int, Optional[int], float], Any]] = None,
           player: Optional[int] = None, max_nodes: Optional[int] = None,
           threads: int = 1, final: str = "visits", bias: float = 0.0,
           open_hands: bool = False, infer: int = 0, net=None, cpuct: Optional[float] = None,
           mix: Optional[float] = None, late: Optional[str] = None) -> SearchResult:
    """SO-ISMCTS from ``state`` for seat ``player`` (default: the seat to move).

    Exactly one budget: ``iterations`` (deterministic: same seed, same result)
    or ``seconds`` (wall clock). ``c`` is the UCB exploration constant (returns
    are in [-1, 1]; None: the game's tuned default, :func:`default_c`); ``rollout_depth`` cuts random rollouts after that many
    decisions and uses the heuristic evaluation (-1: play to the end; 0:
    evaluate the leaf; None: the game's tuned default, :func:`default_rollout_depth`);
    ``max_nodes`` caps the size of each tree (None: :data:`DEFAULT_MAX_NODES`).
    ``progress(done, total or None, elapsed_seconds)`` is called between
    batches.

    ``threads > 1`` is root parallelisation: that many independent trees (tree
    ``k`` seeded from ``(seed, k)``, tree 0 with ``seed`` itself) search in
    parallel threads with the GIL released, each with an equal share of the
    iteration budget (or the whole time budget), and their root statistics are
    summed. With an iteration budget the result depends only on the seed, the
    budget and ``threads``. ``final`` picks the move from the root statistics:
    ``"visits"`` (most visited), ``"robust"`` (most visited, ties by mean) or
    ``"mean"`` (best mean among moves with at least 5% of the visits).
    ``bias > 0`` adds progressive bias from the game's heuristic:
    ``bias * prior / (visits + 1)`` in the tree policy, ``prior`` being the
    heuristic value of the position right after the move. A ``state`` that is
    not a ``boardlab.State`` raises TypeError; a bad value ValueError naming the
    parameter and its allowed range: iterations in [1, 2**32 - 1], seconds > 0,
    c and bias finite >= 0, rollout_depth in [-1, 2**31 - 1], seed in [0, 2**64),
    max_nodes in [1, 2**31 - 1], threads in [1, :data:`MAX_THREADS`].

    ``open_hands=True`` runs the same search on the TRUE state, every hand face
    up (no determinization; future chance is still sampled afresh): the best
    move "double dummy", for reviewing a finished game and as the strength
    ceiling of the information-set search. It sees hidden information, so it is
    for analysis and measurement only, never for a seat in play (agents refuse
    it unless explicitly allowed; see :func:`boardlab.agents.make_agent`).

    ``infer=N`` (Kitsu 2 players) searches N worlds weighted by how likely the
    opponent's card plays in the current deal were in each (inference from play,
    :mod:`boardlab.games.kitsu_inference`) instead of a fresh uniform
    determinization per iteration; ``state`` must then be a game's
    ``boardlab.State`` (its observed history is read), not a determinization.

    ``net`` turns on the guided search (docs/learning.md): ``"default"`` (the
    network shipped for the game's configuration), the path of a network file,
    or a loaded ``boardlab._net.Net``. Its prior steers the selection (PUCT,
    weight ``cpuct``, default 1.5) and its value is backed up at the leaf,
    mixed with a rollout by ``mix`` (1, the default: the network alone; the
    rollout then obeys ``rollout_depth``). ``late="uniform"`` gives a move first
    legal at a node that already has children (another determinization or
    chance outcome brought it) the prior 1 / legal moves instead of evaluating
    the network there (``"net"``, the default). ``net="default"`` plays with the
    ``cpuct``, ``mix`` and ``late`` its network shipped with where they are not given
    (``boardlab.nets.default_settings``). Each stats row gets the
    network's ``prior`` of the move (None without a network). Not with ``bias``.
    """
    core = core_of(state)
    iterations, seconds = check_budget(iterations, seconds)
    opts = check_options(c=c, rollout_depth=rollout_depth, seed=seed, max_nodes=max_nodes,
                         threads=threads, final=final, bias=bias, cpuct=cpuct, mix=mix,
                         late=late)
    c, seed, threads, final, bias = (opts[k] for k in ("c", "seed", "threads", "final", "bias"))
    guide = {}
    if net is not None:
        from .nets import default_settings, is_default, load_net
        if bias:
            raise ValueError("bias: not with net= (the network's prior takes its place)")
        game = getattr(state, "game", None)
        # net=default plays with the settings its network was trained and measured with.
        shipped = default_settings(game) if game is not None and is_default(net) else {}
        cpuct = opts["cpuct"] if opts["cpuct"] is not None else shipped.get("cpuct", DEFAULT_CPUCT)
        guide = {"net": load_net(net, game or core.core_game), "cpuct": cpuct,
                 "mix": opts["mix"] if opts["mix"] is not None else shipped.get("mix", 1.0),
                 "late_uniform": (opts["late"] or shipped.get("late", "net")) == "uniform"}
    elif opts["cpuct"] is not None or opts["mix"] is not None or opts["late"] is not None:
        raise ValueError("cpuct, mix and late are options of the guided search: give net= too")
    rollout_depth = opts["rollout_depth"]
    params = getattr(getattr(state, "game", None), "params", None)
    if rollout_depth is None:
        rollout_depth = default_rollout_depth(core.core_game.name, params)
    if c is None:
        c = default_c(core.core_game.name, params)
    max_nodes = DEFAULT_MAX_NODES if opts["max_nodes"] is None else opts["max_nodes"]
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be callable, got {brief_repr(progress)}")
    if not isinstance(open_hands, bool):
        raise ValueError(f"open_hands must be True or False, got {brief_repr(open_hands)}")
    infer = check_infer(infer, open_hands)

    to_move = int(core.current_player())
    if to_move < 0:
        raise ValueError("state must be a decision node (a seat to move), not "
                         + ("a chance node" if to_move == -1 else "terminal"))
    n_players = int(core.core_game.num_players)
    if player is None:
        player = to_move
    player = _check_int("player", player, 0, n_players - 1, f"[0, {n_players})")
    if iterations is not None:
        threads = min(threads, iterations)

    trees = [_search.ISMCTSTree(core, player, c, rollout_depth, _thread_seed(seed, k), max_nodes,
                                bias, open_hands, **guide)
             for k in range(threads)]
    if infer:
        worlds = inferred_worlds(state, player, infer, seed)
        for tree in trees:
            tree.set_worlds([w for w, _ in worlds], [x for _, x in worlds])
    if iterations is not None:
        quotas = [iterations // threads + (1 if k < iterations % threads else 0)
                  for k in range(threads)]
    else:
        quotas = [None] * threads
    start = time.perf_counter()
    if threads == 1:
        tick = None
        if progress is not None:
            box = [0]

            def tick(n):
                box[0] += n
                progress(box[0], iterations, time.perf_counter() - start)
        done = _run_tree(trees[0], quotas[0], seconds, start, tick, None)
    else:
        import threading
        lock = threading.Lock()
        box = [0]

        def tick(n):
            with lock:
                box[0] += n

        results = [0] * threads
        errors = []

        def work(k):
            try:
                results[k] = _run_tree(trees[k], quotas[k], seconds, start, tick, None)
            except BaseException as e:          # pragma: no cover - surfaced below
                errors.append(e)

        workers = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(1, threads)]
        for w in workers:
            w.start()
        work(0)
        if progress is not None:
            # Report from the calling thread once its own share is done.
            progress(box[0], iterations, time.perf_counter() - start)
        for w in workers:
            w.join()
        if errors:
            raise errors[0]
        done = sum(results)
        if progress is not None:
            progress(done, iterations, time.perf_counter() - start)
    total = time.perf_counter() - start

    # Merge the root statistics of every tree (sum of visits, availability, value).
    merged: dict[int, list] = {}
    for tree in trees:
        for action, visits, avail, mean in tree.root_stats():
            row = merged.setdefault(int(action), [int(action), 0, 0, 0.0])
            row[1] += int(visits)
            row[2] += int(avail)
            row[3] += float(mean) * int(visits)
    rows = [tuple(merged[a]) for a in sorted(merged)]
    tree = trees[0]
    single_mean = {int(a): float(m) for a, _v, _av, m in tree.root_stats()} if threads == 1 else {}

    priors = {}
    if guide:       # the network's prior of a root move (every tree read the same root)
        for t in trees:
            for a, p in t.root_priors().items():
                if p > 0:
                    priors.setdefault(int(a), float(p))
    legal_here = set(int(a) for a in core.legal_actions()) if player == to_move else set()
    walker = None
    stats = []
    for action, visits, avail, value in rows:
        if action in legal_here:
            name = _notation(core, action)
        else:                         # observer is not to move: name on their determinization
            if walker is None:
                walker = _Walker(core, player, seed, open_hands)
            name = walker.child(walker.root, to_move, action)[0]
        mean = single_mean[action] if threads == 1 else (value / visits if visits else 0.0)
        stats.append({"action": int(action), "move": name, "visits": int(visits),
                      "mean": float(mean), "win_prob": (float(mean) + 1.0) / 2.0,
                      "share": visits / done if done else 0.0, "availability": int(avail),
                      "prior": priors.get(int(action), 0.0) if guide else None})
    pv_walker = _Walker(core, player, seed, open_hands)
    pv, cur, path = [], pv_walker.root, []
    for p, a in tree.principal_variation():
        name, cur = pv_walker.child(cur, int(p), int(a), path)
        path.append((int(p), int(a)))
        pv.append((int(p), name))
    return SearchResult(best_action=int(_final_action(rows, final)), stats=stats, iterations=done,
                        seconds=total, principal_variation=pv, player=player, seed=seed,
                        nodes=sum(int(t.num_nodes) for t in trees),
                        memory_bytes=sum(int(t.memory_bytes) for t in trees),
                        net_evals=sum(int(t.net_evals) for t in trees),
                        open_hands=open_hands, _tree=tree, _root=core.clone())

