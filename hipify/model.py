"""Plain, immutable values that flow through the pipeline (see docs/architecture.md).

Offsets are *character* offsets into the decoded source text (a Python ``str``),
never byte offsets; engines that see bytes (libclang) convert before building edits.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import accumulate
from typing import NamedTuple

from .options import DEFAULT_OFFLOAD_ARCH, Options

# A half-open [start, end) range of character offsets into a file's text.
Span = tuple[int, int]


class Origin(str, Enum):
    """How an edit was derived, so reviewers know how much to trust it."""

    TOKEN = "token"  # a lexer/libclang token that names a table row
    AST = "ast"  # an AST node (launch extents, argument positions)
    TEXT = "text"  # structural text rule (includes, bracket matching)


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def word(self) -> str:
        """How compilers name the level (``note`` for info), which editors and CI matchers parse."""
        return "note" if self is Severity.INFO else self.value


class Edit(NamedTuple):
    """Replace ``text[start:end]`` with ``replacement``; ``code`` names the rule.

    A NamedTuple, not a frozen dataclass: one is made per renamed identifier, and a tuple is
    built five times faster than a frozen dataclass (which sets each field through
    ``object.__setattr__``); it is just as immutable and picklable.
    """

    start: int
    end: int
    replacement: str
    code: str
    origin: Origin = Origin.TOKEN
    # The CUDA name or construct that was rewritten (for stats and reports).
    subject: str = ""


@dataclass(frozen=True)
class Diagnostic:
    """Something a user should read: ``path:line:col: warning: message [CODE]`` (gcc's form)."""

    code: str
    message: str
    offset: int = 0
    line: int = 0  # 1-based; 0 = whole file
    col: int = 0  # 1-based
    severity: Severity = Severity.WARNING
    subject: str = ""  # the CUDA name concerned, if any
    path: str = ""
    # Where the root cause lies when it is in another file, e.g. the included header whose parse
    # error this file's parse met: (path relative to this file's directory, line, column); None = here.
    # Relative, so a cached result stays right wherever the tree is.
    cause: tuple[str, int, int] | None = None

    def format(self, path: str | None = None) -> str:
        where = path if path is not None else self.path
        if self.line:
            where = f"{where}:{self.line}:{self.col}"
        return f"{where}: {self.severity.word}: {self.message} [{self.code}]"


@dataclass(frozen=True)
class BuildContext:
    """What a build file's translation (``hipify.buildfiles``) needs to know about the rest of the project."""

    # API families (the table's family names: "blas", "fft", "rand", ...) the project's sources use.
    families: tuple[str, ...] = ()
    # (old basename, new basename) of sources renamed by --rename-extensions (a.cu -> a.hip).
    renamed: tuple[tuple[str, str], ...] = ()
    # AMD GPU targets for --offload-arch / HIP_ARCHITECTURES.
    offload_arch: tuple[str, ...] = DEFAULT_OFFLOAD_ARCH
    # --roc: link the ROC libraries (rocblas, ...) instead of the HIP ones (hipblas, ...).
    roc: bool = False
    # --roc: families the sources keep with their HIP names (the project's hip_families): their HIP library.
    hip_families: tuple[str, ...] = ()
    # C/C++ sources (paths relative to the build file's directory) whose translation units include the HIP
    # runtime: a host compiler needs HIP's platform define and headers to compile them.
    hip_sources: tuple[str, ...] = ()
    # Of those, the sources whose translation units use types whose HIP headers only the HIP compiler compiles
    # (hip_bf16.h, unlike CUDA's cuda_bf16.h, is no plain C++): compiled as HIP.
    hip_compiled_sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProjectFacts:
    """What the translation of one file needs to know about the rest of the project.

    Computed by the parent before translation and passed in as a value, so a file's
    translation never reads other files; the result cache keys on it.
    """

    # (old basename, new basename) of files renamed by --rename-extensions: quoted includes follow.
    include_renames: tuple[tuple[str, str], ...] = ()
    # A translation unit's main file (compiled, not only included by others).
    tu_root: bool = False
    # Macros some file of this translation unit needs defined before the first HIP header
    # (e.g. HIP_ENABLE_WARP_SYNC_BUILTINS): defined at the top of the main file.
    tu_defines: tuple[str, ...] = ()
    # The main file of a translation unit that uses HIP: nvcc includes the CUDA runtime before the
    # first line of a .cu file, so no macro of the project can reach it; the HIP runtime include
    # goes before the main file's first include, where it is as safe from the project's macros.
    tu_hip: bool = False
    # Some project header this file includes, directly or not, includes the HIP runtime itself (a single-source
    # project's prelude, which may define what must precede it): no runtime include is inserted, the project's
    # order stands.
    hip_prelude: bool = False
    # Its <...> includes of files that are found only next to it: a compiler finds them only
    # between quotes (what clang suggests); nvcc-era builds often relied on -I.
    quote_includes: tuple[str, ...] = ()
    # CUDA-looking names this file uses that the project declares itself (not CUDA APIs).
    project_names: tuple[str, ...] = ()
    # Table names this file uses that some project file declares itself (its own overload of
    # cudaMallocHost, say): which use is whose takes the AST.
    shadowed: tuple[str, ...] = ()
    # Directories of the tree where includes of this file (or of headers it includes) were found
    # only by searching the tree: the include path a parser needs.
    include_dirs: tuple[str, ...] = ()
    # Digest of the project headers this file includes, directly or not (cache keys cover it).
    dependencies: str = ""
    # This file's declarations that need APIs HIP lacks (a translation unit's own only where no option would
    # translate them, and not in C): each
    # statement or function body using such an API is left out and stops the program where it is reached
    # (the declaration stays, for every file that uses it); one no smaller unit holds (a parameter or member of
    # a type HIP lacks) cannot compile under HIP at all and is disabled whole: left as written it would stop every
    # file including its header, disabled only the files using it, which need what HIP lacks themselves.
    disabled: tuple[str, ...] = ()
    # Names this file uses whose declaration needs APIs HIP lacks: (name, the missing APIs).
    blocked_uses: tuple[tuple[str, str], ...] = ()
    # How this file includes the compatibility header (a path relative to the file's output).
    compat_include: str = "hipify_compat.h"
    # Paths this file's includes reach that are not regular files (a FIFO named like a header):
    # a parser must never open them (it would block), so the clang engine reads them as empty.
    not_regular: tuple[str, ...] = ()
    # --roc: API families some file of the project cannot write with their ROC library's names, with why
    # (family, reason): every file keeps their HIP names, so that types shared through headers agree.
    hip_families: tuple[tuple[str, str], ...] = ()
    # Numeric macros of its headers that its conditions on the CUDA build compare with (``CC_AMPERE``: 800).
    build_constants: tuple[tuple[str, int], ...] = ()
    # Macros it defines whose definition enables code of some project file that HIP cannot compile (a tier such as
    # ``MMA_AVAILABLE`` guarding inline PTX elsewhere): a build condition around such a definition is decided for a
    # build that leaves it undefined.
    lacking_guards: tuple[str, ...] = ()
    # The newest CUDA build, (major, minor, architecture), under which no file compiled with this one takes a
    # version or architecture branch HIP cannot compile (rewrite/build_choice): its conditions are decided for no
    # newer one, so that the files of a program agree about which CUDA it is; () where none of them has such a
    # condition. ``build_limit_from``: the file that needs it older (for the report).
    build_limit: tuple[int, ...] = ()
    build_limit_from: str = ""
    # A build file (Makefile, CMakeLists.txt): what its translation needs from the sources (None for a source).
    build: BuildContext | None = None
    # NVIDIA samples helper headers this file includes that the tree does not hold (helper_cuda.h, ...).
    missing_helpers: tuple[str, ...] = ()
    # Table names this file #defines only where one of the project's platform options reaches (its own HIP build's
    # ``#define __trap()``, another platform's ``#define cudaStream_t musaStream_t``): the translated build defines
    # none of those options, so the names stay CUDA's here (project/platforms.py).
    other_builds: tuple[str, ...] = ()
    # Where the file has a using-directive of a CUDA namespace (``using namespace cub;``): the CUDA headers its
    # translation units include, whose HIP runtime headers must come before the directive (rules/using_directives).
    unit_cuda_headers: tuple[str, ...] = ()
    # Only the project's other builds read this file (its own HIP build's vendor header, another platform's): the
    # translated build never includes it, so it is left as it is (project/platforms.py).
    other_build_file: bool = False
    # Where every CUDA feature the file uses sits behind conditions on macros of the project's own (a header
    # shared with a CPU backend: ``__device__`` only under ``#if defined(GGML_COMMON_DECL_CUDA)``), the macros one
    # of which must be defined for any of them to be read (FileScan.feature_macros): its HIP runtime include is
    # read under the same condition, so that the CPU backend's gcc and g++ never read HIP's headers.
    feature_macros: tuple[str, ...] = ()


@dataclass(frozen=True)
class SourceFile:
    path: str
    text: str
    project: ProjectFacts = field(default_factory=ProjectFacts)


@dataclass(frozen=True)
class EngineResult:
    edits: tuple[Edit, ...]
    diagnostics: tuple[Diagnostic, ...]
    engine: str  # "regex" or "clang"
    compat: tuple[str, ...] = ()  # entries of the compatibility header the translation relies on
    # Other files the result depends on (the headers the parser read, its compilation
    # database): a cached result is reused only while they are unchanged.
    inputs: tuple[str, ...] = ()


@dataclass(frozen=True)
class LineIndex:
    """Maps character offsets to 1-based (line, column) in O(log n)."""

    starts: tuple[int, ...] = field(default=(0,))

    @classmethod
    def of(cls, text: str) -> LineIndex:
        # The start of each line: running sums of the line lengths (split runs at C speed).
        return cls(tuple(accumulate((len(line) + 1 for line in text.split("\n")), initial=0))[:-1])

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def offset(self, line: int, col: int) -> int:
        """Inverse of :meth:`line_col` (1-based line and column)."""
        return self.starts[line - 1] + col - 1


def located(diag: Diagnostic, index: LineIndex, path: str) -> Diagnostic:
    """The diagnostic in ``path``, with line/col filled from its offset (unless it has them)."""
    if diag.line:
        return replace(diag, path=path)
    line, col = index.line_col(diag.offset)
    return replace(diag, line=line, col=col, path=path)


@dataclass(frozen=True)
class TextFormat:
    """How a file's text was stored, so unchanged parts are written back byte for byte."""

    encoding: str = "utf-8"
    bom: bool = False
    crlf: bool = False  # every line ends in CRLF: the engines see LF, output gets CRLF back
    errors: str = "strict"  # "surrogateescape": bytes that are not UTF-8 round-trip as lone surrogates


@dataclass(frozen=True)
class FileTask:
    """One input file to translate (what a worker process receives)."""

    path: str
    display: str  # how to name the file in messages
    options: Options
    encoding: str = "utf-8"
    max_size: int = 64 * 1024 * 1024
    project: ProjectFacts = field(default_factory=ProjectFacts)
    cache_dir: str = ""  # "" = no cache


@dataclass(frozen=True)
class FileResult:
    """One file's translation (what a worker process returns); edits are in original coordinates."""

    path: str
    display: str
    original: str = ""
    text: str = ""
    fmt: TextFormat = field(default_factory=TextFormat)
    raw: bytes = b""
    edits: tuple[Edit, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    engine: str = ""
    error: Diagnostic | None = None
    cached: bool = False
    compat: tuple[str, ...] = ()  # entries of the compatibility header the translation relies on
    inputs: tuple[str, ...] = ()  # other files the translation read (see EngineResult.inputs)

    @property
    def changed(self) -> bool:
        return self.error is None and self.text != self.original
