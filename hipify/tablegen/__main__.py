"""python -m hipify.tablegen {fetch,generate,intrinsics,docs,coverage}: regenerate the mapping table (and the derived
compatibility entries) from vendor headers."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from ..knowledge.table import Row
from .fetch import DEFAULT_CACHE, run_fetch

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO / "mapping_tables"
DEFAULT_DOCS = REPO / "docs" / "supported"

# Breadth the shipped table must reach (issue 2): api -> (rows, rows with a verified HIP or ROC target)
THRESHOLDS: dict[str, tuple[int, int]] = {
    "runtime": (1200, 800),
    "driver": (1500, 600),
    "device": (600, 0),
    "blas": (900, 0),
    "sparse": (600, 0),
    "solver": (500, 0),
    "rand": (100, 0),
    "fft": (100, 0),
    "dnn": (800, 0),
    "headers": (50, 0),
}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m hipify.tablegen", description=__doc__)
    sub = p.add_subparsers(dest="step", required=True)
    f = sub.add_parser("fetch", help="download CUDA and HIP headers into the cache")
    f.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="header cache (default %(default)s)")
    f.add_argument("--cuda", type=Path, default=Path("/usr/local/cuda"), help="local CUDA toolkit")
    f.add_argument(
        "--only",
        action="append",
        choices=("toolkit", "wheels", "debian", "clang"),
        help="fetch only these parts (repeatable)",
    )
    f.add_argument(
        "--rocm",
        action="append",
        metavar="X.Y",
        help="with the debian part: fetch only this ROCm release's packages (repeatable; default: every release); "
        "the others' headers stay as fetched, since Debian keeps only current package versions",
    )
    g = sub.add_parser("generate", help="parse the cached headers and write mapping_tables/*.json")
    g.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    g.add_argument("--out", type=Path, default=DEFAULT_OUT)
    g.add_argument("--overrides", type=Path, default=None, help="overrides TOML (default: the packaged one)")
    g.add_argument("--no-readme", action="store_true", help="do not rewrite <out>/README.md")
    i = sub.add_parser(
        "intrinsics",
        help="write hipify/compat/derived.toml: half-precision intrinsics ROCm lacks, from HIP's operations",
    )
    i.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    i.add_argument("--out", type=Path, default=REPO / "hipify" / "compat" / "derived.toml")
    d = sub.add_parser("docs", help="write docs/supported/*.md from the shipped table")
    d.add_argument("--tables", type=Path, default=DEFAULT_OUT)
    d.add_argument("--out", type=Path, default=DEFAULT_DOCS)
    c = sub.add_parser("coverage", help="write docs/coverage.md: CUDA's device functions and what HIP has of them")
    c.add_argument("--out", type=Path, default=REPO / "docs" / "coverage.md")
    return p


def _counts(by_api: dict[str, list[Row]]) -> str:
    lines = [f"{'api':10} {'rows':>6} {'mapped':>7} {'unsupp':>7} {'removed':>8}  threshold"]
    for api in sorted(by_api):
        rows = by_api[api]
        status = Counter(
            "mapped"
            if (
                r.hip_status in ("supported", "deprecated", "experimental")
                or r.roc_status in ("supported", "deprecated", "experimental")
            )
            else r.hip_status
            for r in rows
        )
        need = THRESHOLDS.get(api)
        ok = ""
        if need:
            ok = "ok" if len(rows) >= need[0] and status["mapped"] >= need[1] else f"BELOW {need[0]}/{need[1]}"
        lines.append(
            f"{api:10} {len(rows):6} {status['mapped']:7} {status['unsupported']:7} {status['removed']:8}  {ok}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.step == "fetch":
        parts = set(args.only or ("toolkit", "wheels", "debian", "clang"))
        return run_fetch(args.cache.expanduser(), args.cuda, parts, set(args.rocm) if args.rocm else None)
    if args.step == "generate":
        from .generate import GenerationError, generate
        from .overrides import DEFAULT_OVERRIDES
        from .readme import write_readme
        from .signature.summary import render as signature_summary
        from .write import write_tables

        start = time.monotonic()
        try:
            result = generate(args.cache.expanduser(), args.overrides or DEFAULT_OVERRIDES)
        except GenerationError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        from ..knowledge.table import DuplicateKeyError, MappingTable

        try:  # the loader's own check: a CUDA name in two rows fails generation
            MappingTable.from_rows(r for rows in result.rows.values() for r in rows)
        except DuplicateKeyError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        write_tables(args.out, result.rows, result.provenance)
        if not args.no_readme:
            write_readme(args.out, result)
        print(_counts(result.rows))
        print(signature_summary(sorted((r for rows in result.rows.values() for r in rows), key=lambda r: r.cuda)))
        print(
            f"{sum(len(r) for r in result.rows.values())} rows; {len(result.collisions)} names claimed by an "
            f"earlier family; {time.monotonic() - start:.1f}s",
            file=sys.stderr,
        )
        return 0
    if args.step == "intrinsics":
        from .intrinsics import write_derived

        count = write_derived(args.cache.expanduser(), args.out)
        print(f"{count} entries written to {args.out}")
        return 0
    if args.step == "docs":
        from .docs import write_docs

        write_docs(args.tables, args.out)
        return 0
    if args.step == "coverage":
        from .coverage import write_page

        count, shares = write_page(args.out)
        print(f"{count} device functions; coverage " + ", ".join(f"{s:.1f}%" for s in shares))
        return 0
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
