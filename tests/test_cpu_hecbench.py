"""bench/cpu_hecbench.py's reading of a benchmark folder: the sources its Makefile builds, on folders of our own."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from cpu_hecbench import benchmark


def test_a_listed_source_the_folder_lacks_is_the_file_its_object_is_built_from(tmp_path: Path) -> None:
    cuda, port = tmp_path / "x-cuda", tmp_path / "x-hip"
    cuda.mkdir(), port.mkdir()
    for name in ("main.cu", "timer.cpp", "timer.h", "util.c"):
        (cuda / name).write_text("int f();\n")
    (port / "main.cu").write_text("int f();\n")
    (cuda / "Makefile").write_text(
        "source = main.cu timer.cu util.c gone.cu\nobj = main.o timer.o\ntimer.o: timer.cpp timer.h\n"
    )
    (port / "Makefile").write_text(
        "source = main.cu timer.cpp\nCFLAGS := -I../x-cuda\ntimer.o : ../x-cuda/timer.cpp ../x-cuda/timer.h\n"
    )
    assert benchmark(cuda).sources == ("main.cu", "timer.cpp", "util.c")
    assert benchmark(port).sources == ("main.cu", "../x-cuda/timer.cpp")


def test_an_object_linked_from_a_file_beside_the_folder_brings_its_source(tmp_path: Path) -> None:
    cuda, port = tmp_path / "y-cuda", tmp_path / "y-hip"
    cuda.mkdir(), port.mkdir()
    for name in ("main.cpp", "io.cpp", "unused.cpp"):
        (cuda / name).write_text("int f();\n")
    (port / "process.cu").write_text("int f();\n")
    (port / "Makefile").write_text(
        "obj = main.o io.o process.o\nmain: $(obj)\n\tcc $(obj)\n"
        "main.o: ../y-cuda/main.cpp ../y-cuda/utils.h\nio.o: ../y-cuda/io.cpp\nunused.o: ../y-cuda/unused.cpp\n"
    )
    assert benchmark(port).sources == ("process.cu", "../y-cuda/main.cpp", "../y-cuda/io.cpp")
