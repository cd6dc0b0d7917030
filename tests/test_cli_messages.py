"""What a run prints, as text: findings in gcc's form, one per root cause, capped; the summary
line of every mode; what --check says, why it fails and the command that fixes it. On small
trees of our own, on the corpus, and on a few programs of the real-code archives when present."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import tarfile
from pathlib import Path

import pytest

from hipify.cli.cli import main
from hipify.translation.engines import clang_status

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "corpus"
# The real-code archives (see bench/realcode.py): $HIPIFY_PY_REALCODE, else where bench/ looks.
REALCODE = Path(os.environ.get("HIPIFY_PY_REALCODE", REPO.parent / "shared" / "realcode"))
FINDING = re.compile(
    r"^(?P<path>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): (?P<msg>.+) \[(?P<code>HPY\d{3})\]$"
)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path.parent / f"{tmp_path.name}-cache"))
    monkeypatch.chdir(tmp_path)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _findings(err: str) -> list[re.Match[str]]:
    return [m for m in map(FINDING.match, err.splitlines()) if m is not None]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def _assert_one_per_root_cause(err: str) -> None:
    """No two printed findings share a root cause: the same code and CUDA name, or the same parse error."""
    seen: dict[tuple[str, str], str] = {}
    for m in _findings(err):
        msg = m["msg"]
        if m["code"] == "HPY203":
            key = (m["code"], msg.split(";")[0])
        else:
            key = (m["code"], msg.split(" ")[0] if m["code"] in ("HPY101", "HPY104", "HPY105", "HPY108") else msg)
        assert key not in seen, f"twice: {seen[key]!r} and {m.group(0)!r}"
        seen[key] = m.group(0)


API_TREE = {
    "src/a.cu": "void a() {\n    cudaArrayGetPlane(0, 0, 0);\n    cudaArrayGetPlane(0, 0, 1);\n    cudaFree(0);\n}\n",
    "src/b.cu": "void b() { cudaArrayGetPlane(0, 0, 2); cudaMyOwnHelper(); }\n",
    "src/c.cpp": "int c() { return 1; }\n",
    "data/input.txt": "1 2 3\n",
}


def test_findings_are_gcc_style_relative_and_once_per_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, API_TREE)
    code, _, err = _run(["--engine", "regex", "--check", "src"], capsys)
    assert code == 1
    lines = _findings(err)
    assert [m.group(0) for m in lines] == [
        # a translation unit's own statement is left out (it stops the program where reached), not the function
        "src/a.cu:2:5: warning: a statement of a needs cudaArrayGetPlane, which HIP lacks: left out, it stops the "
        "program where it is reached; a and the files using it compile (define HIPIFY_ENABLE_cudaArrayGetPlane to "
        "compile it) (3 uses in 2 files) [HPY010]",
        "src/b.cu:1:40: warning: cudaMyOwnHelper looks like a CUDA API but is not in the mapping table [HPY104]",
    ]
    # the same from another directory: paths stay relative to where the command runs
    os.chdir(tmp_path / "src")
    _, _, err = _run(["--engine", "regex", "--check", "."], capsys)
    assert "a.cu:2:5: warning: a statement of a needs cudaArrayGetPlane" in err and str(tmp_path) not in err


def test_summary_line_of_every_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, API_TREE)
    findings = "0 errors, 2 warnings, 0 notes"
    # the statements left out (HPY010) stop the program through the compatibility header's trap: it is written too
    header = "compatibility header: {}hipify_compat.h (1 entry)"
    _, _, err = _run(["--engine", "regex", "--out-dir", "../mirror", "."], capsys)
    assert err.splitlines()[-1] == (
        f"hipify-py: 3 files scanned, 2 translated into ../mirror/ (1 unchanged), 1 other file mirrored; {findings}; "
        + header.format("../mirror/")
    )
    _, _, err = _run(["--engine", "regex", "--diff", "src"], capsys)
    assert err.splitlines()[-1] == (
        f"hipify-py: 3 files scanned, 2 would change (nothing written); {findings}; " + header.format("src/")
    )
    _, _, err = _run(["--engine", "regex", "--out-dir", "hip", "src", "--report", "r.json"], capsys)
    assert err.splitlines()[-1] == (
        f"hipify-py: 3 files scanned, 2 translated into hip/ (1 unchanged); {findings}; report: r.json; "
        + header.format("hip/")
    )
    _, out, err = _run(["--engine", "regex", "src/a.cu"], capsys)
    assert "hipFree(0)" in out
    assert err.splitlines()[-1] == (
        "hipify-py: 1 file scanned, 1 translated (on stdout); 0 errors, 1 warning, 0 notes; " + header.format("src/")
    )
    _, _, err = _run(["--engine", "regex", "--in-place", "src"], capsys)
    assert err.splitlines()[-1] == f"hipify-py: 3 files scanned, 2 translated in place; {findings}; " + header.format(
        "src/"
    )
    _, _, err = _run(["--engine", "regex", "-q", "--in-place", "src"], capsys)
    assert err == ""  # -q: errors only, no summary


def test_check_says_what_would_change_why_it_fails_and_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, {**API_TREE, "src/dnn.cu": "#include <cudnn.h>\nvoid d() { cudnnHandle_t h; cudnnCreate(&h); }\n"})
    code, _, err = _run(["--engine", "regex", "--check", "src"], capsys)
    assert code == 1
    tail = err.splitlines()[-5:]
    assert tail[0] == "would translate 3 files: src/a.cu, src/b.cu, src/dnn.cu"
    assert tail[1] == (
        "hipify-py --check failed: 3 files would change; 3 CUDA APIs are translated only with --miopen "
        "(cudnn.h, cudnnCreate, cudnnHandle_t); 2 CUDA APIs have no automatic translation "
        "(cudaArrayGetPlane, cudaMyOwnHelper)"
    )
    assert tail[2] == "  fix: hipify-py --in-place --miopen --engine regex --check src".replace(" --check", "")
    assert tail[3].startswith("  then port by hand what remains")
    # run the fix it names: what is left is hand work only, and --check says so
    fix = shlex.split(tail[2].split("fix: ", 1)[1])
    assert main(fix[1:]) == 0
    assert (
        "hipMalloc" not in (tmp_path / "src" / "dnn.cu").read_text()
        and "miopenCreate" in (tmp_path / "src" / "dnn.cu").read_text()
    )
    capsys.readouterr()
    code, _, err = _run(["--engine", "regex", "--check", "src"], capsys)
    assert code == 1
    tail = err.splitlines()[-3:]
    assert (
        tail[0]
        == "hipify-py --check failed: 2 CUDA APIs have no automatic translation (cudaArrayGetPlane, cudaMyOwnHelper)"
    )
    assert tail[1].startswith("  nothing left that hipify-py can translate: port these by hand")
    assert "would translate" not in err and "fix:" not in err
    assert tail[2] == (
        "hipify-py: 4 files scanned, 0 would change (nothing written); 0 errors, 2 warnings, 0 notes; "
        "compatibility header: src/hipify_compat.h (1 entry)"
    )


def test_check_passes_quietly_when_nothing_is_left(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, {"src/c.cpp": "int c() { return 1; }\n"})
    code, _, err = _run(["--engine", "regex", "--check", "src"], capsys)
    assert code == 0
    assert err == "hipify-py: 1 file scanned, 0 would change (nothing written); 0 errors, 0 warnings, 0 notes\n"


def test_cap_and_verbosity_levels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calls = "\n".join(f"void f{i}() {{ cudaUnknownThing{i:02d}(); }}" for i in range(50))
    _write(tmp_path, {"src/many.cu": calls + "\n"})
    _, _, err = _run(["--engine", "regex", "--check", "src"], capsys)
    assert len(_findings(err)) == 40
    assert "hipify-py: 10 more findings not shown (--max-findings); --report report.html lists them all" in err
    _, _, err = _run(["--engine", "regex", "--check", "--max-findings", "5", "--report", "r.html", "src"], capsys)
    assert len(_findings(err)) == 5 and "45 more findings not shown (--max-findings); all are in r.html" in err
    assert "cudaUnknownThing49" in (tmp_path / "r.html").read_text()
    _, _, err = _run(["--engine", "regex", "--check", "-v", "src"], capsys)
    assert len(_findings(err)) == 50 and "not shown" not in err
    # --print-stats no longer turns notes on; -v does, independently
    skipped = "// hipify-py: skip-file\nvoid f() { cudaFree(0); }\n"  # a note says it was skipped
    note_tree = _write(tmp_path / "notes", {"k.cu": skipped})
    argv = ["--engine", "regex", "--check", str(note_tree)]
    _, _, err = _run([*argv, "--print-stats"], capsys)
    plain = [m["sev"] for m in _findings(err)]
    _, _, err_v = _run([*argv, "-v"], capsys)
    assert "note" not in plain and "note" in [m["sev"] for m in _findings(err_v)]
    assert "-v shows them" in err
    # -q: only errors
    _, _, err = _run(["--engine", "regex", "-q", "--check", "src", "missing.cu"], capsys)
    assert err.strip() == "missing.cu: error: no such file or directory"


@pytest.mark.clang
def test_a_header_parse_error_once_and_a_hint_for_a_missing_include(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    usable, reason = clang_status()
    if not usable:
        pytest.skip(reason)
    files = {
        "src/broken.h": "#pragma once\nstruct Broken { int x };\n",
        "third/dep/include/dep/dep.h": "inline int depf() { return 1; }\n",
    }
    for i in range(3):
        files[f"src/f{i}.cu"] = (
            f'#include "broken.h"\n#include <dep/dep.h>\n__global__ void k{i}() {{}}\nint main() {{ return depf(); }}\n'
        )
    _write(tmp_path, files)
    (tmp_path / ".git").mkdir()  # the repository the hint searches
    argv = ["--engine", "clang", "--clang-parse", "always", "--check", "src"]
    _, _, err = _run(argv, capsys)
    assert [m.group(0) for m in _findings(err)] == [
        "src/broken.h:2:22: warning: parse error: expected ';' at end of declaration list [HPY203]",
        "src/f0.cu:2:10: warning: parse error: 'dep/dep.h' file not found; in 3 files (src/f0.cu, src/f1.cu, src/f2.cu); "
        "hint: pass -I third/dep/include (dep/dep.h is there) [HPY203]",
    ]
    _, _, err = _run([*argv, "-I", "third/dep/include"], capsys)
    assert [m.group(0) for m in _findings(err)] == [
        "src/broken.h:2:22: warning: parse error: expected ';' at end of declaration list; "
        "affects 3 files that include it (src/f0.cu, src/f1.cu, src/f2.cu) [HPY203]"
    ]


def test_corpus_findings_summary_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(CORPUS, tmp_path / "corpus", ignore=shutil.ignore_patterns("*.expected*", "__pycache__"))
    code, _, err = _run(["--engine", "regex", "--check", "-v", "corpus"], capsys)
    assert code == 1
    _assert_one_per_root_cause(err)
    assert not [m for m in _findings(err) if m["code"] == "HPY104"], "a project name reported as a CUDA API"
    assert all(not m["path"].startswith("/") for m in _findings(err))
    lines = err.splitlines()
    assert (
        lines[-1].startswith("hipify-py: ")
        and " files scanned, " in lines[-1]
        and " would change (nothing written); 0 errors, " in lines[-1]
    )
    assert "compatibility header: corpus/hipify_compat.h" in lines[-1]
    assert any(line == "  fix: hipify-py --in-place --engine regex -v corpus" for line in lines)


def _extract(archive: Path, members: tuple[str, ...], into: Path) -> None:
    with tarfile.open(archive) as tar:
        chosen = [m for m in tar.getmembers() if m.isfile() and m.name.startswith(members)]
        tar.extractall(into, members=chosen, filter="data")


def test_real_code_findings_summary_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = REALCODE / "cuda-library-samples.tar.xz"
    if not archive.is_file():
        pytest.skip(f"no real-code archive at {archive} (set HIPIFY_PY_REALCODE to the folder of the archives)")
    usable, _ = clang_status()
    engine = "auto" if usable else "regex"
    programs = ("cuBLAS/utils/", "cuBLAS/Emulation/gemm_grading/", "cuBLAS/Level-3/gemm/", "cuBLAS/Level-1/amax/")
    _extract(archive, tuple(f"cuda-library-samples/{p}" for p in programs), tmp_path)
    os.chdir(tmp_path / "cuda-library-samples")
    code, _, err = _run(["--engine", engine, "--check", "-v", "-j", "2", "cuBLAS"], capsys)
    assert code == 1
    found = _findings(err)
    assert found
    _assert_one_per_root_cause(err)
    # the project's own names (an enum class's CUDA_NATIVE_GEMM, ...) are not CUDA APIs
    assert not [m.group(0) for m in found if m["code"] == "HPY104"]
    # no parse error about an include that is in the tree (cublas_utils.h is in cuBLAS/utils)
    assert not [m.group(0) for m in found if "file not found" in m["msg"] and "cublas_utils.h" in m["msg"]]
    assert all(not m["path"].startswith("/") and m["path"].startswith("cuBLAS/") for m in found)
    lines = err.splitlines()
    assert re.fullmatch(
        r"hipify-py: \d+ files scanned, \d+ would change \(nothing written\); 0 errors, \d+ warnings?, \d+ notes?"
        r"; compatibility header: cuBLAS/hipify_compat.h \(1 entry\)",  # hipify_unavailable, for the code left out
        lines[-1],
    )
    assert (
        lines[-2].startswith("  then port by hand what remains")
        and lines[-3] == f"  fix: hipify-py --in-place --engine {engine} -v -j 2 cuBLAS"
    )
    # the emulation sample's header keeps its function, whose body is left out (HPY010): hand work, named by API
    assert lines[-4].startswith("hipify-py --check failed: ")
    assert "no automatic translation (CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT" in lines[-4]
    assert "declaration of the project" not in lines[-4]


def test_project_names_are_never_reported_as_cuda_apis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(
        tmp_path,
        {
            "src/algo.h": "#pragma once\nenum class Algo {\n  CUDA_NATIVE_GEMM,  // ours\n  CUDA_EMULATED_GEMM = 2\n};\n",
            "src/main.cu": '#include "algo.h"\n#include <stdlib.h>\n'
            'int main() {\n  char *cuda_path = getenv("X");\n  Algo a = Algo::CUDA_NATIVE_GEMM;\n'
            "  return cuda_path != 0 && a == Algo::CUDA_EMULATED_GEMM && cudaTheirThing();\n}\n",
        },
    )
    _, _, err = _run(["--engine", "regex", "--check", "src"], capsys)
    assert [m.group(0) for m in _findings(err) if m["code"] == "HPY104"] == [
        "src/main.cu:6:61: warning: cudaTheirThing looks like a CUDA API but is not in the mapping table [HPY104]"
    ]
    _, _, err = _run(["--engine", "regex", "--check", "--project-name", "cudaTheirThing", "src"], capsys)
    assert not _findings(err)
