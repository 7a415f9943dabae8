"""Run independent tasks (games of a match, records to analyse) on a back end.

Two back ends, one interface, :func:`run_tasks`, which yields ``(key, result)`` pairs as
tasks finish, in any order:

- ``"local"``: this process (``jobs=1``) or a pool of ``jobs`` processes on this machine;
- ``"ray"``: Ray tasks, on a local Ray started here (``jobs`` CPUs, default all) or on an
  existing cluster (``address="HOST:PORT"``, ``"ray://HOST:10001"`` or ``"auto"``). Every
  machine of a cluster needs the same boardlab installed (docs/scale.md).

Task functions are module-level functions of boardlab, so both back ends ship them by
reference; callers make every task depend only on its arguments (seeds included), so the
results do not depend on the back end or the order in which tasks finish.
"""
from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import logging
import multiprocessing
import socket
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterable, Iterator, Sequence

__all__ = ["BACKENDS", "RAY_MISSING", "run_tasks", "ray_session", "import_ray"]

BACKENDS = ("local", "ray")
RAY_MISSING = 'the Ray back end needs Ray: pip install "boardlab[ray]"'
CONNECT_TIMEOUT = 10.0   # seconds to reach a cluster's address before giving up


def check_backend(backend: str, jobs: int | None, address: str | None) -> None:
    """ValueError naming the bad option, before any work starts."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ValueError(f"jobs must be at least 1, got {jobs!r}")
    if address is not None and backend != "ray":
        raise ValueError("an address is only used by the ray back end (backend='ray')")


def import_ray():
    """The ray module, or ImportError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ImportError(RAY_MISSING) from None
    return ray


def _check_reachable(address: str) -> None:
    """ConnectionError unless something listens at ``address`` (Ray itself would retry for
    minutes before failing on a wrong address)."""
    if address == "auto":
        return
    hostport = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"Ray address must be HOST:PORT, ray://HOST:PORT or auto, got {address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as e:
        raise ConnectionError(f"cannot reach a Ray cluster at {address}: {e} (start one with "
                              f"`ray start --head` and pass the address it prints)") from None


@contextlib.contextmanager
def ray_session(address: str | None = None, num_cpus: int | None = None):
    """Ray connected for the duration of the block: reuses a Ray already initialised in
    this process, else connects to ``address`` or starts a local Ray with ``num_cpus``
    CPUs (all if None), and shuts down on exit only what it started."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address is not None:
        _check_reachable(address)
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING)
        except (ConnectionError, RuntimeError) as e:
            raise ConnectionError(
                f"cannot connect to the Ray cluster at {address}: {e} (a cluster with token "
                f"authentication needs RAY_AUTH_MODE=token and its token, RAY_AUTH_TOKEN, "
                f"here too: docs/scale.md)") from None
    else:
        # address="local": a new Ray of our own, even if a `ray start` cluster runs here
        ray.init(address="local", num_cpus=num_cpus, include_dashboard=False,
                 log_to_driver=False, logging_level=logging.WARNING)
    try:
        yield ray
    finally:
        ray.shutdown()


def _process_pool(workers: int, shared=None) -> concurrent.futures.ProcessPoolExecutor:
    """Worker processes started from a clean server process (forkserver), not forked from
    this one: a fork copies only the calling thread, so forking a process in which Ray's or
    the app's threads hold a lock can leave a worker stuck on it forever. A worker that dies
    breaks the pool (BrokenProcessPool) instead of leaving its task waiting."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(["boardlab.arena", "boardlab.analysis"])
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                                  initializer=_keep_shared, initargs=(shared,))


_NOT_SHARED = object()      # run_tasks without ``shared``
_SHARED = None              # a local worker process's copy of run_tasks' ``shared``


def _keep_shared(shared) -> None:
    """A local worker's initializer: keep ``shared`` for every task it runs."""
    global _SHARED
    _SHARED = shared


def _with_shared(fn, *args):
    return fn(_SHARED, *args)


def _on_node(fn, *args):
    """A Ray task: ``fn(*args)`` and the address of the node that ran it."""
    import ray
    return ray.util.get_node_ip_address(), fn(*args)


def run_tasks(fn: Callable, tasks: Sequence[tuple] | Iterable[tuple], backend: str = "local",
              jobs: int | None = None, address: str | None = None,
              progress: Callable[[int, int], None] | None = None,
              nodes: collections.Counter | None = None, shared=_NOT_SHARED) -> Iterator[tuple]:
    """Yield ``(index, fn(*tasks[index]))`` as each task finishes; given ``shared`` (None too),
    ``fn(shared, *tasks[index])``, ``shared`` sent once to each worker (a local process's
    initializer; one copy in Ray's object store), not with every task: a network's bytes.

    ``progress(done, total)`` is called after each one. ``nodes``, if given, counts the
    tasks by the machine that ran them (a Ray node's address; "local" on the local back
    end): the way to see that every node of a cluster took part. ``jobs``: local processes
    (default 1) or, for Ray, the CPUs of a local Ray started here (default all; a cluster
    has its own). Errors: ValueError for bad options, ImportError when Ray is missing,
    ConnectionError when the cluster's address cannot be reached; an exception raised by
    a task is raised again here.
    """
    check_backend(backend, jobs, address)
    tasks = list(tasks)
    total = len(tasks)
    for done, (node, k, result) in enumerate(_finished(fn, tasks, backend, jobs, address,
                                                        shared), 1):
        if nodes is not None:
            nodes[node] += 1
        if progress:
            progress(done, total)
        yield k, result


def _finished(fn, tasks, backend, jobs, address, shared=_NOT_SHARED):
    """``(node, index, result)`` of each task as it finishes, on the chosen back end."""
    if backend == "local":
        jobs = jobs or 1
        if jobs == 1 or len(tasks) <= 1:
            for k, t in enumerate(tasks):
                yield "local", k, fn(*t) if shared is _NOT_SHARED else fn(shared, *t)
            return
        pool = _process_pool(min(jobs, len(tasks)), None if shared is _NOT_SHARED else shared)
        call = (fn,) if shared is _NOT_SHARED else (_with_shared, fn)
        futures = {pool.submit(*call, *t): k for k, t in enumerate(tasks)}
        finished = False
        try:
            for future in concurrent.futures.as_completed(futures):
                yield "local", futures[future], future.result()
            finished = True
        except BrokenProcessPool:
            raise RuntimeError("a worker process of the local back end died (out of memory "
                               "or killed?); its task did not finish") from None
        finally:
            # leaving early (an error, a consumer that stops): drop what is still queued
            pool.shutdown(wait=finished, cancel_futures=True)
        return
    with ray_session(address, jobs) as ray:
        remote = ray.remote(num_cpus=1)(_on_node)
        # an ObjectRef argument reaches the task as its value, read from the node's store
        first = () if shared is _NOT_SHARED else (ray.put(shared),)
        pending = {remote.remote(fn, *first, *t): k for k, t in enumerate(tasks)}
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    k = pending.pop(ref)
                    node, result = ray.get(ref)
                    yield node, k, result
        except ray.exceptions.RayTaskError as e:
            cause = e.as_instanceof_cause()
            raise cause from None
        finally:
            for ref in pending:           # stop what is still queued if we leave early
                ray.cancel(ref, force=True)
