"""Write mapping_tables/<api>.json: one compact row per line, sorted by CUDA name, byte-stable."""

from __future__ import annotations

import json
from pathlib import Path

from ..knowledge.table import Row


def _row_json(row: Row) -> dict[str, object]:
    data = row.to_json()
    if not data["by_rocm"]:
        del data["by_rocm"]  # most rows are the same in every release: the key is left out (the loader's default)
    if not data["declares"]:
        del data["declares"]  # only the header rows HIP has no counterpart of have it
    if not data["hip_missing_members"]:
        del data["hip_missing_members"]  # only struct rows whose HIP struct lacks members have it
    if not data["brings"]:
        del data["brings"]  # only the header rows whose CUDA header includes more than HIP's have it
    return data


def render(api: str, rows: list[Row], generated_from: dict[str, str]) -> str:
    head = json.dumps({"api": api, "generated_from": generated_from}, indent=1, sort_keys=True, ensure_ascii=False)
    lines = [
        json.dumps(_row_json(r), separators=(",", ":"), ensure_ascii=False) for r in sorted(rows, key=lambda r: r.cuda)
    ]
    body = ",\n".join(lines)
    return head[:-2] + ',\n "rows": [\n' + body + "\n ]\n}\n"


def write_tables(out: Path, by_api: dict[str, list[Row]], generated_from: dict[str, str]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for api in sorted(by_api):
        path = out / f"{api}.json"
        text = render(api, by_api[api], generated_from)
        json.loads(text)  # never ship a file the loader cannot read
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    for stale in sorted(out.glob("*.json")):
        if stale not in written:
            stale.unlink()
    return written
