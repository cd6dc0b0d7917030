"""Configuration files: found from the inputs upward, merged with and overridden by the command
line, and every kind of invalid value refused with a message naming the file and the key."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hipify.cli.cli import main
from hipify.cli.config import ConfigError, find_config, load_config

UNKNOWN = "void f() { cudaMyHelper(); cudaMalloc(0, 1); }\n"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)


def _project(tmp_path: Path, config: str, name: str = "pyproject.toml") -> Path:
    root = tmp_path / "proj"
    (root / "src" / "deep").mkdir(parents=True)
    (root / ".git").mkdir()  # the repository root: the walk up stops here
    (root / name).write_text(config)
    (root / "src" / "deep" / "k.cu").write_text(UNKNOWN)
    return root


def _report(tmp_path: Path, *argv: str) -> dict[str, object]:
    out = tmp_path / "r.json"
    assert main(["--examine", "-q", "--report", str(out), *argv]) == 0
    data = json.loads(out.read_text())
    assert isinstance(data, dict)
    return data


def test_found_walking_up_from_the_inputs(tmp_path: Path) -> None:
    root = _project(tmp_path, '[tool.hipify-py]\nengine = "regex"\nproject-names = ["cudaMyHelper"]\n')
    assert find_config([str(root / "src" / "deep" / "k.cu")]) == root / "pyproject.toml"
    assert find_config([str(root / "src")]) == root / "pyproject.toml"
    data = _report(tmp_path, str(root / "src"))
    assert data["unconverted"] == {}  # cudaMyHelper is the project's own: not reported
    assert data["summary"]["engines"] == {"regex": 1}  # type: ignore[index]


def test_pyproject_without_the_section_is_not_a_config(tmp_path: Path) -> None:
    root = _project(tmp_path, "[project]\nname = 'x'\n")
    assert find_config([str(root / "src")]) is None
    data = _report(tmp_path, "--engine", "regex", str(root / "src"))
    assert data["unconverted"] == {"cudaMyHelper": 1}


def test_own_file_wins_over_pyproject_and_the_walk_stops_at_the_repository(tmp_path: Path) -> None:
    root = _project(tmp_path, '[tool.hipify-py]\nengine = "clang"\n')
    (root / ".hipify-py.toml").write_text('engine = "regex"\n')
    assert find_config([str(root / "src")]) == root / ".hipify-py.toml"
    (tmp_path / ".hipify-py.toml").write_text('engine = "clang"\n')  # above the repository: another project's
    (root / ".hipify-py.toml").unlink()
    (root / "pyproject.toml").unlink()
    assert find_config([str(root / "src")]) is None


def test_command_line_wins_and_lists_add_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(
        tmp_path,
        "[tool.hipify-py]\n"
        'engine = "regex"\nroc = true\ninclude-dirs = ["include"]\ndefines = ["FROM_CONFIG=1"]\n'
        'project-names = ["cudaMyHelper"]\n',
    )
    (root / "src" / "deep" / "k.cu").write_text(
        "#if FROM_CONFIG\nint a() { return 1; }\n#else\nint b() { return CUBLAS_DIAG_UNIT; }\n#endif\n"
        "#if FROM_CLI\nint c() { return 1; }\n#else\nint d() { return CUBLAS_DIAG_UNIT; }\n#endif\n"
        "int h() { return CUBLAS_DIAG_NON_UNIT; }\nvoid g() { cudaMyHelper(); }\n"
    )
    k_cu = str(root / "src" / "deep" / "k.cu")
    skip = "--skip-excluded-preprocessor-conditional-blocks"
    # -D adds to the config's defines: with both, both #else branches are known inactive and left alone
    assert main(["-D", "FROM_CLI=1", skip, k_cu]) == 0
    out = capsys.readouterr()
    assert out.out.count("return CUBLAS_DIAG_UNIT;") == 2
    assert "return rocblas_diagonal_non_unit;" in out.out  # the config's roc
    assert "cudaMyHelper()" in out.out and "HPY104" not in out.err
    assert "config: " in out.err and "pyproject.toml" in out.err
    # --no-roc undoes the config's roc
    assert main(["--no-roc", "-D", "FROM_CLI=1", skip, k_cu]) == 0
    assert "return HIPBLAS_DIAG_NON_UNIT;" in capsys.readouterr().out
    # without the command line's -D, FROM_CLI is not known: that #else is translated
    assert main([skip, k_cu]) == 0
    assert capsys.readouterr().out.count("return CUBLAS_DIAG_UNIT;") == 1
    # --engine on the command line wins over the config's
    data = _report(tmp_path, "--engine", "clang", "--clang-parse", "always", str(root / "src"))
    assert data["summary"]["engines"] != {"regex": 1}  # type: ignore[index]


def test_mappings_override_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(
        tmp_path,
        '[tool.hipify-py]\nengine = "regex"\n[tool.hipify-py.mappings]\n'
        'cudaMyHelper = "hipMyHelper"\ncudaMalloc = "myHipMalloc"\n"my_cuda.h" = "my_hip.h"\n',
    )
    (root / "src" / "deep" / "k.cu").write_text('#include "my_cuda.h"\n' + UNKNOWN)
    assert main([str(root / "src" / "deep" / "k.cu")]) == 0
    out = capsys.readouterr()
    assert '#include "my_hip.h"' in out.out and "hipMyHelper(); myHipMalloc(0, 1);" in out.out
    assert "HPY104" not in out.err
    assert main(["--no-config", str(root / "src" / "deep" / "k.cu")]) == 0
    assert "hipMalloc(0, 1)" in capsys.readouterr().out


def test_explicit_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, "[project]\nname = 'x'\n")
    other = tmp_path / "elsewhere.toml"
    other.write_text('engine = "regex"\nwarn-unknown = false\n')
    assert main(["--config", str(other), "--check", str(root / "src")]) == 1
    assert "HPY104" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('engine = "gcc"', "key 'engine': expected one of 'auto', 'clang', 'regex', got 'gcc'"),
        ('roc = "yes"', "key 'roc': expected true or false, got 'yes'"),
        ('rocm = "six"', "key 'rocm': expected not a ROCm version: 'six' (expected e.g. 6.4), got 'six'"),
        ("rocm = 6.4", "key 'rocm': expected a ROCm version as a string, e.g. \"6.4\", got 6.4"),
        ("jobs = -1", "key 'jobs': expected a whole number >= 0, got -1"),
        ("jobs = true", "key 'jobs': expected a whole number >= 0, got True"),
        ('include-dirs = "include"', "key 'include-dirs': expected a list of non-empty strings, got 'include'"),
        ("defines = [1]", "key 'defines': expected a list of non-empty strings, got [1]"),
        ('project-names = ["not a name"]', "key 'project-names': expected C identifiers (not 'not a name')"),
        ('mappings = ["a"]', "key 'mappings': expected a table of CUDA name = \"target name\""),
        (
            "[tool.hipify-py.mappings]\ncudaX = 3",
            "key 'mappings': expected an identifier or header name as the target of 'cudaX' (not 3)",
        ),
        ('engin = "regex"', "unknown key 'engin' in [tool.hipify-py]; did you mean 'engine'?"),
        ("engine = ", "not valid TOML"),
    ],
)
def test_invalid_values_name_file_key_and_expectation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    body = text if text.startswith("[") else f"[tool.hipify-py]\n{text}\n"
    if text.startswith("[tool.hipify-py.mappings]"):
        body = "[tool.hipify-py]\n" + text + "\n"
    root = _project(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        load_config(root / "pyproject.toml")
    assert expected in str(info.value)
    assert str(info.value).startswith(os.path.join("proj", "pyproject.toml") + ": ")
    assert main(["--check", str(root / "src")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hipify-py: error: ") and expected in err
