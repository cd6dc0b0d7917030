"""Nothing lost, nothing hangs, one bad file never stops the run (docs/guarantees.md).

Each test reproduces one failure found by running the tool against hostile conditions (full
disks, read-only directories, FIFOs, devices, crashing parsers, corrupt caches, interrupts,
odd encodings and links) and checks what the tool guarantees instead: originals or complete
backups always present, the run going on past a failing file and naming it, exit codes as
documented. Anything that could hang runs in a subprocess with a timeout. A full disk is a
real write limit (RLIMIT_FSIZE: writes past it fail with EFBIG, as they fail with ENOSPC on a
full disk); permissions are real, checked by an unprivileged process when the suite runs as
root.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import pickle
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from hipify.cli.cli import main
from hipify.knowledge.table import load_table
from hipify.lexing.lexer import lex
from hipify.options import Options
from hipify.translation.api import translate
from hipify.translation.engines import clang_status

ROOT = Path(__file__).resolve().parents[1]
KERNEL = "#include <cuda_runtime.h>\n__global__ void k(float *p) { p[0] = 1; }\nvoid f(float *d) { cudaFree(d); }\n"
TRANSLATED_MARK = "hipFree(d)"
PLAIN = "int add(int a, int b) { return a + b; }\n"
NOBODY = 65534
TIMEOUT = 120  # seconds any one CLI run in these tests may take


def needs_clang() -> None:
    usable, reason = clang_status()
    if not usable:
        pytest.skip(reason)


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))


def cli(*args: str | Path, timeout: float = TIMEOUT, **kw: object) -> subprocess.CompletedProcess[str]:
    """The command line in a subprocess (for what could hang or must be signalled)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "hipify", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        **kw,
    )


def run_forked(argv: list[str], setup: Callable[[], None] = lambda: None) -> tuple[int, str]:
    """``main(argv)`` in a forked child after ``setup()`` (limits, a user id); (exit code, stderr)."""
    with tempfile.TemporaryDirectory() as warm:  # import what a run needs here, while we can read it
        (Path(warm) / "k.cu").write_text(KERNEL)
        main(["--engine", "regex", "--no-cache", "--in-place", "-q", warm])
    with tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:
            code = 3
            try:
                os.dup2(err.fileno(), 2)
                sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)
                setup()
                code = main(argv)
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        err.seek(0)
        return os.waitstatus_to_exitcode(status), err.read().decode()


def unprivileged() -> None:
    """Give up root, so that file permissions apply (a no-op for other users)."""
    if os.geteuid() == 0:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)


def file_size_limit(limit: int) -> Callable[[], None]:
    """Writes past ``limit`` bytes fail (EFBIG), as on a full disk (ENOSPC)."""

    def setup() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return setup


@pytest.fixture()
def shared_dir() -> Iterator[Path]:
    """A directory an unprivileged process can use (pytest's own is private to its user)."""
    path = Path(tempfile.mkdtemp(prefix="hipify-reliability-"))
    path.chmod(0o777)
    try:
        yield path
    finally:
        for sub in path.rglob("*"):
            with contextlib.suppress(OSError):
                if sub.is_dir() and not sub.is_symlink():
                    sub.chmod(0o777)
        subprocess.run(["rm", "-rf", str(path)], check=False)


def temp_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".hipify-tmp")]


def big_kernel(size: int) -> str:
    body = "".join(f"void g{i}(float *d) {{ cudaFree(d); }}\n" for i in range(size // 40))
    return KERNEL + body


# --------------------------------------------------------------------------- nothing lost


def test_full_disk_during_backup_keeps_the_original_and_a_rerun_completes(tmp_path: Path) -> None:
    src = tmp_path / "k.cu"
    original = big_kernel(6000)
    src.write_text(original)
    code, err = run_forked(["--engine", "regex", "--no-cache", "--in-place", str(src)], file_size_limit(4096))
    assert code == 2 and "k.cu: error: cannot write output" in err and "[HPY306]" in err and "internal error" not in err
    assert src.read_text() == original  # the original untouched ...
    assert not (tmp_path / "k.cu.prehip").exists()  # ... and no truncated backup left to trust
    assert temp_files(tmp_path) == []
    assert main(["--engine", "regex", "--no-cache", "--in-place", str(src)]) == 0
    assert (tmp_path / "k.cu.prehip").read_text() == original
    assert TRANSLATED_MARK in src.read_text()


def test_an_incomplete_existing_backup_is_kept_and_the_original_saved_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    (tmp_path / "k.cu.prehip").write_text(KERNEL[:20])  # what a copy cut short by a full disk left
    assert main(["--engine", "regex", "--no-cache", "--in-place", str(src)]) == 0
    assert "HPY310" in capsys.readouterr().err
    assert (tmp_path / "k.cu.prehip").read_text() == KERNEL[:20]
    assert (tmp_path / "k.cu.prehip.1").read_text() == KERNEL
    assert TRANSLATED_MARK in src.read_text()


def test_a_complete_existing_backup_is_trusted(tmp_path: Path) -> None:
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    (tmp_path / "k.cu.prehip").write_text(KERNEL)
    assert main(["--engine", "regex", "--no-cache", "--in-place", str(src)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("k.cu")) == ["k.cu", "k.cu.prehip"]


def test_an_empty_backup_suffix_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    assert main(["--engine", "regex", "--in-place", "--backup-suffix", "", str(src)]) == 2
    assert "--no-backup" in capsys.readouterr().err
    assert src.read_text() == KERNEL


# --------------------------------------------------------------------------- one file never stops the run


def test_a_read_only_directory_fails_that_file_only(shared_dir: Path) -> None:
    (shared_dir / "ro").mkdir()
    (shared_dir / "rw").mkdir()
    (shared_dir / "ro" / "a.cu").write_text(KERNEL)
    (shared_dir / "rw" / "b.cu").write_text(KERNEL)
    for path in (shared_dir / "rw", shared_dir / "rw" / "b.cu", shared_dir / "ro" / "a.cu"):
        path.chmod(0o777 if path.is_dir() else 0o666)
    (shared_dir / "ro").chmod(0o555)
    code, err = run_forked(["--engine", "regex", "--no-cache", "--in-place", str(shared_dir)], unprivileged)
    assert code == 2, err
    assert "a.cu: error: cannot write output" in err and "[HPY306]" in err and "internal error" not in err
    assert (shared_dir / "ro" / "a.cu").read_text() == KERNEL
    assert TRANSLATED_MARK in (shared_dir / "rw" / "b.cu").read_text()


def test_a_full_disk_while_copying_leaves_no_partial_copy_and_the_run_goes_on(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.cu").write_text(KERNEL)
    (tree / "big.dat").write_bytes(b"x" * 20000)
    (tree / "small.txt").write_text("notes\n")
    (tree / "z.cu").write_text(KERNEL)
    out = tmp_path / "out"
    argv = ["--engine", "regex", "--no-cache", "--out-dir", str(out), "--copy-other-files", str(tree)]
    code, err = run_forked(argv, file_size_limit(8192))
    assert code == 2 and "big.dat: error: cannot copy to" in err and "[HPY306]" in err
    assert not (out / "big.dat").exists()  # no 0-byte or half copy
    assert (out / "small.txt").read_text() == "notes\n"
    assert TRANSLATED_MARK in (out / "a.cu").read_text() and TRANSLATED_MARK in (out / "z.cu").read_text()
    assert temp_files(out) == []


def crashing_source() -> str:
    # 100,000 nested unary operators: libclang recurses until its stack overflows (SIGSEGV);
    # short lines and no brackets, so no work limit sees it coming.
    return "int x = " + "!\n" * 100_000 + "1;\nvoid f(float *d) { cudaFree(d); }\n"


@pytest.mark.clang
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("engine", ["auto", "clang"])
def test_a_libclang_crash_falls_back_to_regex_for_that_file(tmp_path: Path, jobs: str, engine: str) -> None:
    needs_clang()
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.cu").write_text(KERNEL)
    (tree / "crash.cu").write_text(crashing_source())
    (tree / "z.cu").write_text(KERNEL)
    out = tmp_path / "out"
    proc = cli("--engine", engine, "--clang-parse", "always", "--no-cache", "-j", jobs, "--out-dir", out, tree)
    assert proc.returncode == 0, proc.stderr
    assert "crash.cu" in proc.stderr and "HPY201" in proc.stderr and "SIGSEGV" in proc.stderr
    for name in ("a.cu", "crash.cu", "z.cu"):
        assert TRANSLATED_MARK in (out / name).read_text()


@pytest.mark.clang
@pytest.mark.parametrize(
    "text",
    [
        "#if " + "(" * 20_000 + "1" + ")" * 20_000 + "\n#endif\n",  # a libclang segfault, measured
        "A" + "<A" * 5_000 + ">" * 5_000 + " x;\n",
        "int x[] = {" + "1," * 300_000 + "};\n",  # a 600 kB line: clang's diagnostics are quadratic
        "#define A0 cudaFree(0);\n" + "".join(f"#define A{i} A{i - 1} A{i - 1}\n" for i in range(1, 23)),
    ],
    ids=["nested-parens-in-if", "nested-templates", "long-line", "doubling-macros"],
)
def test_inputs_over_the_clang_limits_use_the_regex_engine(tmp_path: Path, text: str) -> None:
    needs_clang()
    src = tmp_path / "k.cu"
    src.write_text(text + "void f(float *d) { cudaFree(d); }\n")
    proc = cli("--engine", "clang", "--clang-parse", "always", "--no-cache", "-o", tmp_path / "out.cu", src, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "HPY206" in proc.stderr and "used the regex engine" in proc.stderr
    assert TRANSLATED_MARK in (tmp_path / "out.cu").read_text()


def test_deep_if_nesting_is_refused_with_a_finding_in_bounded_time(tmp_path: Path) -> None:
    src = tmp_path / "k.cu"
    src.write_text("#if 1\n" * 20_000 + KERNEL + "#endif\n" * 20_000)
    other = tmp_path / "z.cu"
    other.write_text(KERNEL)
    proc = cli("--engine", "regex", "--no-cache", "--in-place", src, other, timeout=60)
    assert proc.returncode == 2
    assert "k.cu:1:1: error: not translated: #if nesting depth is 20,000" in proc.stderr and "[HPY206]" in proc.stderr
    assert TRANSLATED_MARK not in src.read_text() and TRANSLATED_MARK in other.read_text()


def _corrupt_pickles() -> list[bytes]:
    return [
        b"",  # empty
        b"\x80\x05\x95",  # truncated
        b"not a pickle at all",
        pickle.dumps(42),  # the wrong type
        b"cbuiltins\nint\n(S'x'\nS'y'\nS'z'\ntR.",  # TypeError while loading
        b"cbuiltins\nbytearray\n(I99999999999999999999999\ntR.",  # OverflowError
        b"cbuiltins\nbytearray\n(I4611686018427387904\ntR.",  # MemoryError
    ]


@pytest.mark.parametrize("corrupt", _corrupt_pickles(), ids=lambda b: repr(b[:12]))
def test_a_corrupt_cache_entry_is_a_miss_and_is_replaced(tmp_path: Path, corrupt: bytes) -> None:
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    cache = tmp_path / "results"
    argv = ["--engine", "regex", "--cache-dir", str(cache), "-o", str(tmp_path / "out.cu"), str(src)]
    assert main(argv) == 0
    expected = (tmp_path / "out.cu").read_bytes()
    entries = sorted(cache.rglob("*.pickle"))
    assert entries
    for entry in entries:
        entry.write_bytes(corrupt)
    for _ in range(2):  # every later run works, not only the next one
        (tmp_path / "out.cu").unlink()
        assert main(argv) == 0
        assert (tmp_path / "out.cu").read_bytes() == expected
    assert all(pickle.loads(e.read_bytes()) is not None for e in cache.rglob("*.pickle"))


# --------------------------------------------------------------------------- nothing hangs


@pytest.fixture()
def fifo_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    tree.mkdir()
    os.mkfifo(tree / "x.cu")
    os.mkfifo(tree / "pipe.h")
    (tree / "a.cu").write_text('#include "pipe.h"\n' + KERNEL)
    return tree


def test_a_fifo_given_explicitly_is_refused_without_blocking(fifo_tree: Path) -> None:
    proc = cli("--engine", "regex", "--no-cache", "--check", fifo_tree / "x.cu", timeout=30)
    assert proc.returncode == 2 and "error: not a regular file (a FIFO); not read [HPY308]" in proc.stderr


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_fifos_found_by_a_walk_or_included_never_block(fifo_tree: Path, tmp_path: Path, engine: str) -> None:
    if engine == "clang":
        needs_clang()
    out = tmp_path / "out"
    proc = cli("--engine", engine, "--clang-parse", "always", "--no-cache", "--out-dir", out, fifo_tree, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "x.cu: note: not a regular file (a FIFO); skipped" in proc.stderr
    if engine == "clang":
        assert "an include reaches" in proc.stderr and "pipe.h" in proc.stderr and "[HPY308]" in proc.stderr
    assert TRANSLATED_MARK in (out / "a.cu").read_text()


@pytest.mark.clang
def test_a_parse_that_blocks_ends_at_the_time_limit_and_falls_back(tmp_path: Path) -> None:
    needs_clang()
    os.mkfifo(tmp_path / "outside.h")  # reached by an absolute path: no project scan sees it
    src = tmp_path / "tree" / "k.cu"
    src.parent.mkdir()
    src.write_text(f'#include "{tmp_path / "outside.h"}"\n' + KERNEL)
    proc = cli(
        "--engine",
        "clang",
        "--clang-parse",
        "always",
        "--no-cache",
        "--timeout",
        "3",
        "-o",
        tmp_path / "out.cu",
        src,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "ran past the time limit of 3 s" in proc.stderr and "used the regex engine" in proc.stderr
    assert TRANSLATED_MARK in (tmp_path / "out.cu").read_text()


def test_dev_zero_behind_a_symlink_is_never_read(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "zero.cu").symlink_to("/dev/zero")
    (tree / "a.cu").write_text(KERNEL)
    proc = cli("--engine", "regex", "--no-cache", "--check", tree / "zero.cu", timeout=30)
    assert proc.returncode == 2 and "error: not a regular file (a character device); not read [HPY308]" in proc.stderr
    proc = cli("--engine", "regex", "--no-cache", "--out-dir", tmp_path / "out", tree, timeout=30)
    assert proc.returncode == 0 and "zero.cu: note: not a regular file" in proc.stderr


def _source_tree(root: Path, files: int) -> Path:
    root.mkdir()
    for i in range(files):
        (root / f"k{i:04}.cu").write_text(big_kernel(3000).replace("void g", f"void g{i}_"))
    return root


@pytest.mark.parametrize("attempt", range(3))
def test_ctrl_c_ends_a_parallel_run_quickly_and_cleanly(tmp_path: Path, attempt: int) -> None:
    tree = _source_tree(tmp_path / "tree", 300)
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    argv = ["--engine", "regex", "--no-cache", "-j", "2", "--out-dir", str(out), str(tree)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "hipify", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not (out.exists() and any(out.iterdir())) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole foreground group gets it
    try:  # (a bound for a hang, not a measure of speed: the run must stop, whatever the machine's load)
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the run hung after Ctrl-C")
    if proc.returncode == 0:
        pytest.skip("the run finished before the interrupt")
    assert proc.returncode == 130
    assert "Traceback" not in err and "interrupted" in err
    assert temp_files(out) == []
    leftover = subprocess.run(["pgrep", "-s", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert leftover == []
    for path in out.rglob("*.cu"):  # what was written is complete
        assert path.read_text().endswith("}\n")


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_temporary_files_of_interrupted_runs_are_removed_by_the_next(tmp_path: Path) -> None:
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    dead = tmp_path / f".k.cu.{_dead_pid()}.abcd1234.hipify-tmp"
    legacy = tmp_path / ".k.cu.efgh5678.hipify-tmp"
    live = tmp_path / f".k.cu.{os.getpid()}.ijkl9012.hipify-tmp"  # a run still writing
    for path in (dead, legacy, live):
        path.write_text("half a file")
    old = time.time() - 3600
    os.utime(legacy, (old, old))
    assert main(["--engine", "regex", "--no-cache", "--in-place", str(src)]) == 0
    assert temp_files(tmp_path) == [live]


# --------------------------------------------------------------------------- wrong output, silently

CONFIGURED = (
    '#include "cfg.h"\n#if USE_CUDA\nvoid f(float *d) { cudaFree(d); }\n'
    "#else\nvoid f(float *d) { cudaMalloc(0, 0); }\n#endif\n"
)


@pytest.mark.clang
def test_a_cached_clang_translation_follows_the_headers_the_parse_read(tmp_path: Path) -> None:
    needs_clang()
    inc = tmp_path / "inc"  # outside the tree, named only by the compilation database
    inc.mkdir()
    (inc / "cfg.h").write_text("#define USE_CUDA 1\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.cu").write_text(CONFIGURED)
    build = tmp_path / "build"
    build.mkdir()
    command = {"directory": str(tree), "file": "a.cu", "arguments": ["nvcc", f"-I{inc}", "-c", "a.cu"]}
    (build / "compile_commands.json").write_text(json.dumps([command]))
    out = tmp_path / "out.cu"
    argv = ["--engine", "clang", "--skip-excluded-preprocessor-conditional-blocks", "-p", str(build)]
    argv += ["--cache-dir", str(tmp_path / "results"), "-o", str(out), str(tree / "a.cu")]
    assert main(argv) == 0
    assert "hipFree(d)" in out.read_text() and "cudaMalloc(0, 0)" in out.read_text()
    (inc / "cfg.h").write_text("#define USE_CUDA 0\n")
    later = time.time() + 5
    os.utime(inc / "cfg.h", (later, later))
    assert main(argv) == 0
    assert "cudaFree(d)" in out.read_text() and "hipMalloc(0, 0)" in out.read_text()


@pytest.mark.clang
def test_the_same_file_in_another_tree_is_not_served_from_the_cache(tmp_path: Path) -> None:
    needs_clang()
    outputs = []
    for value in ("1", "0"):
        tree = tmp_path / f"tree{value}"
        tree.mkdir()
        (tree / "cfg.h").write_text(f"#define USE_CUDA {value}\n")
        (tree / "a.cu").write_text(CONFIGURED)
        out = tmp_path / f"out{value}.cu"
        argv = ["--engine", "clang", "--skip-excluded-preprocessor-conditional-blocks"]
        assert main([*argv, "--cache-dir", str(tmp_path / "results"), "-o", str(out), str(tree / "a.cu")]) == 0
        outputs.append(out.read_text())
    assert "hipFree(d)" in outputs[0] and "hipMalloc(0, 0)" in outputs[1]


def _engines() -> list[str]:
    return ["regex", "clang"] if clang_status()[0] else ["regex"]


@pytest.mark.parametrize("engine", _engines())
def test_runtime_include_after_a_comment_followed_by_code(engine: str) -> None:
    options = Options(engine=engine, use_cache=False)
    out = translate("/* licence */ int x = 0;\n__global__ void k() {}\n", "a.cu", options).text
    assert out == "#include <hip/hip_runtime.h>\n\n/* licence */ int x = 0;\n__global__ void k() {}\n"
    out = translate("/* a\n */ #include <cstdio>\n__global__ void k() {}\n", "a.cu", options).text
    assert out.startswith("#include <hip/hip_runtime.h>\n/* a\n */ #include <cstdio>\n")
    warp = "/* a\n */ #include <cstdio>\n__global__ void k(int *o) { o[0] = __shfl_sync(0xffffffff, 1, 1); }\n"
    out = translate(warp, "a.cu", replace(options, rocm_version=(6, 4))).text  # 6.x needs the define
    assert out.startswith("#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#include <hip/hip_runtime.h>\n/* a\n */ #include")


@pytest.mark.parametrize("engine", _engines())
def test_launch_rewriting_keeps_comments_and_stops_at_directives(engine: str) -> None:
    options = Options(engine=engine, use_cache=False, hip_kernel_syntax=True)
    kernel = "__global__ void k(int);\n"
    out = translate(kernel + "void f(int a) { k /* c */ <<<1, 2>>> /* d */ (a); }\n", "a.cu", options).text
    assert "hipLaunchKernelGGL(k /* c */ , dim3(1), dim3(2), 0, 0, /* d */ a)" in out
    out = translate(kernel + "void f(int a) { k // c\n<<<1, 2>>>(a); }\n", "a.cu", options).text
    assert "hipLaunchKernelGGL(k // c\n, dim3(1)" in out
    directive = kernel + "void f(int a) {\n#if 1\n#endif\n <<<1,2>>>(a); }\n"
    out = translate(directive, "a.cu", options).text
    assert "#endif\n <<<1,2>>>(a);" in out and "hipLaunchKernelGGL" not in out


@pytest.mark.parametrize("engine", _engines())
def test_a_macro_body_is_not_a_declaration(engine: str) -> None:
    text = "#define SYNC cudaDeviceSynchronize()\nvoid f() { SYNC; cudaDeviceSynchronize(); }\n"
    out = translate(text, "a.cu", Options(engine=engine, use_cache=False)).text
    assert "cudaDeviceSynchronize" not in out and out.count("hipDeviceSynchronize") == 2


def test_removing_an_empty_macro_never_glues_tokens() -> None:
    table = load_table()
    for text in ("int x = 2/CUBLASAPI*3;\n", "CUBLASAPI#define X\n", "/**/CUBLASAPI#include <x>\n"):
        out = translate(text, "a.cpp", Options(engine="regex"), table).text
        assert "/*" not in lex(out).masked.replace("/**/", "    ") or out == text
        assert len(lex(out).directives) == len(lex(text).directives)


def test_a_quote_after_a_name_opens_a_character_literal() -> None:
    lexed = lex("int f(char c) { if (c) return'(' ; return 1'000; }")
    assert [lexed.text[s:e] for s, e in lexed.literals] == ["'('"]
    out = translate("int f(char c) { if (c) return'(' ; cudaFree(0); }\n", "a.cpp", Options(engine="regex")).text
    assert "hipFree(0)" in out


@pytest.mark.parametrize("engine", _engines())
def test_a_lone_cr_ends_a_line_comment(engine: str) -> None:
    out = translate("int a; // c\r cudaFree(0);\n", "a.cpp", Options(engine=engine, use_cache=False)).text
    assert "hipFree(0)" in out and "// c\r" in out


def test_cp932_comments_keep_their_bytes(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    comment = b"// \x87\x90 \xed\x40 comment\n"  # code points cp932 encodes back differently
    src.write_bytes(comment + b"void f(float *d) { cudaFree(d); }\n")
    argv = ["--engine", "regex", "--no-cache", "--encoding", "cp932", "-o", str(tmp_path / "o.cpp"), str(src)]
    assert main(argv) == 0
    data = (tmp_path / "o.cpp").read_bytes()
    assert comment in data and b"hipFree(d)" in data


@pytest.mark.parametrize("bom", [codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, b""], ids=["le", "be", "none"])
def test_utf16_files_are_translated_with_their_encoding(tmp_path: Path, bom: bytes) -> None:
    codec = "utf-16-be" if bom == codecs.BOM_UTF16_BE else "utf-16-le"
    src = tmp_path / "k.cu"
    src.write_bytes(bom + KERNEL.replace("\n", "\r\n").encode(codec))
    assert main(["--engine", "regex", "--no-cache", "--encoding", "utf-16", "--in-place", str(src)]) == 0
    data = src.read_bytes()
    assert data.startswith(bom) and TRANSLATED_MARK in data[len(bom) :].decode(codec)
    assert "\r\n" in data[len(bom) :].decode(codec)


def test_output_of_a_file_that_cannot_be_translated_is_an_error(tmp_path: Path) -> None:
    binary = tmp_path / "blob.cu"
    binary.write_bytes(b"\x7fELF\0\0\0" + b"\0" * 64)
    assert main(["--engine", "regex", "--no-cache", "-o", str(tmp_path / "out.cu"), str(binary)]) == 2
    assert not (tmp_path / "out.cu").exists()
    assert main(["--engine", "regex", "--no-cache", str(binary)]) == 2


# --------------------------------------------------------------------------- metadata and links


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file another owner needs root")
def test_in_place_keeps_the_owner(tmp_path: Path) -> None:
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    os.chown(src, 12345, 23456)
    src.chmod(0o640)
    assert main(["--engine", "regex", "--no-cache", "--in-place", str(src)]) == 0
    st = src.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (12345, 23456, 0o640)
    assert TRANSLATED_MARK in src.read_text()
    assert (tmp_path / "k.cu.prehip").stat().st_uid == 12345


def test_in_place_keeps_hard_links(tmp_path: Path) -> None:
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    other = tmp_path / "elsewhere.txt"
    os.link(src, other)
    inode = src.stat().st_ino
    assert main(["--engine", "regex", "--no-cache", "--in-place", str(src)]) == 0
    assert src.stat().st_ino == inode and src.stat().st_nlink == 2
    assert TRANSLATED_MARK in other.read_text()
    assert (tmp_path / "k.cu.prehip").read_text() == KERNEL


def test_in_place_follows_a_symlink_and_translates_its_target_once(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "real").mkdir(parents=True)
    target = tree / "real" / "k.cu"
    target.write_text(KERNEL)
    (tree / "link.cu").symlink_to("real/k.cu")
    assert main(["--engine", "regex", "--no-cache", "--in-place", str(tree)]) == 0
    assert (tree / "link.cu").is_symlink()
    assert TRANSLATED_MARK in target.read_text()
    assert (tree / "real" / "k.cu.prehip").read_text() == KERNEL
    assert not (tree / "link.cu.prehip").exists()


def test_in_place_does_not_follow_a_walked_symlink_out_of_the_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside.cu"
    outside.write_text(KERNEL)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.cu").symlink_to(outside)
    (tree / "own.cu").write_text(KERNEL)
    assert main(["--engine", "regex", "--no-cache", "--in-place", str(tree)]) == 0
    assert "HPY309" in capsys.readouterr().err
    assert outside.read_text() == KERNEL and TRANSLATED_MARK in (tree / "own.cu").read_text()
    assert main(["--engine", "regex", "--no-cache", "--in-place", str(tree / "link.cu")]) == 0  # named: followed
    assert TRANSLATED_MARK in outside.read_text()


def test_out_dir_with_symlinks_out_of_the_tree(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "lib.cu").write_text(KERNEL)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.cu").write_text(KERNEL)
    (tree / "file.cu").symlink_to(elsewhere / "lib.cu")
    (tree / "dir").symlink_to(elsewhere, target_is_directory=True)
    out = tmp_path / "out"
    assert main(["--engine", "regex", "--no-cache", "--out-dir", str(out), str(tree)]) == 0
    assert TRANSLATED_MARK in (out / "a.cu").read_text()
    # The target is translated once (where the walk met it first); the mirror keeps the walk's layout.
    mirrored = [p for p in (out / "file.cu", out / "dir" / "lib.cu") if p.exists()]
    assert len(mirrored) == 1 and TRANSLATED_MARK in mirrored[0].read_text()
    assert (elsewhere / "lib.cu").read_text() == KERNEL


def test_an_explicit_path_under_an_untraversable_directory(shared_dir: Path) -> None:
    (shared_dir / "locked").mkdir()
    (shared_dir / "locked" / "k.cu").write_text(KERNEL)
    (shared_dir / "open.cu").write_text(KERNEL)
    (shared_dir / "open.cu").chmod(0o666)
    (shared_dir / "locked").chmod(0o000)
    locked, open_file = str(shared_dir / "locked" / "k.cu"), str(shared_dir / "open.cu")
    argv = ["--engine", "regex", "--no-cache", "--in-place", locked, open_file]
    code, err = run_forked(argv, unprivileged)
    assert code == 2 and "cannot access: Permission denied" in err and "internal error" not in err
    assert TRANSLATED_MARK in (shared_dir / "open.cu").read_text()


def test_a_dangling_symlink_in_a_walk_does_not_fail_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "plain.cpp").write_text(PLAIN)
    (tmp_path / "gone.cu").symlink_to(tmp_path / "nowhere.cu")
    assert main(["--engine", "regex", "--no-cache", "--check", str(tmp_path)]) == 0
    assert "gone.cu: note: broken symbolic link" in capsys.readouterr().err


def test_out_dir_equal_to_the_input_directory_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    assert main(["--engine", "regex", "--no-cache", "--out-dir", str(tmp_path), str(tmp_path)]) == 2
    assert "is the input directory; use --in-place" in capsys.readouterr().err
    assert (tmp_path / "k.cu").read_text() == KERNEL
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_text(KERNEL)
    assert main(["--engine", "regex", "--no-cache", "--out-dir", str(tmp_path / "hip"), str(src)]) == 0
    assert TRANSLATED_MARK in (tmp_path / "hip" / "k.cu").read_text()


@contextlib.contextmanager
def _signal_seen() -> Iterator[Callable[[], None]]:
    """A wait that returns once a signal sent to this process has reached its handler's first step (Python's own,
    which then asks the main thread to run the handler at its next instruction): a synchronisation point, not a
    sleep."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    previous = signal.set_wakeup_fd(write_end)
    try:
        yield lambda: os.read(read_end, 1)
    finally:
        signal.set_wakeup_fd(previous)
        os.close(read_end)
        os.close(write_end)


@pytest.mark.parametrize("receiver", ["the writing thread", "another thread"])
def test_ctrl_c_right_after_a_temporary_file_is_made_leaves_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, receiver: str
) -> None:
    """The interrupt lands where no ``try`` can remove the file yet (as it did once in a loaded CI run): it is held
    until the write is done, then raised. Ctrl-C reaches the whole process, and the kernel hands it to any thread
    that does not block it: the one writing, or one beside it (as the run's writing threads are), after which
    Python interrupts the writing thread all the same."""
    from hipify.output import writing

    made = writing._temporary
    idle = threading.Event()
    beside = threading.Thread(target=idle.wait)
    beside.start()
    if receiver == "the writing thread":
        idle.set()  # alone in the process again, as a worker is
        beside.join()
    target = beside if receiver == "another thread" else threading.main_thread()

    def interrupted(path: Path) -> tuple[int, str]:
        created = made(path)
        with _signal_seen() as seen:
            signal.pthread_kill(target.ident or 0, signal.SIGINT)
            if receiver == "another thread":
                seen()  # that thread took it: the main thread is to run the handler now
        return created

    monkeypatch.setattr(writing, "_temporary", interrupted)
    target_file = tmp_path / "k.cu"
    # Python's own Ctrl-C handler, whatever the process inherited: a shell starts background jobs with SIGINT
    # ignored, and then no KeyboardInterrupt is ever raised
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            writing.write_atomic(target_file, b"complete\n")
    finally:
        signal.signal(signal.SIGINT, previous)
        idle.set()
        beside.join()
    assert target_file.read_bytes() == b"complete\n"
    assert temp_files(tmp_path) == []


def test_a_tree_s_writes_report_their_failures_in_input_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    for name in ("c.cu", "a.cu", "b.cu", "d.cu"):
        (src / name).write_text(KERNEL)
    for name in ("c.cu", "a.cu", "b.cu"):  # a directory where the translation goes: its write fails
        (out / name).mkdir(parents=True)
    code = main([str(src), "--out-dir", str(out), "--engine", "regex", "--no-cache", "-q"])
    failures = [line.split(":")[0] for line in capsys.readouterr().err.splitlines() if "cannot write output" in line]
    assert code == 2 and [Path(f).name for f in failures] == ["a.cu", "b.cu", "c.cu"]
    assert TRANSLATED_MARK in (out / "d.cu").read_text()  # the others are written all the same
    assert temp_files(out) == []


def test_a_changed_translator_is_not_served_what_its_former_self_cached(tmp_path: Path) -> None:
    """The cache key covers the translator's code, not only its version: a checkout or an editable install that
    changed without a version bump must not reuse the results of the code it replaced."""
    from hipify.machinery.cache import code_digest

    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "a.py").write_text("X = 1\n")
    (package / "sub" / "b.py").write_text("Y = 2\n")
    (package / "notes.txt").write_text("not code\n")
    before = code_digest(package)
    (package / "notes.txt").write_text("still not code\n")
    assert code_digest(package) == before
    (package / "sub" / "b.py").write_text("Y = 3\n")
    changed = code_digest(package)
    assert changed != before
    (package / "sub" / "b.py").rename(package / "b.py")
    assert code_digest(package) != changed  # a module moved is another program


def test_a_run_leaves_the_callers_garbage_collector_as_it_found_it(tmp_path: Path) -> None:
    """A run keeps its project model out of the collector's full passes while results come in (``gc.freeze``);
    a program that calls it (the API, a pre-commit hook's process) gets the collector back as it was."""
    import gc

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.cu").write_text(KERNEL)
    (tmp_path / "src" / "b.h").write_text("int helper(int);\n")
    args = ["-q", "--engine", "regex", "--no-cache", "--out-dir", str(tmp_path / "out"), str(tmp_path / "src")]
    assert gc.get_freeze_count() == 0
    assert main(args) == 0
    assert gc.get_freeze_count() == 0
    assert "hipFree" in (tmp_path / "out" / "a.cu").read_text()
    # A caller that froze objects of its own keeps them frozen, and no more.
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert main(args) == 0
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_a_cold_run_loads_the_table_beside_the_walk_and_leaves_no_thread_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cold run starts loading the table in a thread of its own before it walks the tree; the thread has ended
    before the first worker is forked (a fork must not copy it mid-load) and on every way out of the run."""
    import threading

    from hipify.knowledge import table
    from hipify.machinery import supervise

    loaders: list[str] = []
    real_load = table._shipped_table

    def watched() -> table.MappingTable:
        loaders.append(threading.current_thread().name)
        return real_load()

    monkeypatch.setattr(table, "_shipped_table", watched)
    real_spawn = supervise.Supervisor._spawn

    def spawn(self: supervise.Supervisor) -> supervise._Worker:
        assert [t for t in threading.enumerate() if t.name == "hipify-table"] == []
        return real_spawn(self)

    monkeypatch.setattr(supervise.Supervisor, "_spawn", spawn)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.cu").write_text(KERNEL)
    args = ["-q", "--engine", "regex", "--no-cache", "--out-dir", str(tmp_path / "out"), str(tmp_path / "src")]
    assert main(args) == 0
    assert loaders[0] == "hipify-table"  # the first load was the thread's; later callers took its table
    assert "hipFree" in (tmp_path / "out" / "a.cu").read_text()
    assert main(["-q", "--no-cache", "--out-dir", str(tmp_path / "out2"), str(tmp_path / "nothing-here")]) != 0
    assert [t for t in threading.enumerate() if t.name == "hipify-table"] == []


def test_a_temporary_name_a_dead_run_left_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Names count up per process: one taken already (a dead process with the same id left it) is never opened
    # or replaced; the next free one is used, and after a few taken ones a random one.
    import itertools

    from hipify.output import writing

    monkeypatch.setattr(writing, "_serials", itertools.count())
    taken = [tmp_path / f".k.cu.{os.getpid()}.{n}.hipify-tmp" for n in range(3)]
    for path in taken:
        path.write_bytes(b"left")
    writing.write_atomic(tmp_path / "k.cu", b"new\n")
    assert (tmp_path / "k.cu").read_bytes() == b"new\n" and all(p.read_bytes() == b"left" for p in taken)
    monkeypatch.setattr(writing, "_serials", itertools.repeat(0))  # every counted name taken: a random one
    writing.write_atomic(tmp_path / "k.cu", b"newer\n")
    assert (tmp_path / "k.cu").read_bytes() == b"newer\n" and sorted(temp_files(tmp_path)) == sorted(taken)
