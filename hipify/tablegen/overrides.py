"""The hand-curated overrides file: pairs and transforms the headers cannot tell us, each with a reason."""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from ..knowledge.table import Row
from .errors import GenerationError
from .matcher import Matcher
from .target import Target

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


def apply_overrides(rows: dict[str, Row], overrides: list[Override], matcher: Matcher) -> None:
    """Rewrite (or add) the rows the overrides name; a hip/roc target they give must be declared by HIP headers."""
    for ov in overrides:
        base = rows.get(ov.cuda)
        if base is None:
            if not ov.api or not ov.kind:
                raise GenerationError(f"override {ov.cuda}: no generated row; give api and kind to add one")
            base = Row(cuda=ov.cuda, api=ov.api, kind=ov.kind)
        changes: dict[str, object] = dict(ov.fields)
        for side in ("hip", "roc"):
            if side in changes:
                name = str(changes[side])
                t = matcher.target(name, "override") if name else Target()
                if name and not t.name:
                    raise GenerationError(f"override {ov.cuda}: {side} target {name} is not declared in HIP headers")
                changes.setdefault(f"{side}_status", t.status)
                changes.setdefault(f"{side}_header", t.header)
                changes.setdefault(f"{side}_since", t.since)
        changes["source"] = "override" if ("hip" in changes or "roc" in changes) else base.source or "override"
        changes["note"] = ov.reason
        # through the row's JSON form, which parses an override's transform table like the shipped files' objects
        rows[ov.cuda] = Row.from_json({**base.to_json(), **changes})
