"""What a worker reads and writes itself: the scan's reading kept for the translation, and the translation
written where it is made (--out-dir, --in-place), exactly as the run's emitter writes it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from hipify.machinery.kept import KeptValues
from hipify.model import FileResult, FileTask
from hipify.options import Options
from hipify.output.emit import Destination, OutputMode, Placed
from hipify.run.placing import WriteOrder, translate_and_write
from hipify.sources import kept

SOURCE = "__global__ void k(float* p) {}\nint main() { float* d; cudaMalloc(&d, 4); cudaFree(d); }\n"


def test_the_translation_takes_the_scans_reading_while_the_file_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "a.cu"
    path.write_text(SOURCE)
    scanned = kept.read_kept(str(path))
    assert kept.take_read(str(path)) is scanned  # not read again
    assert kept.take_read(str(path)) is not scanned  # taken once: a later reading is fresh
    assert kept.take_read(str(path)).text == SOURCE


def test_a_second_scan_of_an_unchanged_file_takes_the_first_ones_reading(tmp_path: Path) -> None:
    path = tmp_path / "a.cu"
    path.write_text(SOURCE)
    first = kept.read_kept(str(path))
    assert kept.read_kept(str(path)) is first
    path.write_text(SOURCE + "// later\n")
    assert kept.read_kept(str(path)).text.endswith("// later\n")
    kept.clear()


def test_a_file_changed_after_the_scan_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "a.cu"
    path.write_text(SOURCE)
    kept.read_kept(str(path))
    path.write_text(SOURCE + "// later\n")
    assert kept.take_read(str(path)).text.endswith("// later\n")


def test_a_reading_with_other_settings_is_not_taken(tmp_path: Path) -> None:
    path = tmp_path / "a.cu"
    path.write_bytes("// caf\u00e9\n".encode("latin-1"))
    kept.read_kept(str(path), "latin-1")
    assert kept.take_read(str(path), "utf-8").note  # read again as asked: not valid UTF-8, said so


def test_what_is_kept_is_bounded(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(kept, "_kept", KeptValues(len(SOURCE) * 2))
    paths = []
    for name in "abc":
        paths.append(tmp_path / f"{name}.cu")
        paths[-1].write_text(SOURCE)
        kept.read_kept(str(paths[-1]))
    assert list(kept._kept) == [str(p) for p in paths[1:]]  # the oldest went first
    kept.clear()


def _order(source: Path, dest: Path, mode: OutputMode) -> WriteOrder:
    task = FileTask(str(source), source.name, Options(engine="regex", use_cache=False))
    return WriteOrder(task, Destination(dest, in_place=mode == OutputMode.IN_PLACE), mode, quiet=True)


def test_a_worker_writes_the_translation_and_sends_back_no_text(tmp_path: Path) -> None:
    source, out = tmp_path / "a.cu", tmp_path / "out" / "a.cu"
    source.write_text(SOURCE)
    placed = translate_and_write(_order(source, out, OutputMode.OUT_DIR))
    assert isinstance(placed, Placed)
    written = out.read_bytes()
    assert b"hipMalloc(&d, 4)" in written and b"cudaMalloc" not in written
    assert placed.digest == hashlib.sha256(written).hexdigest()
    assert placed.entry.changed and placed.entry.edits >= 2
    assert not [p for p in out.parent.iterdir() if p.name != "a.cu"]  # no temporary file left


def test_in_place_a_file_with_nothing_to_change_is_not_written(tmp_path: Path) -> None:
    source = tmp_path / "plain.cpp"
    source.write_text("int main() { return 0; }\n")
    os.utime(source, ns=(1, 1))
    placed = translate_and_write(_order(source, source, OutputMode.IN_PLACE))
    assert isinstance(placed, Placed) and not placed.entry.changed and placed.digest == ""
    assert source.stat().st_mtime_ns == 1


def test_a_file_that_cannot_be_read_comes_back_for_the_run_to_report(tmp_path: Path) -> None:
    source = tmp_path / "blob.cu"
    source.write_bytes(b"\x00\x01\x02binary")
    result = translate_and_write(_order(source, tmp_path / "out" / "blob.cu", OutputMode.OUT_DIR))
    assert isinstance(result, FileResult) and result.error is not None
    assert not (tmp_path / "out").exists()


def test_kept_values_are_bounded_by_the_sizes_given() -> None:
    values: KeptValues[str, int] = KeptValues(10)
    values.put("a", 1, 4)
    values.put("b", 2, 4)
    values.put("huge", 3, 11)  # larger than the whole limit: not kept, nothing else dropped
    assert list(values) == ["a", "b"]
    values.put("c", 4, 4)  # 12 > 10: the oldest goes
    assert list(values) == ["b", "c"] and values.get("a") is None
    assert values.pop("b") == 2 and "b" not in values
    values.put("d", 5, 6)  # 4 + 6 fits once b's size is given back
    assert list(values) == ["c", "d"]


def test_an_output_that_already_holds_the_translation_is_left_alone_and_a_new_one_is_not_read_first(
    tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from hipify.output import emit
    from hipify.run import placing
    from hipify.sources.fileio import TEMP_SUFFIX

    source, out = tmp_path / "a.cu", tmp_path / "out" / "a.cu"
    source.write_text(SOURCE)
    monkeypatch.setattr(placing, "_swept", {})
    translate_and_write(_order(source, out, OutputMode.OUT_DIR))
    expected = out.read_bytes()
    # A second run (another process: its own record of the directories it swept) finds the same bytes there.
    monkeypatch.setattr(placing, "_swept", {})
    stale = out.parent / f".b.cu.999999999.x{TEMP_SUFFIX}"  # an interrupted run's temporary file (no such pid)
    stale.write_bytes(b"partial")
    os.utime(out, ns=(1, 1))
    reads: list[Path] = []
    holds = emit._holds
    monkeypatch.setattr(emit, "_holds", lambda path, data: reads.append(path) or holds(path, data))
    placed = translate_and_write(_order(source, out, OutputMode.OUT_DIR))
    assert isinstance(placed, Placed) and out.stat().st_mtime_ns == 1 and reads == [out]  # read, same: not written
    assert not stale.exists()  # the sweep removed it
    # A file the directory did not hold when it was swept is written without being read first.
    other = tmp_path / "b.cu"
    other.write_text(SOURCE)
    translate_and_write(_order(other, out.parent / "b.cu", OutputMode.OUT_DIR))
    assert reads == [out] and (out.parent / "b.cu").read_bytes() == expected
