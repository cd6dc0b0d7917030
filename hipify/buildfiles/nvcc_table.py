"""The generator of nvcc's option table (``mapping_tables/nvcc/options.json``): nvcc's ``--help`` read by
:mod:`.nvcc_help`, each option classified by :mod:`.nvcc_options`'s handlers.

``python -m hipify.buildfiles.nvcc_table generate [--nvcc PATH]`` reads ``nvcc --help`` and ``nvcc --version``;
``refresh`` classifies the committed options again (no CUDA toolkit needed); ``coverage`` prints how many options have a
decision.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Sequence

from .nvcc_help import NvccOption, parse_help, shipped_options, spelling_index, table_file
from .nvcc_options import classify


def _sample_value(value: str) -> str:
    """A value to classify a valued option with: the first of ``{a|b}``, else a plausible word."""
    choices = re.fullmatch(r"[{\[](.*)[}\]]", value.removesuffix(",..."))
    if choices:
        return re.split(r"[|,]", choices.group(1))[0]
    return "sm_80" if "arch" in value or "code" in value or "specification" in value else "x"


def table_rows(options: Sequence[NvccOption]) -> list[dict[str, str]]:
    rows = []
    for option in options:
        kind, hipcc, reason = classify(option, _sample_value(option.value) if option.value else "")
        rows.append(
            {
                "long": option.long,
                "short": option.short,
                "value": option.value,
                "section": option.section,
                "kind": kind,
                "hipcc": hipcc,
                "reason": reason,
            }
        )
    return rows


def render(options: Sequence[NvccOption], generated_from: str) -> str:
    rows = table_rows(options)
    lines = ",\n".join("    " + json.dumps(row, ensure_ascii=False) for row in rows)
    head = json.dumps(generated_from)
    return f'{{\n  "generated_from": {head},\n  "options": [\n{lines}\n  ]\n}}\n'


def coverage(rows: Sequence[dict[str, str]]) -> tuple[int, int]:
    """(options with a decision, all options): a decision is a counterpart, a reason to drop, or a step."""
    decided = sum(1 for row in rows if row["kind"] != "unknown")
    return decided, len(rows)


def _nvcc_text(nvcc: str, *args: str) -> str:
    return subprocess.run([nvcc, *args], capture_output=True, text=True, check=True, timeout=60).stdout


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hipify.buildfiles.nvcc_table", description=__doc__)
    parser.add_argument("action", choices=("generate", "refresh", "coverage"))
    parser.add_argument("--nvcc", default="nvcc", help="the nvcc whose --help is read (generate)")
    args = parser.parse_args(argv)
    path = table_file()
    if args.action == "coverage":
        rows = table_rows(shipped_options())
        decided, total = coverage(rows)
        print(f"{decided}/{total} nvcc options decided")
        for row in rows:
            if row["kind"] == "unknown":
                print(f"  undecided: {row['long']} ({row['short']})")
        return 0 if decided == total else 1
    if args.action == "generate":
        version = _nvcc_text(args.nvcc, "--version").strip().splitlines()
        options = parse_help(_nvcc_text(args.nvcc, "--help"))
        generated_from = f"nvcc --help of {version[-2].strip() if len(version) >= 2 else 'nvcc'}"
    else:
        options = shipped_options()
        generated_from = json.loads(path.read_text(encoding="utf-8"))["generated_from"]
    path.parent.mkdir(parents=True, exist_ok=True)
    # Twice: the translation finds a handler under either spelling through the table itself, so the options are
    # classified once the table lists them.
    for _ in range(2):
        path.write_text(render(options, generated_from), encoding="utf-8")
        shipped_options.cache_clear()
        spelling_index.cache_clear()
    print(f"wrote {len(options)} options to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
