"""GNU make files (Makefile, *.mk, included makefiles) translated for hipcc.

What reaches the CUDA compiler is found by reading the makefile (``make_reader``), not by searching its text:

- the CUDA compiler: ``nvcc`` (or a path to it) as a recipe's command or as the first word of a variable's value
  (``NVCC ?= nvcc``, ``CC = $(CUDA_HOME)/bin/nvcc``, and variables whose value starts with such a variable)
  becomes ``hipcc``;
- its options: the words after it in a recipe command, and the values of the variables those words reference
  (transitively: ``FLAGS = $(CFLAGS) $(GENCODE)``) are translated by ``nvcc_options``; a variable no recipe of
  this file uses (a common.mk's ``NVCC_FLAGS``) is translated when its value holds an option only nvcc takes;
- other commands (``$(CXX) ... -lcudart``): only CUDA libraries and paths under the CUDA installation change (the
  CUDA runtime becomes ``-lamdhip64``, which a host compiler needs where hipcc would add it itself);
- the GPU targets: ``--offload-arch=$(HIP_ARCH)``, with ``HIP_ARCH ?= <targets>`` added before the file's first
  statement so that ``make HIP_ARCH=gfx942`` picks others (``ROCM_PATH ?= /opt/rocm`` likewise where a
  ``$(CUDA_HOME)`` path became ``$(ROCM_PATH)``);
- relocatable device code: where any compile uses it, every link by the CUDA compiler gets ``-fgpu-rdc`` too;
- renamed sources (``--rename-extensions``: a.cu -> a.hip) are renamed in every word, with the patterns that
  name them (``%.cu``, ``*.cu``, ``$(SRC:.cu=.o)``);
- what has no translation (``ptxas``, ``cuobjdump``, ``nvidia-smi``, ``nvcc --ptx``, ``-lnvidia-ml``) is
  reported at its word as hand work (HPY119) and left as written.

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
from .make_reader import ASSIGN, DEFINE, INCLUDE, RECIPE, RULE, Statement, Word, read, reference_name, references
from .nvcc_options import (
    KIND_ARCH,
    KIND_DROPPED,
    KIND_HAND,
    KIND_LIBRARY,
    KIND_PATH,
    KIND_RDC,
    RDC_FLAG,
    OptionChange,
    is_nvcc,
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


class _Makefile:
    def __init__(self, text: str, context: BuildContext) -> None:
        self.text = text
        self.context = context
        self.statements = read(text)
        self.values: dict[str, list[Statement]] = {}
        for st in self.statements:
            if st.kind in (ASSIGN, DEFINE) and st.name:
                self.values.setdefault(st.name, []).append(st)
        self.compilers = self._compiler_variables()
        self.out = _Edits(text)
        self.arch_context = replace(context, offload_arch=(f"$({ARCH_VARIABLE})",))
        self.used_arch = False
        self.used_rocm_var = False
        self.uses_rdc = False

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
                    if st.words and self._is_compiler_word(st.words[0].text, found):
                        found.add(name)
                        changed = True
                        break
        return found

    @staticmethod
    def _is_compiler_word(word: str, compilers: set[str]) -> bool:
        return is_nvcc(word) or reference_name(word) in compilers

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

    def _command_lines(self) -> list[tuple[Statement, list[_Command]]]:
        out = []
        for st in self.statements:
            if st.kind == RECIPE:
                out.append((st, _commands(st.words)))
            elif st.kind == RULE and st.recipe:
                out.append((st, _commands(st.recipe)))
        return out

    # -- translation ---------------------------------------------------------------------------------------

    def translate(self) -> BuildResult:
        commands = [c for _, cs in self._command_lines() for c in cs]
        cuda_commands = [c for c in commands if self._is_compiler_word(c.words[0].text[c.prefix :], self.compilers)]
        other_commands = [c for c in commands if c not in cuda_commands]
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
                self._compiler_word(st.words[0], 0)
                self._options(st.words[1:], cuda=True)
        for name in sorted(cuda_vars):
            for st in self.values.get(name, ()):
                self._options(st.words, cuda=True)
        for command in cuda_commands:
            self._compiler_word(command.words[0], command.prefix)
            self._options(command.words[1:], cuda=True)
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
        if self.uses_rdc:
            # Only needed here: most makefiles never compile with -rdc, and this reads every variable's options.
            rdc_vars = {n for n in self.values if self._carries_rdc(n)}
            for command in cuda_commands:
                self._rdc_at_link(command, rdc_vars)
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
        if is_nvcc(text) and word.start not in self.out.taken:
            self.out.taken.add(word.start)
            self.out.edits.append(Edit(word.start + prefix, word.end, HIPCC, TRANSLATE, Origin.TEXT, text))

    def _options(self, words: Sequence[Word], cuda: bool) -> None:
        texts = [w.text for w in words]
        arch_done = False
        linked: set[str] = set()  # libraries this list names after translation (-lcuda -lcudart: one -lamdhip64)
        for i, change in translate_words(texts, self.arch_context, rocm_root=ROCM_ROOT, rocm_var=f"$({ROCM_VARIABLE})"):
            # Outside the CUDA compiler's reach only libraries and installation paths change.
            library_or_path = change.kind in (KIND_LIBRARY, KIND_PATH) or (
                change.kind == KIND_HAND and texts[i].startswith("-l")
            )
            if not cuda and not library_or_path:
                continue
            span = words[i : i + change.consumed]
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
            if change.kind == KIND_LIBRARY:
                if new and (new[0] in linked or new[0] in texts):
                    new = ()
                linked.update(new)
            if change.hand_work:
                if span[0].start not in self.out.taken:
                    self.out.taken.add(span[0].start)
                    self.out.report(
                        HAND_WORK,
                        f"{' '.join(texts[i : i + change.consumed])}: {change.reason}",
                        span[0].start,
                        Severity.WARNING,
                        texts[i],
                    )
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
        first = command.words[0]
        self.out.insert(first.end, f" {RDC_FLAG}", RDC_FLAG)

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


def translate(text: str, path: str, context: BuildContext) -> BuildResult:
    """The edits that make a GNU make file build with hipcc (see the module doc); never raises."""
    try:
        return _Makefile(text, context).translate()
    except Exception as exc:  # a reader bug must not lose the run: report it, leave the file as it is
        diag = Diagnostic(
            "HPY204", f"internal error in the make translator: {type(exc).__name__}: {exc}", severity=Severity.ERROR
        )
        return BuildResult((), (diag,))
