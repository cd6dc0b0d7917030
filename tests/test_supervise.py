"""The supervised workers, with real processes: a crash, a hang and a memory blow-up each cost
one job, which is retried or reported, and the others finish in order."""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hipify.machinery.supervise import LATER, Failure, Job, Later, Limits, Supervisor


def square(n: int) -> int:
    return n * n


def segfault(_: int) -> int:
    ctypes.string_at(0)  # a real SIGSEGV in the worker
    return 0


def sleep_forever(_: int) -> int:
    time.sleep(3600)
    return 0


def allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * 1024 * 1024))


def fail(_: int) -> int:
    raise ValueError("a bug")


def pid(_: int) -> int:
    return os.getpid()


def report(job: Job[int], failure: Failure) -> int:
    return -1 if failure.kind == "crash" else -2 if failure.kind == "timeout" else -3


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_in_order(jobs: int) -> None:
    with Supervisor(jobs) as workers:
        assert list(workers.map([Job(square, n) for n in range(50)], report)) == [n * n for n in range(50)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_crash_costs_one_job_and_the_worker_is_replaced(jobs: int) -> None:
    items = [Job(square, 2), Job(segfault, 0), Job(square, 3), Job(segfault, 0), Job(square, 4)]
    seen: list[Failure] = []

    def note(job: Job[int], failure: Failure) -> int:
        seen.append(failure)
        return -1

    with Supervisor(jobs) as workers:
        assert list(workers.map(items, note)) == [4, -1, 9, -1, 16]
    assert [f.kind for f in seen] == ["crash", "crash"]
    assert "SIGSEGV" in seen[0].detail


def test_a_failed_job_can_be_retried_as_another() -> None:
    def retry(job: Job[int], failure: Failure) -> Job[int] | int:
        return Job(square, 5) if job.fn is segfault else -1

    with Supervisor(1) as workers:
        assert list(workers.map([Job(segfault, 0), Job(square, 1)], retry)) == [25, 1]


# A time limit for the jobs that hang, far above what squaring a number takes on a busy machine: the limit counts
# from a message's sending to its answer, which wait for two processes to be scheduled.
HANG_LIMIT_S = 3.0


def test_a_hang_ends_at_the_time_limit() -> None:
    with Supervisor(2, Limits(timeout_s=HANG_LIMIT_S)) as workers:
        results = list(workers.map([Job(sleep_forever, 0), Job(square, 6), Job(square, 7)], report))
    assert results == [-2, 36, 49]


def test_running_out_of_memory_is_a_failure_of_that_job() -> None:
    with Supervisor(1, Limits(memory_mb=200)) as workers:
        results = list(workers.map([Job(allocate, 1000), Job(allocate, 10), Job(square, 2)], report))
    assert results == [-3, 10 * 1024 * 1024, 4]


def test_an_exception_is_a_failure_and_the_worker_goes_on() -> None:
    with Supervisor(1) as workers:
        pids = list(workers.map([Job(pid, 0), Job(fail, 0), Job(pid, 0)], lambda job, failure: -4))
    assert pids[1] == -4 and pids[0] == pids[2]  # the same worker: an exception costs no restart


def test_workers_are_gone_after_close() -> None:
    with Supervisor(2) as workers:
        pids = set(workers.map([Job(pid, n) for n in range(8)], report))
    for worker_pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(worker_pid, 0)


def test_a_job_goes_to_the_worker_that_ran_the_last_job_of_its_home() -> None:
    with Supervisor(2) as workers:
        # Both workers start idle: the first takes the first two jobs, the second the next two.
        first = list(workers.map([Job(pid, 0, home=h) for h in "abcd"], report))
        ran_on = dict(zip("abcd", first, strict=True))
        assert ran_on["a"] == ran_on["b"] != ran_on["c"] == ran_on["d"]
        # In another order, each goes back where its home is (the first idle worker no longer takes c and d).
        again = list(workers.map([Job(pid, 0, home=h) for h in "cdab"], report))
        assert again == [ran_on[h] for h in "cdab"]
        # Jobs without a home go to any worker.
        assert len(list(workers.map([Job(pid, 0) for _ in range(6)], report))) == 6


def test_jobs_are_read_as_the_workers_need_them() -> None:
    """A caller may compute each job while the earlier ones run: the supervisor takes a few ahead, not all. (One
    worker: it answers in order, so the first answer holds the first job however busy the machine; with two, the
    other could be answered for every job before the first one's worker is scheduled.)"""
    taken: list[int] = []

    def jobs() -> Iterator[Job[int]]:
        for n in range(400):
            taken.append(n)
            yield Job(square, n)

    with Supervisor(1) as workers:
        results = workers.map(jobs(), report)
        assert next(results) == 0
        assert 0 < len(taken) < 400  # the first result came back before the last job was computed
        assert list(results) == [n * n for n in range(1, 400)]
    assert taken == list(range(400))


def test_a_source_learns_of_more_jobs_from_the_results() -> None:
    """A source that has no job now gives LATER and is read again after the next result: each result here asks
    for up to two more jobs (a tree of them), as a scanned file asks for the headers it reaches."""
    waiting = [1]
    sent: list[int] = []
    done: list[int] = []

    def jobs() -> Iterator[Job[int] | Later]:
        while True:
            if waiting:
                n = waiting.pop(0)
                sent.append(n)
                yield Job(square, n)
            elif len(done) < len(sent):
                yield LATER
            else:
                return

    with Supervisor(2) as workers:
        for result in workers.map(jobs(), report):
            n = sent[len(done)]
            assert result == n * n
            done.append(n)
            waiting.extend(m for m in (2 * n, 2 * n + 1) if m < 40)
    assert sorted(done) == list(range(1, 40))


def test_a_source_that_waits_for_no_result_is_an_error() -> None:
    def jobs() -> Iterator[Job[int] | Later]:
        yield LATER

    with Supervisor(1) as workers, pytest.raises(RuntimeError, match="none are due"):
        list(workers.map(jobs(), report))


def test_small_jobs_share_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message per small job cost as much as the job: many go in one message, and a big one goes alone."""
    from multiprocessing.connection import Connection

    sent: list[int] = []
    real_send = Connection.send

    def counting(self: Connection, obj: object) -> None:
        sent.append(len(obj) if isinstance(obj, list) else 1)
        real_send(self, obj)

    monkeypatch.setattr(Connection, "send", counting)
    with Supervisor(1) as workers:
        assert list(workers.map([Job(square, n, size=100) for n in range(200)], report)) == [n * n for n in range(200)]
        assert sum(sent) == 200 and len(sent) < 40
        sent.clear()
        big = [Job(square, n, size=1 << 20) for n in range(5)]
        assert list(workers.map(big, report)) == [n * n for n in range(5)]
        assert sent == [1] * 5


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_crash_in_a_shared_message_costs_only_the_job_that_crashes(jobs: int) -> None:
    """The jobs of a message whose worker crashes run again one by one: only the one that crashes alone fails."""
    items = [Job(segfault, 0) if n in (37, 38, 90) else Job(square, n) for n in range(120)]
    with Supervisor(jobs) as workers:
        results = list(workers.map(items, report))
    assert results == [-1 if n in (37, 38, 90) else n * n for n in range(120)]


def test_a_hang_in_a_shared_message_ends_at_the_time_limit_and_costs_only_itself() -> None:
    items = [Job(sleep_forever, 0) if n == 10 else Job(square, n) for n in range(40)]
    with Supervisor(1, Limits(timeout_s=HANG_LIMIT_S)) as workers:
        results = list(workers.map(items, report))
    assert results == [-2 if n == 10 else n * n for n in range(40)]


def test_running_out_of_memory_in_a_shared_message_costs_only_that_job() -> None:
    items = [Job(allocate, 1000) if n == 5 else Job(square, n) for n in range(30)]
    with Supervisor(1, Limits(memory_mb=200)) as workers:
        results = list(workers.map(items, report))
    assert results == [-3 if n == 5 else n * n for n in range(30)]


def write_while_deferring(directory: str) -> int:
    """A worker that is sent SIGTERM inside a write's deferred section finishes the section first."""
    import signal

    from hipify.output.writing import _interrupt_deferred

    with _interrupt_deferred():
        Path(directory, "started").write_text("")
        # Wait for the SIGTERM (a worker thread alone in its process holds it pending): it has certainly arrived
        # inside the section, whatever the machine's load.
        while signal.SIGTERM not in signal.sigpending():
            time.sleep(0.01)
        Path(directory, "whole").write_text("written")
    time.sleep(3600)  # not reached: SIGTERM ends the worker as the section ends
    return 0


def test_closing_lets_a_busy_worker_finish_the_file_it_is_writing(tmp_path: Path) -> None:
    workers = Supervisor(1)
    results = workers.map([Job(write_while_deferring, str(tmp_path))], report)

    def wait_for_results() -> None:
        with contextlib.suppress(Exception):  # the supervisor is closed under it: its wait ends in an error
            list(results)

    waiter = threading.Thread(target=wait_for_results, daemon=True)
    waiter.start()
    deadline = time.monotonic() + 30
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    (worker,) = workers._workers
    workers.close()  # SIGTERM to the busy worker, which is inside its write
    assert (tmp_path / "whole").read_text() == "written"
    with pytest.raises(ProcessLookupError):
        os.kill(worker.pid, 0)
