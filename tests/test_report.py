from __future__ import annotations

from hipify.model import Diagnostic, Edit, Severity
from hipify.reports.report import Report
from hipify.reports.report_render import render
from hipify.translation.pipeline import FileResult


def test_counts_conversions_not_support_edits_and_deprecated_is_converted() -> None:
    result = FileResult(
        "k.cu",
        "k.cu",
        original="a",
        text="b",
        edits=(
            Edit(0, 1, "hipMalloc", "HPY001", subject="cudaMalloc"),
            Edit(0, 0, "#include <hip/hip_runtime.h>\n", "HPY003", subject="hip/hip_runtime.h"),
            Edit(5, 15, "0xffffffffffffffffULL", "HPY008", subject="__shfl_down_sync"),
            Edit(20, 30, "hipHostMalloc", "HPY001", subject="cudaMallocHost"),
        ),
        diagnostics=(
            Diagnostic("HPY102", "HIP marks hipX deprecated", subject="cuX", path="k.cu"),
            Diagnostic("HPY101", "cudaY is unsupported", subject="cudaY", path="k.cu", line=3, col=1),
        ),
    )
    report = Report()
    report.add(result)
    report.add(FileResult("bad.cu", "bad.cu", error=Diagnostic("HPY301", "not utf-8", severity=Severity.ERROR)))
    data = report.to_dict()
    assert data["summary"] == {
        "files": 2,
        "changed": 1,
        "errors": 1,
        "cached": 0,
        "converted": 2,
        "unconverted": 1,
        "engines": {"": 1},
        # k.cu: one API needs hand work (medium); bad.cu could not be read (high)
        "effort": {"none": 0, "low": 0, "medium": 1, "high": 1},
        "work": {"translated": 2, "flag": 0, "hand": 1, "review": 1, "environment": 1},
        "minimum_rocm": "5.2",  # the first release the translated names (hipMalloc, hipHostMalloc) appear in
        "target_rocm": "7.2",
    }
    assert data["unconverted"] == {"cudaY": 1}
    csv_text = render(report, "csv")
    assert csv_text.splitlines()[0] == "path,line,column,code,severity,subject,message"
    assert "k.cu,3,1,HPY101,warning,cudaY,cudaY is unsupported" in csv_text
