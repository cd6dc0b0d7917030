"""bench/realcode.py --shim: each program's include folder written beside its unmodified sources, and its verdicts
keyed on that folder alone (the corpora themselves are measured by the bench, not here)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from realcode_compile import shared_digest
from realcode_programs import Program
from realcode_shim import SHIM_FOLDER, shim_tree


def _program(name: str, folder: str, includes: tuple[str, ...] = ()) -> Program:
    return Program("hecbench", name, folder, (f"{folder}/main.cu",), includes)


def test_each_program_gets_its_own_include_folder_and_unmodified_sources(tmp_path: Path) -> None:
    original = tmp_path / "original"
    for name, call in (("a", "cudaMalloc(&p, 4)"), ("b", "cudaFree(0)")):
        (original / f"src/{name}-cuda").mkdir(parents=True)
        (original / f"src/{name}-cuda/main.cu").write_text(f"#include <cuda_runtime.h>\nint main() {{ {call}; }}\n")
    (original / "src/include").mkdir()
    (original / "src/include/common.h").write_text(
        "#include <cuda_runtime.h>\ninline void sync() { cudaDeviceSynchronize(); }\n"
    )
    programs = [_program("a", "src/a-cuda", ("src/include",)), _program("b", "src/b-cuda")]
    dest = tmp_path / "shimmed"
    shimmed, _ = shim_tree(original, programs, dest)
    assert [p.include_dirs[0] for p in shimmed] == [f"{SHIM_FOLDER}/a", f"{SHIM_FOLDER}/b"]
    assert (dest / "src/a-cuda/main.cu").read_text() == (original / "src/a-cuda/main.cu").read_text()
    a = (dest / SHIM_FOLDER / "a" / "hipify_shim.h").read_text()
    b = (dest / SHIM_FOLDER / "b" / "hipify_shim.h").read_text()
    assert "#define cudaMalloc hipMalloc" in a and "cudaDeviceSynchronize" in a  # its include folder's names too
    assert "cudaMalloc" not in b and "#define cudaFree hipFree" in b  # only what the program uses
    before = shared_digest(dest, shimmed, SHIM_FOLDER)
    (dest / SHIM_FOLDER / "b" / "hipify_shim.h").write_text("// changed\n")
    assert shared_digest(dest, shimmed, SHIM_FOLDER) == before  # b's folder counts for b's key alone
