"""CMake listfiles (CMakeLists.txt, *.cmake): the CUDA language, its variables, properties, packages and
libraries -> CMake's HIP language and ROCm's packages.

Read with :mod:`.cmake_reader` (every command and argument with its span); each argument that changes is
replaced whole, once, by the value the rules below compose, so no two edits overlap and comments, bracket
arguments and arguments without CUDA in them are never touched. What a rule translates:

- the CUDA language (``project(... CUDA)``, ``enable_language``, ``check_language``, source and linker
  ``LANGUAGE`` properties, ``$<COMPILE_LANGUAGE:CUDA>`` and the other language generator expressions,
  ``cuda_std_17`` compile features) -> HIP;
- ``CMAKE_CUDA_*`` variables -> ``CMAKE_HIP_*`` (the architectures -> the AMD targets; flags through the nvcc
  option mapping); ``CUDA_ARCHITECTURES``/``CUDA_STANDARD``/... target properties -> ``HIP_*``; separable
  compilation -> ``-fgpu-rdc`` at compile and link;
- ``find_package(CUDAToolkit|CUDA)`` -> ``find_package(hip)`` and the ROCm packages the file links;
  ``CUDA::cublas``, a plain ``cublas``, ``${CUDA_CUBLAS_LIBRARIES}`` -> ``roc::hipblas`` (the library mapping
  shared with make), with the ``find_package`` each needs where the file has none to replace;
- ``.cu`` sources are marked ``LANGUAGE HIP`` (CMake compiles only ``.hip`` files as HIP by extension), or
  renamed where the run renamed them;
- FindCUDA's ``cuda_add_executable``/``cuda_add_library`` -> plain targets.

What has no translation (custom commands running ptxas, cuobjdump, nvcc --ptx, nvidia-smi; PTX/cubin
properties; NVIDIA-only libraries) is left as written and reported (HPY119).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from ..knowledge.cuda_build import CUDA_VERSION
from ..knowledge.table import load_table
from ..model import Diagnostic, Edit, LineIndex, Severity
from . import BuildContext, BuildResult
from .cmake_reader import BRACKET, QUOTED, UNQUOTED, Argument, Command, read, split_list
from .libraries import cmake_target, find_module, library_change
from .nvcc_options import (
    KIND_ARCH,
    KIND_DEVICE,
    KIND_DROPPED,
    KIND_HAND,
    KIND_HOST,
    KIND_RDC,
    RDC_FLAG,
    is_library_option,
    is_nvcc,
    nvcc_default_output,
    translate_words,
)

EDIT = "HPY016"
REVIEW = "HPY118"
HAND = "HPY119"
INTERNAL = "HPY204"

# A file none of whose text says CUDA, nvcc, a .cu file or a word like a CUDA library (cublas, -lnvrtc) gets
# no edit: the quick way out.
_ANY_CUDA = re.compile(
    r"cuda|nvcc|ptxas|fatbinary|bin2c|nccl|\.cu\b|(?<![A-Za-z0-9_])(?:-l)?(?:cu|nv)[a-z]", re.IGNORECASE
)

# CMAKE_CUDA_<X> variables with no CMAKE_HIP_<X>: CMake's HIP language has no host compiler, separable
# compilation or runtime choice (cmake-variables(7)); they are handled where set, or left.
_CUDA_ONLY_SUFFIXES = (
    "HOST_COMPILER",
    "HOST_LINK_LAUNCHER",
    "SEPARABLE_COMPILATION",
    "RESOLVE_DEVICE_SYMBOLS",
    "RUNTIME_LIBRARY",
    "COMPILER_TOOLKIT_ROOT",
    "COMPILER_TOOLKIT_VERSION",
    "COMPILER_TOOLKIT_LIBRARY_ROOT",
    "COMPILER_LIBRARY_ROOT",
    "TOOLKIT_INCLUDE_DIRECTORIES",
    "ARCHITECTURES_ALL",
    "ARCHITECTURES_ALL_MAJOR",
)
# CMake's lists of every NVIDIA architecture nvcc knows: nothing under HIP (code choosing NVIDIA architectures
# from them takes none; the HIP targets come from --offload-arch).
_ALL_ARCHITECTURES = frozenset(("CMAKE_CUDA_ARCHITECTURES_ALL", "CMAKE_CUDA_ARCHITECTURES_ALL_MAJOR"))
# Variables holding the CUDA version (CMake's CUDA language, FindCUDAToolkit, FindCUDA): under HIP they would be
# the HIP compiler's (clang 21) or nothing, and the project's version checks would pick CUDA 1 or CUDA 21. They are
# the CUDA version the translation takes the original for (knowledge/cuda_build), as #if CUDART_VERSION is.
_VERSION_VARIABLES = {
    "CMAKE_CUDA_COMPILER_VERSION": f"{CUDA_VERSION[0]}.{CUDA_VERSION[1]}.0",
    "CMAKE_CUDA_COMPILER_TOOLKIT_VERSION": f"{CUDA_VERSION[0]}.{CUDA_VERSION[1]}.0",
    "CUDAToolkit_VERSION": f"{CUDA_VERSION[0]}.{CUDA_VERSION[1]}.0",
    "CUDAToolkit_VERSION_MAJOR": str(CUDA_VERSION[0]),
    "CUDAToolkit_VERSION_MINOR": str(CUDA_VERSION[1]),
    "CUDAToolkit_VERSION_PATCH": "0",
    "CUDA_VERSION_STRING": f"{CUDA_VERSION[0]}.{CUDA_VERSION[1]}",
    "CUDA_VERSION_MAJOR": str(CUDA_VERSION[0]),
    "CUDA_VERSION_MINOR": str(CUDA_VERSION[1]),
}
# Variables of FindCUDA / FindCUDAToolkit / the CUDA language that name the toolkit's headers: HIP's
# headers are hip_INCLUDE_DIRS of find_package(hip).
_INCLUDE_VARIABLES = frozenset(
    (
        "CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES",
        "CUDA_INCLUDE_DIRS",
        "CUDA_INCLUDE_DIR",
        "CUDAToolkit_INCLUDE_DIRS",
        "CUDA_TOOLKIT_INCLUDE",
    )
)
_FOUND_VARIABLES = frozenset(("CUDAToolkit_FOUND", "CUDA_FOUND"))
# FindCUDAToolkit's folders of the installation -> find_package(hip)'s.
_FOLDER_VARIABLES = {"CUDAToolkit_LIBRARY_DIR": "hip_LIB_INSTALL_DIR", "CUDAToolkit_BIN_DIR": "hip_BIN_INSTALL_DIR"}
# A file below the toolkit's headers: ${CUDA_INCLUDE_DIRS}/cooperative_groups.h
_INCLUDE_PATH = re.compile(r"\$\{(" + "|".join(sorted(_INCLUDE_VARIABLES)) + r")\}/([^;\s\"$]+)")
# FindCUDA's library variables: CUDA_LIBRARIES, CUDA_CUBLAS_LIBRARIES, CUDA_cublas_LIBRARY, ...
_LIBRARY_VARIABLE = re.compile(r"^CUDA_(?:(?P<lib>[A-Za-z0-9_]+?)_)?LIBRAR(?:Y|IES)$")
# A find module's variables (FindNCCL.cmake: NCCL_LIBRARIES, NCCL_INCLUDE_DIRS), for a CUDA library's name.
_FIND_MODULE_VARIABLE = re.compile(
    r"^(?P<lib>(?!CUDA_)[A-Za-z][A-Za-z0-9]*)_(?P<what>LIBRARIES|LIBRARY|INCLUDE_DIRS|INCLUDE_DIR)$"
)
_CUDA_TARGET = re.compile(r"^CUDA::[A-Za-z0-9_]+$")
# What else a CUDA library's find module gives (FindNCCL.cmake: NCCL_FOUND, the imported target NCCL::NCCL).
_FIND_MODULE_FOUND = re.compile(r"^(?P<lib>(?!CUDA_)[A-Za-z][A-Za-z0-9]*)_FOUND$")
_FIND_MODULE_TARGET = re.compile(r"^(?P<lib>[A-Za-z][A-Za-z0-9]*)::(?P=lib)$")
_REFERENCE = re.compile(r"\$\{([A-Za-z0-9_]+)\}")
# a whole argument that is one variable reference: ${NAME}
_WHOLE_REFERENCE = re.compile(r"\$\{([A-Za-z0-9_./+-]+)\}")
_LANGUAGE_GENEX = re.compile(r"\$<(COMPILE_LANGUAGE|LINK_LANGUAGE|COMPILE_LANG_AND_ID|LINK_LANG_AND_ID):([A-Za-z_,]*)")
_COMPILER_GENEX = re.compile(r"\$<CUDA_COMPILER_(ID|VERSION)\b")
_CUDA_STD = re.compile(r"^cuda_std_([0-9]+)$")
_ARCH_WORD = re.compile(r"^(?:sm_|compute_|lto_)?[0-9]+[a-z]?(?:-real|-virtual)?$|^(?:native|all|all-major|OFF)$")

# Commands whose arguments are source files of a target (.cu among them must be compiled as HIP).
_TARGET_SOURCES = frozenset(
    ("add_executable", "add_library", "target_sources", "cuda_add_executable", "cuda_add_library")
)
# Commands in which a .cu argument is not a source compiled here (a condition, a message, a file to copy).
_NOT_SOURCES = frozenset(
    (
        "if",
        "elseif",
        "else",
        "endif",
        "while",
        "endwhile",
        "message",
        "install",
        "file",
        "configure_file",
        "add_custom_command",
        "add_custom_target",
        "execute_process",
        "string",
        "source_group",
        "set_source_files_properties",
        "set_property",
        "get_property",
        "get_source_file_property",
        "get_filename_component",
        "cmake_path",
        "add_test",
        "set_tests_properties",
        "find_file",
        "find_path",
        "return",
        "include",
        "option",
        "math",
        "function",
        "macro",
        "endfunction",
        "endmacro",
        "foreach",
        "endforeach",
    )
)
# Commands whose arguments are compile/link options (an nvcc option there is mapped to clang's).
_OPTION_COMMANDS = frozenset(
    ("target_compile_options", "add_compile_options", "target_link_options", "add_link_options")
)
# Variables whose value is nvcc options.
# A CUDA-only part of a compile-options command: the variables it expands hold nvcc's options.
_CUDA_OPTIONS_GENEX = re.compile(r"\$<\$<COMPILE_LANGUAGE:CUDA>:((?:[^<>]|\$<[^<>]*>)*)>")
_OPTION_COMMANDS = frozenset(("target_compile_options", "add_compile_options"))
_FLAG_VARIABLE = re.compile(r"^(?:CMAKE_CUDA_FLAGS(?:_[A-Z]+)?|CUDA_NVCC_FLAGS(?:_[A-Z]+)?)$")
# Tools that make or read NVIDIA machine code, or query NVIDIA GPUs: a step calling one is hand work.
_NVIDIA_TOOLS = re.compile(
    r"(?:^|[/\s;\"'])(ptxas|cuobjdump|nvdisasm|fatbinary|nvlink|bin2c|nvidia-smi|nvprune|cu\+\+filt)(?:$|[\s;\"'])"
)
_NVCC_REFERENCE = re.compile(r"\$\{(CMAKE_CUDA_COMPILER|CUDA_NVCC_EXECUTABLE)\}|(?:^|/)nvcc$")
# The keywords of add_custom_command / add_custom_target / execute_process that end a COMMAND's arguments.
_CUSTOM_KEYWORDS = frozenset(
    (
        "COMMAND", "OUTPUT", "DEPENDS", "BYPRODUCTS", "WORKING_DIRECTORY", "COMMENT", "VERBATIM", "USES_TERMINAL",
        "MAIN_DEPENDENCY", "IMPLICIT_DEPENDS", "DEPFILE", "JOB_POOL", "JOB_SERVER_AWARE", "APPEND",
        "COMMAND_EXPAND_LISTS", "SOURCES", "ALL", "PRE_BUILD", "PRE_LINK", "POST_BUILD", "TARGET", "CODEGEN",
        "TIMEOUT", "RESULT_VARIABLE", "RESULTS_VARIABLE", "OUTPUT_VARIABLE", "ERROR_VARIABLE", "INPUT_FILE",
        "OUTPUT_FILE", "ERROR_FILE", "OUTPUT_QUIET", "ERROR_QUIET", "COMMAND_ECHO", "OUTPUT_STRIP_TRAILING_WHITESPACE",
        "ERROR_STRIP_TRAILING_WHITESPACE", "ENCODING", "ECHO_OUTPUT_VARIABLE", "ECHO_ERROR_VARIABLE",
        "COMMAND_ERROR_IS_FATAL",
    )
)  # fmt: skip
# Commands whose ${VAR} uses say nothing about what VAR holds (a message prints it, a condition tests it).
_NEUTRAL_USES = frozenset(("message", "if", "elseif", "else", "endif", "while", "endwhile", "foreach"))
_LINK_COMMANDS = frozenset(("target_link_libraries", "link_libraries"))
# Link items that bring the CUDA runtime (hip::host after translation).
_RUNTIME_ITEM = re.compile(
    r"^(?:CUDA::(?:cudart|cudart_static|cuda_driver)|cudart|cudart_static|cuda|\$\{CUDA_LIBRARIES\}|hip::host|hip::device)$"
)
_TARGET_KEYWORDS = frozenset(
    ("STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE", "EXCLUDE_FROM_ALL", "WIN32", "MACOSX_BUNDLE", "IMPORTED")
)
# Header-only ROCm packages of families the library mapping does not link.
_HEADER_PACKAGES = {"cub": "hipcub", "thrust": "rocthrust"}
# Source-file and target properties: CUDA's -> HIP's (cmake-properties(7) lists the HIP ones).
_PROPERTY_RENAMES = {
    "CUDA_ARCHITECTURES": "HIP_ARCHITECTURES",
    "CUDA_STANDARD": "HIP_STANDARD",
    "CUDA_STANDARD_REQUIRED": "HIP_STANDARD_REQUIRED",
    "CUDA_EXTENSIONS": "HIP_EXTENSIONS",
}
_PROPERTY_DROPPED = {
    "CUDA_RESOLVE_DEVICE_SYMBOLS": "with -fgpu-rdc, HIP's device code is linked at the final link",
    "CUDA_RUNTIME_LIBRARY": "hipcc links the HIP runtime itself",
}
_PROPERTY_HAND = ("CUDA_PTX_COMPILATION", "CUDA_CUBIN_COMPILATION", "CUDA_FATBIN_COMPILATION", "CUDA_OPTIX_COMPILATION")
_BLOCK_OPEN = frozenset(("function", "macro", "if", "foreach", "while", "block"))
_BLOCK_CLOSE = frozenset(("endfunction", "endmacro", "endif", "endforeach", "endwhile", "endblock"))


@dataclass
class _State:
    text: str
    context: BuildContext
    edits: list[Edit] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Packages the file's links need: package -> the commands (offsets) needing it, with their block.
    needed: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    block: int = -1  # start offset of the innermost open block command (-1: the file)
    current: int = 0  # start offset of the command being translated
    find_cuda: list[Command] = field(default_factory=list)
    # source arguments marked LANGUAGE HIP -> the block paths of the commands marking them: a marking counts where
    # its block encloses the command (one in another branch of an if() is not taken with it)
    marked_hip: dict[str, list[tuple[int, ...]]] = field(default_factory=dict)
    # variable -> (offset, block path) of each set_source_files_properties(${VAR} ... LANGUAGE HIP) of the file, and
    # the offsets where file(GLOB VAR) or set(VAR) gives it a new value: a mark covers the value before it only
    variable_marks: dict[str, list[tuple[int, tuple[int, ...]]]] = field(default_factory=dict)
    assigned: dict[str, list[int]] = field(default_factory=dict)
    own_module: str = ""  # NCCL in the project's FindNCCL.cmake
    path: tuple[int, ...] = ()  # the open blocks around the command being translated (their start offsets)
    uses_nvcc_flags: bool = False
    enables_cuda: bool = False  # project(... CUDA) or enable_language(CUDA) in this file
    keyword_links: dict[str, bool] = field(default_factory=dict)  # target -> linked with PRIVATE/PUBLIC/...
    # project() names its languages and none of them is C or CXX: find_package(hip) needs one (Threads does)
    needs_host_language: bool = False
    # variable -> how this file uses ${VAR}: "link" (in a link list), "other" (anywhere else but messages, tests)
    variable_uses: dict[str, set[str]] = field(default_factory=dict)
    # variables a translated CUDA compiler command (a custom step) reads: their values are nvcc options
    option_variables: set[str] = field(default_factory=set)
    values: dict[str, list[str]] = field(default_factory=dict)  # what set()/list(APPEND) put in each variable
    runtime_linked: set[str] = field(default_factory=set)  # targets a link list here gives the CUDA runtime
    noted: set[str] = field(default_factory=set)  # notes given once per file
    targets: set[str] = field(default_factory=set)  # the targets this file makes (never a library to map)

    def need(self, package: str, at: int) -> None:
        self.needed.setdefault(package, []).append((self.block, self.current))

    def report(self, code: str, message: str, at: int, subject: str = "") -> None:
        severity = Severity.WARNING if code == HAND else Severity.INFO
        self.diagnostics.append(Diagnostic(code, message, offset=at, severity=severity, subject=subject))

    def replace(self, start: int, end: int, new: str, subject: str = "") -> None:
        if self.text[start:end] != new:
            self.edits.append(Edit(start, end, new, EDIT, subject=subject))


def translate(text: str, path: str, context: BuildContext) -> BuildResult:
    """Translate a CMake listfile (see the module doc); pure, idempotent, never raises."""
    if not _ANY_CUDA.search(text) and not _renames_apply(text, context):
        return BuildResult()
    try:
        state = _State(text, context)
        # FindNCCL.cmake defines NCCL_FOUND and NCCL::NCCL: in the module itself they are its own
        module = re.fullmatch(r"Find([A-Za-z][A-Za-z0-9]*)\.cmake", path.replace("\\", "/").rsplit("/", 1)[-1])
        state.own_module = module.group(1) if module is not None else ""
        _translate(state)
    except Exception as error:  # the contract: a failure becomes a diagnostic
        return BuildResult((), (Diagnostic(INTERNAL, f"CMake translation failed: {error!r}", severity=Severity.ERROR),))
    index = LineIndex.of(text)
    located = []
    for diag in state.diagnostics:
        line, col = index.line_col(diag.offset)
        located.append(Diagnostic(diag.code, diag.message, diag.offset, line, col, diag.severity, diag.subject, path))
    return BuildResult(tuple(state.edits), tuple(located))


def _renames_apply(text: str, context: BuildContext) -> bool:
    return any(old in text for old, _ in context.renamed)


def _translate(state: _State) -> None:
    listfile = read(state.text)
    for problem in listfile.problems:
        state.report(REVIEW, f"CMake text not understood, left as written: {problem.message}", problem.offset)
    commands = listfile.commands
    for command, path in _with_blocks(commands):
        if command.key == "set_source_files_properties":
            for source in _marked_hip(command):
                state.marked_hip.setdefault(source, []).append(path)
                if whole := _WHOLE_REFERENCE.fullmatch(source):
                    state.variable_marks.setdefault(whole.group(1), []).append((command.start, path))
        if assigned := _assigned_variable(command):
            state.assigned.setdefault(assigned, []).append(command.start)
        if any("CUDA_NVCC_FLAGS" in a.value for a in command.args):
            state.uses_nvcc_flags = True
        if command.key in ("project", "enable_language") and any(a.value == "CUDA" for a in command.args):
            state.enables_cuda = True
        if command.key == "target_link_libraries" and len(command.args) > 1:
            keyword = command.args[1].value in ("PRIVATE", "PUBLIC", "INTERFACE", "LINK_PRIVATE", "LINK_PUBLIC")
            state.keyword_links[command.args[0].value] = keyword
            if any(_RUNTIME_ITEM.match(a.value) for a in command.args[1:]):
                state.runtime_linked.add(command.args[0].value)
        if command.key == "project" and not {"C", "CXX"} & set(_project_languages(command)):
            state.needs_host_language = True  # until the file is found to enable CUDA (below)
        if command.key in ("set", "list") and command.args:
            _remember_values(state, command)
        if command.key in ("add_executable", "add_library", "cuda_add_executable", "cuda_add_library") and command.args:
            state.targets.add(command.args[0].value)
        _remember_uses(state, command)
        if command.key in _OPTION_COMMANDS:  # $<$<COMPILE_LANGUAGE:CUDA>:${CUDA_FLAGS}>: nvcc's options
            for arg in command.args:
                for m in _CUDA_OPTIONS_GENEX.finditer(arg.value):
                    state.option_variables.update(_REFERENCE.findall(m.group(1)))
        if command.key in _CUSTOM_STEPS:
            for segment in _segments(command):
                if segment and _is_cuda_compiler(segment[0].value):
                    state.option_variables.update(n for a in segment[1:] for n in _REFERENCE.findall(a.value))
    state.needs_host_language = state.needs_host_language and state.enables_cuda
    for command, path in _with_blocks(commands):
        state.path = path
        state.block = path[-1] if path else -1
        state.current = command.start
        _command(state, command)
    _find_packages(state)


def _with_blocks(commands: Sequence[Command]) -> Iterator[tuple[Command, tuple[int, ...]]]:
    """Each command with the blocks open around it (the start offsets of their opening commands). Each branch of an
    if() is a block of its own: a package found in one is not found in the other."""
    blocks: list[int] = []
    for command in commands:
        key = command.key
        if key in _BLOCK_CLOSE and blocks:
            blocks.pop()
        elif key in ("else", "elseif") and blocks:
            blocks[-1] = command.start
        yield command, tuple(blocks)
        if key in _BLOCK_OPEN:
            blocks.append(command.start)


def _assigned_variable(command: Command) -> str:
    """The variable ``set(VAR ...)`` or ``file(GLOB VAR ...)`` gives a new value ("" for another command)."""
    values = [a.value for a in command.args]
    if command.key == "set" and values:
        return values[0]
    if command.key == "file" and len(values) > 1 and values[0] in ("GLOB", "GLOB_RECURSE"):
        return values[1]
    return ""


def _value_is_marked(state: _State, command: Command, name: str) -> bool:
    """Is the value ``command`` gives ``name`` marked LANGUAGE HIP: by a ``${name}`` mark after it, before the
    variable's next new value, in a block enclosing the command? ggml globs four sets of sources into one variable
    in turn: a mark of the first value says nothing of the others."""
    until = min((at for at in state.assigned.get(name, ()) if at > command.start), default=len(state.text))
    return any(command.start < at < until and state.path[: len(p)] == p for at, p in state.variable_marks.get(name, ()))


def _is_marked(state: _State, source: str) -> bool:
    """Is ``source`` marked LANGUAGE HIP by a command whose block encloses the current one?"""
    return any(state.path[: len(p)] == p for p in state.marked_hip.get(source, ()))


def _project_languages(command: Command) -> list[str]:
    """The languages a project() enables (C and CXX when it names none)."""
    values = [a.value for a in command.args[1:]]
    keywords = ("VERSION", "DESCRIPTION", "HOMEPAGE_URL", "LANGUAGES")
    if "LANGUAGES" in values:
        after = values[values.index("LANGUAGES") + 1 :]
        return [v for v in after[: next((i for i, v in enumerate(after) if v in keywords), len(after))]]
    if any(v in keywords for v in values):
        return ["C", "CXX"]
    return values or ["C", "CXX"]


def _remember_values(state: _State, command: Command) -> None:
    """What set(VAR ...) and list(APPEND VAR ...) put in a variable (the sources of a target named by it)."""
    args = [a.value for a in command.args]
    if command.key == "set":
        name, values = args[0], args[1:]
    elif len(args) >= 2 and args[0] in ("APPEND", "PREPEND", "INSERT"):
        name, values = args[1], args[2:]
    else:
        return
    words = [w for v in values if v not in ("CACHE", "PARENT_SCOPE") for s, e in split_list(v) for w in [v[s:e]]]
    state.values.setdefault(name, []).extend(words)


def _remember_uses(state: _State, command: Command) -> None:
    """How the file uses each ${VAR}: in a link list, or elsewhere (messages and conditions say nothing)."""
    if command.key in _NEUTRAL_USES:
        return
    link_from = 1 if command.key == "target_link_libraries" else 0
    for i, arg in enumerate(command.args):
        kind = "link" if command.key in _LINK_COMMANDS and i >= link_from else "other"
        if command.key in ("set", "list") and i <= 1:
            continue  # set(A ${B}): B is used as A is (decided by A's uses), not here
        for name in _REFERENCE.findall(arg.value):
            state.variable_uses.setdefault(name, set()).add(kind)


def _expanded(state: _State, words: list[str], seen: frozenset[str] = frozenset()) -> list[str]:
    """Words with the ``${VAR}`` that stand alone replaced by what the file put in VAR."""
    out: list[str] = []
    for word in words:
        m = re.fullmatch(r"\$\{([A-Za-z0-9_]+)\}", word)
        if m is None:
            out.append(word)
        elif m.group(1) not in seen:
            out += _expanded(state, state.values.get(m.group(1), []), seen | {m.group(1)})
    return out


# --- values ---------------------------------------------------------------------------------------------


def _target_for(state: _State, cuda_target: str, at: int, link: bool = False) -> str | None:
    """``CUDA::x`` -> ROCm's imported target (recording its package); None when there is none (reported).
    ``link``: the name is in a link list, where a library ROCm lacks is removed ("" returned), reported: left
    there it fails every program's link, even those whose sources never call it (a helper that links
    cusolverMg into every example); the sources that do call it report their calls themselves."""
    change = cmake_target(cuda_target, state.context)
    if change is None:
        return None
    if change.hand_work or not change.target:
        if link:
            state.report(HAND, f"{cuda_target} removed from the link: {change.reason}", at, cuda_target)
            return ""
        state.report(HAND, f"{cuda_target} left as written: {change.reason}", at, cuda_target)
        return None
    if change.package:
        state.need(change.package, at)
    return change.target


def _variable(state: _State, name: str, at: int, whole: bool) -> str | None:
    """A variable's new name; ``whole``: the argument is the name itself (set(), if()), not a ${} reference."""
    if name in _ALL_ARCHITECTURES and name not in state.noted:
        state.noted.add(name)
        state.report(
            REVIEW,
            f"{name} left as written: CMake defines it for the CUDA language only, so under HIP it is empty and code "
            "that picks NVIDIA architectures from it picks none (the AMD targets come from --offload-arch)",
            at,
            name,
        )
    if name.startswith("CMAKE_CUDA_"):
        suffix = name[len("CMAKE_CUDA_") :]
        if name in _INCLUDE_VARIABLES:
            state.need("hip", at)
            return "hip_INCLUDE_DIRS"
        if suffix in _CUDA_ONLY_SUFFIXES:
            return None
        return "CMAKE_HIP_" + suffix
    if whole:
        return None
    if name in _INCLUDE_VARIABLES:
        state.need("hip", at)
        return "hip_INCLUDE_DIRS"
    if name in _FOUND_VARIABLES:
        return "hip_FOUND"
    if module_found := _module_found(state, name):
        return module_found
    if name in _FOLDER_VARIABLES:
        state.need("hip", at)
        return _FOLDER_VARIABLES[name]
    return None


def _module_found(state: _State, name: str) -> str:
    """``NCCL_FOUND`` -> ``rccl_FOUND``: find_package(NCCL) of the project's own module is find_package(rccl) now
    (``_find_package``), which sets the package's own variable; the old one would stay unset, and the library's code
    silently off ("" when ``name`` is no CUDA library's find-module variable)."""
    module = _FIND_MODULE_FOUND.match(name)
    if module is None or module.group("lib") == state.own_module:
        return ""
    found = find_module(module.group("lib"), state.context)
    return f"{found.package}_FOUND" if found is not None else ""


def _module_target(state: _State, name: str) -> str:
    """``NCCL::NCCL``, the imported target a project's FindNCCL.cmake makes -> RCCL's (``roc::rccl``)."""
    module = _FIND_MODULE_TARGET.match(name)
    if module is None or module.group("lib") == state.own_module:
        return ""
    found = find_module(module.group("lib"), state.context)
    return found.target if found is not None else ""


def _library_variable(state: _State, name: str, at: int) -> str | None:
    """``${CUDA_LIBRARIES}``, ``${CUDA_CUBLAS_LIBRARIES}``, ``${CUDA_cufft_LIBRARY}`` -> ROCm's target; a find
    module's ``${NCCL_LIBRARIES}`` -> RCCL's target, its ``${NCCL_INCLUDE_DIRS}`` -> RCCL's variable."""
    module = _FIND_MODULE_VARIABLE.match(name)
    found = find_module(module.group("lib"), state.context) if module is not None else None
    if module is not None and found is not None:
        if module.group("what").startswith("INCLUDE"):
            return "${" + found.include_variable + "}" if found.include_variable else None
        return found.target
    m = _LIBRARY_VARIABLE.match(name)
    if not m:
        return None
    library = (m.group("lib") or "cudart").lower()
    if library in ("cudart", "cuda"):
        state.need("hip", at)
        return "hip::host"
    return _target_for(state, f"CUDA::{library}", at)


def _rename_source(value: str, context: BuildContext) -> str:
    for old, new in context.renamed:
        if value == old or value.endswith("/" + old):
            return value[: len(value) - len(old)] + new
    return value


def _language_genex(match: re.Match[str]) -> str:
    kind, languages = match.group(1), match.group(2)
    parts = languages.split(",")
    if kind.endswith("AND_ID"):
        parts[0] = "HIP" if parts[0] == "CUDA" else parts[0]
    else:
        parts = ["HIP" if p == "CUDA" else p for p in parts]
    return f"$<{kind}:{','.join(parts)}"


def _value(state: _State, arg: Argument, link: bool = False) -> str:
    """An argument's value with every rule that applies to any argument: variables, imported targets,
    library variables, language generator expressions, compile features, renamed sources. ``link``: the
    argument is in a link list, where a plain CUDA library name is a library too."""
    if arg.kind == BRACKET:
        return arg.value
    at = arg.start
    value = arg.value

    def reference(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in _VERSION_VARIABLES:
            return _VERSION_VARIABLES[name]
        # A library variable is a library only in a link list: elsewhere it is a path (IMPORTED_LOCATION, a copy).
        # A find module's include folders (${NCCL_INCLUDE_DIRS}) are folders wherever they stand.
        module = _FIND_MODULE_VARIABLE.match(name)
        folders = module is not None and module.group("what").startswith("INCLUDE")
        library = _library_variable(state, name, at) if link or folders else None
        if library is not None:
            return library
        if name in _INCLUDE_VARIABLES and value.startswith("/", m.end()):
            return m.group(0)  # a file no HIP header stands for (_header_path reported it)
        new = _variable(state, name, at, whole=False)
        return "${" + new + "}" if new else m.group(0)

    value = _INCLUDE_PATH.sub(lambda m: _header_path(state, m, at), value)
    value = _REFERENCE.sub(reference, value)
    value = _LANGUAGE_GENEX.sub(_language_genex, value)
    value = _COMPILER_GENEX.sub(lambda m: f"$<HIP_COMPILER_{m.group(1)}", value)
    pieces = []
    last = 0
    for start, end in split_list(value):
        element = value[start:end]
        new = element
        if _CUDA_TARGET.match(element):
            found = _target_for(state, element, at, link)
            new = element if found is None else found
        elif element in _VERSION_VARIABLES:
            new = _VERSION_VARIABLES[element]  # if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 11.8)
        elif element.startswith("CMAKE_CUDA_") and re.fullmatch(r"[A-Za-z0-9_]+", element):
            new = _variable(state, element, at, whole=True) or element
        elif m := _CUDA_STD.match(element):
            new = f"hip_std_{m.group(1)}"
        elif element in _FOUND_VARIABLES:
            new = "hip_FOUND"
        elif module_found := _module_found(state, element):
            new = module_found  # if(NCCL_FOUND) after find_package(NCCL), which is now find_package(rccl)
        elif module_target := _module_target(state, element):
            new = module_target  # the module's imported target NCCL::NCCL -> roc::rccl
        elif link and re.fullmatch(r"[A-Za-z0-9_]+", element) and element not in state.targets:
            found = _plain_library(state, element, at)
            new = element if found is None else found
        else:
            new = _rename_source(element, state.context)
        gap = value[last:start]
        if not new:  # removed, with the ';' that separated it
            if end < len(value) and value[end] == ";":
                end += 1
            elif gap.endswith(";"):
                gap = gap[:-1]
        pieces.append(gap + new)
        last = end
    pieces.append(value[last:])
    return "".join(pieces)


def _header_path(state: _State, m: re.Match[str], at: int) -> str:
    """``${CUDA_INCLUDE_DIRS}/cooperative_groups.h`` (a file of the toolkit's headers, copied or read): the same file
    of HIP's headers where the table maps the header to one (``hip/hip_cooperative_groups.h``); else left as
    written and reported: no HIP file is behind it."""
    header = m.group(2)
    row = load_table().lookup(header)
    target = (row.hip_header or row.hip) if row is not None and row.kind == "header" else ""
    if target:
        state.need("hip", at)
        return "${hip_INCLUDE_DIRS}/" + target
    state.report(
        HAND,
        f"{m.group(0)}: a path into the CUDA toolkit's headers with no HIP file behind it, left as written: port it "
        "by hand",
        at,
        header,
    )
    return m.group(0)


def _plain_library(state: _State, name: str, at: int) -> str | None:
    """``cublas`` / ``cudart`` in a link list (found through the CUDA language's link directories)."""
    change = library_change(name, state.context)
    if change is None:
        return None
    if not change.name and not change.hand_work:  # the CUDA runtime or driver
        state.need("hip", at)
        return "hip::host"
    return _target_for(state, f"CUDA::{name}", at, link=True)


def _spelled(arg: Argument, value: str) -> str:
    """An argument's new text, with the delimiters it had."""
    if arg.kind == QUOTED:
        return f'"{value}"'
    # (an unquoted argument with a quoted part, a"b c"d, keeps its own quoting)
    if arg.kind == UNQUOTED and re.search(r"[\s()#\"]", value) and not value.startswith('"') and '"' not in arg.value:
        return f'"{value}"'
    return value


def _rewrite(state: _State, arg: Argument, value: str | None = None, link: bool = False) -> None:
    new = _value(state, arg, link) if value is None else value
    if new != arg.value:
        state.replace(arg.start, arg.end, _spelled(arg, new))


# --- nvcc options ---------------------------------------------------------------------------------------

# Words of an option value: runs without whitespace, ';' or quotes; a generator expression's condition
# ($<$<COMPILE_LANGUAGE:CUDA>:) and closing '>' are not part of the option.
_WORD = re.compile(r"[^\s;\"]+")


def _words(value: str) -> list[tuple[int, int]]:
    spans = []
    for m in _WORD.finditer(value):
        start, end = m.start(), m.end()
        word = value[start:end]
        if "$<" in word:
            colon = word.rfind(":")
            if colon < word.rfind("$<"):
                continue  # a generator expression without a value part here
            start += colon + 1
            word = value[start:end]
        extra = word.count(">") - word.count("<")
        while extra > 0 and word.endswith(">"):
            end -= 1
            word = word[:-1]
            extra -= 1
        if word:
            spans.append((start, end))
    return spans


def _options(
    state: _State, args: list[Argument], link: bool = False, device_only: str = "--cuda-device-only"
) -> tuple[list[str], bool]:
    """The arguments' values with their nvcc options mapped (an option's value may be the next argument:
    ``-Xcompiler -fPIC``), and whether relocatable device code was asked for. A value mapped to nothing is
    returned empty: the caller removes the argument. ``device_only``: what nvcc's -ptx/-cubin/-fatbin become (CMake's
    HIP compiler is clang++, whose spelling of hipcc's --genco this is)."""
    values = [_value(state, arg, link) for arg in args]
    located = [(i, s, e) for i, value in enumerate(values) for s, e in _words(value)]
    words = [values[i][s:e] for i, s, e in located]
    changes = translate_words(words, state.context, rocm_root="${ROCM_PATH}", rocm_var="${ROCM_PATH}")
    if not changes:
        return values, False
    # Per argument: (start, end, replacement) in its value.
    pieces: dict[int, list[tuple[int, int, str]]] = {}
    rdc = False
    for index, change in changes:
        rdc = rdc or change.kind == KIND_RDC
        if change.kind == KIND_DEVICE:
            change = replace(change, words=(device_only,))
        if change.kind == KIND_HOST and args[located[index + change.consumed - 1][0]].kind == UNQUOTED:
            change = replace(change, words=tuple(_shell_split(word) for word in change.words))
        words_text = " ".join(words[index : index + change.consumed])
        at = args[located[index][0]].start
        if change.hand_work or change.kind == KIND_HAND:
            if not (link and is_library_option(words[index])):
                state.report(HAND, f"{words_text}: {change.reason}", at, words_text)
                continue
            # A library ROCm lacks, in a link list: removed (see _target_for), reported.
            state.report(HAND, f"{words_text} removed from the link: {change.reason}", at, words_text)
            change = replace(change, words=())
        if not change.hand_work and (change.kind == KIND_DROPPED or not change.words):
            state.report(REVIEW, f"{words_text} dropped: {change.reason}", at, words_text)
        for n, (i, s, e) in enumerate(located[index : index + change.consumed]):
            arg, value = args[i], values[i]
            joiner = " " if arg.kind == QUOTED and "$<" not in value else ";"
            new = joiner.join(change.words) if n == 0 else ""
            if not new:
                # Take one separator with a dropped word, so no doubled space is left.
                if e < len(value) and value[e] in " ;":
                    e += 1
                elif s > 0 and value[s - 1] in " ;":
                    s -= 1
            pieces.setdefault(i, []).append((s, e, new))
    out = list(values)
    for i, edits in pieces.items():
        value, last, parts = values[i], 0, []
        for s, e, new in sorted(edits):
            s = max(s, last)
            parts.append(value[last:s] + new)
            last = max(e, s)
        parts.append(value[last:])
        out[i] = "".join(parts)
    return out, rdc


def _shell_split(word: str) -> str:
    """A host compiler option from ``-Xcompiler ${VAR}`` in a list: nvcc hands the value to the host compiler's
    command line, where a value holding several options (``list(JOIN ... " " VAR)``, "pass host compiler flags as a
    single argument") is split by the shell; in a CMake list it would reach clang as one word. CMake's ``SHELL:``
    prefix splits it the same way in compile options."""
    return f"SHELL:{word}" if _WHOLE_REFERENCE.fullmatch(word) else word


def _write_options(state: _State, args: list[Argument], values: list[str]) -> None:
    """Write mapped option values back; an argument whose options all went is removed with its leading space."""
    for arg, value in zip(args, values, strict=True):
        if value.strip() or not arg.value.strip():
            _rewrite(state, arg, value)
            continue
        start = arg.start
        start = _removal_start(state.text, start)
        state.replace(start, arg.end, "")


# --- commands -------------------------------------------------------------------------------------------


def _command(state: _State, command: Command) -> None:
    key = command.key
    handler = _HANDLERS.get(key)
    if handler is not None:
        handler(state, command)
    else:
        for arg in command.args:
            _rewrite(state, arg)
    if key in _TARGET_SOURCES or key not in _NOT_SOURCES or key == "file":
        _mark_sources(state, command)
    if key in ("add_executable", "add_library", "target_sources") and state.context.hip_sources:
        _link_hip_host(state, command)
    if key in ("add_executable", "add_library", "target_sources") and state.context.hip_compiled_sources:
        _compile_as_hip(state, command)


def _compile_as_hip(state: _State, command: Command) -> None:
    """A target's C++ source whose translation unit uses a type only the HIP compiler compiles (hip_bf16.h's
    ``__hip_bfloat16``; CUDA's ``__nv_bfloat16`` is plain C++ too) -> ``LANGUAGE HIP`` after the command, which
    overrides an earlier ``LANGUAGE CXX`` of the project's own."""
    if not state.enables_cuda:
        return  # the file enables no GPU language: HIP is not there to compile with
    values = [a.value for a in command.args]
    wanted = {s.rsplit("/", 1)[-1] for s in state.context.hip_compiled_sources}
    words = [v[s:e] for v in values[1:] if v not in _TARGET_KEYWORDS for s, e in split_list(v)]
    sources = [w for w in dict.fromkeys(_expanded(state, words)) if w.rsplit("/", 1)[-1] in wanted]
    if not sources:
        return
    listed = " ".join(sources)
    # only where the file enabled HIP when the target is made (a project's CPU-only build enables none)
    _append_after(
        state,
        command,
        f"if(CMAKE_HIP_COMPILER_LOADED)\n  set_source_files_properties({listed} PROPERTIES LANGUAGE HIP)\nendif()",
    )
    state.report(
        REVIEW,
        f"{listed} compiled as HIP: its translation uses bfloat16 types, whose HIP header only the HIP compiler "
        "compiles",
        command.start,
    )


def _link_hip_host(state: _State, command: Command) -> None:
    """A target compiling a C/C++ source that includes the HIP runtime, with no link that gives it the CUDA runtime
    (the old listfile found the headers through ${CUDA_INCLUDE_DIRS}): CMake's C++ compile needs HIP's platform
    define and headers, which linking hip::host gives."""
    values = [a.value for a in command.args]
    if len(values) < 2 or values[0] in state.runtime_linked or {"ALIAS", "IMPORTED", "INTERFACE"} & set(values[1:2]):
        return
    target = values[0]
    words = [v[s:e] for v in values[1:] if v not in _TARGET_KEYWORDS for s, e in split_list(v)]
    files = {w.rsplit("/", 1)[-1] for w in _expanded(state, words)}
    if not files & {s.rsplit("/", 1)[-1] for s in state.context.hip_sources}:
        return
    keyword = " PRIVATE" if state.keyword_links.get(target) else ""
    state.need("hip", command.start)
    state.runtime_linked.add(target)
    _append_after(state, command, f"target_link_libraries({target}{keyword} hip::host)")


def _languages(state: _State, command: Command) -> None:
    """project(), enable_language(), check_language(): the CUDA language -> HIP."""
    args = command.args
    first = 1 if command.key == "project" else 0
    keywords = ("VERSION", "DESCRIPTION", "HOMEPAGE_URL", "LANGUAGES")
    in_languages = command.key != "project" or not any(a.value in keywords for a in args)
    for i, arg in enumerate(args):
        if arg.value == "LANGUAGES":
            in_languages = True
        elif arg.value in keywords:
            in_languages = False
        elif i >= first and in_languages and arg.value == "CUDA" and arg.kind != BRACKET:
            new = "HIP"
            if state.needs_host_language and command.key != "check_language" and arg.kind == UNQUOTED:
                # find_package(hip) needs Threads, and FindThreads a C or C++ compiler: a CUDA-only project gets C++.
                new = "CXX HIP"
                state.needs_host_language = False
            state.replace(arg.start, arg.end, new if arg.kind == UNQUOTED else _spelled(arg, new), "CUDA")
            continue
        _rewrite(state, arg)


def _set(state: _State, command: Command) -> None:
    """set(VAR value... [CACHE ...|PARENT_SCOPE]): the variable renamed, its value translated for what it is."""
    args = command.args
    if not args:
        return
    name = args[0].value
    values = list(args[1:])
    for i, arg in enumerate(values):
        if arg.value in ("CACHE", "PARENT_SCOPE"):
            values = values[:i]
            break
    if name == "CMAKE_CUDA_COMPILER" and values:
        state.report(
            HAND,
            "CMAKE_CUDA_COMPILER left as written: CMake's HIP language needs ROCm's clang++ "
            "(set CMAKE_HIP_COMPILER to it, or let CMake find it)",
            command.start,
            name,
        )
        return
    if name in ("CMAKE_CUDA_SEPARABLE_COMPILATION", "CUDA_SEPARABLE_COMPILATION") and values:
        _global_rdc(state, command, values)
        return
    if name in ("CMAKE_CUDA_RESOLVE_DEVICE_SYMBOLS", "CMAKE_CUDA_RUNTIME_LIBRARY", "CMAKE_CUDA_HOST_COMPILER"):
        state.report(REVIEW, f"{name} left as written: CMake's HIP language has no such setting", command.start, name)
        return
    if name not in _VERSION_VARIABLES:  # set(CUDAToolkit_VERSION ...): the project's own value stays its own
        _rewrite(state, args[0])
    if name in ("CMAKE_CUDA_ARCHITECTURES",) and values and _architectures(state, values):
        rest = args[1 + len(values) :]
    elif _FLAG_VARIABLE.match(name) or name in state.option_variables:
        _write_options(state, values, _options(state, values)[0])
        rest = args[1 + len(values) :]
    else:
        rest = args[1:]
    for arg in rest:
        _rewrite(state, arg, link=_link_variable(state, name))


def _architectures(state: _State, values: list[Argument]) -> bool:
    """CUDA architectures (70 80-real sm_86 native) -> the AMD targets. A value computed elsewhere
    (``${ARCHS}``) holds CUDA architectures too (nothing else is valid there) and clang rejects them: it is
    replaced as well, with a note saying what it was. False where the values are no list (parentheses among them:
    a call left open runs on into the commands after it), which the caller then translates as any other words."""
    words = [w for arg in values for s, e in split_list(arg.value) for w in (arg.value[s:e],)]
    targets = ";".join(state.context.offload_arch)
    first = values[0]
    new = f'"{targets}"' if first.kind == QUOTED or len(state.context.offload_arch) > 1 else targets
    between = state.text[first.start : values[-1].end]
    if "(" in between or ")" in between:
        # parentheses among the values: no list of architectures (a call left open, its arguments running on into
        # the commands after it); replacing them would change where the commands end
        state.report(REVIEW, "CUDA architectures not read: parentheses among the values (a call left open?)",
                     first.start, "CUDA_ARCHITECTURES")  # fmt: skip
        return False
    if not all(_ARCH_WORD.match(w) for w in words):
        state.report(
            REVIEW, f"CUDA architectures {between} replaced by the AMD targets {targets}", first.start, between
        )
    if "#" not in between:
        state.replace(first.start, values[-1].end, new, "CUDA_ARCHITECTURES")
        return True
    # comments between the values (``75 # Turing``) stay: each value goes on its own
    state.replace(first.start, first.end, new, "CUDA_ARCHITECTURES")
    for arg in values[1:]:
        state.replace(arg.start, arg.end, "", "CUDA_ARCHITECTURES")
    return True


def _global_rdc(state: _State, command: Command, values: list[Argument]) -> None:
    """set(CMAKE_CUDA_SEPARABLE_COMPILATION ON) -> -fgpu-rdc in the HIP flags (they reach the link too)."""
    if values[0].value.upper() in ("OFF", "FALSE", "0", "NO", "N"):
        state.replace(command.start, command.end, "")
        return
    state.replace(command.start, command.end, f'string(APPEND CMAKE_HIP_FLAGS " {RDC_FLAG}")', "SEPARABLE_COMPILATION")


def _string(state: _State, command: Command) -> None:
    """string(APPEND CMAKE_CUDA_FLAGS " -arch=sm_70"): the options mapped."""
    args = command.args
    if len(args) >= 2 and args[0].value in ("APPEND", "PREPEND") and _FLAG_VARIABLE.match(args[1].value):
        _rewrite(state, args[0])
        _rewrite(state, args[1])
        _write_options(state, list(args[2:]), _options(state, list(args[2:]))[0])
        return
    for arg in args:
        _rewrite(state, arg)


def _list(state: _State, command: Command) -> None:
    args = command.args
    values = [a.value for a in args]
    written = values[values.index("OUTPUT_VARIABLE") + 1] if "OUTPUT_VARIABLE" in values[:-1] else values[1:2]
    if "CMAKE_CUDA_ARCHITECTURES" in written and values[0] not in ("GET", "LENGTH", "FIND", "JOIN", "SUBLIST"):
        # Computed from NVIDIA architectures (capability numbers, "-real"): the AMD targets instead.
        targets = ";".join(state.context.offload_arch)
        was = state.text[command.start : command.end]
        state.report(REVIEW, f"{was} replaced: the HIP architectures are the AMD targets {targets}", command.start, was)
        state.replace(command.start, command.end, f'set(CMAKE_HIP_ARCHITECTURES "{targets}")', "CUDA_ARCHITECTURES")
        return
    appended = len(args) >= 2 and args[0].value in ("APPEND", "PREPEND", "INSERT")
    if appended and (_FLAG_VARIABLE.match(args[1].value) or args[1].value in state.option_variables):
        for arg in args[:2]:
            _rewrite(state, arg)
        _write_options(state, list(args[2:]), _options(state, list(args[2:]))[0])
        return
    library_list = len(args) >= 2 and _link_variable(state, args[1].value)
    for arg in args:
        _rewrite(state, arg, link=library_list)


def _link_variable(state: _State, variable: str) -> bool:
    """Whether a variable holds libraries to link, so that a plain ``cublas`` or ``${CUDA_CUDA_LIBRARY}`` in it is
    one: the file uses it only in link lists, or (used nowhere here) it is named like one (EXTRA_LIBS). A variable
    the file uses elsewhere (a path: a copy, IMPORTED_LOCATION) is never given an imported target."""
    uses = state.variable_uses.get(variable, set())
    if "other" in uses:
        return False
    return "link" in uses or "LIB" in variable.upper()


def _compile_options(state: _State, command: Command) -> None:
    """target_compile_options() and friends: nvcc options -> clang's (-rdc also at the link)."""
    values, rdc = _options(state, list(command.args))
    _write_options(state, list(command.args), values)
    if rdc and command.key == "target_compile_options" and command.args:
        _append_after(state, command, f"target_link_options({command.args[0].value} PRIVATE {RDC_FLAG})")


def _link_libraries(state: _State, command: Command) -> None:
    args = list(command.args)
    if command.key == "target_link_libraries" and args:
        _rewrite(state, args[0])  # the target: a name of the project's, never a library (a target named nvJPEG)
        args = args[1:]
    values, _ = _options(state, args, link=True)
    _write_options(state, args, values)


def _find_package(state: _State, command: Command) -> None:
    if command.args and command.args[0].value in ("CUDAToolkit", "CUDA"):
        state.find_cuda.append(command)
        return
    module = find_module(command.args[0].value, state.context) if command.args else None
    if module is not None:  # a project's FindNCCL.cmake -> RCCL's package config
        first = command.args[0]
        state.replace(first.start, first.end, module.package, first.value)
        return
    for arg in command.args:
        _rewrite(state, arg)


def _properties(state: _State, command: Command) -> None:
    """set_target_properties / set_property / set_source_files_properties: CUDA's properties -> HIP's."""
    args = command.args
    values = [a.value for a in args]
    if command.key == "set_property":
        if "PROPERTY" not in values:
            return
        split = values.index("PROPERTY")
        targets = (
            [a.value for a in args[1:split] if a.value not in ("APPEND", "APPEND_STRING")]
            if values[0] == "TARGET"
            else []
        )
        pairs = [(args[split + 1], args[split + 2 :])] if split + 1 < len(args) else []
        head = args[: split + 1]
    else:
        if "PROPERTIES" not in values:
            return
        split = values.index("PROPERTIES")
        targets = [a.value for a in args[:split]] if command.key == "set_target_properties" else []
        rest = args[split + 1 :]
        pairs = [(rest[i], rest[i + 1 : i + 2]) for i in range(0, len(rest), 2)]
        head = args[: split + 1]
    mark = len(state.edits)
    for arg in head:
        _rewrite(state, arg)
    kept = 0
    rdc = False
    for key_arg, value_args in pairs:
        key = key_arg.value
        if key in _PROPERTY_RENAMES:
            state.replace(key_arg.start, key_arg.end, _PROPERTY_RENAMES[key], key)
            if not (key == "CUDA_ARCHITECTURES" and value_args and _architectures(state, list(value_args))):
                for arg in value_args:
                    _rewrite(state, arg)
            kept += 1
        elif key == "CUDA_SEPARABLE_COMPILATION" or key in _PROPERTY_DROPPED:
            on = bool(value_args) and value_args[0].value.upper() not in ("OFF", "FALSE", "0", "NO", "N", "")
            if key == "CUDA_SEPARABLE_COMPILATION":
                rdc = rdc or on
            else:
                state.report(REVIEW, f"{key} dropped: {_PROPERTY_DROPPED[key]}", key_arg.start, key)
            start = key_arg.start
            start = _removal_start(state.text, start)
            end = value_args[-1].end if value_args else key_arg.end
            state.replace(start, end, "", key)
        elif key in _PROPERTY_HAND:
            state.report(
                HAND, f"{key}: NVIDIA intermediate code (PTX/cubin/fatbin) has no AMD counterpart", key_arg.start, key
            )
            kept += 1
        elif key in ("LANGUAGE", "LINKER_LANGUAGE"):
            for arg in value_args:
                if arg.value == "CUDA":
                    state.replace(arg.start, arg.end, _spelled(arg, "HIP"), "CUDA")
            kept += 1
        else:
            _rewrite(state, key_arg)
            for arg in value_args:
                _rewrite(state, arg)
            kept += 1
    if not pairs:
        return
    added = "\n".join(_rdc_lines(target) for target in targets) if rdc else ""
    if kept == 0:
        # Nothing left to set: the command goes (its pieces' edits with it), the -fgpu-rdc lines in its place.
        del state.edits[mark:]
        state.replace(command.start, command.end, added, "CUDA_SEPARABLE_COMPILATION")
    elif added:
        _append_after(state, command, added)


def _rdc_lines(target: str) -> str:
    return (
        f"target_compile_options({target} PRIVATE $<$<COMPILE_LANGUAGE:HIP>:{RDC_FLAG}>)\n"
        f"target_link_options({target} PRIVATE {RDC_FLAG})"
    )


def _removal_start(text: str, start: int) -> int:
    """Where removing an argument that starts at ``start`` begins: with the blanks before it, and the line
    break too unless the line before ends in a comment (which would then swallow what follows)."""
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    if start > 0 and text[start - 1] == "\n":
        line = text[text.rfind("\n", 0, start - 1) + 1 : start - 1]
        if "#" not in line and line.strip():
            start -= 1
            while start > 0 and text[start - 1] in " \t":
                start -= 1
    return start


def _indent(state: _State, offset: int) -> str:
    line_start = state.text.rfind("\n", 0, offset) + 1
    prefix = state.text[line_start:offset]
    return prefix if not prefix.strip() else ""


def _append_after(state: _State, command: Command, lines: str) -> None:
    """New lines after a command, with its indentation; after a comment that ends its line, if one does."""
    indent = _indent(state, command.start)
    text = "".join(f"\n{indent}{line}" for line in lines.split("\n"))
    line_end = state.text.find("\n", command.end)
    line_end = len(state.text) if line_end < 0 else line_end
    rest = state.text[command.end : line_end]
    at = command.end
    if rest.strip().startswith("#") and not rest.lstrip().startswith("#["):
        at = line_end
    state.edits.append(Edit(at, at, text, EDIT))


def _cuda_add(state: _State, command: Command) -> None:
    """FindCUDA's cuda_add_executable/cuda_add_library -> plain targets (its OPTIONS -> compile options)."""
    plain = command.key[len("cuda_") :]
    state.replace(command.start, command.start + len(command.name), plain, command.name)
    args = command.args
    values = [a.value for a in args]
    options: list[str] = []
    if "OPTIONS" in values:
        at = values.index("OPTIONS")
        option_args = list(args[at + 1 :])
        values, _ = _options(state, option_args)
        options = [_spelled(arg, value) for arg, value in zip(option_args, values, strict=True) if value.strip()]
        start = args[at].start
        start = _removal_start(state.text, start)
        state.replace(start, args[-1].end, "")
        args = args[:at]
    for arg in args:
        _rewrite(state, arg)
    if not args:
        return
    target = args[0].value
    # target_link_libraries() of one target takes keywords (PRIVATE) everywhere or nowhere.
    keyword = " PRIVATE" if state.keyword_links.get(target) else ""
    lines = [f"target_link_libraries({target}{keyword} hip::host)"]
    state.need("hip", command.start)
    if options:
        lines.append(f"target_compile_options({target} PRIVATE {' '.join(options)})")
    if state.uses_nvcc_flags:
        lines.append(f'target_compile_options({target} PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:${{CUDA_NVCC_FLAGS}}>")')
    _append_after(state, command, "\n".join(lines))


def _cuda_link_library(library: str) -> Callable[[_State, Command], None]:
    def handle(state: _State, command: Command) -> None:
        """cuda_add_cublas_to_target(t) -> target_link_libraries(t <ROCm's target>)."""
        if not command.args:
            return
        target = _target_for(state, f"CUDA::{library}", command.start)
        if target is None:
            return
        state.replace(
            command.start, command.end, f"target_link_libraries({command.args[0].value} {target})", command.name
        )

    return handle


def _renamed_command(new: str) -> Callable[[_State, Command], None]:
    def handle(state: _State, command: Command) -> None:
        state.replace(command.start, command.start + len(command.name), new, command.name)
        for arg in command.args:
            _rewrite(state, arg)

    return handle


def _hand_command(state: _State, command: Command) -> None:
    """FindCUDA commands that compile to NVIDIA machine code (cuda_compile_ptx, cuda_compile_fatbin...)."""
    state.report(
        HAND,
        f"{command.name}: it makes NVIDIA code (PTX/cubin/fatbin) or runs nvcc directly: port by hand",
        command.start,
        command.name,
    )


_CUSTOM_STEPS = frozenset(("add_custom_command", "add_custom_target", "execute_process"))


def _segments(command: Command) -> list[list[Argument]]:
    """The arguments of each command a custom step runs (``COMMAND prog args...``; add_custom_target's first one
    may come right after its name and ``ALL``)."""
    args = list(command.args)
    segments: list[list[Argument]] = []
    current: list[Argument] | None = None
    if command.key == "add_custom_target" and args:
        args = args[2:] if len(args) > 1 and args[1].value == "ALL" else args[1:]
        current = []
        segments.append(current)
    for arg in args:
        if arg.kind == UNQUOTED and arg.value == "COMMAND":
            current = []
            segments.append(current)
        elif arg.kind == UNQUOTED and arg.value in _CUSTOM_KEYWORDS:
            current = None
        elif current is not None:
            current.append(arg)
    return [segment for segment in segments if segment]


def _is_cuda_compiler(value: str) -> bool:
    return value in ("${CMAKE_CUDA_COMPILER}", "${CUDA_NVCC_EXECUTABLE}") or is_nvcc(value)


def _custom(state: _State, command: Command) -> None:
    """add_custom_command / add_custom_target / execute_process: a command running nvcc is translated whole (the
    HIP compiler with the AMD targets; -fatbin/-ptx/-cubin make the code object hipModuleLoad loads) where every
    option it reaches has a HIP counterpart, else left exactly as written and reported; NVIDIA tools are reported;
    other arguments get the usual renames."""
    translated: set[int] = set()
    for segment in _segments(command):
        if _is_cuda_compiler(segment[0].value):
            translated.update(arg.start for arg in segment)
            _cuda_step(state, command, segment)
    for arg in command.args:
        if arg.start not in translated:
            _rewrite(state, arg)
    words = [w for a in command.args if a.kind != BRACKET and a.start not in translated for w in a.value.split()]
    tool = next((m.group(1) for w in words for m in [_NVIDIA_TOOLS.search(" " + w + " ")] if m), None)
    if tool:
        state.report(
            HAND,
            f"{command.name} runs {tool}, an NVIDIA tool with no AMD counterpart here: port the step by hand",
            command.start,
            tool,
        )


def _name_output(state: _State, own: list[str], rest: list[Argument]) -> None:
    """``nvcc -cuda k.cu`` writes k.cu.cpp.ii, ``nvcc -lib`` a.a; clang writes to standard output or a.out: the
    output named as nvcc named it, where the step names none."""
    if not rest or any(w == "-o" or w.startswith(("--output-file", "-o=")) for w in own):
        return
    output = nvcc_default_output(own)
    if output is not None and output[1]:
        state.replace(rest[-1].end, rest[-1].end, f" -o {output[1]}", "-o")


def _cuda_step(state: _State, command: Command, segment: list[Argument]) -> None:
    program, rest = segment[0], segment[1:]
    own = [arg.value[s:e] for arg in rest for s, e in _words(arg.value)]
    names = [n for arg in rest for n in _REFERENCE.findall(arg.value)]
    reached = own + [w for n in names for v in state.values.get(n, []) for s, e in _words(v) for w in [v[s:e]]]
    changes = translate_words(reached, state.context)
    hand = [(i, c) for i, c in changes if c.hand_work and not is_library_option(reached[i])]
    tool = next((w for w in reached if _NVIDIA_TOOLS.search(" " + w + " ")), None)
    if hand or tool:
        why = f"{reached[hand[0][0]]}: {hand[0][1].reason}" if hand else f"it hands {tool} to nvcc"
        state.report(
            HAND,
            f"{command.name} runs nvcc, left exactly as written: {why}",
            program.start,
            reached[hand[0][0]] if hand else "nvcc",
        )
        return
    literal = is_nvcc(program.value)  # a literal nvcc: hipcc takes nvcc's place; ${CMAKE_CUDA_COMPILER}: clang++
    device = "--genco" if literal else "--cuda-device-only"
    values, _ = _options(state, rest, device_only=device)
    _write_options(state, rest, values)
    _name_output(state, own, rest)
    # The AMD targets, unless the command names an architecture itself (a variable's may be set by a loop that
    # runs no time: the targets are given then too; clang takes a target given twice).
    targets = ",".join(state.context.offload_arch)
    arch = any(c.kind == KIND_ARCH and c.words for _, c in translate_words(own, state.context))
    head = "hipcc" if literal else "${CMAKE_HIP_COMPILER} -x hip"
    if targets and not arch:
        head += f" --offload-arch={targets}"
    state.replace(program.start, program.end, head, program.value)


def _find_program(state: _State, command: Command) -> None:
    for arg in command.args:
        _rewrite(state, arg)
    names = {a.value for a in command.args}
    for tool in ("nvidia-smi", "nvcc", "ptxas", "cuobjdump", "nvdisasm"):
        if tool in names:
            state.report(
                HAND, f"find_program looks for {tool}, an NVIDIA tool: port what uses it by hand", command.start, tool
            )
            break


_HANDLERS = {
    "project": _languages,
    "enable_language": _languages,
    "check_language": _languages,
    "set": _set,
    "string": _string,
    "list": _list,
    "target_compile_options": _compile_options,
    "add_compile_options": _compile_options,
    "target_link_options": _compile_options,
    "add_link_options": _compile_options,
    "target_link_libraries": _link_libraries,
    "link_libraries": _link_libraries,
    "find_package": _find_package,
    "set_target_properties": _properties,
    "set_property": _properties,
    "set_source_files_properties": _properties,
    "cuda_add_executable": _cuda_add,
    "cuda_add_library": _cuda_add,
    "cuda_add_cublas_to_target": _cuda_link_library("cublas"),
    "cuda_add_cufft_to_target": _cuda_link_library("cufft"),
    "cuda_include_directories": _renamed_command("include_directories"),
    "cuda_compile": _hand_command,
    "cuda_compile_ptx": _hand_command,
    "cuda_compile_fatbin": _hand_command,
    "cuda_compile_cubin": _hand_command,
    "cuda_wrap_srcs": _hand_command,
    "cuda_link_separable_compilation_objects": _hand_command,
    "add_custom_command": _custom,
    "add_custom_target": _custom,
    "execute_process": _custom,
    "find_program": _find_program,
}


# --- sources --------------------------------------------------------------------------------------------


def _marked_hip(command: Command) -> list[str]:
    values = [a.value for a in command.args]
    if "PROPERTIES" not in values:
        return []
    split = values.index("PROPERTIES")
    rest = values[split + 1 :]
    if any(rest[i] == "LANGUAGE" and i + 1 < len(rest) and rest[i + 1] == "HIP" for i in range(0, len(rest), 2)):
        return values[:split]
    return []


def _renamed_reference(m: re.Match[str]) -> str:
    """``${CMAKE_CUDA_X}`` as the source's argument now spells it (the marking names the source as written)."""
    name = m.group(1)
    if name in _INCLUDE_VARIABLES:
        return "${hip_INCLUDE_DIRS}"
    suffix = name[len("CMAKE_CUDA_") :]
    if name.startswith("CMAKE_CUDA_") and suffix not in _CUDA_ONLY_SUFFIXES and name not in _VERSION_VARIABLES:
        return "${CMAKE_HIP_" + suffix + "}"
    return m.group(0)


def _is_cu(value: str) -> bool:
    return value.endswith(".cu") and "$<" not in value


def _mark_sources(state: _State, command: Command) -> None:
    """.cu sources (as the run leaves them named) -> ``set_source_files_properties(... LANGUAGE HIP)`` after
    the command that names them: CMake gives .cu files to the CUDA language only."""
    sources = []
    for arg in command.args if command.key != "file" else ():
        if arg.kind == BRACKET:
            continue
        for start, end in split_list(arg.value):
            element = _rename_source(_REFERENCE.sub(_renamed_reference, arg.value[start:end]), state.context)
            if _is_cu(element) and not _is_marked(state, element) and element not in sources:
                sources.append(element)
    if command.key == "file" and command.args and command.args[0].value in ("GLOB", "GLOB_RECURSE"):
        # file(GLOB SRCS *.cu): the files are known when CMake runs; mark what the variable holds.
        patterns = [
            a.value
            for a in command.args[2:]
            if a.value not in ("LIST_DIRECTORIES", "RELATIVE", "CONFIGURE_DEPENDS", "FOLLOW_SYMLINKS")
        ]
        name = command.args[1].value if len(command.args) > 1 else ""
        variable = "${" + name + "}"
        if any(p.endswith(".cu") for p in patterns) and name and not _value_is_marked(state, command, name):
            sources = [variable]
            if not all(p.endswith((".cu", ".cuh")) for p in patterns):
                state.report(
                    REVIEW, f"the files of {variable} are all compiled as HIP (some .cu, some not)", command.start
                )
    if not sources:
        return
    for source in sources:
        if not _WHOLE_REFERENCE.fullmatch(source):  # (a variable's mark covers only its value here: above)
            state.marked_hip.setdefault(source, []).append(state.path)
    listed = " ".join(_spelled(Argument(UNQUOTED, 0, 0, s, 0), s) for s in sources)
    _append_after(state, command, f"set_source_files_properties({listed} PROPERTIES LANGUAGE HIP)")


# --- packages -------------------------------------------------------------------------------------------


def _family_packages(context: BuildContext) -> list[str]:
    from ..knowledge.families import ALIASES

    packages = []
    for family in context.families:
        if family in _HEADER_PACKAGES:
            packages.append(_HEADER_PACKAGES[family])
            continue
        aliases = ALIASES.get(family, ())
        change = cmake_target(f"CUDA::{aliases[0]}", context) if aliases else None
        if change is not None and change.package and not change.hand_work:
            packages.append(change.package)
    return packages


def _find_packages(state: _State) -> None:
    """find_package(CUDAToolkit|CUDA) -> find_package(hip) and every ROCm package the file links; where the
    file has none to replace (the CUDA language found the libraries), the find_package() goes before the
    first command of each block that needs it."""
    needed = [p for p in state.needed if p != "hip"]
    if state.find_cuda:
        first = state.find_cuda[0]
        required = any(a.value == "REQUIRED" for a in first.args)
        suffix = " REQUIRED" if required else ""
        lines = [f"find_package(hip{suffix})"] + [f"find_package({p}{suffix})" for p in needed]
        if first.args[0].value == "CUDA" and not state.enables_cuda:
            # FindCUDA compiled .cu files itself; now CMake's HIP language compiles them.
            lines.insert(0, "enable_language(HIP)")
        lines += [f"find_package({p} QUIET)" for p in _family_packages(state.context) if p not in needed and p != "hip"]
        indent = _indent(state, first.start)
        state.replace(first.start, first.end, ("\n" + indent).join(lines), first.args[0].value)
        for other in state.find_cuda[1:]:
            state.replace(other.start, other.end, f"find_package(hip{suffix})", other.args[0].value)
        return
    if not state.needed:
        return
    # Each block gets its packages once, all before the first of its commands that needs one.
    by_block: dict[int, tuple[int, list[str]]] = {}
    for package in ["hip", *needed] if "hip" in state.needed else needed:
        for block, at in state.needed[package]:
            earliest, packages = by_block.setdefault(block, (at, []))
            by_block[block] = (min(earliest, at), packages)
            if package not in packages:
                packages.append(package)
    for at, packages in sorted(by_block.values()):
        line_start = state.text.rfind("\n", 0, at) + 1
        indent = _indent(state, at)
        insert = "".join(f"find_package({p} REQUIRED)\n{indent}" for p in packages)
        if indent or line_start == at:
            state.edits.append(Edit(at, at, insert, EDIT))
