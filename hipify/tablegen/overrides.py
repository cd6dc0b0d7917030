"""The hand-curated overrides file: pairs and transforms the headers cannot tell us, each with a reason."""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from ..table import Row

DEFAULT_OVERRIDES = Path(__file__).with_name("overrides.toml")
_ROW_FIELDS = {f.name for f in fields(Row)} - {"cuda", "source", "note"}


@dataclass(frozen=True)
class Override:
    cuda: str
    reason: str
    fields: tuple[tuple[str, object], ...]

    @property
    def api(self) -> str:
        return str(dict(self.fields).get("api", ""))

    @property
    def kind(self) -> str:
        return str(dict(self.fields).get("kind", ""))


def load_overrides(path: Path = DEFAULT_OVERRIDES) -> list[Override]:
    if not path.is_file():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out: list[Override] = []
    seen: set[str] = set()
    for item in data.get("row", []):
        cuda = item.pop("cuda", None)
        reason = item.pop("reason", "").strip()
        if not cuda or not reason:
            raise ValueError(f"{path}: every override needs 'cuda' and a one-line 'reason' ({item})")
        if cuda in seen:
            raise ValueError(f"{path}: duplicate override for {cuda}")
        seen.add(cuda)
        unknown = set(item) - _ROW_FIELDS
        if unknown:
            raise ValueError(f"{path}: {cuda}: unknown fields {sorted(unknown)}")
        out.append(Override(cuda, reason, tuple(sorted(item.items()))))
    return out
