"""Whether a table row may be emitted under the chosen options, and if not, why."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..knowledge.table import Row
from ..options import Options

_LIBRARY_FLAGS = {"dnn": ("miopen", "--miopen", "cuDNN is translated to MIOpen")}


@dataclass(frozen=True)
class Decision:
    """``target`` is the name to write ("" when the row must not be emitted). ``code`` and
    ``message`` say why not; with a ``target`` they are a warning that goes with the edit
    (HPY102: HIP marks the target deprecated, but still declares it)."""

    target: str
    code: str = ""
    message: str = ""
    roc: bool = False  # the target is the row's ROC-side name (rocBLAS, MIOpen, ...), not its HIP one


@lru_cache(maxsize=1024)
def parse_version(text: str) -> tuple[int, ...]:
    """'6.2.1' -> (6, 2, 1); kept per process (a table holds a few dozen distinct versions)."""
    parts = []
    for piece in text.strip().split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def family(row: Row) -> str:
    """The API family; header rows (api "headers") take the family of the library they name."""
    if row.api == "headers" and row.roc.startswith("miopen/"):
        return "dnn"
    return row.api


def has_hip_names(api: str) -> bool:
    """Does the family have HIP-side names to fall back on (cuDNN has only MIOpen's)?"""
    return api not in _LIBRARY_FLAGS


def library_flag(api: str) -> str:
    """The option that selects a family's ROC-side names: the family's own flag (cuDNN: ``miopen``), else ``roc``."""
    flag = _LIBRARY_FLAGS.get(api)
    return flag[0] if flag is not None else "roc"


def newer_than_target(since: str, target: tuple[int, ...], releases: tuple[tuple[int, ...], ...] = ()) -> bool:
    """Is ``since`` certainly after the target ROCm? ``since`` is the first *scanned* release that
    declares a name, so a target between the previous scanned release and ``since`` is unknown
    ground: we do not claim the name is missing there."""
    first = parse_version(since)[:2]
    if first <= tuple(target):
        return False
    earlier = [r for r in releases if r[:2] < first]
    return not earlier or tuple(target) <= max(earlier)[:2]


@lru_cache(maxsize=1 << 15)
def decide(row: Row, options: Options, releases: tuple[tuple[int, ...], ...] = (), roc: bool | None = None) -> Decision:
    """``roc``: whether this row's family is written with its ROC library's names here (``rewrite.flavour`` decides
    per file); None: as ``options.roc`` asks. Kept per process: the arguments are immutable, and every file
    asks again about the rows it uses."""
    flag = _LIBRARY_FLAGS.get(family(row))
    use_roc = options.roc if roc is None else roc
    if flag is not None:
        attr, spelling, what = flag
        if not getattr(options, attr):
            return Decision("", "HPY108", f"{row.cuda}: {what} only with {spelling}")
        use_roc = True  # the library flag selects the ROC-side name (e.g. MIOpen)
    target = row.target(use_roc)
    status = row.status(use_roc)
    roc_side = use_roc and bool(row.roc) and target == row.roc
    chose_roc = roc_side and target != row.hip
    if status == "unsupported" or not target:
        return Decision("", "HPY101", f"{row.cuda} is not supported by HIP; left as written")
    if status == "removed":
        return Decision("", "HPY105", f"{row.cuda}: its HIP equivalent {target} was removed; left as written")
    if status == "experimental" and not options.experimental:
        return Decision(
            "",
            "HPY103",
            f"{row.cuda}: its HIP equivalent {target} is experimental; pass --experimental to translate it",
        )
    since = row.roc_since if chose_roc else row.hip_since
    if since and newer_than_target(since, options.rocm_version, releases):
        wanted = ".".join(map(str, options.rocm_version))
        return Decision(
            "",
            "HPY106",
            f"{row.cuda}: {target} appeared in ROCm {since}, after the target ROCm {wanted}; left as written",
        )
    if status == "deprecated":
        return Decision(
            target,
            "HPY102",
            f"{row.cuda} -> {target}: HIP marks {target} deprecated; translated, plan to move off it",
            roc_side,
        )
    return Decision(target, roc=roc_side)
