"""The generated CUDA<->HIP mapping table, loaded once into a frozen object.

The data lives in the ``mapping_tables`` package (one JSON file per API family,
written by ``python -m hipify.tablegen``). Nothing else in hipify maps CUDA names.
See mapping_tables/README.md for the schema.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields, replace
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType

from ..machinery.cache import keep, load_kept
from ..options import Options

# Values of Row.hip_status / Row.roc_status
STATUSES = ("supported", "unsupported", "experimental", "deprecated", "removed")


@dataclass(frozen=True)
class Transform:
    """An argument rewrite attached to a row.

    kind ``wrap_arg``: wrap argument ``arg`` (0-based) in ``wrapper(...)``, e.g. HIP_SYMBOL, or
    ``reinterpret_cast<const void*>`` for a kernel passed where HIP takes ``const void*``.
    kind ``by_arity``: choose the target name by the call's argument count
    (``arity`` pairs of (count, name)); other counts use the row's ``hip``.
    kind ``remove``: replace the identifier with nothing (calling-convention macros such as
    CUDART_CB, empty on Linux, that HIP does not define); the row's ``hip`` is empty and
    its ``hip_status`` is supported.
    kind ``defined_only``: rename only where the preprocessor tests whether the name is defined
    (``#ifdef X``, ``defined(X)``, a bare ``#if X``); any use of its value is reported, not
    translated (``__CUDA_ARCH__`` -> ``__HIP_DEVICE_COMPILE__``).
    kind ``migrate_arg``: argument ``arg`` may be spelled in an older enum that CUDA's C++ overload converts and
    HIP's function does not accept (cublasGemmEx's compute type given as ``CUDA_R_32F``): each of the
    ``values`` pairs' old names in it is translated as its new name (``CUBLAS_COMPUTE_32F``).
    kind ``default_args``: ``values`` pairs (position, CUDA's default argument) of trailing parameters HIP's
    declaration requires; a call leaving them out gets them written in (``cudaMalloc3DArray``'s flags ``0``).
    """

    kind: str
    arg: int = -1
    wrapper: str = ""
    arity: tuple[tuple[int, str], ...] = ()
    values: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, object] | None) -> Transform | None:
        if not data:
            return None
        arity = data.get("arity") or {}
        values = data.get("values") or {}
        assert isinstance(arity, Mapping) and isinstance(values, Mapping)
        return cls(
            kind=str(data["kind"]),
            arg=int(str(data.get("arg", -1))),
            wrapper=str(data.get("wrapper", "")),
            arity=tuple(sorted((int(k), str(v)) for k, v in arity.items())),
            values=tuple(sorted((str(k), str(v)) for k, v in values.items())),
        )

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind}
        if self.arg >= 0:
            out["arg"] = self.arg
        if self.wrapper:
            out["wrapper"] = self.wrapper
        if self.arity:
            out["arity"] = {str(k): v for k, v in self.arity}
        if self.values:
            out["values"] = dict(self.values)
        return out


@dataclass(frozen=True)
class Row:
    cuda: str
    hip: str = ""
    roc: str = ""
    kind: str = "function"
    api: str = "runtime"
    hip_status: str = "unsupported"
    roc_status: str = "unsupported"
    cuda_header: str = ""  # CUDA header declaring the name
    hip_header: str = ""  # HIP header declaring the hip target
    roc_header: str = ""  # header declaring the roc target
    parent: str = ""  # enum type of an enum constant, struct of a field
    cuda_since: str = ""  # first CUDA version seen declaring it (of those scanned)
    cuda_deprecated: str = ""  # CUDA version that marks it deprecated
    cuda_removed: str = ""  # first CUDA version whose headers no longer declare it
    hip_since: str = ""  # first ROCm release whose headers declare the hip target
    roc_since: str = ""
    hip_requires: str = ""  # macro the HIP target needs defined before the HIP headers (e.g. warp *_sync)
    roc_requires: str = ""  # the same for the roc target (e.g. ROCM_MATHLIBS_API_USE_HIP_COMPLEX)
    # Function rows: does the target take what the translated call passes (the CUDA declaration's types mapped
    # through the table)? same, sibling (the row targets a _v2/_64 sibling that does), define (it does with
    # *_requires defined), older (it takes an older CUDA's declaration, CUDA 13 changed it: *_signature_diff says
    # how), newer (it takes CUDA 13's, the same-named function an older CUDA's: *_signature_diff names it), differs
    # (*_signature_diff says how), unchecked (no CUDA declaration to compare); '' for other rows.
    hip_signature: str = ""
    hip_signature_diff: str = ""
    roc_signature: str = ""
    roc_signature_diff: str = ""
    # Device functions: the parameter lists HIP's headers define the target for, ``(float*, float) (double*, double)``
    # (lexing.parameters' spelling); a user definition of one of them is a redefinition under HIP.
    hip_definitions: str = ""
    transform: Transform | None = None
    source: str = ""  # how the pair was found: nvidia_detail, naming, override, ...
    note: str = ""
    # Header rows HIP has no counterpart of: the names it (and the implementation headers it includes) declares, its
    # C++ names by their outermost namespace, space-separated: a compiled file using none of them loses the include.
    declares: str = ""
    # Header rows: C++ names the CUDA header makes visible through headers it includes that the HIP target does not
    # include, each with the HIP header declaring it (``thrust::counting_iterator=thrust/iterator/counting_iterator.h``),
    # space-separated: a file using one gets that include too.
    brings: str = ""
    # Struct rows: the members of CUDA's struct that HIP's lacks, space-separated (a use is reported: HPY127).
    hip_missing_members: str = ""
    # The row as the other ROCm releases the table was generated for have it, where they differ: (release, row)
    # pairs. In the shipped table the fields above are the newest release's and these the older ones'; a table as
    # an older release reads it (``MappingTable.at_rocm``) has that release's fields, and the others here.
    by_rocm: tuple[tuple[str, Row], ...] = ()

    def at(self, release: str) -> Row:
        """The row as the headers of ``release`` (one the table was generated for) have it."""
        for label, view in self.by_rocm:
            if label == release:
                return view
        return self

    def target(self, roc: bool = False) -> str:
        """The replacement name for the chosen flavour ('' when none)."""
        if roc and self.roc and self.roc_status in ("supported", "experimental", "deprecated"):
            return self.roc
        return self.hip

    def status(self, roc: bool = False) -> str:
        if roc and self.roc and self.roc_status in ("supported", "experimental", "deprecated"):
            return self.roc_status
        return self.hip_status

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Row:
        values = {k: v for k, v in data.items() if k in _ROW_FIELDS}
        row = cls(transform=Transform.from_json(data.get("transform")), **values)  # type: ignore[arg-type]
        views = data.get("by_rocm") or {}
        assert isinstance(views, Mapping)
        if not views:
            return row
        by_rocm = []
        for release, changed in sorted(views.items(), key=lambda item: release_version(str(item[0]))):
            assert isinstance(changed, Mapping)
            view = replace(row, **{k: v for k, v in changed.items() if k in _ROW_FIELDS})
            if "transform" in changed:
                view = replace(view, transform=Transform.from_json(changed["transform"]))
            by_rocm.append((str(release), view))
        return replace(row, by_rocm=tuple(by_rocm))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "transform":
                out[f.name] = value.to_json() if value else None
            elif f.name == "by_rocm":  # only the fields a release has otherwise
                out[f.name] = {release: _changes(self, view) for release, view in value}
            else:
                out[f.name] = value
        return out


def _changes(row: Row, view: Row) -> dict[str, object]:
    """``view``'s values of the target fields where they differ from ``row``'s, as JSON."""
    out: dict[str, object] = {}
    for name in TARGET_FIELDS:
        value = getattr(view, name)
        if value != getattr(row, name):
            out[name] = value.to_json() if isinstance(value, Transform) else value
    return out


def release_version(release: str) -> tuple[int, ...]:
    """'7.2' -> (7, 2)."""
    return tuple(int(p) for p in release.split(".") if p.isdigit())


def release_for(target: tuple[int, ...], releases: Iterable[str]) -> str:
    """Which of ``releases`` (those a table was generated for) a target ROCm reads the table as: the newest of its
    major version not after it, else the oldest of its major version, else the newest before it, else the oldest.
    ROCm changes its API at major versions (6.0 moved the library headers, 7.0 dropped hipBLAS's v1 API), so 7.0
    reads as 7.2 does and 6.2 as 6.4 does; a 5.x target reads the oldest, whose since-values say what 5.x lacks."""
    return _release_for(tuple(target), tuple(releases))


@lru_cache(maxsize=256)
def _release_for(wanted: tuple[int, ...], releases: tuple[str, ...]) -> str:
    """:func:`release_for`, kept per process (every use of a version-dependent name asks it again)."""
    ordered = sorted(releases, key=release_version)
    same_major = [r for r in ordered if release_version(r)[:1] == wanted[:1]]
    group = same_major or ordered
    not_after = [r for r in group if release_version(r) <= wanted]
    return not_after[-1] if not_after else (group[0] if group else "")


ROW_KEYS = tuple(f.name for f in fields(Row))
_ROW_FIELDS = frozenset(ROW_KEYS) - {"transform", "by_rocm"}
# The fields that say what a row's target is in one ROCm release (what ``by_rocm`` may hold otherwise).
TARGET_FIELDS = (
    "hip",
    "roc",
    "hip_status",
    "roc_status",
    "hip_header",
    "roc_header",
    "hip_since",
    "roc_since",
    "hip_requires",
    "roc_requires",
    "hip_signature",
    "hip_signature_diff",
    "roc_signature",
    "roc_signature_diff",
    "hip_definitions",
    "brings",
    "hip_missing_members",
    "transform",
    "source",
    "note",
)


class DuplicateKeyError(ValueError):
    pass


@dataclass(frozen=True, eq=False)
class MappingTable:
    """Compared and hashed by identity: a process loads the table once, and what derives from
    it (the planner's index, the clang prelude) is cached per table object."""

    rows: tuple[Row, ...]
    by_name: Mapping[str, Row]
    digest: str
    # The ROCm releases it was generated for, when its rows cannot say (a table as an older release reads it)
    releases: tuple[str, ...] = ()

    @classmethod
    def from_rows(cls, rows: Iterable[Row], digest: str = "", releases: tuple[str, ...] = ()) -> MappingTable:
        """Index rows by CUDA name; ``digest`` defaults to a hash of the rows' content."""
        ordered = tuple(rows)
        index: dict[str, Row] = {}
        for row in ordered:
            if row.cuda in index:
                raise DuplicateKeyError(f"duplicate CUDA name in mapping table: {row.cuda}")
            index[row.cuda] = row
        if not digest:
            payload = json.dumps([r.to_json() for r in ordered], sort_keys=True).encode()
            digest = hashlib.sha256(payload).hexdigest()[:16]
        return cls(ordered, MappingProxyType(index), digest, releases)

    def lookup(self, name: str) -> Row | None:
        return self.by_name.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def apis(self) -> tuple[str, ...]:
        return tuple(sorted({r.api for r in self.rows}))

    @cached_property
    def target_releases(self) -> tuple[str, ...]:
        """The ROCm releases the table was generated for, oldest first: those its rows hold views of, and the newest
        release a target appeared in (the release of the shipped rows' own fields)."""
        if self.releases:
            return self.releases
        found = {release for row in self.rows for release, _ in row.by_rocm}
        since = {r.hip_since for r in self.rows if r.hip_since} | {r.roc_since for r in self.rows if r.roc_since}
        if since:
            found.add(max(since, key=release_version))
        return tuple(sorted(found, key=release_version))

    def at_rocm(self, target: tuple[int, ...]) -> MappingTable:
        """The table as a target ROCm reads it (``release_for``): every row as that release's headers have it."""
        return _table_at(self, release_for(target, self.target_releases))


def _rows_of(raw: bytes) -> list[Row]:
    return [Row.from_json(item) for item in json.loads(raw)["rows"]]


def table_files(directory: Path | None = None) -> list[Path]:
    if directory is None:
        directory = Path(str(resources.files("mapping_tables")))
    return sorted(directory.glob("*.json"))


def load_table_from(directory: Path, cache_dir: Path | None = None) -> MappingTable:
    """The table of ``directory``'s JSON files. With ``cache_dir``, the rows are also kept there
    pickled under the files' digest: unpickling 11,000 rows is several times faster than building
    them from JSON, which matters to every run's start."""
    raws = [(path.name, path.read_bytes()) for path in table_files(directory)]
    key = _files_digest(raws)
    with _collector_paused():  # a hundred thousand objects that all live on: a full collection halfway is waste
        cached = _cached_rows(cache_dir, key) if cache_dir is not None else None
    if cached is not None:
        return MappingTable.from_rows(cached, key)
    rows = [row for _, raw in raws for row in _rows_of(raw)]
    table = MappingTable.from_rows(rows, key)
    if cache_dir is not None:
        _keep_rows(cache_dir, key, table.rows)
    return table


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _files_digest(raws: Iterable[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()  # of the files' bytes: as exact as hashing the rows, and cheaper
    for name, raw in raws:
        digest.update(name.encode() + b"\0" + raw)
    return digest.hexdigest()[:16]


def shipped_digest() -> str:
    """The digest of the shipped table (``load_table().digest``) without loading its rows."""
    return _files_digest((path.name, path.read_bytes()) for path in table_files())


def _cached_rows(cache_dir: Path, key: str) -> tuple[Row, ...] | None:
    kept = load_kept(_rows_path(cache_dir, key), tuple)
    if kept is None or len(kept) != 2 or kept[0] != ROW_KEYS:
        return None
    try:
        return tuple(_row_of(values) for values in kept[1])
    except (TypeError, ValueError):  # not rows of these fields
        return None


def _row_of(values: tuple[object, ...]) -> Row:
    """The row whose fields (in ``ROW_KEYS`` order) are ``values``, made as unpickling makes it (its ``__init__``
    ran when it was first built), without a pickled object per row: rows kept as tuples load in half the time.

    The one place a value is not made by its constructor, a fast path for the rows a run loads from the cache
    (a frozen dataclass's ``__init__`` sets each of the 25 fields through ``object.__setattr__``: 15 ms more per
    run, ``bench/table_load.py``). It gives what ``Row(*values)`` gives, which ``tests/test_table_load.py`` checks
    for every shipped row, and holds only while ``Row`` computes nothing in its construction (no
    ``__post_init__``, no slots): that test fails when it starts to."""
    row = object.__new__(Row)
    row.__dict__.update(zip(ROW_KEYS, values, strict=True))
    return row


def _keep_rows(cache_dir: Path, key: str, rows: tuple[Row, ...]) -> None:
    keep(_rows_path(cache_dir, key), (ROW_KEYS, tuple(tuple(getattr(r, k) for k in ROW_KEYS) for r in rows)))


def _rows_path(cache_dir: Path, key: str) -> Path:
    """Named by the table files' digest and by the form rows are kept in: an installation of an earlier version
    sharing the cache (which kept Row objects as ``table-KEY.pickle``) neither reads nor replaces this file."""
    return cache_dir / f"table-{key}.rows.pickle"


def load_table() -> MappingTable:
    """The shipped table; loaded once per process (a run may start loading it in a thread of its own: a second
    caller waits for that load rather than making another table)."""
    with _LOADING:
        return _shipped_table()


_LOADING = threading.Lock()


@cache
def _shipped_table() -> MappingTable:
    from ..machinery.cache import default_cache_dir

    return load_table_from(Path(str(resources.files("mapping_tables"))), default_cache_dir().parent)


def table_for(options: Options) -> MappingTable:
    """The table a run uses: the shipped one as the target ROCm reads it, with the user's mapping overrides applied
    and the project's own names (its allow-list) taken out, so they are neither renamed nor reported."""
    table = load_table().at_rocm(options.rocm_version)
    if not options.mappings and not options.project_names:
        return table
    return _derived_table(table, options.mappings, options.project_names)


@lru_cache(maxsize=8)
def _table_at(table: MappingTable, release: str) -> MappingTable:
    if not release or release == table.target_releases[-1]:
        return table  # the rows' own fields are the newest release's
    newest = table.target_releases[-1]
    digest = hashlib.sha256(f"{table.digest}\0{release}".encode()).hexdigest()[:16]
    rows = (_view(row, release, newest) for row in table.rows)
    return MappingTable.from_rows(rows, digest, table.target_releases)


def _view(row: Row, release: str, newest: str) -> Row:
    """``row`` (the newest release's) as ``release`` has it, holding the other releases' views."""
    view = row.at(release)
    if view is row:
        return row
    others = tuple((label, other) for label, other in row.by_rocm if label != release)
    return replace(view, by_rocm=(*others, (newest, replace(row, by_rocm=()))))


@lru_cache(maxsize=8)
def _derived_table(
    base: MappingTable, mappings: tuple[tuple[str, str], ...], project_names: tuple[str, ...]
) -> MappingTable:
    overrides = dict(mappings)
    mine = frozenset(project_names)
    rows: list[Row] = []
    for row in base:
        if row.cuda in mine:
            continue
        target = overrides.pop(row.cuda, None)
        if target is not None:  # the user's word: their target, as supported, without the row's version facts
            row = replace(
                row,
                hip=target,
                roc="",
                hip_status="supported",
                hip_since="",
                hip_signature="",
                hip_signature_diff="",
                hip_requires="",
                transform=None,
                source="user",
                by_rocm=(),  # their target, whatever the release
            )
        rows.append(row)
    for cuda, target in sorted(overrides.items()):
        kind = "header" if "." in cuda or "/" in cuda else "function"
        rows.append(Row(cuda, target, kind=kind, api="user", hip_status="supported", source="user"))
    return MappingTable.from_rows(rows, releases=base.target_releases)
