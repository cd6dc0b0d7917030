"""Which sources make up each program of a real-code tree, read from its own build files.

Two readers, each as small as the corpora need and no smaller: a Makefile reader (variables, `+=`,
`$(wildcard)`, line continuations) for HeCBench and a CMake reader (set, project, include,
function/endfunction with parameters, add_executable, target_sources, include directories,
list(GET), get_filename_component) for NVIDIA's library samples. Neither evaluates conditionals:
every branch is read, and a target or variable defined twice keeps its first definition (a
newer-toolkit branch comes first in the samples), which is the build a current toolkit makes.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

SOURCE_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx", ".c")


@dataclass(frozen=True)
class Program:
    """One program: sources to compile and include directories, as paths relative to the tree root."""

    corpus: str  # "hecbench" or "samples"
    name: str  # benchmark name ("adam") or sample path ("cuBLAS/Level-1/amax")
    folder: str  # the program's folder: every file under it can change the result
    sources: tuple[str, ...]
    include_dirs: tuple[str, ...]
    c_sources: tuple[str, ...] = ()  # sources the build compiles as C, not CUDA/C++
    defines: tuple[str, ...] = ()  # -D flags of the build file
    relocatable: bool = False  # separate device compilation (nvcc -dc / -rdc=true, hipcc -fgpu-rdc)
    note: str = ""  # why the sources could not be found, when `sources` is empty

    @property
    def group(self) -> str:
        """The library of a sample (its top folder); HeCBench has one group."""
        return self.folder.split("/", 1)[0] if self.corpus == "samples" else self.corpus


def _norm(base: str, rel: str) -> str:
    """``rel`` (relative to the tree folder ``base``) as a normalized tree-relative path."""
    return os.path.normpath(os.path.join(base, rel)).replace(os.sep, "/")


# --- Makefiles ----------------------------------------------------------------------------------------

_MAKE_ASSIGN = re.compile(r"^\s*(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*(::=|:=|\?=|\+=|=)(.*)$")
_MAKE_REF = re.compile(r"\$[({]([^(){}$]*)[)}]")
_INCLUDE_FLAG = re.compile(r"(?:^|\s)-I\s*(\S+)")
_OBJECT_RULE = re.compile(r"^\s*(\S+\.o)\s*:\s*(\S+)")
_RELOCATABLE_FLAG = re.compile(r"(?:^|\s)(?:-dc|-rdc[= ]true|--relocatable-device-code[= ]true|-fgpu-rdc)(?:\s|$)")
_DEFINE_FLAG = re.compile(r"(?:^|\s)-D\s*([A-Za-z_]\w*(?:=\S*)?)")


def _logical_lines(text: str) -> list[str]:
    return text.replace("\\\r\n", " ").replace("\\\n", " ").splitlines()


def _strip_make_comment(line: str) -> str:
    return line.split("#", 1)[0] if "#" in line else line


def _expand_make(value: str, variables: dict[str, str], folder: Path, depth: int = 0) -> str:
    """Expand $(VAR), ${VAR} and $(wildcard PATTERN); anything else expands to nothing, as make does for
    an undefined variable."""

    def one(m: re.Match[str]) -> str:
        inner = m.group(1).strip()
        if inner.startswith("wildcard "):
            found = []
            for pattern in inner.split()[1:]:
                found += sorted(
                    os.path.relpath(p, folder) for p in glob.glob(str(folder / pattern)) if Path(p).is_file()
                )
            return " ".join(found)
        if depth > 10:
            return ""
        return _expand_make(variables.get(inner, ""), variables, folder, depth + 1)

    previous = None
    while previous != value:
        previous, value = value, _MAKE_REF.sub(one, value)
    return value


class _Conditionals:
    """make's ifeq/ifneq/ifdef/ifndef ... else ... endif, evaluated with the variables known so far."""

    def __init__(self) -> None:
        self.stack: list[tuple[bool, bool]] = []  # (this branch active, some branch of this block taken)

    @property
    def active(self) -> bool:
        return all(active for active, _ in self.stack)

    def handle(self, line: str, variables: dict[str, str], folder: Path) -> bool:
        """True when ``line`` is a conditional directive (and was applied)."""
        word, _, rest = line.strip().partition(" ")
        if word in ("ifeq", "ifneq", "ifdef", "ifndef"):
            value = _condition(word, rest, variables, folder)
            self.stack.append((value, value))
        elif word == "else" and self.stack:
            _, taken = self.stack.pop()
            nested = rest.strip().partition(" ")
            value = not taken and (_condition(nested[0], nested[2], variables, folder) if nested[0] else True)
            self.stack.append((value, taken or value))
        elif word == "endif" and self.stack:
            self.stack.pop()
        else:
            return False
        return True


def _condition(kind: str, rest: str, variables: dict[str, str], folder: Path) -> bool:
    if kind in ("ifdef", "ifndef"):
        defined = bool(variables.get(rest.strip(), "").strip())
        return defined == (kind == "ifdef")
    text = _expand_make(rest, variables, folder).strip()
    if text.startswith("(") and text.endswith(")"):
        left, _, right = text[1:-1].partition(",")
    else:
        try:
            left, right = (shlex.split(text) + ["", ""])[:2]
        except ValueError:
            return False
    return (left.strip() == right.strip()) == (kind == "ifeq")


def read_makefile(path: Path) -> tuple[dict[str, str], list[str]]:
    """(variables, the lines in active conditional branches) of a Makefile, lines joined across
    backslash-newlines and comments dropped."""
    variables: dict[str, str] = {}
    conditionals = _Conditionals()
    active: list[str] = []
    for line in (_strip_make_comment(x) for x in _logical_lines(path.read_text(errors="replace"))):
        if not line.startswith("\t") and conditionals.handle(line, variables, path.parent):
            continue
        if not conditionals.active:
            continue
        active.append(line)
        m = _MAKE_ASSIGN.match(line) if not line.startswith("\t") else None
        if not m:
            continue
        name, op, value = m.group(1), m.group(2), m.group(3).strip()
        if op == "+=":
            variables[name] = f"{variables.get(name, '')} {value}".strip()
        elif op == "?=":
            variables.setdefault(name, value)
        else:
            variables[name] = value
    return variables, active


def makefile_sources(path: Path, variables: dict[str, str]) -> list[str]:
    """Sources named by ``source = ...`` (relative to the Makefile's folder), else []."""
    value = variables.get("source", "")
    return _expand_make(value, variables, path.parent).split() if value else []


def makefile_flags(path: Path, variables: dict[str, str], lines: list[str]) -> tuple[list[str], list[str]]:
    """(relative -I directories, -D definitions) written on the active lines of a Makefile, variables and
    recipes included. Absolute -I folders name the author's machine and are left out."""
    dirs: list[str] = []
    defines: list[str] = []
    for line in lines:
        expanded = _expand_make(line, variables, path.parent)
        dirs += [d for d in _INCLUDE_FLAG.findall(expanded) if not d.startswith("/") and d not in dirs]
        defines += [d for d in _DEFINE_FLAG.findall(expanded) if d not in defines]
    return dirs, defines


def _shallowest_makefile(folder: Path) -> Path | None:
    found = sorted(folder.rglob("Makefile"), key=lambda p: (len(p.parts), str(p)))
    return found[0] if found else None


def object_rules(path: Path, variables: dict[str, str], lines: list[str]) -> dict[str, str]:
    """``X.o: first-prerequisite ...`` rules of a Makefile: object name -> the file it is built from."""
    rules: dict[str, str] = {}
    for line in lines:
        m = _OBJECT_RULE.match(_expand_make(line, variables, path.parent)) if not line.startswith("\t") else None
        if m:
            rules.setdefault(m.group(1), m.group(2))
    return rules


def _locate(bench: Path, base: Path, source: str, rules: dict[str, str]) -> Path:
    """``source`` as the Makefile names it, relative to its folder. Where no such file exists: the first
    prerequisite of the rule that builds its object (``main.o: ../other/main.cpp``), else the one file of
    that name elsewhere in the benchmark."""
    direct = base / source
    if direct.exists():
        return direct
    built_from = rules.get(f"{Path(source).stem}.o")
    if built_from and (base / built_from).is_file():
        return base / built_from
    found = [p for p in bench.rglob(Path(source).name) if p.is_file()] if "/" not in source else []
    return found[0] if len(found) == 1 else direct


def hecbench_program(root: Path, folder: str, name: str, shared_include: str) -> Program:
    """A HeCBench benchmark: the sources of its Makefile's ``source =`` (else every top-level .cu, else
    every .cu below), its Makefile's -I and -D flags and the suite's shared include folder."""
    bench = root / folder
    makefile = bench / "Makefile" if (bench / "Makefile").is_file() else _shallowest_makefile(bench)
    base = makefile.parent if makefile else bench
    base_rel = base.relative_to(root).as_posix()
    sources: list[str] = []
    includes: list[str] = []
    defines: list[str] = []
    rules: dict[str, str] = {}
    relocatable = False
    if makefile:
        variables, lines = read_makefile(makefile)
        sources = makefile_sources(makefile, variables)
        includes, defines = makefile_flags(makefile, variables, lines)
        rules = object_rules(makefile, variables, lines)
        relocatable = any(_RELOCATABLE_FLAG.search(_expand_make(x, variables, makefile.parent)) for x in lines)
    note = ""
    if not sources:
        sources = sorted(p.name for p in base.glob("*.cu"))
        sources = sources or sorted(p.relative_to(base).as_posix() for p in base.rglob("*.cu"))
        note = "" if sources else "no `source =` in its Makefile and no .cu file"
    include_dirs = [_norm(base_rel, d) for d in includes] + [shared_include]
    located = [
        os.path.relpath(os.path.normpath(_locate(bench, base, s, rules)), root).replace(os.sep, "/") for s in sources
    ]
    return Program(
        corpus="hecbench",
        name=name,
        folder=folder,
        sources=tuple(located),
        include_dirs=tuple(dict.fromkeys(include_dirs)),
        defines=tuple(defines),
        relocatable=relocatable,
        note=note,
    )


def hecbench_programs(root: Path, suffix: str) -> list[Program]:
    """Every ``src/<name><suffix>`` benchmark of a HeCBench tree (suffix "-cuda" or "-hip")."""
    return [
        hecbench_program(root, f"src/{d.name}", d.name[: -len(suffix)], "src/include")
        for d in sorted((root / "src").glob(f"*{suffix}"))
        if d.is_dir()
    ]


# --- CMake ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Command:
    name: str
    args: tuple[str, ...]


_CMAKE_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_CMAKE_REF = re.compile(r"\$\{([A-Za-z0-9_.+-]*)\}")
_SCOPE_WORDS = {"PUBLIC", "PRIVATE", "INTERFACE", "SYSTEM", "BEFORE", "AFTER"}
_EXECUTABLE_FLAGS = {"WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL"}


def _strip_cmake_comments(text: str) -> str:
    out = []
    for line in text.splitlines():
        quoted = False
        for i, ch in enumerate(line):
            if ch == '"':
                quoted = not quoted
            elif ch == "#" and not quoted:
                line = line[:i]
                break
        out.append(line)
    return "\n".join(out)


def parse_cmake(text: str) -> list[_Command]:
    """Commands ``name(args)`` in order; arguments split as CMake does (quotes kept together)."""
    text = _strip_cmake_comments(text)
    commands: list[_Command] = []
    pos = 0
    while (m := _CMAKE_CALL.search(text, pos)) is not None:
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        body = text[m.end() : i - 1]
        try:
            args = tuple(shlex.split(body, posix=True))
        except ValueError:
            args = tuple(body.split())
        commands.append(_Command(m.group(1).lower(), args))
        pos = i
    return commands


@dataclass
class _Target:
    sources: list[str]
    include_dirs: list[str]


class CMakeReader:
    """Runs the few CMake commands that say which sources make a target, for one CMakeLists.txt."""

    def __init__(self, folder: Path) -> None:
        here = str(folder)
        self.folder = folder
        self.variables = {
            "CMAKE_SOURCE_DIR": here,
            "CMAKE_CURRENT_SOURCE_DIR": here,
            "PROJECT_SOURCE_DIR": here,
            "CMAKE_CURRENT_LIST_DIR": here,
        }
        self.functions: dict[str, tuple[list[str], list[_Command]]] = {}
        self.targets: dict[str, _Target] = {}
        self.directory_includes: list[str] = []
        self.cuda_language: set[str] = set()  # sources whose LANGUAGE property is CUDA

    def expand(self, arg: str, scope: dict[str, str]) -> list[str]:
        previous = None
        while previous != arg:
            previous = arg
            arg = _CMAKE_REF.sub(lambda m: scope.get(m.group(1), self.variables.get(m.group(1), "")), arg)
        return [a for a in arg.split(";") if a.strip()]

    def run(self, commands: list[_Command], scope: dict[str, str] | None = None) -> None:
        scope = scope if scope is not None else {}
        i = 0
        while i < len(commands):
            cmd = commands[i]
            if cmd.name == "function" and cmd.args:
                depth, j = 1, i + 1
                while j < len(commands) and depth:
                    depth += {"function": 1, "endfunction": -1}.get(commands[j].name, 0)
                    j += 1
                self.functions[cmd.args[0].lower()] = (list(cmd.args[1:]), commands[i + 1 : j - 1])
                i = j
                continue
            args = [x for a in cmd.args for x in self.expand(a, scope)]
            self.one(cmd.name, args, scope)
            i += 1

    def one(self, name: str, args: list[str], scope: dict[str, str]) -> None:
        if name in self.functions:
            params, body = self.functions[name]
            inner = dict(scope)
            inner.update(zip(params, args, strict=False))  # missing arguments stay unset
            inner["ARGV"] = ";".join(args)
            inner["ARGN"] = ";".join(args[len(params) :])
            self.run(body, inner)
        elif name == "set" and args:
            values = [a for a in args[1:] if a not in ("CACHE", "PARENT_SCOPE", "FORCE")]
            target = scope if args[0] in scope else self.variables
            target.setdefault(args[0], ";".join(values[:1] if "CACHE" in args else values))
        elif name == "project" and args:
            self.variables.setdefault("PROJECT_NAME", args[0])
        elif name == "include" and args:
            self.include(args[0], scope)
        elif name == "add_executable" and args and not {"IMPORTED", "ALIAS"} & set(args):
            if args[0] not in self.targets:
                self.targets[args[0]] = _Target([a for a in args[1:] if a not in _EXECUTABLE_FLAGS], [])
        elif name == "target_sources" and args and args[0] in self.targets:
            self.targets[args[0]].sources += [a for a in args[1:] if a not in _SCOPE_WORDS]
        elif name == "include_directories":
            self.directory_includes += [a for a in args if a not in _SCOPE_WORDS]
        elif name == "target_include_directories" and args and args[0] in self.targets:
            self.targets[args[0]].include_dirs += [a for a in args[1:] if a not in _SCOPE_WORDS]
        elif name == "list" and len(args) >= 4 and args[0] == "GET":
            items = scope.get(args[1], self.variables.get(args[1], "")).split(";")
            index = int(args[2]) if args[2].lstrip("-").isdigit() else 0
            scope[args[-1]] = items[index] if -len(items) <= index < len(items) else ""
        elif name == "get_filename_component" and len(args) >= 3 and args[2] == "NAME_WE":
            scope[args[0]] = Path(args[1]).name.split(".")[0]
        elif name == "set_source_files_properties" and "LANGUAGE" in args:
            files = args[: args.index("PROPERTIES")] if "PROPERTIES" in args else []
            if args[args.index("LANGUAGE") + 1 : args.index("LANGUAGE") + 2] == ["CUDA"]:
                self.cuda_language.update(files)

    def include(self, path: str, scope: dict[str, str]) -> None:
        file = Path(path) if os.path.isabs(path) else self.folder / path
        if file.is_file():
            self.run(parse_cmake(file.read_text(errors="replace")), scope)


def _tree_rel(root: Path, folder: Path, path: str) -> str:
    full = Path(path) if os.path.isabs(path) else folder / path
    return os.path.relpath(os.path.normpath(full), root).replace(os.sep, "/")


def sample_programs(root: Path, cmakelists: Path, shared_includes: tuple[str, ...]) -> list[Program]:
    """The programs (executable targets) of one sample's CMakeLists.txt; targets with the same sources
    count once."""
    folder = cmakelists.parent
    reader = CMakeReader(folder)
    reader.run(parse_cmake(cmakelists.read_text(errors="replace")))
    folder_rel = folder.relative_to(root).as_posix()
    programs: list[Program] = []
    seen: set[tuple[str, ...]] = set()
    distinct = {
        tuple(t.sources) for t in reader.targets.values() if any(s.endswith(SOURCE_SUFFIXES) for s in t.sources)
    }
    for target_name, target in reader.targets.items():
        sources = tuple(_tree_rel(root, folder, s) for s in target.sources if s.endswith(SOURCE_SUFFIXES))
        if not sources or sources in seen:
            continue
        seen.add(sources)
        includes = [_tree_rel(root, folder, d) for d in reader.directory_includes + target.include_dirs if "$" not in d]
        includes = [d for d in includes if not d.startswith("..")]  # outside the tree: the author's machine
        cuda = {_tree_rel(root, folder, s) for s in reader.cuda_language}
        programs.append(
            Program(
                corpus="samples",
                name=folder_rel if len(distinct) == 1 else f"{folder_rel}:{target_name}",
                folder=folder_rel,
                sources=sources,
                include_dirs=tuple(dict.fromkeys([*includes, *shared_includes])),
                c_sources=tuple(s for s in sources if s.endswith(".c") and s not in cuda),
            )
        )
    return programs


def library_shared_includes(root: Path, library: Path) -> tuple[str, ...]:
    """Folders of a library holding its samples' shared helper headers (``*_utils.h``, ``utils.cuh``)."""
    found = {p.parent for p in library.rglob("*utils.h")} | {p.parent for p in library.rglob("*utils.cuh")}
    return tuple(sorted(p.relative_to(root).as_posix() for p in found))


def samples_programs(root: Path) -> list[Program]:
    """Every executable target of every library's samples, in path order."""
    root = root.resolve()  # CMake's source-dir variables are absolute; relative ones would join twice
    programs: list[Program] = []
    for library in sorted(p for p in root.iterdir() if p.is_dir()):
        shared = library_shared_includes(root, library)
        for cmakelists in sorted(library.rglob("CMakeLists.txt")):
            programs += sample_programs(root, cmakelists, shared)
    return programs


# --- bitsandbytes: one ML library's native sources, per source file ------------------------------------------------

_CMAKE_FILES = re.compile(r"(?:set|list)\s*\(\s*(?:APPEND\s+)?([A-Z_]+FILES)\s+([^)]*)\)")
_CMAKE_DEFINE = re.compile(r"add_compile_definitions\s*\(\s*(\w+)\s*\)")
# The project's own HIP build (its CMakeLists.txt with COMPUTE_BACKEND=hip; the archive's README).
BNB_HIP_DEFINES = ("__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "BUILD_HIP", "BNB_USE_HIP")


def bitsandbytes_programs(root: Path, tree: str) -> tuple[list[Program], list[Program]]:
    """(the CUDA build's sources, the project's own HIP build's sources) of one bitsandbytes tree, one program per
    source, named ``tree/stem``: a translated source counts where the HIP build compiles a source of that stem.
    The sources come from the tree's CMakeLists.txt: the C++ files, the GPU files of each backend (``GPU_FILES``
    compiled as CUDA or HIP; or ``CUDA_FILES`` beside a hand port's ``HIP_FILES``) and the sources the CUDA backend
    appends (the architecture-tiered 4-bit GEMM), with the definitions it adds."""
    text = _strip_cmake_comments((root / tree / "CMakeLists.txt").read_text(errors="replace"))
    lists: dict[str, list[str]] = {}
    appended: list[str] = []
    for m in _CMAKE_FILES.finditer(text):
        words = [w for w in m.group(2).split() if w.startswith("csrc/")]
        if m.group(1) == "SRC_FILES":
            appended += [w for w in words if w.endswith(".cu")]
        else:
            lists.setdefault(m.group(1), words)
    cpp = lists.get("CPP_FILES", [])
    cuda = lists.get("CUDA_FILES") or lists.get("GPU_FILES", [])
    hip = lists.get("HIP_FILES") or [*lists.get("GPU_FILES", []), *(s for s in appended if "_sm" not in s)]
    # The project's own feature definitions (the CUDA backend's GEMM tiers), not the other backends' selectors.
    cuda_defines = ("BUILD_CUDA", *dict.fromkeys(d for d in _CMAKE_DEFINE.findall(text) if d.startswith("BNB_")))
    include = (f"{tree}/csrc",)

    def program(source: str, defines: tuple[str, ...]) -> Program:
        return Program(
            corpus=tree, name=f"{tree}/{Path(source).stem}", folder=tree, sources=(f"{tree}/{source}",),
            include_dirs=include, defines=defines,
        )  # fmt: skip

    translated = [program(s, cuda_defines) for s in dict.fromkeys([*cuda, *appended, *cpp])]
    ported = [program(s, BNB_HIP_DEFINES) for s in dict.fromkeys([*hip, *cpp])]
    return translated, ported


GGML_HIP_DEFINES = ("GGML_USE_HIP",)  # ggml's own HIP build: the same sources through vendors/hip.h
GGML_BACKEND = "ggml/src/ggml-cuda"


def ggml_programs(root: Path) -> tuple[list[Program], list[Program]]:
    """(the CUDA backend's top-level sources, the same sources as ggml's own HIP build compiles them) of ggml, one
    program per source, named ``ggml/<stem>``, compiled as ggml's build does (``-I. -I.. -I../../include`` from the
    backend's folder)."""
    include = (GGML_BACKEND, "ggml/src", "ggml/include")
    sources = sorted(p.name for p in (root / GGML_BACKEND).glob("*.cu"))

    def program(source: str, defines: tuple[str, ...]) -> Program:
        return Program(
            corpus="ggml", name=f"ggml/{Path(source).stem}", folder="ggml", sources=(f"{GGML_BACKEND}/{source}",),
            include_dirs=include, defines=defines,
        )  # fmt: skip

    return [program(s, ()) for s in sources], [program(s, GGML_HIP_DEFINES) for s in sources]
