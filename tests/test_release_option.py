"""One ``--rocm`` for every subcommand that depends on the release: the same default (the newest release the table
was generated for) in translation, ``shim``, ``tables`` and ``explain``, and the configuration file's ``rocm``
honoured by all of them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hipify.cli.cli import build_parser, main
from hipify.cli.release import DEFAULT_TEXT, resolve_rocm
from hipify.knowledge.table import load_table, release_version
from hipify.options import DEFAULT_ROCM


def test_the_default_is_the_newest_release_the_table_knows() -> None:
    assert max(release_version(r) for r in load_table().target_releases) == DEFAULT_ROCM
    assert ".".join(map(str, DEFAULT_ROCM)) == DEFAULT_TEXT


def _help_default(text: str) -> str:
    flat = " ".join(text.split())
    m = re.search(r"--rocm X\.Y target ROCm version \(default (\d+\.\d+)", flat)
    assert m, flat
    return m.group(1)


@pytest.mark.parametrize("subcommand", ["shim", "tables", "explain"])
def test_each_subcommands_help_names_rocm_with_the_translations_default(
    subcommand: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([subcommand, "--help"])
    assert _help_default(capsys.readouterr().out) == _help_default(build_parser().format_help()) == DEFAULT_TEXT


def test_explain_and_tables_read_the_table_as_the_release_has_it(capsys: pytest.CaptureFixture[str]) -> None:
    # hipBLAS's complex functions take hipComplex under their plain names from 7.x on (mapping_tables/README.md)
    assert main(["explain", "cublasCgemm", "--rocm", "6.4"]) == 0
    assert "hipblasCgemm_v2" in capsys.readouterr().out
    assert main(["explain", "cublasCgemm"]) == 0
    out = capsys.readouterr().out
    assert "HIP:           hipblasCgemm " in out
    assert main(["tables", "--api", "blas", "--rocm", "6.4"]) == 0
    rows = {r["cuda"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["cublasCgemm"]["hip"] == "hipblasCgemm_v2"
    assert main(["tables", "--api", "blas"]) == 0
    rows = {r["cuda"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["cublasCgemm"]["hip"] == "hipblasCgemm"


def test_the_configuration_files_rocm_is_honoured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()  # the project's root: no configuration above it counts
    (tmp_path / ".hipify-py.toml").write_text('rocm = "6.4"\n', encoding="utf-8")
    (tmp_path / "src").mkdir()
    assert resolve_rocm(None, [str(tmp_path / "src")]) == (6, 4)  # shim: the configuration over its paths
    assert resolve_rocm("7.2", [str(tmp_path / "src")]) == (7, 2)  # the command line wins
    assert resolve_rocm(None, [str(tmp_path / "src")], no_config=True) == DEFAULT_ROCM
    monkeypatch.chdir(tmp_path)
    assert main(["explain", "cublasCgemm"]) == 0  # tables and explain: the current directory's configuration
    assert "hipblasCgemm_v2" in capsys.readouterr().out


def test_a_bad_release_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["explain", "cudaMalloc", "--rocm", "seven"])
    assert exc.value.code == 2 and "not a ROCm version" in capsys.readouterr().err
