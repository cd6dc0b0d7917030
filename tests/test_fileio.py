from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path

import pytest

from hipify.output.writing import copy_atomic, write_atomic
from hipify.sources.fileio import SourceError, decode, encode, read_source


def test_utf8_roundtrip_is_byte_identical() -> None:
    raw = "int main() { /* héllo */ }\n".encode()
    decoded = decode(raw)
    assert encode(decoded.text, decoded.fmt) == raw


def test_bom_and_crlf_are_kept() -> None:
    raw = codecs.BOM_UTF8 + b"a\r\nb\r\n"
    decoded = decode(raw)
    assert decoded.text == "a\nb\n"
    assert decoded.fmt.bom and decoded.fmt.crlf
    assert encode(decoded.text + "c\n", decoded.fmt) == codecs.BOM_UTF8 + b"a\r\nb\r\nc\r\n"


def test_mixed_line_endings_are_left_as_they_are() -> None:
    decoded = decode(b"a\r\nb\n")
    assert not decoded.fmt.crlf and decoded.text == "a\r\nb\n"


def test_stray_non_utf8_bytes_are_kept_byte_for_byte() -> None:
    raw = b"int x; // caf\xe9 \xc3\xa9t\xe9\n"
    decoded = decode(raw)
    assert "offset 13" in decoded.note and decoded.fmt.errors == "surrogateescape"
    assert encode(decoded.text.replace("int", "long"), decoded.fmt) == raw.replace(b"int", b"long")


def test_text_not_in_a_requested_encoding_is_refused_with_offset() -> None:
    with pytest.raises(SourceError) as info:
        decode(b"int x; // caf\xe9\n", "ascii")
    assert info.value.code == "HPY301" and "offset 13" in info.value.message


def test_other_encoding_on_request() -> None:
    decoded = decode(b"// caf\xe9\n", "latin-1")
    assert decoded.text == "// café\n"
    assert encode(decoded.text, decoded.fmt) == b"// caf\xe9\n"


def test_binary_is_refused() -> None:
    with pytest.raises(SourceError) as info:
        decode(b"\x7fELF\0\0\0")
    assert info.value.code == "HPY302"


def test_too_large_and_unreadable(tmp_path: Path) -> None:
    big = tmp_path / "big.cu"
    big.write_bytes(b"x" * 100)
    with pytest.raises(SourceError) as info:
        read_source(big, max_size=10)
    assert info.value.code == "HPY304"
    with pytest.raises(SourceError) as info:
        read_source(tmp_path / "missing.cu")
    assert info.value.code == "HPY303"


def test_write_atomic_keeps_mode_and_leaves_no_temp_files(tmp_path: Path) -> None:
    src = tmp_path / "run.sh"
    src.write_text("old")
    os.chmod(src, 0o751)
    write_atomic(src, b"new", like=src)
    assert src.read_bytes() == b"new"
    assert stat.S_IMODE(src.stat().st_mode) == 0o751
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.sh"]


def test_write_atomic_failure_leaves_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "k.cu"
    target.write_text("original")

    def broken_replace(a: str, b: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_atomic(target, b"new")
    assert target.read_text() == "original"
    assert [p.name for p in tmp_path.iterdir()] == ["k.cu"]


def test_a_new_mirror_file_does_not_wait_for_the_disk_but_a_replaced_file_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    target = tmp_path / "mirror" / "a.cu"
    write_atomic(target, b"new\n", flush_new=False)
    assert target.read_bytes() == b"new\n" and synced == []  # nothing replaced: renamed without waiting
    write_atomic(target, b"newer\n", flush_new=False)
    assert target.read_bytes() == b"newer\n" and len(synced) == 1  # a file it replaces reaches the disk first
    write_atomic(tmp_path / "b.cu", b"x\n")
    assert len(synced) == 2  # by default, every file does
    copy_atomic(target, tmp_path / "mirror" / "c.cu", flush_new=False)
    assert (tmp_path / "mirror" / "c.cu").read_bytes() == b"newer\n" and len(synced) == 2
    assert sorted(p.name for p in (tmp_path / "mirror").iterdir()) == ["a.cu", "c.cu"]  # no temporary file left
