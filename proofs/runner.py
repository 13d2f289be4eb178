"""Where the parts of a long job run: this process, a local process pool, or a cluster.

A long job of independent parts -- the parts of a search by deal
(:func:`~dominoproof.proofs.search.by_deal.explore_by_deal` and its
:class:`~dominoproof.proofs.search.by_deal.Part`), the batches of rounds of a
simulation (``simulate``, ``stats --sampled``), the variants and faults of
``verify`` -- is handed to a :class:`Runner`, which runs a picklable job on each
part and returns the results in the parts' order, whatever order they finished in:

* :class:`LocalPool`: this process (one worker) or a process pool of this machine
  (the default everywhere);
* :class:`ForkEach`: each part in a process of its own, forked from this one, so
  nothing a part caches (a memo table, a rule book, a solver) reaches another part,
  and a part inherits what this process prepared for it (``verify``'s variants and
  faults, the proofs of :meth:`~dominoproof.proofs.z3.queries.Prover.prove_all`);
* :class:`DaskCluster`: a Dask distributed cluster -- one started here
  (``--cluster local:N``: N worker processes on this machine, ``LocalCluster``) or
  one already running (``--scheduler ADDRESS``: workers started by dask-jobqueue on
  a batch system, dask-kubernetes, or ``dask worker`` by hand). Dask needs the
  ``cluster`` extra (``pip install 'dominoproof[cluster]'``); docs/CLUSTER.md says
  why Dask, and how a run on a cluster is set up and measured.

A runner knows nothing of what a part does: it calls the job it is given. So a
part explored by another search (a compiled kernel, say) runs on any runner
unchanged, as long as the part and its result pickle.

When a Dask worker dies, its scheduler runs the worker's parts again on another
worker (up to Dask's ``distributed.scheduler.allowed-failures`` times, 3 by
default); a result is taken once per part, from the run that finished, so nothing
is lost and nothing counted twice.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from types import TracebackType
from typing import Any, TypeVar

from dominoproof.model.errors import DominoproofError

__all__ = ["EXTRA", "ClusterSpec", "DaskCluster", "ForkEach", "LocalPool", "Runner",
           "Warming", "cluster_spec", "fork_each", "fork_process", "open_runner", "pipe"]

T = TypeVar("T")
R = TypeVar("R")

#: How to install what a cluster needs (pyproject.toml's extra).
EXTRA = "pip install 'dominoproof[cluster]'"


class Runner:
    """Runs a job on every part, somewhere; a context manager that closes what it
    opened."""

    #: the processes that run parts (at the time the runner was opened, on a cluster)
    workers: int = 1

    def map(self, job: Callable[[T], R], items: Sequence[T], *,
            done: Callable[[int, R], None] | None = None) -> list[R]:
        """``job`` on every item; the results in the items' order. ``done(i, result)``
        is called as item ``i`` finishes (in the order they finish)."""
        raise NotImplementedError

    def describe(self) -> str:
        """Where the parts run, in words."""
        raise NotImplementedError

    def close(self) -> None:
        """Close what the runner opened (pools, a cluster it started, its client)."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class LocalPool(Runner):
    """This process (``workers == 1``) or a process pool of ``workers`` processes on
    this machine, started for each :meth:`map`."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)

    def describe(self) -> str:
        return ("this process" if self.workers == 1 else
                f"a local pool of {self.workers} processes")

    def map(self, job: Callable[[T], R], items: Sequence[T], *,
            done: Callable[[int, R], None] | None = None) -> list[R]:
        if self.workers <= 1 or len(items) <= 1:
            out = []
            for i, x in enumerate(items):
                out.append(job(x))
                if done is not None:
                    done(i, out[-1])
            return out
        results: dict[int, R] = {}
        with ProcessPoolExecutor(max_workers=min(self.workers, len(items))) as pool:
            futures = {pool.submit(job, x): i for i, x in enumerate(items)}
            for f in as_completed(futures):
                i = futures[f]
                results[i] = f.result()
                if done is not None:
                    done(i, results[i])
        return [results[i] for i in range(len(items))]


@dataclass(frozen=True)
class Warming:
    """What the parts of a :class:`ForkEach` map inherit, prepared before they fork: the
    compiled kernel's machine code, which ``prepare`` loads -- and on a machine's first
    run compiles, and caches on disk, for a while. So that a core does not wait for it,
    ``prepare`` runs first in a process of its own, while the ``cold`` parts (their
    indices: parts that need nothing of it) use the other workers; when that process
    ends, ``prepare`` runs here, loading what it cached, and every other part follows.
    With one worker, or no cold part, ``prepare`` simply runs here first."""

    prepare: Callable[[], None]
    cold: frozenset[int] = frozenset()


class ForkEach(Runner):
    """Each part in a process of its own, forked from this one, ``workers`` at a time.

    The job is not pickled (the child inherits it), only its result. A part whose job
    raises raises here; a process that dies without an answer gives
    ``died(i, exit_code, seconds)`` as part ``i``'s result (without ``died``, an
    error). An interrupted map leaves no part running."""

    def __init__(self, workers: int,
                 died: Callable[[int, int | None, float], Any] | None = None) -> None:
        self.workers = max(1, workers)
        self.died = died

    def describe(self) -> str:
        return f"a forked process per part, {self.workers} at a time"

    def map(self, job: Callable[[T], R], items: Sequence[T], *,
            done: Callable[[int, R], None] | None = None,
            warming: Warming | None = None) -> list[R]:
        """As :meth:`Runner.map`; with ``warming``, what the parts inherit is prepared
        first (:class:`Warming`)."""
        ctx = multiprocessing.get_context("fork")
        todo = list(enumerate(items))
        running: dict[Connection, tuple[int, Any, float]] = {}
        results: dict[int, R] = {}
        cold: frozenset[int] = frozenset()
        gate = None  #: the process preparing, while the cold parts run beside it
        if warming is not None and warming.cold and self.workers > 1:
            cold, gate = warming.cold, fork_process(warming.prepare)
        elif warming is not None:
            warming.prepare()
        try:
            while todo or running or gate is not None:
                while len(running) < self.workers - (gate is not None):
                    k = next((k for k, (i, _) in enumerate(todo)
                              if gate is None or i in cold), None)
                    if k is None:
                        break
                    i, item = todo.pop(k)
                    recv, send = ctx.Pipe(duplex=False)
                    proc = ctx.Process(target=_child, args=(job, item, send))
                    started = time.perf_counter()
                    proc.start()
                    send.close()
                    running[recv] = (i, proc, started)
                for conn in wait([*running, *([gate.sentinel] if gate is not None else [])]):
                    if gate is not None and conn == gate.sentinel:
                        gate.join()
                        gate = None
                        assert warming is not None
                        warming.prepare()  # here now: it loads what the process cached
                        continue
                    assert isinstance(conn, Connection)
                    i, proc, started = running.pop(conn)
                    results[i] = self._answer(i, conn, proc, started)
                    if done is not None:
                        done(i, results[i])
        finally:  # interrupted, or a part raised: no part outlives the map
            for _, proc, _ in running.values():
                proc.terminate()
            if gate is not None:
                gate.terminate()
        return [results[i] for i in range(len(items))]

    def _answer(self, i: int, conn: Connection, proc: Any, started: float) -> Any:
        try:
            ok, answer = conn.recv()
        except EOFError:
            proc.join()
            if self.died is None:
                raise RuntimeError(f"part {i}'s process died (exit code {proc.exitcode})"
                                   ) from None
            return self.died(i, proc.exitcode, time.perf_counter() - started)
        finally:
            conn.close()
        proc.join()
        if not ok:
            raise answer
        return answer


def _child(job: Callable[[Any], Any], item: Any,
           conn: Connection) -> None:  # pragma: no cover - runs in a forked process
    try:
        answer = (True, job(item))
    except Exception as e:  # raised again in the parent
        answer = (False, e)
    conn.send(answer)
    conn.close()


def fork_each(workers: int,
              died: Callable[[int, int | None, float], Any] | None = None) -> Runner:
    """A :class:`ForkEach` where processes fork (POSIX); elsewhere this process alone."""
    if "fork" in multiprocessing.get_all_start_methods():
        return ForkEach(workers, died)
    return LocalPool(1)  # pragma: no cover - no fork on this system


def fork_process(target: Callable[..., None], *args: Any) -> Any:
    """``target(*args)`` started in a daemon process forked from this one (it inherits
    this process's state; ``args`` are not pickled): a part that talks to its parent
    while it runs, through pipes it is given (:func:`pipe`)."""
    proc = multiprocessing.get_context("fork").Process(target=target, args=args,
                                                       daemon=True)
    proc.start()
    return proc


def pipe() -> tuple[Connection, Connection]:
    """A one-way pipe between this process and one :func:`fork_process` starts: (the
    end that receives, the end that sends)."""
    recv, send = multiprocessing.get_context("fork").Pipe(duplex=False)
    return recv, send


class DaskCluster(Runner):
    """The workers of a Dask distributed cluster, through a client of its scheduler.

    Each part is a task of its own (``pure=False``: run even if an equal part ran
    before); results are taken as the tasks finish and put back in the parts' order.
    A task whose worker died is run again by the scheduler on another worker."""

    def __init__(self, client: Any, cluster: Any = None, where: str = "") -> None:
        self.client = client
        self.cluster = cluster  #: the LocalCluster this runner started, if any
        self.where = where
        self.workers = max(1, len(client.scheduler_info().get("workers", {})))

    def describe(self) -> str:
        return f"{self.where} ({self.workers} workers)"

    def map(self, job: Callable[[T], R], items: Sequence[T], *,
            done: Callable[[int, R], None] | None = None) -> list[R]:
        finished = _dask().as_completed
        futures = [self.client.submit(job, x, pure=False) for x in items]
        index = {f.key: i for i, f in enumerate(futures)}
        results: dict[int, R] = {}
        try:
            for f in finished(futures):
                i = index[f.key]
                results[i] = f.result()
                f.release()
                if done is not None:
                    done(i, results[i])
        finally:
            if len(results) < len(items):  # an error or an interrupt: nothing left running
                self.client.cancel([f for f in futures if not f.done()])
        return [results[i] for i in range(len(items))]

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


# ---------------------------------------------------------------------------
# The command line's choice: --cluster local:N, --scheduler ADDRESS, or neither
# ---------------------------------------------------------------------------


class ClusterSpec:
    """Where a command's parts run, as the command line said: ``local`` workers in a
    cluster started here, an existing cluster's ``scheduler`` address, or neither (a
    local process pool of ``workers``)."""

    def __init__(self, local: int | None = None, scheduler: str | None = None,
                 workers: int | None = None) -> None:
        self.local, self.scheduler, self.workers = local, scheduler, workers

    @property
    def distributed(self) -> bool:
        return self.local is not None or self.scheduler is not None

    def open(self) -> Runner:
        """Start (or join) the cluster, or make the local pool."""
        if self.local is not None:
            return _local_cluster(self.local)
        if self.scheduler is not None:
            return _join(self.scheduler)
        return LocalPool(self.workers or os.cpu_count() or 1)


_LOCAL = re.compile(r"local:([0-9]+)")


def cluster_spec(cluster: str | None = None, scheduler: str | None = None,
                 workers: int | None = None) -> ClusterSpec:
    """Check ``--cluster`` and ``--scheduler`` before any work: the form of each, that
    they are not both given, and that the cluster extra is installed. Raises
    :class:`DominoproofError` (one line, exit code 2) otherwise."""
    if cluster is not None and scheduler is not None:
        raise DominoproofError(f"--cluster {cluster} and --scheduler {scheduler} exclude "
                               "each other: start a cluster here, or join one")
    local = None
    if cluster is not None:
        m = _LOCAL.fullmatch(cluster.strip())
        if m is None or int(m.group(1)) < 1:
            raise DominoproofError(f"--cluster {cluster}: allowed is local:N, N >= 1 worker "
                                   "processes on this machine (to use another cluster, "
                                   "give its scheduler's address with --scheduler)")
        local = int(m.group(1))
    if scheduler is not None and not scheduler.strip():
        raise DominoproofError("--scheduler '': give the scheduler's address "
                               "(tcp://HOST:PORT)")
    if cluster is not None or scheduler is not None:
        option = "--cluster" if cluster is not None else "--scheduler"
        try:
            _dask()
        except ImportError:
            raise DominoproofError(f"{option}: needs the cluster extra (Dask distributed): "
                                   f"{EXTRA}") from None
    return ClusterSpec(local, scheduler.strip() if scheduler else None, workers)


def open_runner(workers: int | None = None, cluster: str | None = None,
                scheduler: str | None = None) -> Runner:
    """The runner the options name (see :func:`cluster_spec`), opened."""
    return cluster_spec(cluster, scheduler, workers).open()


def _local_cluster(n: int) -> DaskCluster:
    """A Dask cluster of ``n`` worker processes on this machine, one thread each (the
    search is pure Python: threads would share one interpreter lock)."""
    dask = _dask()
    # no dashboard; the scheduler's HTTP endpoints on a free port (not 8787, which another
    # cluster on this machine may hold)
    cluster = dask.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                dashboard_address=None, silence_logs=logging.ERROR,
                                scheduler_kwargs={"dashboard_address": ":0"})
    try:
        client = dask.Client(cluster)
        client.wait_for_workers(n)
    except BaseException:
        cluster.close()
        raise
    return DaskCluster(client, cluster, f"a local Dask cluster at {cluster.scheduler_address}")


def _join(address: str) -> DaskCluster:
    """A client of the Dask scheduler at ``address``, once it has a worker."""
    try:
        client = _dask().Client(address, timeout="20s")
    except (OSError, TimeoutError) as e:
        raise DominoproofError(f"--scheduler {address}: no Dask scheduler answered there "
                               f"({e})") from None
    try:
        client.wait_for_workers(1, timeout=120)
    except (OSError, TimeoutError):
        client.close()
        raise DominoproofError(f"--scheduler {address}: the scheduler has no worker "
                               "(none joined within 120 s)") from None
    return DaskCluster(client, None, f"the Dask cluster at {address}")


def _dask() -> Any:
    """Dask distributed (the cluster extra), imported when a cluster is asked for. Typed
    as Any: the extra is optional, and the type checker runs without it too."""
    return importlib.import_module("distributed")
