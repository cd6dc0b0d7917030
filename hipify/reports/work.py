"""What a finding means for a port: the kind of work it asks for, the flag that resolves it,
a one-line hint, and each file's effort. Derived from the codes' kinds and the mapping table.

Kinds of work:

- ``translated``: done by the tool;
- ``flag``: translated by a re-run with a flag (``--miopen``, ``--experimental``, ``--rocm X.Y``);
- ``hand``: CUDA code HIP has no counterpart for, to port by hand;
- ``review``: translated, but worth a look (deprecated targets, lane masks, signatures that differ);
- ``environment``: about the setup, not the code (a missing header, the engine, an unreadable file).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..knowledge.codes import CODES
from ..knowledge.table import MappingTable, Row
from ..model import Diagnostic
from ..options import Options

if TYPE_CHECKING:
    from ..rewrite.status import Decision

WORK_KINDS = ("translated", "flag", "hand", "review", "environment")
WORK_TITLES = {
    "translated": "Translated",
    "flag": "Needs a flag",
    "hand": "Needs hand work",
    "review": "Worth a review",
    "environment": "Environment only",
}
EFFORTS = ("none", "low", "medium", "high")
EFFORT_RULE = (
    "none: nothing left to do (no CUDA, or all of it translated); "
    "low: only reviews, a flag to pass or the environment to fix (a re-run settles it); "
    "medium: hand work on 1 to 3 distinct CUDA APIs; "
    "high: hand work on 4 or more distinct APIs, or the file could not be translated"
)
HIGH_EFFORT_APIS = 4
# Unconverted codes that a flag resolves (the rest of the unconverted ones are hand work).
_FLAG_CODES = frozenset(("HPY103", "HPY106", "HPY108"))
# Engine codes about the tool itself rather than the setup: worth a look at the output.
_TOOL_CODES = frozenset(("HPY202", "HPY204"))


# Support codes that leave work behind: code left out where HIP lacks an API stops the program there (HPY010).
_LEFT_OUT_CODES = frozenset(("HPY010",))
# Findings whose subject is a CUDA API HIP lacks: their hint says what HIP offers for it.
_API_HINTED = frozenset(("HPY101", "HPY010"))


def work_kind(code: str) -> str:
    if code in _LEFT_OUT_CODES:
        return "hand"
    kind = CODES[code].kind if code in CODES else "review"
    if kind == "unconverted":
        return "flag" if code in _FLAG_CODES else "hand"
    if kind in ("engine", "file"):
        return "review" if code in _TOOL_CODES else "environment"
    if kind in ("conversion", "support"):
        return "translated"
    return "review"


@dataclass(frozen=True)
class Advice:
    """For one CUDA name left as written: the kind of work, the flag if one resolves it, and a hint."""

    kind: str
    flag: str = ""
    hint: str = ""


class Advisor:
    """Hints and flags from the table, for the options the run used."""

    def __init__(self, table: MappingTable, options: Options) -> None:
        from ..rewrite.index import index_of  # the planner's package: only a report that gives advice needs it

        self.table = table
        self.options = options
        self.releases = index_of(table).releases

    def advise(self, diag: Diagnostic) -> Advice:
        kind = work_kind(diag.code)
        row = self.table.lookup(diag.subject) if diag.subject else None
        if kind == "flag":
            flag = self.flag_for(diag.code, row)
            return Advice(kind, flag, f"translated with {flag}" if flag else CODES[diag.code].todo)
        if kind == "hand":
            return Advice(kind, "", self.hand_hint(diag, row))
        if kind == "review" and diag.subject:  # the finding itself says what to look at
            return Advice(kind, "", diag.message)
        return Advice(kind, "", CODES[diag.code].todo if diag.code in CODES else "")

    def flag_for(self, code: str, row: Row | None) -> str:
        if code == "HPY103":
            return "--experimental"
        if row is None:
            return ""
        if code == "HPY108":
            from ..rewrite.status import family

            return {"dnn": "--miopen"}.get(family(row), "")
        if code == "HPY106":
            since = row.roc_since if self.options.roc and row.roc_since else row.hip_since
            return f"--rocm {since}" if since else ""
        return ""

    def hand_hint(self, diag: Diagnostic, row: Row | None) -> str:
        if diag.code == "HPY104":
            return (
                "not in the table: a newer CUDA API, a typo, or the project's own name "
                "(list it under project-names in [tool.hipify-py] to silence it)"
            )
        if diag.code not in _API_HINTED or row is None:  # the finding's own words are the most specific
            todo = CODES[diag.code].todo if diag.code in CODES else ""
            return f"{diag.message}. {todo}".strip() if diag.subject else todo
        hint = self._api_hint(row)
        # code left out where it needs the API: the program stops there until it is ported
        return hint if diag.code == "HPY101" else f"left out where it is used (the program stops there): {hint}"

    def _api_hint(self, row: Row) -> str:
        """What to do about a CUDA API HIP lacks: the table's note, or what HIP offers near it."""
        if row.note:
            return row.note
        if row.parent:
            parent = self.table.lookup(row.parent)
            if parent is not None and parent.hip:
                return f"HIP's {parent.hip} has no counterpart of {row.cuda}: rewrite the code that needs it"
        offers = related_names(self.table, row.cuda)
        if offers:
            return "no HIP equivalent; HIP offers nearby: " + ", ".join(offers)
        return f"no HIP equivalent in the {row.api} API: rewrite it, or keep it for CUDA builds only (#ifdef)"

    def _decide(self, row: Row) -> Decision:
        from ..rewrite.status import decide

        return decide(row, self.options, self.releases)

    def since(self, cuda_name: str) -> str:
        """The ROCm release that first declares the name this CUDA name was translated to ('' if unknown)."""
        row = self.table.lookup(cuda_name)
        if row is None:
            return ""
        decision = self._decide(row)
        if not decision.target:
            return ""
        since = row.roc_since if decision.target == row.roc and row.roc != row.hip else row.hip_since
        from ..rewrite.versions import least_release_needed  # the planner's package, as in __init__

        # an older release the table was generated for may translate it otherwise (another target, a macro):
        # what was written for the target needs the release from which on it is written so
        needed = least_release_needed(row, self.options, self.table.target_releases, self.releases, decision.roc)
        return minimum_rocm((since, needed))

    def signature_note(self, cuda_name: str) -> str:
        """For a translated function whose HIP declaration differs from CUDA's: how ('' otherwise)."""
        row = self.table.lookup(cuda_name)
        if row is None:
            return ""
        decision = self._decide(row)
        on_roc = bool(decision.target) and decision.target == row.roc and row.roc != row.hip
        status, diff = (
            (row.roc_signature, row.roc_signature_diff) if on_roc else (row.hip_signature, row.hip_signature_diff)
        )
        if status != "differs":
            return ""
        return f"{decision.target} differs from CUDA's declaration" + (f": {diff}" if diff else "") + "; check the call"


@lru_cache(maxsize=64)
def _supported_by_api(table: MappingTable, api: str) -> dict[str, str]:
    return {r.cuda: r.hip for r in table if r.api == api and r.hip and r.hip_status in ("supported", "deprecated")}


def related_names(table: MappingTable, cuda_name: str, n: int = 3) -> list[str]:
    """HIP names of the supported rows of the same API whose CUDA names are closest to this one."""
    row = table.lookup(cuda_name)
    if row is None:
        return []
    supported = _supported_by_api(table, row.api)
    close = difflib.get_close_matches(cuda_name, list(supported), n=n, cutoff=0.8)
    return [supported[c] for c in close]


def minimum_rocm(versions: Iterable[str]) -> str:
    """The newest of the releases the translated names need ('' when none is known)."""
    best: tuple[int, ...] = ()
    text = ""
    for v in versions:
        key = tuple(int(p) for p in v.split(".") if p.isdigit())
        if key > best:
            best, text = key, v
    return text


def effort(hand_apis: int, flags_or_environment: bool, reviews: bool, failed: bool) -> str:
    """A file's effort by :data:`EFFORT_RULE`."""
    if failed or hand_apis >= HIGH_EFFORT_APIS:
        return "high"
    if hand_apis:
        return "medium"
    if flags_or_environment or reviews:
        return "low"
    return "none"
