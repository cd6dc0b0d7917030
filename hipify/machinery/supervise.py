"""Supervised worker processes: one bad file never stops, hangs or swamps the run.

Every job (a function and its argument) runs in a long-lived worker process forked from the
run, with a wall-clock limit per job, an address-space limit per worker and a CPU-time limit
that ends a runaway worker even when the run itself is gone. A worker that crashes (a
libclang segfault), runs out of memory or over its time is killed and replaced; its job is
retried as the caller says (the translation falls back to the regex engine) or ends as a
failure value naming the file. Results come back in input order, so ``-j N`` output equals
``-j 1``.

Workers ignore SIGINT: on Ctrl-C the run (the parent) kills them, so no worker prints a
traceback and nothing waits on a busy worker.

A worker keeps libclang's index and its precompiled headers between jobs, which is what
makes this cheap: a job costs part of one message each way, not a process start. Jobs go out in
batches (up to ``_BATCH_JOBS`` jobs or ``_BATCH_BYTES`` of input each): a message per small file cost
the run as much CPU as scanning it. A batch whose worker crashes or runs past the time limit is
not blamed on any one job: its jobs run again one by one, and only a job that fails alone fails.
"""

from __future__ import annotations

import contextlib
import faulthandler
import itertools
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing import Pipe
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

R = TypeVar("R")

DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MEMORY_MB = 4096
_EXIT_GRACE_S = 2.0  # how long an idle worker has to exit once its connection is closed
_QUEUE_PER_WORKER = 2  # batches handed to a worker ahead, so it never waits for the parent
_BATCH_JOBS = 16  # jobs in one message at most
_BATCH_BYTES = 256 * 1024  # input bytes in one message at most (a batch counts as one job for the time limit)
_LOOK_AHEAD = 8  # waiting jobs looked through for one whose home is the worker with room


@dataclass(frozen=True)
class Limits:
    timeout_s: float = DEFAULT_TIMEOUT_S  # wall clock per job; 0 = none
    memory_mb: int = DEFAULT_MEMORY_MB  # address space per worker; 0 = none


@dataclass(frozen=True)
class Failure:
    """Why a job produced no result."""

    kind: str  # "crash" | "timeout" | "memory" | "error"
    detail: str

    def describe(self) -> str:
        return self.detail


@dataclass(frozen=True)
class Job(Generic[R]):
    fn: Callable[..., R]
    arg: Any
    # Jobs with the same home go to the worker that ran the last one, where it can (that worker keeps what the
    # earlier job left in its memory: the project scan's lexing of the file its translation reads again).
    home: str = ""
    size: int = 0  # bytes of input it reads, where known: how many jobs share a message


# What to do when a job fails: another job to run instead, or the final result.
OnFailure = Callable[[Job[R], Failure], "Job[R] | R"]


class Later:
    """What a source of jobs gives :meth:`Supervisor.map` when it has no job now but may have more once the
    caller has taken another result (the caller learns of new jobs from the results)."""

    def __repr__(self) -> str:
        return "LATER"


LATER = Later()


@dataclass
class _Worker:
    pid: int
    conn: Connection  # our end of a socket pair; EOF on it means the worker is gone
    queue: deque[tuple[int, ...]] = field(default_factory=deque)  # batches of job ids sent; the first is running
    deadline: float = 0.0
    status: int | None = None  # wait status, once reaped

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)

    def terminate(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGTERM)

    def reap(self, block: bool = True) -> int | None:
        """The worker's wait status once it has exited (None while it runs, when not blocking)."""
        if self.status is None:
            try:
                pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
            except ChildProcessError:
                self.status = 0  # already reaped elsewhere
            else:
                if pid:
                    self.status = status
        return self.status


class Supervisor:
    """Runs jobs in ``jobs`` worker processes (at least one) under ``limits``."""

    def __init__(self, jobs: int, limits: Limits | None = None) -> None:
        self.size = max(1, jobs or os.cpu_count() or 1)
        self.limits = limits or Limits()
        self._workers: list[_Worker] = []
        self._pending: deque[int] = deque()
        self._current: dict[int, Job[Any]] = {}
        self._homes: dict[str, int] = {}  # Job.home -> the pid of the worker that last ran a job of that home
        self._alone: set[int] = set()  # job ids to send in a batch of their own (their batch failed as a whole)

    def __enter__(self) -> Supervisor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End every worker now: busy ones are terminated (a worker writing a file ends once the file is whole:
        it defers SIGTERM while writing), idle ones exit; either is killed if it has not ended soon after."""
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.conn.close()  # an idle worker sees EOF and exits
            if worker.queue:
                worker.terminate()
        deadline = time.monotonic() + _EXIT_GRACE_S
        for worker in self._workers:
            while worker.reap(block=False) is None and time.monotonic() < deadline:
                time.sleep(0.01)
            if worker.reap(block=False) is None:
                worker.kill()
                worker.reap()
        self._workers = []

    def map(self, jobs: Iterable[Job[R] | Later], on_failure: OnFailure[R]) -> Iterator[R]:
        """The result of each job, in order; failures go through ``on_failure``. ``jobs`` is read as the workers
        need more (a few ahead of them), so a caller may compute each job while the earlier ones run. ``jobs``
        may give :data:`LATER` while results are still to come: it is read again after the next result."""
        source = iter(jobs)
        self._pending = deque()
        self._current = {}
        self._alone = set()
        results: dict[int, R] = {}
        taken = next_out = 0
        exhausted = False
        ahead = self.size * _QUEUE_PER_WORKER * _BATCH_JOBS + _LOOK_AHEAD
        while True:
            if next_out in results:
                yield results.pop(next_out)
                next_out += 1
                continue
            while not exhausted and len(self._pending) < ahead:
                job = next(source, None)
                if job is None:
                    exhausted = True
                    break
                if job is LATER:
                    if next_out >= taken:
                        raise RuntimeError("supervisor: a source of jobs waits for results while none are due")
                    break
                assert isinstance(job, Job)
                self._current[taken] = job
                self._pending.append(taken)
                taken += 1
            if exhausted and next_out >= taken:
                return
            self._start(min(self.size, len(self._current)))
            self._dispatch()
            for job_id, outcome in self._collect():
                if isinstance(outcome, Failure):
                    decided = on_failure(self._current[job_id], outcome)
                    if isinstance(decided, Job):
                        self._current[job_id] = decided
                        self._alone.discard(job_id)
                        self._pending.appendleft(job_id)
                        continue
                    results[job_id] = decided
                else:
                    results[job_id] = outcome
                del self._current[job_id]
                self._alone.discard(job_id)

    def _start(self, count: int) -> None:
        while len(self._workers) < count:
            self._workers.append(self._spawn())

    def _spawn(self) -> _Worker:
        parent, child = Pipe(duplex=True)
        pid = os.fork()
        if pid == 0:  # the worker: never returns into the run's code
            status = 0
            try:
                parent.close()
                for other in self._workers:  # so that the others see EOF when the run is gone
                    other.conn.close()
                _worker_main(child, self.limits)
            except BaseException as exc:  # not a job's failure (those are replies): say why, once
                status = 1
                with contextlib.suppress(OSError):
                    os.write(2, f"hipify-py: a worker process failed: {type(exc).__name__}: {exc}\n".encode())
            finally:
                os._exit(status)
        child.close()
        return _Worker(pid, parent)

    def _dispatch(self) -> None:
        for worker in sorted(self._workers, key=lambda w: len(w.queue)):
            while self._pending and len(worker.queue) < _QUEUE_PER_WORKER:
                batch = self._batch(worker)
                if not worker.queue:
                    worker.deadline = self._deadline()
                worker.queue.append(batch)
                try:
                    worker.conn.send(
                        [(job_id, self._current[job_id].fn, self._current[job_id].arg) for job_id in batch]
                    )
                except OSError:
                    break  # the worker is gone: collecting sees it, and its jobs run again

    def _batch(self, worker: _Worker) -> tuple[int, ...]:
        """The next waiting jobs for ``worker``, as one message: fewer while few are waiting, so that the last
        jobs still spread over every worker; a job whose batch failed as a whole goes alone."""
        first = self._pick(worker)
        if first in self._alone:
            return (first,)
        most = min(_BATCH_JOBS, len(self._pending) // (self.size * _QUEUE_PER_WORKER) + 1)
        batch, size = [first], self._current[first].size
        while self._pending and len(batch) < most and size < _BATCH_BYTES:
            job_id = self._pick(worker)
            if job_id in self._alone:
                self._pending.appendleft(job_id)
                break
            batch.append(job_id)
            size += self._current[job_id].size
        return tuple(batch)

    def _pick(self, worker: _Worker) -> int:
        """The next waiting job for ``worker``: the first (of a few) at home there or nowhere else alive; else
        the first, which keeps every worker busy (the results come back in order all the same)."""
        if self._homes:
            alive = {w.pid for w in self._workers}
            for i, job_id in enumerate(itertools.islice(self._pending, _LOOK_AHEAD)):
                home = self._homes.get(self._current[job_id].home) if self._current[job_id].home else None
                if home is None or home == worker.pid or home not in alive:
                    del self._pending[i]
                    return job_id
        return self._pending.popleft()

    def _deadline(self) -> float:
        return time.monotonic() + self.limits.timeout_s if self.limits.timeout_s else float("inf")

    def _collect(self) -> list[tuple[int, Any]]:
        """Wait for results, a worker's death or a deadline; return what finished."""
        busy = [w for w in self._workers if w.queue]
        if not busy:  # every job is done or handed out: not reachable while results are missing
            raise RuntimeError("supervisor: jobs lost (no worker holds the missing ones)")
        nearest = min(w.deadline for w in busy)
        timeout = None if nearest == float("inf") else max(0.0, nearest - time.monotonic())
        ready = wait([w.conn for w in busy], timeout)
        done: list[tuple[int, Any]] = []
        now = time.monotonic()
        for worker in busy:
            if worker.conn in ready:
                done.extend(self._receive(worker))
            elif worker.deadline <= now:
                limit = f"{self.limits.timeout_s:g}"
                done.extend(self._lost(worker, Failure("timeout", f"ran past the time limit of {limit} s")))
        return done

    def _receive(self, worker: _Worker) -> list[tuple[int, Any]]:
        done: list[tuple[int, Any]] = []
        while worker.queue:
            try:
                if not worker.conn.poll():
                    return done
                replies = worker.conn.recv()
            except (EOFError, OSError):
                break  # the worker is gone
            batch = worker.queue.popleft()
            worker.deadline = self._deadline()  # its next queued batch starts now
            for job_id, kind, value in replies:
                if kind == "ok":
                    home = self._current[job_id].home
                    if home:
                        self._homes[home] = worker.pid
                    done.append((job_id, value))
                else:
                    done.append((job_id, Failure(kind, value)))
            if len(replies) < len(batch):  # it stopped after running out of memory: the rest run elsewhere
                self._pending.extendleft(reversed(batch[len(replies) :]))
            if replies and replies[-1][1] == "memory":  # a process that ran out of memory is not trusted further
                self._replace(worker, started=0)
                return done
        if worker.queue:
            done.extend(self._lost(worker, Failure("crash", _death(worker.reap()))))
        return done

    def _lost(self, worker: _Worker, failure: Failure) -> list[tuple[int, Any]]:
        """``worker`` died or ran out of time in its first batch: a job alone fails; a batch's jobs run again,
        each alone (which of them failed is not known)."""
        batch = worker.queue[0]
        self._replace(worker)
        if len(batch) == 1:
            return [(batch[0], failure)]
        self._alone.update(batch)
        self._pending.extendleft(reversed(batch))
        return []

    def _replace(self, worker: _Worker, started: int = 1) -> None:
        """Kill ``worker`` and start another; the batches it held after the ``started`` one (which
        failed, and is dealt with by the caller) go back in line."""
        waiting = [job_id for batch in list(worker.queue)[started:] for job_id in batch]
        worker.kill()
        worker.reap()
        with contextlib.suppress(OSError):
            worker.conn.close()
        self._workers[self._workers.index(worker)] = self._spawn()
        self._pending.extendleft(reversed(waiting))


def _death(status: int | None) -> str:
    if status is not None and os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"the worker process crashed ({name})"
    code = os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else "unknown"
    return f"the worker process exited unexpectedly (status {code})"


# ---------------------------------------------------------------------- the worker side


def _worker_main(conn: Connection, limits: Limits) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends us on Ctrl-C
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    faulthandler.disable()  # a crash is reported by the run, for its file, not as a stack dump
    _limit_memory(limits.memory_mb)
    while True:
        try:
            batch = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        replies = []
        for job_id, fn, arg in batch:
            _limit_cpu(limits.timeout_s)
            try:
                replies.append((job_id, "ok", fn(arg)))
            except MemoryError:
                replies.append((job_id, "memory", f"ran out of memory (the limit is {limits.memory_mb} MB per worker)"))
                break  # the rest of the batch runs in another worker
            except RecursionError as exc:
                replies.append((job_id, "error", f"RecursionError: {exc}"))
            except Exception as exc:  # a bug: reported for this job, the worker goes on
                replies.append((job_id, "error", f"{type(exc).__name__}: {exc}"))
        try:
            conn.send(replies)
        except (EOFError, OSError):
            os._exit(0)
        except MemoryError:
            conn.send([(replies[0][0], "memory", "ran out of memory returning the result")])


def _limit_memory(memory_mb: int) -> None:
    """Address space: what the worker holds when it starts (forked from the run) plus ``memory_mb``."""
    if not memory_mb:
        return
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        limit = _address_space() + memory_mb * 1024 * 1024
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _address_space() -> int:
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


_cpu_ceiling: list[int] = []  # the ceiling this worker set last (a job's costs a syscall only when it moves)


def _limit_cpu(timeout_s: float) -> None:
    """A CPU-time ceiling for this job, so a runaway worker ends even if the parent is gone."""
    if not timeout_s:
        return
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        # The process's CPU time (user and system), the clock RLIMIT_CPU counts; getrusage cost ~70 us a job.
        ceiling = int(time.process_time() + 2 * timeout_s) + 1
        if _cpu_ceiling and _cpu_ceiling[0] == ceiling:
            return
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        if hard != resource.RLIM_INFINITY:
            ceiling = min(ceiling, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (ceiling, hard))
        _cpu_ceiling[:] = [ceiling]
