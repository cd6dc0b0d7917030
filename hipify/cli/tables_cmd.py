"""`hipify-py tables` (dump the mapping table) and `hipify-py explain NAME` (one row in words)."""

from __future__ import annotations

import argparse
import csv
import difflib
import io
import json
import sys
from collections import Counter
from collections.abc import Iterable
from typing import TextIO

from ..knowledge.families import ALIASES, family_of
from ..knowledge.table import ROW_KEYS, MappingTable, Row, load_table
from .release import ConfigError, add_rocm_option, resolve_rocm

FORMATS = ("json", "csv", "md")
# Columns of the Markdown dump: the ones a reader scans; JSON and CSV carry every key.
MD_COLUMNS = ("cuda", "hip", "roc", "kind", "hip_status", "hip_since", "hip_header")


def _flat(row: Row) -> dict[str, str]:
    data = row.to_json()
    data["transform"] = json.dumps(data["transform"], sort_keys=True) if data["transform"] else ""
    data["by_rocm"] = json.dumps(data["by_rocm"], sort_keys=True) if data["by_rocm"] else ""
    return {k: str(v) for k, v in data.items()}


def _select(table: MappingTable, api: str | None) -> list[Row]:
    return [r for r in table if api is None or r.api == api]


def write_json(rows: Iterable[Row], out: TextIO) -> None:
    out.write("[\n")
    first = True
    for row in rows:
        out.write(("" if first else ",\n") + json.dumps(row.to_json(), ensure_ascii=False))
        first = False
    out.write("\n]\n")


def write_csv(rows: Iterable[Row], out: TextIO) -> None:
    writer = csv.DictWriter(out, fieldnames=list(ROW_KEYS), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(_flat(row))


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|") if text else ""


def write_md(rows: Iterable[Row], out: TextIO) -> None:
    out.write("| " + " | ".join(MD_COLUMNS) + " |\n")
    out.write("|" + "---|" * len(MD_COLUMNS) + "\n")
    for row in rows:
        flat = _flat(row)
        out.write("| " + " | ".join(_md_cell(flat[c]) for c in MD_COLUMNS) + " |\n")


def _table_at(parser: argparse.ArgumentParser, given: str | None) -> MappingTable:
    """The table as the target release has it (the one a translation for that release reads)."""
    try:
        rocm = resolve_rocm(given)
    except (ValueError, ConfigError) as exc:
        parser.error(str(exc))
    return load_table().at_rocm(rocm)


def tables_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hipify-py tables", description="Dump the CUDA->HIP mapping table.")
    parser.add_argument("--format", choices=FORMATS, default="json")
    parser.add_argument(
        "--api", metavar="NAME", help="only this API family: runtime, driver, blas (or cublas), dnn (or cudnn), ..."
    )
    add_rocm_option(parser)
    args = parser.parse_args(argv)
    table = _table_at(parser, args.rocm)
    api = None
    if args.api:
        try:
            api = family_of(args.api)
        except ValueError as exc:
            print(f"hipify-py tables: {exc}", file=sys.stderr)
            return 2
    rows = _select(table, api)
    buffer = io.StringIO()
    {"json": write_json, "csv": write_csv, "md": write_md}[args.format](rows, buffer)
    sys.stdout.write(buffer.getvalue())
    return 0


def describe(row: Row) -> str:
    """One row in words."""
    lines = [f"{row.cuda}  ({row.kind}, {row.api} API" + (f", member of {row.parent}" if row.parent else "") + ")"]
    if row.cuda_header:
        lines.append(f"  CUDA header:   {row.cuda_header}")
    facts = []
    if row.cuda_since:
        facts.append(f"declared since CUDA {row.cuda_since} (of the versions scanned)")
    if row.cuda_deprecated:
        facts.append(f"deprecated in CUDA {row.cuda_deprecated}")
    if row.cuda_removed:
        facts.append(f"removed in CUDA {row.cuda_removed}")
    if facts:
        lines.append("  CUDA:          " + "; ".join(facts))
    if row.hip:
        since = f", since ROCm {row.hip_since}" if row.hip_since else ""
        lines.append(f"  HIP:           {row.hip}  [{row.hip_status}{since}]")
        if row.hip_header:
            lines.append(f"  HIP header:    {row.hip_header}")
    else:
        lines.append(f"  HIP:           no equivalent [{row.hip_status}]; left as written and reported")
    signature = _signature(row.hip_signature, row.hip_signature_diff, row.hip_requires, row.hip)
    if signature:
        lines.append(f"  signature:     {signature}")
    if row.roc:
        since = f", since ROCm {row.roc_since}" if row.roc_since else ""
        flag = "--miopen" if row.api == "dnn" else "--roc"  # cuDNN's ROC-side target is MIOpen's
        lines.append(
            f"  with {flag + ':':9} {row.roc}  [{row.roc_status}{since}]"
            + (f" in {row.roc_header}" if row.roc_header else "")
        )
        signature = _signature(row.roc_signature, row.roc_signature_diff, row.roc_requires, row.roc)
        if signature:
            lines.append(f"  signature:     {signature}")
        if row.roc_requires:
            lines.append(f"  requires:      #define {row.roc_requires} before the HIP headers (with {flag})")
    if row.hip_requires:
        lines.append(f"  requires:      #define {row.hip_requires} before the HIP headers")
    t = row.transform
    if t is not None:
        if t.kind == "wrap_arg":
            lines.append(f"  transform:     argument {t.arg} is wrapped in {t.wrapper}(...)")
        elif t.kind == "by_arity":
            choices = ", ".join(f"{n} arguments -> {name}" for n, name in t.arity)
            lines.append(f"  transform:     target chosen by argument count: {choices}")
        elif t.kind == "default_args":
            values = ", ".join(f"argument {k} = {v}" for k, v in t.values)
            lines.append(f"  transform:     CUDA's default arguments written where a call leaves them out: {values}")
        elif t.kind == "migrate_arg":
            values = ", ".join(f"{a} -> {b}" for a, b in t.values)
            lines.append(f"  transform:     in argument {t.arg}, older values as CUDA converts them: {values}")
        else:
            lines.append(f"  transform:     {t.kind}")
    lines += _other_releases(row)
    if row.source:
        lines.append(f"  derived from:  {row.source}")
    if row.note:
        lines.append(f"  note:          {row.note}")
    return "\n".join(lines) + "\n"


def _other_releases(row: Row) -> list[str]:
    """What the older releases the table was generated for have otherwise (the lines above are the newest's)."""
    lines = []
    for release, view in row.by_rocm:
        if view.hip:
            since = f", since ROCm {view.hip_since}" if view.hip_since else ""
            what = f"{view.hip}  [{view.hip_status}{since}]"
        else:
            what = f"no equivalent [{view.hip_status}]"
        if view.hip_requires:
            what += f"; requires #define {view.hip_requires}"
        signature = _signature(view.hip_signature, view.hip_signature_diff, view.hip_requires, view.hip)
        if signature and (view.hip_signature, view.hip_signature_diff) != (row.hip_signature, row.hip_signature_diff):
            what += f"; signature: {signature}"
        if view.roc != row.roc or view.roc_status != row.roc_status:
            what += f"; ROC side: {view.roc or 'none'} [{view.roc_status}]"
        lines.append(f"  on ROCm {release + ':':6} {what}")
    return lines


_SIGNATURE_WORDS = {
    "same": "{target} takes what the translated call passes (the CUDA declaration's types, mapped)",
    "sibling": "{target} takes what the translated call passes (chosen over a same-named sibling that does not)",
    "define": "{target} takes what the translated call passes once {requires} is defined",
    "unchecked": "not checked: no CUDA declaration of this name to compare",
    "older": "{target} takes an older CUDA's declaration: {diff}",
    "newer": "{target} {diff}",
}


def _signature(status: str, diff: str, requires: str, target: str) -> str:
    if status == "differs":
        return f"differs from the CUDA declaration: {diff}" if diff else "differs from the CUDA declaration"
    template = _SIGNATURE_WORDS.get(status, "")
    return template.format(target=target, requires=requires, diff=diff) if template else ""


def explain_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hipify-py explain", description="Explain the mapping of one CUDA name.")
    parser.add_argument(
        "name", help="a CUDA identifier or header (e.g. cudaMalloc, cublas_v2.h), or an API family (e.g. cublas)"
    )
    add_rocm_option(parser)
    args = parser.parse_args(argv)
    table = _table_at(parser, args.rocm)
    row = table.lookup(args.name)
    if row is None and args.name.lower() in _family_names():
        sys.stdout.write(describe_family(table, family_of(args.name)))
        return 0
    if row is None:
        close = difflib.get_close_matches(args.name, list(table.by_name), n=5, cutoff=0.75)
        hint = f"; did you mean: {', '.join(close)}?" if close else ""
        print(f"hipify-py explain: {args.name!r} is not in the mapping table{hint}", file=sys.stderr)
        return 1
    sys.stdout.write(describe(row))
    return 0


def _family_names() -> set[str]:
    return {name for family, names in ALIASES.items() for name in (family, *names)}


def describe_family(table: MappingTable, family: str) -> str:
    """One API family in words: how much of it HIP covers, and what it becomes."""
    rows = [r for r in table if r.api == family]
    statuses = Counter(r.hip_status for r in rows)
    aliases = ", ".join(ALIASES.get(family, ()))
    lines = [f"{family} API family" + (f" (also: {aliases})" if aliases else "") + f": {len(rows)} CUDA names"]
    lines.append("  HIP:           " + ", ".join(f"{n} {status}" for status, n in statuses.most_common()))
    roc = sum(1 for r in rows if r.roc and r.roc_status != "unsupported")
    if roc:
        flag = "--miopen" if family == "dnn" else "--roc"
        lines.append(f"  with {flag + ':':9} {roc} names have a ROC-library target")
    if family == "dnn":
        lines.append("  note:          translated only with --miopen (cuDNN becomes MIOpen)")
    headers = sorted({r.hip_header for r in rows if r.hip_header})[:5]
    if headers:
        lines.append("  HIP headers:   " + ", ".join(headers))
    lines.append(f"  list them:     hipify-py tables --api {family} --format md")
    return "\n".join(lines) + "\n"
