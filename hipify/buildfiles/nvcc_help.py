"""nvcc's option set, read from nvcc's own ``--help``, and the generated table of it.

The table (``mapping_tables/nvcc/options.json``) lists every option ``nvcc --help`` prints: its long and short
spelling, the value it takes, the help section, and what the translation does with it (``classify``, from
:mod:`.nvcc_options`'s handlers). The translators read the spellings from it (an option nvcc knows by two names is
handled under both, and one that takes a value consumes its value word); the classification is there for the
documentation and for the test that every option has one.

Regenerate with ``python -m hipify.buildfiles.nvcc_help generate`` (reads ``nvcc --help`` of the nvcc on PATH, or
``--nvcc PATH``), or, without a CUDA toolkit, ``python -m hipify.buildfiles.nvcc_help refresh`` (classifies the
committed option list again, after a handler changed).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path


@dataclass(frozen=True)
class NvccOption:
    long: str  # "--gpu-architecture"
    short: str  # "-arch"; "" when nvcc gives none
    value: str  # "<arch>", "{true|false}"; "" for a flag
    section: str  # the help section's title

    @property
    def spellings(self) -> tuple[str, ...]:
        return tuple(s for s in (self.long, self.short) if s)


# ``--name [value][,...]   (-short)``; ``--no-align-double   --no-align-double`` has no short form in parentheses.
_OPTION = re.compile(
    r"^(?P<long>--[\w-]+)(?:\s(?P<value><[^>]*>|\{[^}]*\}|\[[^\]]*\]|[\w.]+)(?P<list>,\.\.\.)?)?"
    r"\s{2,}(?:\((?P<short>-[\w-]+)\)|(?P=long))\s*$"
)


def parse_help(text: str) -> tuple[NvccOption, ...]:
    """Every option of an ``nvcc --help`` text, in its order."""
    options: list[NvccOption] = []
    section = ""
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if n + 1 < len(lines) and re.fullmatch(r"=+", lines[n + 1].strip()) and line.strip():
            section = line.strip().rstrip(".")
            continue
        m = _OPTION.match(line)
        if m is None:
            continue
        value = (m.group("value") or "") + (m.group("list") or "")
        options.append(NvccOption(m.group("long"), m.group("short") or "", value, section))
    return tuple(options)


TABLE_PATH = ("nvcc", "options.json")


def table_file() -> Path:
    return Path(str(resources.files("mapping_tables"))).joinpath(*TABLE_PATH)


@lru_cache(maxsize=1)
def shipped_options() -> tuple[NvccOption, ...]:
    """The committed table's options (empty when the file is missing: the translation then knows the spellings its
    handlers name)."""
    try:
        data = json.loads(table_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    return tuple(NvccOption(o["long"], o["short"], o["value"], o["section"]) for o in data["options"])


@lru_cache(maxsize=1)
def spelling_index() -> dict[str, NvccOption]:
    """Each spelling nvcc knows (long and short) -> its option."""
    return {s: option for option in shipped_options() for s in option.spellings}


def _sample_value(value: str) -> str:
    """A value to classify a valued option with: the first of ``{a|b}``, else a plausible word."""
    choices = re.fullmatch(r"[{\[](.*)[}\]]", value.removesuffix(",..."))
    if choices:
        return re.split(r"[|,]", choices.group(1))[0]
    return "sm_80" if "arch" in value or "code" in value or "specification" in value else "x"


def table_rows(options: Sequence[NvccOption]) -> list[dict[str, str]]:
    from .nvcc_options import classify

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
    parser = argparse.ArgumentParser(prog="python -m hipify.buildfiles.nvcc_help", description=__doc__)
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
    # (Through the package's module: run with -m, this one is __main__, whose caches the translation never reads.)
    from hipify.buildfiles import nvcc_help as package_module

    for _ in range(2):
        path.write_text(package_module.render(options, generated_from), encoding="utf-8")
        package_module.shipped_options.cache_clear()
        package_module.spelling_index.cache_clear()
    print(f"wrote {len(options)} options to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
