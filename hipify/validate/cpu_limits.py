"""Running one program under a limit of the CPU time it uses, with a wall-clock ceiling as a backstop.

On a shared machine a wall-clock limit measures the neighbours as much as the program: the same run takes 20 s on
an idle machine and times out at 60 s beside four busy jobs. The CPU seconds the program itself uses (every
thread: HIP-CPU runs a kernel's blocks on TBB's workers) do not depend on the load, so they are the limit
(``RLIMIT_CPU``: the kernel stops the program with SIGXCPU when it has used them). The wall-clock ceiling,
several times larger, only stops a program that waits without using the CPU (a deadlock, a blocking read).
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

WALL_FACTOR = 4.0  # the wall-clock backstop, as a multiple of the CPU limit
WALL_MIN_EXTRA = 60.0  # ... and at least this much beyond it (start-up, page faults on a loaded machine)
_POLL = 0.1


@dataclass(frozen=True)
class Limits:
    cpu_seconds: float  # CPU time the program may use, all its threads together
    wall_seconds: float  # the backstop

    @classmethod
    def of_cpu(cls, cpu_seconds: float) -> Limits:
        """``cpu_seconds`` of CPU, with the wall-clock backstop the module's rule gives."""
        return cls(cpu_seconds, max(cpu_seconds * WALL_FACTOR, cpu_seconds + WALL_MIN_EXTRA))

    def describe(self) -> str:
        return f"{self.cpu_seconds:g} CPU s (wall-clock backstop {self.wall_seconds:g} s)"


@dataclass(frozen=True)
class Outcome:
    status: int | None  # the exit status (negative: the signal), None where a limit stopped it
    output: str  # stdout then stderr
    cpu_seconds: float  # user + system time the program used
    wall_seconds: float
    stopped_by: str = ""  # "cpu" or "wall" where a limit stopped it
    stdout: str = ""  # stdout alone: what is judged, as on the GPU (a program's log on stderr is no output)

    def describe_stop(self, limits: Limits) -> str:
        """Why the program was stopped, in the limit's own unit."""
        if self.stopped_by == "cpu":
            return f"used its {limits.cpu_seconds:g} CPU s ({self.wall_seconds:.0f} s wall)"
        return (
            f"still running at the wall-clock backstop of {limits.wall_seconds:g} s "
            f"(had used {self.cpu_seconds:.0f} CPU s: waiting, not computing)"
        )


def _limit_cpu(pid: int, seconds: float) -> None:
    """SIGXCPU once ``pid`` has used ``seconds`` of CPU, SIGKILL two seconds later if it ignores it. Set from
    outside (prlimit) rather than in a preexec_fn, which is unsafe where the caller has threads; the few
    milliseconds the child runs before it count toward the limit all the same."""
    soft = max(1, math.ceil(seconds))
    resource.prlimit(pid, resource.RLIMIT_CPU, (soft, soft + 2))


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def run_limited(argv: list[str], cwd: Path, limits: Limits) -> Outcome:
    """Run ``argv`` in ``cwd`` under ``limits``; its output goes to files (no pipe to fill while we wait)."""
    with tempfile.TemporaryDirectory(prefix="hipify-run-") as tmp:
        out_path, err_path = Path(tmp) / "out", Path(tmp) / "err"
        with out_path.open("wb") as out, err_path.open("wb") as err:
            start = time.monotonic()
            proc = subprocess.Popen(
                argv,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,  # its own process group: the backstop stops its children too
            )
            with contextlib.suppress(ProcessLookupError):  # already gone: wait4 below still reaps it
                _limit_cpu(proc.pid, limits.cpu_seconds)
            stopped_by = ""
            while True:
                pid, wait_status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() - start > limits.wall_seconds:
                    os.killpg(proc.pid, signal.SIGKILL)
                    stopped_by = "wall"
                    _, wait_status, usage = os.wait4(proc.pid, 0)
                    break
                time.sleep(_POLL)
            wall = time.monotonic() - start
            proc.returncode = os.waitstatus_to_exitcode(wait_status)  # reaped here: Popen must not wait again
        cpu = usage.ru_utime + usage.ru_stime
        status: int | None = proc.returncode
        # SIGXCPU comes from the limit alone; the kernel's tick accounting and rusage's differ by up to a second.
        by_limit = status == -signal.SIGXCPU or (status == -signal.SIGKILL and cpu >= limits.cpu_seconds - 1)
        if not stopped_by and by_limit:
            stopped_by = "cpu"
        if stopped_by:
            status = None
        stdout = _read(out_path)
        return Outcome(status, stdout + _read(err_path), cpu, wall, stopped_by, stdout)
