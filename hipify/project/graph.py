"""The project model: the include graph of the scanned files, and what each file's translation
needs to know about the others (:class:`hipify.model.ProjectFacts`).

Includes resolve as a compiler would: a quoted include next to the including file first, then
the ``-I`` directories; an include found nowhere else but present in the tree under a unique
path (``helper_cuda.h`` in ``src/include/``) resolves there, and that directory becomes an
include directory for the files that need it. A translation unit is a compiled file (``.cu``,
``.cpp``, ...); what its include closure needs defined before the first HIP header is defined
at its top, the one place that always precedes every include.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..buildfiles.build_phase import build_facts
from ..knowledge.samples_helpers import helper_of
from ..model import ProjectFacts
from ..options import Options
from ..rewrite.build_target import Build
from .platforms import options_by_file, other_builds

if TYPE_CHECKING:  # the scan's imports (lexer, planner) are not needed to use a model
    from .scan import BlockedDeclaration, FileScan, IncludeRef

# Files a compiler is given (translation units), as opposed to headers they include.
ROOT_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip", ".cpp2")
C_SUFFIX = ".c"

ADJACENT = "<adjacent>"  # resolve(): found next to the includer, though included with <...>
ScanMore = Callable[[Sequence[str]], Sequence["FileScan"]]
Resolved = dict[tuple[str, str, bool], tuple[str, str]]  # (includer's directory, name, angled) -> resolve()


def file_key(path: str) -> str:
    """One spelling per file (symbolic links and ``..`` resolved)."""
    return os.path.realpath(path)


@dataclass
class ProjectModel:
    scans: dict[str, FileScan]  # by file_key
    translated: frozenset[str]  # file keys of the files being translated (the rest were only scanned)
    edges: dict[str, tuple[str, ...]] = field(default_factory=dict)  # file -> project files it includes
    found_in: dict[str, tuple[str, ...]] = field(default_factory=dict)  # file -> tree dirs its includes needed
    renames: Mapping[str, str] = field(default_factory=dict)  # basename -> renamed basename (--rename-extensions)
    declared: frozenset[str] = frozenset()  # CUDA-looking names the project declares itself
    shadows: frozenset[str] = frozenset()  # table names some project file declares itself
    quoted: dict[str, tuple[str, ...]] = field(default_factory=dict)  # file -> <includes> to quote
    blocked: dict[str, tuple[str, ...]] = field(default_factory=dict)  # blocked declaration -> missing APIs
    # Include targets that exist but are not regular files (FIFOs, devices): key -> the paths it was reached by.
    not_regular: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # --roc: families some project file cannot write with ROC-side names -> why (the first file's reason, by path)
    hip_families: dict[str, str] = field(default_factory=dict)
    # Blocked declarations some code of the project uses: never disabled (each user would stop compiling).
    # Macros whose definition enables code of some project file that HIP cannot compile (``FileScan.lacking_guards``).
    lacking_guards: frozenset[str] = frozenset()
    # How every include resolved: a later run that finds the same answers (and the same files) has the same model.
    resolved: Resolved = field(default_factory=dict)
    _closures: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _keys: dict[str, str] = field(default_factory=dict)  # path -> file_key(path), each asked of the disk once
    _containing: dict[str, frozenset[str]] | None = None
    _shadowing: frozenset[str] | None = None  # files declaring a table name of their own (FileScan.shadows)
    _limited: frozenset[str] | None = None  # files with conditions on the CUDA build (FileScan.build_conditions)
    _newest: dict[str, Build] = field(default_factory=dict)  # the newest build each of those allows
    # The project's own platform options (``GGML_USE_HIP``): the translated build defines none (project/platforms)
    platform_options: frozenset[str] = frozenset()
    # Files only those options reach (its own HIP build's vendor header): nothing they define is the project's
    other_builds: frozenset[str] = frozenset()
    # Per file: the table names it declares itself where the translated build reads them (FileScan.shadows, with
    # the guarded definitions no platform option hides; none for a file only other builds read)
    own_shadows: dict[str, frozenset[str]] = field(default_factory=dict)
    options_by_file: dict[str, frozenset[str]] = field(default_factory=dict)  # the options each file reveals

    def options_around(self, key: str) -> frozenset[str]:
        """The platform options of the files compiled together with ``key`` (another program's are no evidence)."""
        if not self.options_by_file:
            return frozenset()
        return frozenset().union(*(self.options_by_file.get(k, frozenset()) for k in self.translation_units_of(key)))

    def closure(self, key: str) -> tuple[str, ...]:
        """The file and every project file it includes, directly or not, in first-seen order."""
        found = self._closures.get(key)
        if found is not None:
            return found
        order: dict[str, None] = {}
        stack = [key]
        while stack:
            current = stack.pop()
            if current in order:
                continue
            order[current] = None
            stack.extend(reversed(self.edges.get(current, ())))
        found = self._closures[key] = tuple(order)
        return found

    def including(self, keys: frozenset[str]) -> frozenset[str]:
        """The files whose :meth:`closure` holds one of ``keys`` (those files themselves among them): found by
        following the include edges backwards from ``keys``, not by each file's closure."""
        back: dict[str, list[str]] = {}
        for source, targets in self.edges.items():
            for target in targets:
                back.setdefault(target, []).append(source)
        seen = set(keys)
        stack = list(keys)
        while stack:
            for source in back.get(stack.pop(), ()):
                if source not in seen:
                    seen.add(source)
                    stack.append(source)
        return frozenset(seen)

    def _shadows_around(self, key: str) -> frozenset[str]:
        """Table names declared by a file compiled together with ``key``."""
        if not self.shadows:
            return frozenset()
        if self._shadowing is None:  # the few files that declare one: asked of each file's translation units
            self._shadowing = frozenset(k for k in self.scans if self.shadows_of(k))
        around = self._shadowing & self.translation_units_of(key)
        return frozenset().union(*(self.shadows_of(k) for k in around))

    def shadows_of(self, key: str) -> frozenset[str]:
        """The table names file ``key`` declares itself in the translated build."""
        found = self.own_shadows.get(key)
        if found is not None:
            return found
        scan = self.scans.get(key)
        return scan.shadows if scan is not None else frozenset()

    def translation_units_of(self, key: str) -> frozenset[str]:
        """Every file compiled together with ``key``: the closures of the translation units that
        include it (its own closure when none does). A tree can hold many separate programs."""
        if self._containing is None:
            containing: dict[str, set[str]] = {}
            for root in (k for k in self.scans if self.is_root(k)):
                closure = self.closure(root)
                for member in closure:
                    containing.setdefault(member, set()).update(closure)
            self._containing = {k: frozenset(v) for k, v in containing.items()}
        return self._containing.get(key) or frozenset(self.closure(key))

    def is_root(self, key: str) -> bool:
        return key in self.translated and key.endswith(ROOT_SUFFIXES)

    def key_of(self, path: str) -> str:
        """``file_key(path)``, remembered (a model is built and used within one run)."""
        key = self._keys.get(path)
        if key is None:
            key = self._keys[path] = file_key(path)
        return key

    def facts_for(self, path: str) -> ProjectFacts:
        key = self.key_of(path)
        scan = self.scans.get(key)
        if scan is None:
            return ProjectFacts()
        closure = self.closure(key)
        root = self.is_root(key)
        defines: tuple[str, ...] = ()
        hip = prelude = False
        if root:
            needed: set[str] = set()
            for k in closure:
                if k in self.scans:
                    needed |= self.scans[k].required | self.scans[k].hip_switches
                    needed.update(m for f, roc, m in self.scans[k].flavoured if roc != (f in self.hip_families))
            defines = tuple(sorted(needed - scan.defines))
            hip = key.endswith((".cu", ".cuh")) or self._needs_hip(closure)

        prelude = any(s.includes_hip_runtime for k in closure[1:] if (s := self.scans.get(k)) is not None)
        dirs = tuple(dict.fromkeys(d for k in closure for d in self.found_in.get(k, ())))
        renames = tuple(
            sorted({(name, self.renames[name]) for name in _basenames(scan.includes) if name in self.renames})
        )
        # A header's declarations are left out at the smallest unit, or whole (used or not: the files that use one
        # cannot compile either way, and every other file that includes the header then can). A translation unit's
        # own functions are its program (or a library's exported API): only statements or bodies of them, never a
        # declaration, so that the program compiles and stops where it reaches what HIP lacks.
        disabled = tuple(sorted({b.name for b in scan.blocked if b.name and _left_out(b, root, key)}))
        blocked_uses: tuple[tuple[str, str], ...] = ()
        if self.blocked:  # (a file's uses are a set made when first asked about: only then)
            uses = scan.uses.union(*(b.uses for b in scan.blocked)) if root else scan.uses
            used = uses & self.blocked.keys()
            blocked_uses = tuple((name, ", ".join(self.blocked[name])) for name in sorted(used - _never_used(key)))
        around = self._shadows_around(key)
        limit, limit_from = self._build_limit(key) if scan.build_conditions is not None else ((), "")
        return ProjectFacts(
            build_constants=self._build_constants(scan, closure),
            build_limit=limit,
            build_limit_from=limit_from,
            lacking_guards=tuple(sorted(scan.defines & self.lacking_guards)) if self.lacking_guards else (),
            include_renames=renames,
            tu_root=root,
            tu_defines=defines,
            quote_includes=self.quoted.get(key, ()),
            tu_hip=root and hip,
            hip_prelude=prelude,
            project_names=tuple(sorted(scan.cuda_like & self.declared)),
            shadowed=tuple(sorted((scan.uses | self.shadows_of(key)) & around)) if around else (),
            include_dirs=dirs,
            dependencies=_digest(self.scans[k] for k in closure[1:] if k in self.scans),
            disabled=disabled,
            blocked_uses=blocked_uses,
            not_regular=tuple(sorted({p for k in closure if k in self.not_regular for p in self.not_regular[k]})),
            hip_families=tuple(sorted(self.hip_families.items())),
            missing_helpers=self._missing_helpers(key, scan),
            other_builds=self._other_builds_names(key, scan),
            unit_cuda_headers=self._unit_cuda_headers(key) if scan.uses_vendor_namespace else (),
            other_build_file=key in self.other_builds,
            feature_macros=tuple(sorted(scan.feature_macros)),
        )

    def _build_limit(self, key: str) -> tuple[tuple[int, ...], str]:
        """The oldest of the newest builds the files compiled with ``key`` allow (``ProjectFacts.build_limit``,
        a macro one file defines counting as what HIP lacks where it guards such code anywhere in the project),
        with the file that sets its CUDA version (else its architecture) where that is another file."""
        if self._limited is None:
            self._limited = frozenset(k for k, s in self.scans.items() if s.build_conditions is not None)
        limits = {k: self._newest_build(k) for k in self._limited & self.translation_units_of(key)}
        if not limits:
            return (), ""
        version = min(b.version for b in limits.values())
        arch = min(b.arch for b in limits.values())
        own = limits.get(key) or self._newest_build(key)
        setter = sorted(k for k, b in limits.items() if b.version == version and b.version != own.version)
        if not setter:
            setter = sorted(k for k, b in limits.items() if b.arch == arch and b.arch != own.arch)
        return (*version, arch), self.scans[setter[0]].path if setter else ""

    def _newest_build(self, key: str) -> Build:
        found = self._newest.get(key)
        if found is None:
            conditions = self.scans[key].build_conditions
            assert conditions is not None
            found = self._newest[key] = conditions.newest(self.lacking_guards)
        return found

    def _unit_cuda_headers(self, key: str) -> tuple[str, ...]:
        """The CUDA headers the files compiled together with ``key`` include (``ProjectFacts.unit_cuda_headers``)."""
        names = {
            s.includes[i].name
            for k in self.translation_units_of(key)
            if (s := self.scans.get(k)) is not None
            for i in s.cuda_includes
        }
        return tuple(sorted(names))

    def _needs_hip(self, closure: tuple[str, ...]) -> bool:
        """Does a translation unit of another language (``.cpp``, ``.c``) with this closure compile CUDA code? A
        CUDA header or feature counts only where the unit can read it: behind ``#elif
        defined(GGML_COMMON_IMPL_CUDA)``, a header shared with a CPU backend holds ``__device__`` for the CUDA files
        alone, which define that macro, and the CPU backend's C and C++ sources (gcc and g++ compile them: HIP's
        runtime header is no C, and needs HIP's headers on the path) read none of it. Where the unit does read CUDA
        code, HIP's runtime comes at its top, before every macro of the project's (a header that includes it after
        its own macros may not compile: HeCBench's sc)."""
        scans = [s for k in closure if (s := self.scans.get(k)) is not None]
        if any(s.includes_hip_runtime or s.path.endswith((".cu", ".cuh")) for s in scans):
            return True
        defined = frozenset().union(*(c.defines for c in scans))
        for s in scans:
            if s.uses_cuda_features and (not s.feature_macros or s.feature_macros & defined):
                return True
            if not s.uses_cuda_headers:
                continue
            if not s.include_guards:
                return True
            if any(s.include_guards[i].requires <= defined for i in s.cuda_includes):
                return True
        return False

    def _other_builds_names(self, key: str, scan: FileScan) -> tuple[str, ...]:
        """``ProjectFacts.other_builds``: the table names ``key`` defines only for builds other than the
        translated one."""
        if not self.platform_options:
            return ()
        guarded = {name for name, _ in scan.guarded_shadows}
        if key in self.other_builds:
            return tuple(sorted(scan.shadows | guarded))
        return tuple(sorted(guarded - self.shadows_of(key)))  # the guarded ones options_around hides

    def _build_constants(self, scan: FileScan, closure: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
        """The numbers its conditions on the CUDA build compare with that its headers define (``CC_AMPERE``), where
        every header defining one agrees; its own definitions the translation reads itself."""
        wanted = scan.build_words - scan.defines
        if not wanted:
            return ()
        found: dict[str, int | None] = {}
        for k in closure[1:]:
            s = self.scans.get(k)
            for name, value in s.constants if s is not None else ():
                if name in wanted:
                    found[name] = value if found.get(name, value) == value else None
        return tuple(sorted((n, v) for n, v in found.items() if v is not None))

    def _missing_helpers(self, key: str, scan: FileScan) -> tuple[str, ...]:
        """The NVIDIA samples helpers (helper_cuda.h, ...) this file includes and no tree file answers for."""
        here = os.path.dirname(key)
        missing = {
            helper
            for inc in scan.includes
            if (helper := helper_of(inc.name)) and not self.resolved.get((here, inc.name, inc.angled), ("",))[0]
        }
        return tuple(sorted(missing))


def build_model(
    scans: Iterable[FileScan],
    scan_more: ScanMore,
    include_dirs: Sequence[str] = (),
    renames: Mapping[str, str] | None = None,
    rescan: ScanMore | None = None,
    known_keys: Mapping[str, str] | None = None,
) -> ProjectModel:
    """Resolve the includes of ``scans`` (the files being translated), scanning the project
    headers they reach that were not among them (``scan_more``), until nothing new is reached.
    ``rescan``: the exact scans of files whose scan is approximate (``FileScan.approximate``),
    asked for only where the difference can matter (default: ``scan_more``). ``known_keys``: paths whose
    :func:`file_key` the caller knows already (a walk resolved them)."""
    scans = list(scans)
    builder = ModelBuilder([s.path for s in scans], include_dirs, renames, known_keys)
    pending = [path for s in scans for path in builder.add(s)]
    while pending:
        pending = [path for s in scan_more(pending) for path in builder.add(s)]
    return builder.finish(rescan or scan_more)


class ModelBuilder:
    """The project model, built as the scans come in: each scan's includes are resolved when it arrives
    (:meth:`add` returns the project headers they reach that nobody asked for yet, to be scanned too), so
    that a run resolves the include graph while its workers still scan, and what is left once the last scan
    is in (:meth:`finish`) is the project-wide part: the names declared or blocked anywhere.

    The model does not depend on the order the scans arrive in: an include resolves by the disk and the
    tree's file list, both fixed before the first scan."""

    def __init__(
        self,
        paths: Sequence[str],
        include_dirs: Sequence[str] = (),
        renames: Mapping[str, str] | None = None,
        known_keys: Mapping[str, str] | None = None,
        other_files: Iterable[str] = (),
    ) -> None:
        """``paths``: the files being translated (each is :meth:`add` ed once scanned); ``other_files``: the
        tree's other files (real paths), where an include found nowhere else may name one (``<lib/utils.hu>``)."""
        keys: dict[str, str] = dict(known_keys or {})
        for path in paths:
            if path not in keys:
                keys[path] = file_key(path)
        translated = frozenset(keys[p] for p in paths)
        self.model = ProjectModel({}, translated, renames=dict(renames or {}), _keys=keys)
        user_dirs = [file_key(os.path.abspath(d)) for d in include_dirs]
        self._resolver = _Resolver(user_dirs, translated.union(other_files))
        # Headers outside the tree (and outside the user's own -I directories under it) are not the
        # project's: a -I to a toolkit must not pull its headers into the scan.
        tree = os.path.commonpath([os.path.dirname(k) for k in translated]) if translated else "/"
        self._mine = [tree] + [d for d in user_dirs if not _is_system(d)]
        self._asked: set[str] = set(translated)  # files scanned or to be scanned

    def add(self, scan: FileScan) -> list[str]:
        """Take in one file's scan (a file being translated, or a header :meth:`add` returned); returns the
        project headers its includes reach that are not scanned nor asked for yet."""
        model = self.model
        key = model.key_of(scan.path)
        if key not in model.translated and not scan.readable:
            return []  # a header that cannot be read: its includers' translations say nothing of it
        model.scans[key] = scan
        edges, dirs = self._resolver.resolve_all(key, scan.includes)
        model.edges[key] = edges
        if dirs:
            model.found_in[key] = dirs
        reached = [k for k in edges if k not in self._asked and _under(k, self._mine)]
        self._asked.update(reached)
        return reached

    def finish(self, rescan: ScanMore) -> ProjectModel:
        """The model, once every scan :meth:`add` asked for is in. ``rescan``: the exact scans of the
        approximate scans whose words meet a blocked declaration or a shadowed table name of the project."""
        model, resolver = self.model, self._resolver
        model.quoted = {k: tuple(sorted(v)) for k, v in resolver.adjacent.items()}
        model.resolved = dict(resolver.seen)
        model.declared = frozenset().union(*(s.declares for s in model.scans.values()))
        self._read_platforms()
        model.shadows = frozenset().union(*(model.shadows_of(k) for k in model.scans))
        missing: dict[str, set[str]] = {}
        for k, s in model.scans.items():
            for b in s.blocked:
                # A declaration whose uses of what HIP lacks can be left out alone stays, and so do its users; one
                # that cannot is disabled whole (its uses are reported: rules/unavailable.py).
                if b.name and not (b.trappable and _left_out(b, model.is_root(k), k)):
                    missing.setdefault(b.name, set()).update(b.missing)
        model.blocked = {name: tuple(sorted(apis)) for name, apis in missing.items()}
        # An approximate scan's uses include the names it only declares: exact where it meets no blocked
        # declaration and no shadowed table name (the only names its uses are asked about).
        vague = [
            s.path
            for k, s in model.scans.items()
            if s.approximate
            and not (
                (not model.blocked or (s.uses & model.blocked.keys()) <= _never_used(k))
                and (not (around := model._shadows_around(k)) or s.uses.isdisjoint(around))
            )
        ]
        if vague:
            for s in rescan(vague):
                if s.readable:
                    model.scans[model.key_of(s.path)] = s
        model.lacking_guards = frozenset().union(*(s.lacking_guards for s in model.scans.values()))
        model.not_regular = {key: tuple(sorted(paths)) for key, paths in resolver.not_regular.items()}
        for key in sorted(model.scans):
            for family, why in model.scans[key].roc_gaps:
                model.hip_families.setdefault(family, why)
        return model

    def _read_platforms(self) -> None:
        """The project's platform options, the files only they reach, and each file's own shadows under the
        translated build (``project/platforms``)."""
        model, resolver = self.model, self._resolver

        def target(key: str, index: int) -> str:
            include = model.scans[key].includes[index]
            return resolver.resolve(os.path.dirname(key), include.name, include.angled)[0]

        by_file = options_by_file(model.scans, target)
        model.options_by_file = by_file
        if by_file:
            roots = [k for k in model.scans if model.is_root(k)]
            model.platform_options = frozenset().union(*by_file.values())
            model.other_builds = other_builds(by_file, roots, model.scans, model.edges, target)
        for key, scan in model.scans.items():
            if key in model.other_builds:
                model.own_shadows[key] = frozenset()
            elif scan.guarded_shadows:
                options = model.options_around(key)
                kept = {name for name, requires in scan.guarded_shadows if not requires & options}
                model.own_shadows[key] = scan.shadows | kept


def resolutions_hold(resolved: Resolved, include_dirs: Sequence[str], translated: frozenset[str]) -> bool:
    """Every include of ``resolved`` still resolves where it did (no header appeared, moved or went away
    where the search looks), for the same files being translated and the same ``-I`` directories."""
    resolver = _Resolver([file_key(os.path.abspath(d)) for d in include_dirs], translated)
    return all(resolver.resolve(*include) == found for include, found in resolved.items())


class _Resolver:
    def __init__(self, include_dirs: list[str], tree: frozenset[str]) -> None:
        self.include_dirs = include_dirs
        # For includes found nowhere else: tree files by the last component of their path.
        self.by_name: dict[str, list[str]] = {}
        for key in sorted(tree):
            self.by_name.setdefault(os.path.basename(key), []).append(key)
        self.seen: Resolved = {}
        self.adjacent: dict[str, set[str]] = {}  # file -> its angled includes found only next to it
        self.not_regular: dict[str, set[str]] = {}  # file key -> paths (see ProjectModel.not_regular)
        self._directories: dict[str, str] = {}  # directory -> file_key(directory), for this resolver's lookups

    def _key(self, path: str) -> str:
        """``file_key(path)``: the real path of its directory (each directory resolved once) and its own name,
        where the path holds no ``.`` or ``..`` (a symbolic link's ``..`` is not the lexical one) and its last
        component is no symbolic link; otherwise ``realpath`` itself."""
        if not os.path.isabs(path) or os.path.normpath(path) != path or os.path.islink(path):
            return file_key(path)
        directory, name = os.path.split(path)
        real = self._directories.get(directory)
        if real is None:
            real = self._directories[directory] = file_key(directory)
        return os.path.join(real, name)

    def resolve_all(self, key: str, includes: Sequence[IncludeRef]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        edges: dict[str, None] = {}
        dirs: dict[str, None] = {}
        here = os.path.dirname(key)
        for inc in includes:
            target, directory = self.resolve(here, inc.name, inc.angled)
            if target:
                edges[target] = None
                if directory == ADJACENT:
                    self.adjacent.setdefault(key, set()).add(inc.name)
                elif directory:
                    dirs[directory] = None
        return tuple(edges), tuple(dirs)

    def resolve(self, here: str, name: str, angled: bool) -> tuple[str, str]:
        """(file key, tree directory it was inferred from or ""); ("", "") when not a project file."""
        memo = (here, name, angled)
        found = self.seen.get(memo)
        if found is None:
            found = self.seen[memo] = self._resolve(here, name.strip(), angled)
        return found

    def _resolve(self, here: str, name: str, angled: bool) -> tuple[str, str]:
        if not name or os.path.isabs(name):
            return "", ""
        searched = ([] if angled else [here]) + self.include_dirs
        for directory in searched:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return self._key(candidate), ""
            if os.path.exists(candidate) and not os.path.isdir(candidate):  # a FIFO, a device: never read
                key = self._key(candidate)
                self.not_regular.setdefault(key, set()).update((os.path.normpath(candidate), key))
                return key, ""
        if angled and os.path.isfile(os.path.join(here, name)):
            return self._key(os.path.join(here, name)), ADJACENT  # <x.h> that only a quoted include finds
        # Not found where a compiler without the project's build flags would look: a tree file
        # whose path ends with the included name, nearest to the including file.
        tail = "/" + name.replace("\\", "/").lstrip("./")
        candidates = [k for k in self.by_name.get(os.path.basename(name), ()) if k.endswith(tail)]
        if not candidates:
            return "", ""
        best = max(candidates, key=lambda k: (len(os.path.commonpath([k, here])), -len(k)))
        return best, best[: -len(tail)] or "/"


_MAIN = frozenset(("main",))


def _left_out(b: BlockedDeclaration, root: bool, key: str) -> bool:
    """Is code of blocked declaration ``b`` left out: in a header, always (at the smallest unit, else whole); in a
    translation unit's own code too, but not where an option would translate it, and not in C (the stop the
    program calls there is C++: the compatibility header has nothing for C). A translation unit's declaration whose
    own head needs what HIP lacks (a parameter of such a type) cannot compile as written: disabled whole, as in a
    header, its uses reported; one whose uses sit in statements or a body keeps its declaration."""
    return not root or (not b.by_option and not key.endswith(C_SUFFIX))


def _never_used(key: str) -> frozenset[str]:
    """Names a file of this language never uses, whatever its words say: C++ forbids using ``main``
    ([basic.start.main]), so another file's blocked ``main`` is no use of a C++ file's (its word ``main`` is its own
    definition; C may call ``main``)."""
    return frozenset() if key.endswith(".c") else _MAIN


def _under(path: str, directories: Sequence[str]) -> bool:
    return any(path.startswith(d.rstrip("/") + "/") for d in directories)


def _is_system(directory: str) -> bool:
    """A toolkit's include folder: under the system's folders, or one holding a toolkit's runtime header. What the
    path is spelled with decides nothing (a checkout under ``.../rocm-port/`` or ``.../cuda-kernels/`` is a project)."""
    if directory.startswith(("/usr/", "/opt/")):
        return True
    return any(os.path.isfile(os.path.join(directory, marker)) for marker in _TOOLKIT_MARKERS)


# Headers only a toolkit's own include folder holds at its top.
_TOOLKIT_MARKERS = ("cuda_runtime_api.h", os.path.join("hip", "hip_runtime_api.h"))


def _basenames(includes: Iterable[IncludeRef]) -> set[str]:
    return {inc.name.rsplit("/", 1)[-1] for inc in includes if not inc.angled}


def _digest(scans: Iterable[FileScan]) -> str:
    digest = hashlib.sha256()
    for scan in sorted(scans, key=lambda s: s.path):
        digest.update(f"{scan.path}\0{scan.digest}\0".encode())
    return digest.hexdigest()[:16]


def build_file_facts(
    build_paths: Sequence[str], model: ProjectModel, renamed: Sequence[tuple[str, str]], options: Options
) -> dict[str, ProjectFacts]:
    """Each build file's facts (``buildfiles.build_phase.build_facts``), from the model the sources' scans made."""
    families = {scan.path: scan.families for scan in model.scans.values()}
    host = hip_host_sources(model)
    return build_facts(
        build_paths, families, renamed, tuple(model.hip_families.items()), options, host, hip_compiled(model, host)
    )


# Sources a host compiler may compile (a .cu file is the CUDA compiler's, a header is never compiled alone).
HOST_SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".c++", ".cp")


def hip_compiled(model: ProjectModel, host_sources: Sequence[str]) -> tuple[str, ...]:
    """Of ``host_sources``, those whose translation unit uses a type whose HIP header only the HIP compiler compiles
    (``__nv_bfloat16`` -> ``__hip_bfloat16`` of hip_bf16.h, which plain C++ cannot compile)."""
    if not host_sources:
        return ()
    names = _hip_compiler_only_types()
    return tuple(
        path
        for path in host_sources
        if any(
            not names.isdisjoint(scan.uses)
            for k in model.closure(model.key_of(path))
            if (scan := model.scans.get(k)) is not None
        )
    )


# HIP headers of value types that plain C++ cannot compile (checked with g++ against ROCm 6.4's and 7.2's).
HIP_COMPILER_ONLY_HEADERS = frozenset(("hip_bf16.h", "amd_hip_bf16.h"))


@functools.cache
def _hip_compiler_only_types() -> frozenset[str]:
    """The CUDA type names the table maps into :data:`HIP_COMPILER_ONLY_HEADERS` (read once per process)."""
    from ..knowledge.table import load_table  # the table is needed only where host sources include the runtime

    return frozenset(
        row.cuda
        for row in load_table().rows
        if row.kind == "type" and row.hip_header.rsplit("/", 1)[-1] in HIP_COMPILER_ONLY_HEADERS
    )


def hip_host_sources(model: ProjectModel) -> tuple[str, ...]:
    """The C/C++ sources being translated whose translation unit includes the HIP runtime after translation: the
    same test that decides the runtime include of the source itself (``ProjectModel._needs_hip``), so a header's
    ``__device__`` behind ``#ifdef __CUDACC__``, which the host compiler never reads, links no C++ target with
    hip::host (a CPU-only build of the project would then need ROCm to configure)."""
    found = []
    for key in sorted(model.translated):
        scan = model.scans.get(key)
        if scan is None or not key.lower().endswith(HOST_SOURCE_SUFFIXES):
            continue
        if model._needs_hip(model.closure(key)):
            found.append(os.path.abspath(scan.path))
    return tuple(found)
