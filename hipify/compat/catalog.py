"""The compatibility catalog: entries.toml loaded once, validated, and looked up by CUDA name or header."""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from ..options import parse_rocm_version

RocmVersion = tuple[int, int]

_REQUIRED = ("name", "provides", "code", "note", "example", "checked_by")
_OPTIONAL = (
    "headers",
    "hip_includes",
    "needs",
    "rocm_until",
    "rocm_since",
    "defines",
    "host",
    "device_uses",
    "device_uses_with",
    "no_op",
    "gpu_only",
)
_LISTS = ("provides", "headers", "hip_includes", "needs", "defines", "device_uses", "device_uses_with")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


class CompatCatalogError(ValueError):
    """entries.toml is malformed; the message names the file and the entry."""


@dataclass(frozen=True)
class CompatEntry:
    name: str
    provides: tuple[str, ...]  # CUDA identifiers, qualified where CUDA qualifies them
    headers: tuple[str, ...]  # CUDA headers whose #include the compatibility header replaces
    hip_includes: tuple[str, ...]  # headers the code needs, in include order
    needs: tuple[str, ...]  # names of the entries the code builds on
    rocm_until: RocmVersion | None  # last ROCm lacking the feature; None: every ROCm checked lacks it
    code: str
    note: str
    example: str
    checked_by: str  # corpus program checking the results; "" when the entry computes nothing
    # Macros the code needs defined before the HIP headers (the translation defines them, as for the
    # table's hip_requires); without them the entry declares nothing.
    defines: tuple[str, ...] = ()
    # First ROCm the entry applies to (it builds on what that release brought); None: every one.
    rocm_since: RocmVersion | None = None
    # Also compiled as plain C++ (a translation unit built by the host compiler against the HIP runtime): the
    # header puts it before its device code.
    host: bool = False
    # CUDA functions whose calls need the entry only in device code: CUDA declares them for the device as well, HIP
    # for the host alone. Translated as usual (unlike ``provides``); the entry adds their device overloads.
    device_uses: tuple[str, ...] = ()
    # Names (types) of which a file must use one for its device_uses calls to need the entry: the overloads are
    # for those types (atomicAdd on __half2), and other calls of the function need nothing.
    device_uses_with: tuple[str, ...] = ()
    # A call that only hints (profiler labels, launch-overlap hints): the entry does nothing, by design.
    no_op: bool = False
    # Device overloads of what HIP-CPU already has for host and device alike (it compiles device code as host code):
    # left out there, where they would redefine HIP-CPU's functions.
    gpu_only: bool = False

    def applies_to(self, rocm: RocmVersion) -> bool:
        """Whether ROCm ``rocm`` lacks the feature, so that translations for it need this entry."""
        if self.rocm_since is not None and rocm < self.rocm_since:
            return False
        return self.rocm_until is None or rocm <= self.rocm_until


@dataclass(frozen=True)
class QualifiedName:
    """A provided name inside a namespace: ``ns::name``, or ``ns::Class::name`` for a member function."""

    namespace: str
    name: str
    member: bool  # a member of a class of the namespace (used as ``group.name(...)``)
    entry: CompatEntry


@dataclass(frozen=True)
class CompatCatalog:
    entries: tuple[CompatEntry, ...]  # file order
    digest: str  # of the file's bytes: part of any cache key over translations using the catalog
    by_entry_name: Mapping[str, CompatEntry]
    by_provided_name: Mapping[str, CompatEntry]
    by_header: Mapping[str, CompatEntry]
    by_device_use: Mapping[str, CompatEntry]

    @classmethod
    def from_entries(cls, entries: Iterable[CompatEntry], digest: str = "") -> CompatCatalog:
        entries = tuple(entries)
        return cls(
            entries=entries,
            digest=digest,
            by_entry_name=MappingProxyType({e.name: e for e in entries}),
            by_provided_name=MappingProxyType({n: e for e in entries for n in e.provides}),
            by_header=MappingProxyType({h: e for e in entries for h in e.headers}),
            by_device_use=MappingProxyType({n: e for e in entries for n in e.device_uses}),
        )

    def for_name(self, name: str, rocm: RocmVersion) -> CompatEntry | None:
        """The entry providing CUDA identifier ``name`` (as qualified in ``provides``) if ROCm ``rocm`` lacks it."""
        entry = self.by_provided_name.get(name)
        return entry if entry is not None and entry.applies_to(rocm) else None

    def for_device_use(self, name: str, rocm: RocmVersion) -> CompatEntry | None:
        """The entry whose device overloads a call of CUDA function ``name`` in device code needs under ROCm
        ``rocm``."""
        entry = self.by_device_use.get(name)
        return entry if entry is not None and entry.applies_to(rocm) else None

    def qualified_uses(self, rocm: RocmVersion) -> Mapping[str, tuple[QualifiedName, ...]]:
        """Qualified provided names (``cooperative_groups::labeled_partition``, ``cooperative_groups::coalesced_group
        ::ballot``) by their last component, for the entries ROCm ``rocm`` needs: what a use spelled through a
        namespace alias, a using-directive or a member access is matched against."""
        return _qualified_uses(self, rocm)

    def for_header(self, header: str, rocm: RocmVersion) -> CompatEntry | None:
        """The entry standing for CUDA header ``header`` (as written in ``#include``) if ROCm ``rocm`` lacks it."""
        entry = self.by_header.get(header)
        return entry if entry is not None and entry.applies_to(rocm) else None

    def closure(self, entries: Iterable[CompatEntry]) -> tuple[CompatEntry, ...]:
        """``entries`` and everything they need, each after what it needs; ties in file order.

        The result depends only on the set given, not on its order or repetitions."""
        order = {e.name: i for i, e in enumerate(self.entries)}
        done: dict[str, CompatEntry] = {}

        def visit(entry: CompatEntry) -> None:
            if entry.name in done:
                return
            for need in entry.needs:
                visit(self.by_entry_name[need])
            done[entry.name] = entry

        for entry in sorted(set(entries), key=lambda e: order[e.name]):
            visit(entry)
        return tuple(done.values())


# (id of the catalog, ROCm) -> (the catalog, kept alive so that its id stays its own; the mapping). The
# catalog holds mappings, so it is not hashable itself.
_QUALIFIED: dict[tuple[int, RocmVersion], tuple[CompatCatalog, Mapping[str, tuple[QualifiedName, ...]]]] = {}


def _qualified_uses(catalog: CompatCatalog, rocm: RocmVersion) -> Mapping[str, tuple[QualifiedName, ...]]:
    known = _QUALIFIED.get((id(catalog), rocm))
    if known is not None:
        return known[1]
    out: dict[str, list[QualifiedName]] = {}
    for entry in catalog.entries:
        if not entry.applies_to(rocm):
            continue
        for provided in entry.provides:
            parts = provided.split("::")
            if len(parts) > 1:
                out.setdefault(parts[-1], []).append(QualifiedName(parts[0], parts[-1], len(parts) > 2, entry))
    found = MappingProxyType({k: tuple(v) for k, v in out.items()})
    _QUALIFIED[(id(catalog), rocm)] = (catalog, found)
    return found


def parse_catalog(text: str, source: str = "entries.toml", known: tuple[CompatEntry, ...] = ()) -> CompatCatalog:
    """Parse and validate the text of an entries file; errors name ``source`` and the entry. ``known``: entries of
    another file that this one's may need."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CompatCatalogError(f"{source}: not valid TOML: {exc}") from exc
    unknown_tables = sorted(set(data) - {"entry"})
    if unknown_tables:
        raise CompatCatalogError(f"{source}: unknown top-level keys {unknown_tables} (only [[entry]] tables)")
    raw_entries = data.get("entry", [])
    if not isinstance(raw_entries, list):
        raise CompatCatalogError(f"{source}: 'entry' must be an array of tables ([[entry]])")
    entries = tuple(_entry(raw, index, source) for index, raw in enumerate(raw_entries))
    _check_references(known + entries, source)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return CompatCatalog.from_entries(entries, digest)


def _entry(raw: object, index: int, source: str) -> CompatEntry:
    if not isinstance(raw, dict):
        raise CompatCatalogError(f"{source}: entry #{index + 1} is not a table")
    label = f"{source}: entry '{raw['name']}'" if isinstance(raw.get("name"), str) else f"{source}: entry #{index + 1}"
    unknown = sorted(set(raw) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise CompatCatalogError(f"{label}: unknown keys {unknown}")
    missing = [key for key in _REQUIRED if key not in raw]
    if missing:
        raise CompatCatalogError(f"{label}: missing fields {missing}")
    for key in _LISTS:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise CompatCatalogError(f"{label}: '{key}' must be a list of non-empty strings")
        if len(set(value)) != len(value):
            raise CompatCatalogError(f"{label}: '{key}' lists a name twice")
    for key in ("name", "code", "note", "example", "checked_by", "rocm_until", "rocm_since"):
        if key in raw and not isinstance(raw[key], str):
            raise CompatCatalogError(f"{label}: '{key}' must be a string")
    for key in ("name", "code", "note", "example"):
        if not raw[key].strip():
            raise CompatCatalogError(f"{label}: '{key}' is empty")
    versions: dict[str, RocmVersion | None] = {"rocm_until": None, "rocm_since": None}
    for key in versions:
        if key in raw:
            try:
                versions[key] = parse_rocm_version(raw[key])
            except ValueError as exc:
                raise CompatCatalogError(f"{label}: '{key}': {exc}") from exc
    for key in ("host", "no_op", "gpu_only"):
        if not isinstance(raw.get(key, False), bool):
            raise CompatCatalogError(f"{label}: '{key}' must be true or false")
    rocm_until = versions["rocm_until"]
    example_names = set(_IDENTIFIER.findall(raw["example"]))
    unused = [name for name in raw["provides"] if name.rsplit("::", 1)[-1] not in example_names]
    if unused:
        raise CompatCatalogError(f"{label}: the example does not use {unused}")
    return CompatEntry(
        name=raw["name"],
        provides=tuple(raw["provides"]),
        headers=tuple(raw.get("headers", [])),
        hip_includes=tuple(raw.get("hip_includes", [])),
        needs=tuple(raw.get("needs", [])),
        rocm_until=rocm_until,
        code=raw["code"].strip("\n") + "\n",
        note=" ".join(raw["note"].split()),
        example=raw["example"].strip("\n") + "\n",
        checked_by=raw["checked_by"],
        defines=tuple(raw.get("defines", [])),
        rocm_since=versions["rocm_since"],
        host=raw.get("host", False),
        device_uses=tuple(raw.get("device_uses", [])),
        device_uses_with=tuple(raw.get("device_uses_with", [])),
        no_op=raw.get("no_op", False),
        gpu_only=raw.get("gpu_only", False),
    )


def _check_references(entries: tuple[CompatEntry, ...], source: str) -> None:
    """Names, provided names and headers are unique; needs name entries and form no cycle."""
    by_name: dict[str, CompatEntry] = {}
    owner_of: dict[str, str] = {}
    for entry in entries:
        if entry.name in by_name:
            raise CompatCatalogError(f"{source}: entry '{entry.name}': defined twice")
        by_name[entry.name] = entry
        for key in (*entry.provides, *(f"#include <{h}>" for h in entry.headers), *entry.device_uses):
            if key in owner_of:
                raise CompatCatalogError(
                    f"{source}: entry '{entry.name}': {key} is already provided by entry '{owner_of[key]}'"
                )
            owner_of[key] = entry.name
    needed: set[str] = set()
    for entry in entries:
        for need in entry.needs:
            if need not in by_name:
                raise CompatCatalogError(f"{source}: entry '{entry.name}': needs unknown entry '{need}'")
            needed.add(need)
    for entry in entries:
        if not entry.provides and not entry.device_uses and entry.name not in needed:
            raise CompatCatalogError(f"{source}: entry '{entry.name}': provides nothing and no entry needs it")
    _check_acyclic(by_name, source)


def _check_acyclic(by_name: Mapping[str, CompatEntry], source: str) -> None:
    state: dict[str, str] = {}  # "visiting" | "done"

    def visit(name: str, path: tuple[str, ...]) -> None:
        if state.get(name) == "done":
            return
        if state.get(name) == "visiting":
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise CompatCatalogError(f"{source}: entry '{name}': needs form a cycle ({cycle})")
        state[name] = "visiting"
        for need in by_name[name].needs:
            visit(need, (*path, name))
        state[name] = "done"

    for name in by_name:
        visit(name, ())


@cache
def load_catalog() -> CompatCatalog:
    """The catalog shipped in the package, parsed once per process: the entries written by hand
    (hipify/compat/entries.toml) and those derived from the vendors' headers (hipify/compat/derived.toml,
    ``python -m hipify.tablegen intrinsics``)."""
    written = load_written_catalog()
    text = resources.files(__package__).joinpath("derived.toml").read_text(encoding="utf-8")
    derived = parse_catalog(text, "hipify/compat/derived.toml", known=written.entries)
    entries = written.entries + derived.entries
    _check_references(entries, "hipify/compat/{entries,derived}.toml")
    digest = hashlib.sha256((written.digest + derived.digest).encode()).hexdigest()
    return CompatCatalog.from_entries(entries, digest)


@cache
def load_written_catalog() -> CompatCatalog:
    """The entries written by hand (hipify/compat/entries.toml)."""
    text = resources.files(__package__).joinpath("entries.toml").read_text(encoding="utf-8")
    return parse_catalog(text, "hipify/compat/entries.toml")
