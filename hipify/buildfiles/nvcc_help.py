"""nvcc's option set, read from nvcc's own ``--help``; the generated table of it, as the translation reads it.

The table (``mapping_tables/nvcc/options.json``) lists every option ``nvcc --help`` prints: its long and short
spelling, the value it takes, the help section, and what the translation does with it (``classify``, from
:mod:`.nvcc_options`'s handlers). The translators read the spellings from it (an option nvcc knows by two names is
handled under both, and one that takes a value consumes its value word); the classification is there for the
documentation and for the test that every option has one.

Regenerate with ``python -m hipify.buildfiles.nvcc_table generate`` (reads ``nvcc --help`` of the nvcc on PATH, or
``--nvcc PATH``), or, without a CUDA toolkit, ``python -m hipify.buildfiles.nvcc_table refresh`` (classifies the
committed option list again, after a handler changed).
"""

from __future__ import annotations

import json
import re
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
