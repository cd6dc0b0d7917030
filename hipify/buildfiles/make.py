"""GNU make files (Makefile, *.mk, included makefiles) translated for hipcc.

What reaches the CUDA compiler is found by reading the makefile (``make_reader``), not by searching its text:

- the CUDA compiler: ``nvcc`` (or a path to it) as a recipe's command or as the first word of a variable's value
  (``NVCC ?= nvcc``, ``CC = $(CUDA_HOME)/bin/nvcc``, and variables whose value starts with such a variable)
  becomes ``hipcc``; found at run time (``$(shell which nvcc 2>/dev/null)``, ``command -v``, also in a
  conditional's test) it is looked for as ``hipcc``; an empty value (``NVCC :=``) stays empty;
- its options: the words after it in a recipe command, and the values of the variables those words reference
  (transitively: ``FLAGS = $(CFLAGS) $(GENCODE)``) are translated by ``nvcc_options``; a variable no recipe of
  this file uses (a common.mk's ``NVCC_FLAGS``) is translated when its value holds an option only nvcc takes;
- other commands (``$(CXX) ... -lcudart``): only CUDA libraries and paths under the CUDA installation change (the
  CUDA runtime becomes ``-lamdhip64``, which a host compiler needs where hipcc would add it itself);
- the GPU targets: ``--offload-arch=$(HIP_ARCH)``, with ``HIP_ARCH ?= <targets>`` added before the file's first
  statement so that ``make HIP_ARCH=gfx942`` picks others (``ROCM_PATH ?= /opt/rocm`` likewise where a
  ``$(CUDA_HOME)`` path became ``$(ROCM_PATH)``); a compile or link by the CUDA compiler that no architecture
  option reaches for certain (none, or only one set inside a conditional) gets them after the compiler;
- device-only steps (``nvcc -ptx/-cubin/-fatbin``, a file loaded at run time with ``cuModuleLoad``) become
  ``hipcc --genco``, the code object ``hipModuleLoad`` loads; a step with no HIP counterpart (``-dlink``,
  ``-cuda``, ``-lto-ir``) is left exactly as written and reported, never half translated;
- C sources compiled by the CUDA compiler: clang rejects a C++ ``-std`` for C (nvcc's host compiler ignored it),
  so such a compile reads its flags variables through ``$(filter-out -std=c++% -std=gnu++%,...)``;
- host compilers (``gcc``, ``g++``, ``$(CC)``, ``$(CXX)``) compiling a source whose translation includes the HIP
  runtime (``BuildContext.hip_sources``) get ``-D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include``, as hipcc would
  give them; ``CPPFLAGS`` gets them where make's built-in rules compile such a file;
- relocatable device code: where any compile uses it, every link by the CUDA compiler gets ``-fgpu-rdc`` too;
- renamed sources (``--rename-extensions``: a.cu -> a.hip) are renamed in every word, with the patterns that
  name them (``%.cu``, ``*.cu``, ``$(SRC:.cu=.o)``);
- what has no translation (``ptxas``, ``cuobjdump``, ``nvidia-smi``, ``nvcc -dlink``) is reported at its word as
  hand work (HPY119) and left as written; a library ROCm lacks (``-lnvidia-ml``) is reported and removed from the
  link (left there, it fails the link of every program, also of those that never call it).

Comments, and the words of shell commands that are not the CUDA compiler, are never changed otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from ..knowledge.codes import CODES
from ..model import Diagnostic, Edit, LineIndex, Origin, Severity
from . import BuildContext, BuildResult
from .libraries import library_change
from .make_reader import (
    ASSIGN,
    CONDITIONAL,
    DEFINE,
    INCLUDE,
    RECIPE,
    RULE,
    Statement,
    Word,
    read,
    reference_name,
    references,
)
from .nvcc_options import (
    KIND_ARCH,
    KIND_DEVICE,
    KIND_DROPPED,
    KIND_HAND,
    KIND_LIBRARY,
    KIND_PATH,
    KIND_RDC,
    KIND_STEP,
    RDC_FLAG,
    OptionChange,
    is_library_option,
    is_nvcc,
    nvcc_default_output,
    translate_words,
)

TRANSLATE = "HPY016"
DROPPED = "HPY118"
HAND_WORK = "HPY119"
assert all(code in CODES for code in (TRANSLATE, DROPPED, HAND_WORK))

ARCH_VARIABLE = "HIP_ARCH"
ROCM_VARIABLE = "ROCM_PATH"
ROCM_ROOT = "/opt/rocm"
HIPCC = "hipcc"

# Tools that make, inspect or run NVIDIA machine code, or query NVIDIA GPUs: a step calling one is hand work.
HAND_TOOLS = {
    "ptxas": "NVIDIA's PTX assembler",
    "cuobjdump": "NVIDIA's object dumper (llvm-objdump / roc-obj-ls read AMD code objects)",
    "nvdisasm": "NVIDIA's disassembler",
    "fatbinary": "NVIDIA's fat binary tool",
    "nvlink": "NVIDIA's device linker",
    "bin2c": "fatbin embedding (bin2c)",
    "nvprune": "NVIDIA's architecture pruner",
    "cu++filt": "NVIDIA's demangler (llvm-cxxfilt demangles AMD symbols)",
    "nvidia-smi": "an NVIDIA GPU query (rocm-smi / rocminfo query AMD GPUs)",
    "nvprof": "NVIDIA's profiler (rocprof profiles AMD GPUs)",
    "ncu": "NVIDIA's profiler (rocprof profiles AMD GPUs)",
    "nsys": "NVIDIA's profiler (rocprof profiles AMD GPUs)",
    "nv-nsight-cu-cli": "NVIDIA's profiler (rocprof profiles AMD GPUs)",
    "cuda-memcheck": "NVIDIA's memory checker",
    "compute-sanitizer": "NVIDIA's memory checker",
    "cuda-gdb": "NVIDIA's debugger (rocgdb debugs AMD GPUs)",
    "nvc++": "NVIDIA's HPC compiler (-stdpar, OpenACC: no hipcc equivalent)",
    "nvc": "NVIDIA's HPC compiler (-stdpar, OpenACC: no hipcc equivalent)",
    "nvfortran": "NVIDIA's Fortran compiler (CUDA Fortran has no HIP translation)",
}
# Words of a CUDA compiler command that make it a compile (not a link) step.
_COMPILE_ONLY = ("-c", "-dc", "--device-c", "-E", "-M", "-MM", "-S", "--compile", "-fgpu-rdc -c")
_SHELL_FUNCTION = re.compile(r"\$[({]shell\s+([^\s)}]+)")
# A program looked for at run time: $(shell which nvcc 2>/dev/null), $(shell command -v nvcc), Windows' where.
_LOOKUP = re.compile(r"\$[({]shell\s+(?:which|command\s+-v|type\s+-p|where)\s+(?P<tool>[^\s)}'\"]+)")
# Words that only ask the compiler about itself: no targets needed.
_QUERIES = frozenset(("--version", "-V", "--help", "-h", "--list-gpu-arch", "--list-gpu-code", "-dumpversion"))
# Host compilers, as a command word or a variable's first word (a cross prefix and a version suffix allowed).
_HOST_COMPILER = re.compile(r"(?:[\w.+]+-)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|icc|icpc|icx|icpx)(?:-[0-9][0-9.]*)?")
# make's built-in compiler variables (cc, g++ when the file does not set them).
_DEFAULT_HOST_VARIABLES = frozenset(("CC", "CXX"))
_HOST_SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".c++", ".cp", ".C", ".CPP")
_CXX_SOURCE_SUFFIXES = tuple(s for s in _HOST_SOURCE_SUFFIXES if s != ".c")
_AUTOMATIC_INPUTS = ("$<", "$^", "$?", "$+", "$(<)", "$(^)", "${<}", "${^}")
HIP_PLATFORM_DEFINE = "-D__HIP_PLATFORM_AMD__"
# C++ standards that clang refuses for a C source (nvcc's host compiler only warned).
_CXX_STANDARDS = "-std=c++% -std=gnu++%"


@dataclass
class _Edits:
    """Edits under construction, one per span: a later rule never edits words an earlier one changed."""

    text: str
    edits: list[Edit] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    taken: set[int] = field(default_factory=set)  # start offsets of words already edited or reported
    index: LineIndex | None = None

    def where(self, offset: int) -> tuple[int, int]:
        if self.index is None:
            self.index = LineIndex.of(self.text)
        return self.index.line_col(offset)

    def report(self, code: str, message: str, offset: int, severity: Severity, subject: str = "") -> None:
        line, col = self.where(offset)
        self.diagnostics.append(Diagnostic(code, message, offset, line, col, severity, subject))

    def replace_words(self, words: Sequence[Word], new: Sequence[str], subject: str) -> None:
        if any(w.start in self.taken for w in words):
            return
        self.taken.update(w.start for w in words)
        start, end = words[0].start, words[-1].end
        if new:
            self.edits.append(Edit(start, end, " ".join(new), TRANSLATE, Origin.TEXT, subject))
            return
        # Dropped: take the blanks after the word too (or, at the end of a line, the ones before it).
        # Never into the blanks another edit took (two dropped words in a row).
        text = self.text
        limit_after = min((e.start for e in self.edits if e.start >= end), default=len(text))
        limit_before = max((e.end for e in self.edits if e.end <= start), default=0)
        after = end
        while after < limit_after and text[after] in " \t":
            after += 1
        if after < len(text) and text[after] not in "\n\\":
            end = after
        else:
            # At the end of a line: the blanks before go too, with the dropped word right before (merged).
            adjacent = next((e for e in self.edits if e.end == start and not e.replacement), None)
            if adjacent is not None:
                self.edits.remove(adjacent)
                start = adjacent.start
                limit_before = max((e.end for e in self.edits if e.end <= start), default=0)
            before = start
            while before > limit_before and text[before - 1] in " \t":
                before -= 1
            if before > 0 and text[before - 1] not in "\n":
                start = before
        self.edits.append(Edit(start, end, "", TRANSLATE, Origin.TEXT, subject))

    def insert(self, offset: int, text: str, subject: str) -> None:
        self.edits.append(Edit(offset, offset, text, TRANSLATE, Origin.TEXT, subject))


@dataclass(frozen=True)
class _Command:
    """One command of a recipe line: its words (the command word first)."""

    words: tuple[Word, ...]
    prefix: int  # characters of make's recipe prefixes (@ - +) before the command word's text


def _commands(words: Sequence[Word]) -> list[_Command]:
    out: list[_Command] = []
    current: list[Word] = []
    for word in (*words, None):
        if word is None or word.operator:
            if current:
                out.append(_command(current, first_of_line=not out))
            current = []
            continue
        current.append(word)
    return out


def _command(words: list[Word], first_of_line: bool) -> _Command:
    # Skip environment assignments (FOO=bar cmd ...) and make's recipe prefixes on the line's first word.
    i = 0
    while i < len(words) - 1 and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[i].text):
        i += 1
    first = words[i].text
    prefix = len(first) - len(first.lstrip("@-+")) if first_of_line else 0
    if prefix == len(first) and i + 1 < len(words):  # "@ $(NVCC)": a lone prefix word
        i += 1
        prefix = 0
    return _Command(tuple(words[i:]), prefix)


@dataclass(frozen=True)
class _Line:
    """A recipe line's commands, with the rule it belongs to (None: a recipe line after no rule)."""

    rule: Statement | None
    commands: tuple[_Command, ...]


class _Makefile:
    def __init__(self, text: str, context: BuildContext) -> None:
        self.text = text
        self.context = context
        self.statements = read(text)
        self.values: dict[str, list[Statement]] = {}
        self.conditional: set[int] = set()  # start offsets of the statements inside a conditional
        depth = 0
        for st in self.statements:
            if st.kind == CONDITIONAL:
                if st.name.startswith("if"):
                    depth += 1
                elif st.name == "endif":
                    depth = max(0, depth - 1)
                continue
            if depth:
                self.conditional.add(st.start)
            if st.kind in (ASSIGN, DEFINE) and st.name:
                self.values.setdefault(st.name, []).append(st)
        # The file ends inside a conditional or a define: nothing appended at its end would be read as written.
        self.open_at_end = depth > 0 or any(
            st.kind == DEFINE and not text[st.start : st.end].rstrip().endswith("endef") for st in self.statements[-1:]
        )
        self.compilers = self._compiler_variables()
        self.hosts = self._host_variables()
        self.out = _Edits(text)
        self.arch_context = replace(context, offload_arch=(f"$({ARCH_VARIABLE})",))
        self.used_arch = False
        self.used_rocm_var = False
        self.uses_rdc = False
        self.after_compiler: dict[int, list[str]] = {}  # offset after a compiler word -> words to insert there

    # -- what is the CUDA compiler, and what reaches it ------------------------------------------------------

    def _compiler_variables(self) -> set[str]:
        found: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, statements in self.values.items():
                if name in found:
                    continue
                for st in statements:
                    first = _first_command_word(st.words)
                    if first is not None and self._is_compiler_word(st.words[first].text, found):
                        found.add(name)
                        changed = True
                        break
        return found

    @staticmethod
    def _is_compiler_word(word: str, compilers: set[str]) -> bool:
        return is_nvcc(word) or reference_name(word) in compilers or _nvcc_lookup(word) is not None

    def _host_variables(self) -> set[str]:
        """Variables naming a host C/C++ compiler: set to one (``CXX = g++``, ``C_C = gcc``), or make's own
        ``CC``/``CXX`` where the file never sets them."""
        found = {name for name in _DEFAULT_HOST_VARIABLES if name not in self.values}
        for name, statements in self.values.items():
            firsts = [st.words[0].text for st in statements if st.words and st.op != "+="]
            if firsts and name not in self.compilers and all(_is_host_compiler(w) for w in firsts):
                found.add(name)
        return found

    def _closure(self, names: Iterable[str]) -> set[str]:
        seen: set[str] = set()
        todo = list(names)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for st in self.values.get(name, ()):
                for word in st.words:
                    todo.extend(references(word.text))
        return seen

    def _values_of(self, names: Iterable[str], certain: bool = False) -> list[str]:
        """The words of the values of ``names`` and of what they reference (``certain``: only the values set
        outside any conditional)."""
        return [
            w.text
            for name in self._closure(names)
            for st in self.values.get(name, ())
            if not (certain and st.start in self.conditional)
            for w in st.words
        ]

    def _command_lines(self) -> list[_Line]:
        out = []
        rule: Statement | None = None
        for st in self.statements:
            if st.kind == RECIPE:
                out.append(_Line(rule, tuple(_commands(st.words))))
            elif st.kind == RULE:
                rule = st
                if st.recipe:
                    out.append(_Line(st, tuple(_commands(st.recipe))))
        return out

    # -- translation ---------------------------------------------------------------------------------------

    def translate(self) -> BuildResult:
        lines = self._command_lines()
        commands = [c for line in lines for c in line.commands]
        rule_of = {c.words[0].start: line.rule for line in lines for c in line.commands}
        cuda_commands = [c for c in commands if self._is_compiler_word(c.words[0].text[c.prefix :], self.compilers)]
        other_commands = [c for c in commands if c not in cuda_commands]
        hand = {c.words[0].start for c in cuda_commands if self._hand_options(c)}
        cuda_refs = [name for c in cuda_commands for w in c.words[1:] for name in references(w.text)]
        for name in self.compilers:
            for st in self.values[name]:
                cuda_refs += [n for w in st.words[1:] for n in references(w.text)]
        cuda_vars = self._closure(cuda_refs) - self.compilers
        used_anywhere = self._closure(
            [n for c in commands for w in c.words for n in references(w.text)]
            + [
                n
                for st in self.statements
                if st.kind == RULE
                for w in (*st.targets, *st.words)
                for n in references(w.text)
            ]
        )
        if self.compilers or cuda_commands or self._has_nvcc_options():
            # A variable no recipe here uses, holding options only nvcc takes: an included file's flags.
            for name, statements in self.values.items():
                if name not in used_anywhere and name not in self.compilers and self._nvcc_only(statements):
                    cuda_vars.add(name)

        for name in self.compilers:
            for st in self.values[name]:
                first = _first_command_word(st.words)  # None: ``NVCC :=`` (no compiler found) stays empty
                if first is not None and self._is_compiler_word(st.words[first].text, self.compilers):
                    self._compiler_word(st.words[first], 0)
                    self._options(st.words[:first] + st.words[first + 1 :], cuda=True)
                else:  # another assignment of it (``NVCC_CMD += -G``): options only
                    self._options(st.words, cuda=True)
        self._lookups_in_conditions()
        for name in sorted(cuda_vars):
            for st in self.values.get(name, ()):
                self._options(st.words, cuda=True)
        for command in cuda_commands:
            if command.words[0].start in hand:
                self._options(command.words[1:], cuda=True, report_only=True)  # left exactly as written
                continue
            self._compiler_word(command.words[0], command.prefix)
            self._options(command.words[1:], cuda=True)
            rule = rule_of.get(command.words[0].start)
            self._targets_for(command)
            self._device_output(command, rule)
            self._c_source_standard(command, rule)
        for name, statements in self.values.items():
            if name not in cuda_vars and name not in self.compilers:
                for st in statements:
                    self._options(st.words, cuda=False)
        for statements in self.values.values():
            for st in statements:
                if st.words:
                    self._hand_tool(_Command(st.words[:1], 0))
        for command in other_commands:
            self._hand_tool(command)
            self._options(command.words[1:], cuda=False)
        self._host_compiles(
            commands, {c.words[0].start for c in cuda_commands if c.words[0].start not in hand}, rule_of
        )
        if self.uses_rdc:
            # Only needed here: most makefiles never compile with -rdc, and this reads every variable's options.
            rdc_vars = {n for n in self.values if self._carries_rdc(n)}
            for command in cuda_commands:
                if command.words[0].start not in hand:
                    self._rdc_at_link(command, rdc_vars)
        self._insertions()
        self._library_variables()
        self._shell_functions()
        self._renames()
        self._preamble()
        return BuildResult(tuple(sorted(self.out.edits)), tuple(self.out.diagnostics))

    def _has_nvcc_options(self) -> bool:
        return any(self._nvcc_only(sts) for sts in self.values.values())

    def _nvcc_only(self, statements: list[Statement]) -> bool:
        for st in statements:
            words = [w.text for w in st.words]
            for _, change in translate_words(words, self.context):
                if change.kind not in (KIND_LIBRARY, KIND_PATH, KIND_HAND):
                    return True
        return False

    def _hand_options(self, command: _Command) -> bool:
        """Does the command ask nvcc for a step hipcc has no counterpart for (``-dlink``, ``-cuda``)?"""
        words = [w.text for w in command.words[1:]]
        return any(
            change.hand_work and not is_library_option(words[i]) for i, change in translate_words(words, self.context)
        )

    def _carries_rdc(self, name: str) -> bool:
        for var in self._closure([name]):
            for st in self.values.get(var, ()):
                if self._words_rdc([w.text for w in st.words]):
                    return True
        return False

    def _words_rdc(self, words: Sequence[str]) -> bool:
        if RDC_FLAG in words:
            return True
        return any(change.kind == KIND_RDC for _, change in translate_words(words, self.context))

    def _compiler_word(self, word: Word, prefix: int) -> None:
        text = word.text[prefix:]
        if word.start in self.out.taken:
            return
        if is_nvcc(text):
            self._to_hipcc(word, prefix)
            return
        lookup = _nvcc_lookup(text)
        if lookup is not None:  # $(shell which nvcc): look for hipcc
            self.out.taken.add(word.start)
            start = word.start + prefix + lookup.start("tool")
            end = word.start + prefix + lookup.end("tool")
            self.out.edits.append(Edit(start, end, HIPCC, TRANSLATE, Origin.TEXT, lookup.group("tool")))

    def _to_hipcc(self, word: Word, prefix: int) -> None:
        """The compiler word (after make's recipe prefixes) becomes hipcc."""
        self.out.taken.add(word.start)
        self.out.edits.append(Edit(word.start + prefix, word.end, HIPCC, TRANSLATE, Origin.TEXT, word.text[prefix:]))

    def _lookups_in_conditions(self) -> None:
        """``ifeq ($(shell which nvcc),)``: the test looks for the compiler the build now calls."""
        for st in self.statements:
            if st.kind != CONDITIONAL:
                continue
            for word in st.words:
                for m in _LOOKUP.finditer(word.text):
                    if is_nvcc(m.group("tool")):
                        start, end = word.start + m.start("tool"), word.start + m.end("tool")
                        self.out.edits.append(Edit(start, end, HIPCC, TRANSLATE, Origin.TEXT, m.group("tool")))

    def _options(self, words: Sequence[Word], cuda: bool, report_only: bool = False) -> None:
        texts = [w.text for w in words]
        arch_done = False
        linked: set[str] = set()  # libraries this list names after translation (-lcuda -lcudart: one -lamdhip64)
        for i, change in translate_words(texts, self.arch_context, rocm_root=ROCM_ROOT, rocm_var=f"$({ROCM_VARIABLE})"):
            # Outside the CUDA compiler's reach only libraries and installation paths change.
            library = is_library_option(texts[i])
            library_or_path = change.kind in (KIND_LIBRARY, KIND_PATH) or (change.kind == KIND_HAND and library)
            if not cuda and not library_or_path:
                continue
            span = words[i : i + change.consumed]
            if report_only and not change.hand_work:
                continue
            if change.kind == KIND_ARCH and change.words:
                self.used_arch = True
                if arch_done:
                    change = OptionChange(change.consumed, (), change.reason, kind=KIND_ARCH)
                arch_done = True
            if change.kind == KIND_RDC:
                self.uses_rdc = True
            new = change.words
            if not cuda and change.kind == KIND_LIBRARY and not new:
                new = ("-lamdhip64",)  # a host compiler links: it needs the HIP runtime named
                if not any(t.startswith(("-L", "-Wl,-L")) for t in texts):
                    new = (f"-L$({ROCM_VARIABLE})/lib", *new)  # where ROCm keeps it (not a default search path)
                    self.used_rocm_var = True
            if change.kind == KIND_LIBRARY:
                if new and (new[-1] in linked or new[-1] in texts):
                    new = ()
                linked.update(new)
            if change.hand_work:
                if span[0].start in self.out.taken:
                    continue
                self.out.taken.add(span[0].start)
                what = " ".join(texts[i : i + change.consumed])
                if library and not report_only:
                    # Left in the link it fails every program's link, also of those that never call it; the
                    # sources that do call it report their calls themselves.
                    self.out.report(HAND_WORK, f"{what} removed from the link: {change.reason}", span[0].start,
                                    Severity.WARNING, texts[i])  # fmt: skip
                    self.out.taken.discard(span[0].start)
                    self.out.replace_words(span, (), texts[i])
                    continue
                self.out.report(HAND_WORK, f"{what}: {change.reason}", span[0].start, Severity.WARNING, texts[i])
                continue
            if any(f"$({ROCM_VARIABLE})" in w for w in new):
                self.used_rocm_var = True
            if change.kind == KIND_DROPPED and span[0].start not in self.out.taken:
                self.out.report(
                    DROPPED,
                    f"{' '.join(texts[i : i + change.consumed])} dropped: {change.reason}",
                    span[0].start,
                    Severity.INFO,
                    texts[i],
                )
            self.out.replace_words(span, new, texts[i])

    def _after(self, word: Word, *new: str) -> None:
        """Words to insert right after a command word (one edit per command: the order is kept)."""
        self.after_compiler.setdefault(word.end, []).extend(w for w in new if w)

    def _insertions(self) -> None:
        for offset, words in sorted(self.after_compiler.items()):
            if words:
                self.out.insert(offset, " " + " ".join(words), words[0])

    def _reaching(self, command: _Command, certain: bool = False) -> list[str]:
        """The words of a command and of the variables it (and its compiler variable) references."""
        own = [w.text for w in command.words]
        names = [n for w in own for n in references(w)]
        return own + self._values_of(names, certain)

    def _targets_for(self, command: _Command) -> None:
        """Every compile or link by the CUDA compiler names the GPU targets: hipcc's default is one GPU of its
        choosing, not the ones chosen. An architecture option set only in a conditional may not be set."""
        words = self._reaching(command, certain=True)
        if any(w in _QUERIES for w in words):
            return
        if any(w.startswith("--offload-arch") for w in words):
            return
        if any(change.kind == KIND_ARCH and change.words for _, change in translate_words(words, self.context)):
            return
        self.used_arch = True
        self._after(command.words[0], f"--offload-arch=$({ARCH_VARIABLE})")

    def _device_output(self, command: _Command, rule: Statement | None) -> None:
        """``nvcc -ptx a.cu`` writes a.ptx, ``nvcc -cuda a.cu`` a.cu.cpp.ii, ``nvcc -lib`` a.a; hipcc writes a.out
        or to standard output: name the output as nvcc did."""
        words = [w.text for w in command.words[1:]]
        kinds = {change.kind for _, change in translate_words(words, self.context)}
        if not kinds & {KIND_DEVICE, KIND_STEP}:
            return
        if any(w == "-o" or (w.startswith("-o") and not w.startswith("-opt")) or w.startswith("--output-file")
               for w in words):  # fmt: skip
            return
        output = nvcc_default_output(words)
        if output is None:
            return
        suffix, name = output
        if rule is not None and any(t.text.endswith(suffix) for t in rule.targets):
            name = "$@"  # the rule makes the file
        if not name:
            return
        last = command.words[-1]
        self.out.insert(last.end, f" -o {name}", "-o")

    def _c_source_standard(self, command: _Command, rule: Statement | None) -> None:
        """A C source compiled by the CUDA compiler: nvcc gave it to the host C compiler, which ignored a C++
        ``-std``; clang rejects one. The flags variables are read without it, a literal one is dropped."""
        if not self._compiles(command, rule, (".c",)):
            return
        for word in command.words[1:]:
            if _is_cxx_standard(word.text) and word.start not in self.out.taken:
                self.out.report(DROPPED, f"{word.text} dropped: the compile of a C source takes no C++ standard "
                                f"(nvcc's host compiler ignored it; clang rejects it)", word.start, Severity.INFO,
                                word.text)  # fmt: skip
                self.out.replace_words([word], (), word.text)
                continue
            name = reference_name(word.text)
            if not name or word.start in self.out.taken:
                continue
            if any(_is_cxx_standard(w) for w in self._values_of([name])):
                self.out.taken.add(word.start)
                new = f"$(filter-out {_CXX_STANDARDS},{word.text})"
                self.out.edits.append(Edit(word.start, word.end, new, TRANSLATE, Origin.TEXT, word.text))

    def _compiles(self, command: _Command, rule: Statement | None, suffixes: tuple[str, ...]) -> list[str]:
        """The sources with one of ``suffixes`` a command compiles, as far as the makefile says: named in it (or
        in the variables it references), or its rule's prerequisites through ``$<``/``$^``; a pattern rule
        (``%.o: %.c``, ``.c.o:``) answers with its pattern."""
        words = self._files(w.text for w in command.words[1:])
        found = [w for w in words if w.endswith(suffixes) and not w.startswith("-")]
        if rule is not None and any(a in w.text for w in command.words for a in _AUTOMATIC_INPUTS):
            found += [w for w in self._files(w.text for w in rule.words) if w.endswith(suffixes)]
            for target in rule.targets:  # .c.o: the suffix rule compiling .c files
                m = re.fullmatch(r"(\.[\w+]+)(\.[\w+]+)", target.text)
                if m and m.group(1) in suffixes:
                    found.append("%" + m.group(1))
        return found

    def _files(self, words: Iterable[str], seen: frozenset[str] = frozenset()) -> list[str]:
        """The words a list of words stands for as file names: plain ``$(X)`` references expanded, the patterns of
        ``$(wildcard ...)`` taken; a substitution (``$(SRC:.c=.o)``) or another function names other files."""
        out: list[str] = []
        for word in words:
            name = reference_name(word)
            if name:
                if name not in seen:
                    for st in self.values.get(name, ()):
                        out += self._files((w.text for w in st.words), seen | {name})
                continue
            m = re.fullmatch(r"\$[({]wildcard\s+([^)}]*)[)}]", word)
            kept = re.fullmatch(r"\$[({]filter-out\s+[^,]*,\s*(\$[({][\w.\-]+[)}])\s*[)}]", word)
            if m:
                out += m.group(1).split()
            elif kept:  # $(filter-out -std=c++%,$(CFLAGS)), as this translator writes it: the files stay
                out += self._files([kept.group(1)], seen)
            elif "$(" not in word and "${" not in word:
                out.append(word)
        return out

    def _host_compiles(
        self, commands: Sequence[_Command], cuda: set[int], rule_of: dict[int, Statement | None]
    ) -> None:
        """Compiles of a source whose translation includes the HIP runtime by a host compiler (``gcc``, ``g++``),
        or of a C source by hipcc (which compiles C as C, without HIP's macros): hipcc would define the platform
        and find the headers for HIP code, these need to be told (HIP's headers refuse to guess)."""
        sources = self.context.hip_sources
        if not sources:
            return
        names = {s.rsplit("/", 1)[-1] for s in sources}
        as_hip = {s.rsplit("/", 1)[-1] for s in self.context.hip_compiled_sources}
        compiled: set[str] = set()
        for command in commands:
            is_cuda = command.words[0].start in cuda
            found = self._compiles(command, rule_of.get(command.words[0].start), _HOST_SOURCE_SUFFIXES)
            files = {w.rsplit("/", 1)[-1] for w in found}
            patterns = tuple(w[w.rfind(".") :] for w in files if "%" in w or "*" in w)
            hits = {n for n in names if n in files or n.endswith(patterns)} if patterns else names & files
            compiled |= hits  # by whatever compiler: no built-in rule compiles these
            if not is_cuda and not self._is_host_compiler(command):
                continue
            if is_cuda:
                hits = {n for n in hits if n.endswith(".c")}
            if not hits:
                continue
            if not is_cuda and self._compile_as_hip(command, hits & as_hip):
                # hipcc defines the platform and finds the headers for HIP code; it compiles C as C, without them
                if any(n.endswith(".c") for n in hits):
                    self._after(command.words[0], HIP_PLATFORM_DEFINE)
                continue
            if any(
                w == HIP_PLATFORM_DEFINE or w.startswith(HIP_PLATFORM_DEFINE + "=") for w in self._reaching(command)
            ):
                continue
            if is_cuda:
                self._after(command.words[0], HIP_PLATFORM_DEFINE)
            else:
                self.used_rocm_var = True
                self._after(command.words[0], HIP_PLATFORM_DEFINE, f"-I$({ROCM_VARIABLE})/include")
        self._built_in_compiles(names - compiled, as_hip)

    def _compile_as_hip(self, command: _Command, sources: set[str]) -> bool:
        """A host compile of a source whose translation uses bfloat16 types (hip_bf16.h is no plain C++: g++
        stops in its device builtins; CUDA's cuda_bf16.h is) -> hipcc, which compiles a .cpp as HIP. A pattern
        rule's other sources are compiled by hipcc too, which compiles any C++ a host compiler does."""
        word = command.words[0]
        if not sources or word.start in self.out.taken or any(not s.endswith(_CXX_SOURCE_SUFFIXES) for s in sources):
            return False
        text = word.text[command.prefix :]
        self._to_hipcc(word, command.prefix)
        self._targets_for(command)
        self.out.report(
            DROPPED,
            f"{' '.join(sorted(sources))} compiled by {HIPCC} instead of {text}: its translation uses bfloat16 "
            "types, whose HIP header only the HIP compiler compiles",
            word.start + command.prefix,
            Severity.INFO,
            text,
        )
        return True

    def _built_in_compiles(self, names: set[str], as_hip: set[str]) -> None:
        """Sources no command here compiles whose object the makefile names (``app: main.o``): make's built-in
        rule compiles them with ``$(CPPFLAGS)``, so the flags go there (appended at the end of the file, after
        any assignment of its own); one using bfloat16 types is compiled by hipcc (``main.o: CXX = hipcc``, a
        variable of that object's rule alone)."""
        objects = {w.text.rsplit("/", 1)[-1] for st in self.statements for w in (*st.words, *st.targets)}
        wanted = sorted(n for n in names if n.rsplit(".", 1)[0] + ".o" in objects)
        if not wanted or self.open_at_end:
            return
        by_hipcc = [
            n
            for n in wanted
            if n in as_hip and n.endswith(_CXX_SOURCE_SUFFIXES) and not self._sets_cxx_for(n.rsplit(".", 1)[0] + ".o")
        ]
        flagged = any(HIP_PLATFORM_DEFINE in w for w in self._values_of(["CPPFLAGS"]))
        if flagged and not by_hipcc:
            return
        text = self.text
        lead = "" if not text or text.endswith("\n") else "\n"
        line = lead
        if not flagged:
            self.used_rocm_var = True
            line += f"\n# make's built-in rules compile {' '.join(wanted)}, which include the HIP runtime\n"
            line += f"CPPFLAGS += {HIP_PLATFORM_DEFINE} -I$({ROCM_VARIABLE})/include\n"
        if by_hipcc:
            verb = "uses" if len(by_hipcc) == 1 else "use"
            line += f"\n# {' '.join(by_hipcc)} {verb} bfloat16 types, whose HIP header only the HIP compiler compiles\n"
            self.used_arch = True
            compiler = f"{HIPCC} --offload-arch=$({ARCH_VARIABLE})"
            line += "".join(f"{n.rsplit('.', 1)[0]}.o: CXX = {compiler}\n" for n in by_hipcc)
            self.out.report(
                DROPPED,
                f"{' '.join(by_hipcc)} compiled by {HIPCC} (make's built-in rule, CXX set for its object): its "
                "translation uses bfloat16 types, whose HIP header only the HIP compiler compiles",
                len(text),
                Severity.INFO,
                "CXX",
            )
        self.out.insert(len(text), line, "CPPFLAGS")

    def _sets_cxx_for(self, target: str) -> bool:
        """The file already sets ``CXX`` for ``target`` alone (``sum.o: CXX = hipcc``)."""
        return (
            re.search(rf"^{re.escape(target)}[ \t]*:[ \t]*(?:override[ \t]+)?CXX[ \t]*[:+?]?=", self.text, re.M)
            is not None
        )

    def _is_host_compiler(self, command: _Command) -> bool:
        first = command.words[0].text[command.prefix :]
        return _is_host_compiler(first) or reference_name(first) in self.hosts

    def _hand_tool(self, command: _Command) -> None:
        word = command.words[0]
        name = word.text[command.prefix :].rsplit("/", 1)[-1].strip("'\"")
        what = HAND_TOOLS.get(name)
        if what is not None and word.start not in self.out.taken:
            self.out.taken.add(word.start)
            self.out.report(
                HAND_WORK,
                f"this step runs {name}, {what}: port it by hand",
                word.start + command.prefix,
                Severity.WARNING,
                name,
            )

    def _rdc_at_link(self, command: _Command, rdc_vars: set[str]) -> None:
        texts = [w.text for w in command.words[1:]]
        if any(t in _COMPILE_ONLY for t in texts) or self._words_rdc(texts):
            return
        if any(n in rdc_vars for t in texts for n in references(t)):
            return
        self._after(command.words[0], RDC_FLAG)
        self.after_compiler[command.words[0].end].sort(key=lambda w: w != RDC_FLAG)  # -fgpu-rdc first

    def _library_variables(self) -> None:
        """Libraries named through a variable that reaches a link as ``-l<word>`` (``-l$(CUDARTLIB)``,
        ``$(LIBRARIES:%=-l%)``, ``$(addprefix -l,$(LIBS))``): each word of its value that is a CUDA library becomes
        the ROCm one, as a literal ``-l`` would (the HIP runtime is named, since ``-l`` must stay followed by a
        name). Only variables in such a position: the word ``cudart`` anywhere else is left alone."""
        names: list[str] = []
        for st in self.statements:
            for word in (*st.words, *st.targets, *st.recipe):
                names += [next(filter(None, m.group(*_NAME_GROUPS))) for m in _LIBRARY_REFERENCE.finditer(word.text)]
        for name in sorted(self._closure(names)):
            for st in self.values.get(name, ()):
                for word in st.words:
                    if word.start in self.out.taken or not _LIBRARY_WORD.fullmatch(word.text):
                        continue
                    change = library_change(word.text, self.context)
                    if change is None:
                        continue
                    if change.hand_work:
                        self.out.taken.add(word.start)
                        self.out.report(
                            HAND_WORK,
                            f"{word.text} (a library linked through $({name})): {change.reason}",
                            word.start,
                            Severity.WARNING,
                            word.text,
                        )
                        continue
                    self.out.replace_words([word], [change.name or _HIP_RUNTIME_LIBRARY], word.text)

    def _shell_functions(self) -> None:
        """``$(shell nvidia-smi ...)``, ``$(shell nvcc --version)`` in any statement: hand work."""
        for st in self.statements:
            for word in (*st.words, *st.targets, *st.recipe):
                for m in _SHELL_FUNCTION.finditer(word.text):
                    tool = m.group(1).rsplit("/", 1)[-1]
                    if tool in HAND_TOOLS or is_nvcc(m.group(1)):
                        what = HAND_TOOLS.get(tool, "the CUDA compiler")
                        self.out.report(
                            HAND_WORK,
                            f"$(shell {m.group(1)} ...) runs {what}: port it by hand",
                            word.start + m.start(),
                            Severity.WARNING,
                            tool,
                        )

    def _renames(self) -> None:
        pattern = _rename_pattern(self.context.renamed)
        if pattern is None:
            return
        names = dict(self.context.renamed)
        suffixes = _suffix_renames(self.context.renamed)
        for st in self.statements:
            if st.kind not in (ASSIGN, DEFINE, RULE, RECIPE, INCLUDE):
                continue
            for word in (*st.targets, *st.words, *st.recipe):
                if word.start in self.out.taken:
                    continue
                new = pattern.sub(lambda m: _renamed(m, names, suffixes), word.text)
                if new != word.text:
                    self.out.replace_words([word], [new], word.text)

    def _preamble(self) -> None:
        lines = []
        if self.used_arch and ARCH_VARIABLE not in self.values:
            targets = ",".join(self.context.offload_arch)
            lines.append(f"# AMD GPU targets hipcc compiles for (comma-separated): make {ARCH_VARIABLE}=gfx942\n")
            lines.append(f"{ARCH_VARIABLE} ?= {targets}\n")
        if self.used_rocm_var and ROCM_VARIABLE not in self.values:
            lines.append(f"{ROCM_VARIABLE} ?= {ROCM_ROOT}\n")
        if not lines:
            return
        at = next((i for i, st in enumerate(self.statements) if st.kind not in ("blank", "comment")), None)
        first = self.statements[at] if at is not None else None
        offset = first.start if first is not None else len(self.text)
        # Before the comment that belongs to the first statement (the comment lines right above it).
        while at is not None and at > 0 and self.statements[at - 1].kind == "comment":
            at -= 1
            offset = self.statements[at].start
        text = "".join(lines)
        if first is not None:
            text += "\n"
        elif self.text and not self.text.endswith("\n"):
            text = "\n" + text
        self.out.insert(offset, text, ARCH_VARIABLE)


# A variable whose words are library names at a link: -l$(X), $(X:%=-l%), $(addprefix -l,$(X)),
# $(patsubst %,-l%,$(X)), $(foreach v,$(X),-l$(v)).
_OPEN, _CLOSE = r"\$[({]", r"[)}]"


def _ref(group: str) -> str:
    return _OPEN + f"(?P<{group}>[A-Za-z_][A-Za-z0-9_]*)" + _CLOSE


_LIBRARY_REFERENCE = re.compile(
    "|".join(
        (
            r"(?:^|(?<=[\s,]))-l" + _ref("name"),
            _OPEN + r"(?P<name2>[A-Za-z_][A-Za-z0-9_]*):%=-l%" + _CLOSE,
            _OPEN + r"addprefix\s+-l\s*,\s*" + _ref("name3") + r"\s*" + _CLOSE,
            _OPEN + r"patsubst\s+%\s*,\s*-l%\s*,\s*" + _ref("name4") + r"\s*" + _CLOSE,
            _OPEN
            + r"foreach\s+(?P<loop>\w+)\s*,\s*"
            + _ref("name5")
            + r"\s*,\s*-l"
            + _OPEN
            + "(?P=loop)"
            + _CLOSE
            + r"\s*"
            + _CLOSE,
        )
    )
)
_NAME_GROUPS = ("name", "name2", "name3", "name4", "name5")
_LIBRARY_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_+.\-]*")
# What the CUDA runtime's library becomes where a name must stay (-l$(CUDARTLIB)): HIP's runtime library.
_HIP_RUNTIME_LIBRARY = "amdhip64"


def _suffix_renames(renamed: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Extensions every renamed source changed the same way (.cu -> .hip): patterns like %.cu follow them."""
    found: dict[str, set[str]] = {}
    for old, new in renamed:
        old_stem, _, old_ext = old.rpartition(".")
        new_stem, _, new_ext = new.rpartition(".")
        if old_stem and old_stem == new_stem:
            found.setdefault("." + old_ext, set()).add("." + new_ext)
    return {old: next(iter(new)) for old, new in found.items() if len(new) == 1}


def _rename_pattern(renamed: Sequence[tuple[str, str]]) -> re.Pattern[str] | None:
    if not renamed:
        return None
    names = sorted({re.escape(old) for old, _ in renamed}, key=len, reverse=True)
    suffixes = sorted({re.escape(s) for s in _suffix_renames(renamed)}, key=len, reverse=True)
    alternatives = [rf"(?P<name>(?<![\w.\-])(?:{'|'.join(names)}))(?![\w.\-])"]
    if suffixes:
        # %.cu, *.cu, $(SRC:.cu=.o), $(patsubst %.cu,...), the suffix rule .cu.o
        alternatives.append(
            rf"(?P<suffix>(?<=[%*:])(?:{'|'.join(suffixes)})|^(?:{'|'.join(suffixes)})(?=\.))(?![\w\-])"
        )
    return re.compile("|".join(alternatives))


def _renamed(m: re.Match[str], names: dict[str, str], suffixes: dict[str, str]) -> str:
    if m.group("name"):
        return names[m.group("name")]
    return suffixes[m.group(0)]


def _nvcc_lookup(word: str) -> re.Match[str] | None:
    """``$(shell which nvcc 2>/dev/null)`` (the whole word): the compiler found at run time (the match's ``tool``
    group)."""
    m = _LOOKUP.match(word)
    if m is None or not is_nvcc(m.group("tool")) or word[-1:] not in (")", "}"):
        return None
    return m if word.count("$(") + word.count("${") == 1 else None


def _first_command_word(words: Sequence[Word]) -> int | None:
    """The index of what a command of a value runs: its first word, unless that is an option (``NVCC += -G``, a
    list of flags: None). A word after options is no command (``CFLAGS += -D X --default-stream per-thread nvcc``:
    an option's value, or a flag list that runs on); counting it would make a translation that joins an option
    with its value (``-fgpu-default-stream=per-thread``) read the next word as the compiler."""
    return 0 if words and not words[0].text.startswith("-") else None


def _is_host_compiler(word: str) -> bool:
    return _HOST_COMPILER.fullmatch(word.rsplit("/", 1)[-1]) is not None


def _is_cxx_standard(word: str) -> bool:
    return word.startswith(("-std=c++", "-std=gnu++", "--std=c++", "--std=gnu++"))


def translate(text: str, path: str, context: BuildContext) -> BuildResult:
    """The edits that make a GNU make file build with hipcc (see the module doc); never raises."""
    try:
        return _Makefile(text, context).translate()
    except Exception as exc:  # a reader bug must not lose the run: report it, leave the file as it is
        diag = Diagnostic(
            "HPY204", f"internal error in the make translator: {type(exc).__name__}: {exc}", severity=Severity.ERROR
        )
        return BuildResult((), (diag,))
