"""nvcc's command-line options -> hipcc's (clang's), for every build-file format.

Works on a list of words already split by the build file's reader (make's, CMake's): the reader knows what
reaches the CUDA compiler; this module knows what each nvcc option means and what hipcc takes instead.

API:
- :func:`translate_option` ``(words, i, context, *, rocm_root, rocm_var) -> OptionChange | None``: the option
  starting at ``words[i]``; None when it is not an nvcc option this module changes (``-O2``, ``-c``, ``-o``,
  ``-DX``, ``-I./inc`` pass through as they are). An ``OptionChange`` replaces ``words[i:i+consumed]`` by
  ``words`` (``()`` = dropped); ``reason`` says why (for a review note); ``hand_work`` means no translation
  exists (``--ptx``, ``-lnvidia-ml``) and the words are left as written, to be reported; ``kind`` is one of
  the ``KIND_*`` values below, so a reader can act on the class (add ``-fgpu-rdc`` to the link too after
  ``KIND_RDC``; emit the GPU targets once after several ``KIND_ARCH``).
- :func:`translate_words` ``(words, context, ...) -> tuple[(index, OptionChange), ...]``: every change in a
  word list, the GPU targets emitted once however many ``-gencode`` options there were.
- :func:`offload_arch_words` ``(targets) -> tuple[str, ...]``: ``("--offload-arch=gfx90a",)``; a reader that
  keeps the targets in a variable users can override passes ``("$(HIP_ARCH)",)`` as the targets.
- :func:`is_library_option` ``(word) -> bool``: whether an option names a library to link (``-lcublas``).
- :func:`is_nvcc` ``(word) -> bool``: whether a word invokes nvcc (``nvcc``, ``/usr/local/cuda/bin/nvcc``,
  ``$(CUDA_HOME)/bin/nvcc``).

``rocm_root`` replaces a literal CUDA installation path (``/usr/local/cuda/include`` -> ``/opt/rocm/include``),
``rocm_var`` a variable that names it (``$(CUDA_HOME)/include`` -> ``$(ROCM_PATH)/include`` in make).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import BuildContext
from .libraries import is_cuda_root, library_change, rocm_path
from .nvcc_help import NvccOption, spelling_index

KIND_ARCH = "arch"  # GPU targets (-arch, -gencode, --gpu-architecture)
KIND_RDC = "rdc"  # relocatable device code: -fgpu-rdc, needed at compile and at link
KIND_LIBRARY = "library"  # -l<cuda library>
KIND_PATH = "path"  # -I/-L under the CUDA installation
KIND_HOST = "host"  # options nvcc forwards to the host compiler or linker
KIND_MAPPED = "mapped"  # an nvcc option with a clang spelling
KIND_DROPPED = "dropped"  # an nvcc option with no effect or no equivalent that matters for a build
KIND_HAND = "hand"  # no translation: the step needs porting by hand
KIND_DEVICE = "device"  # a device-only step (-ptx, -cubin, -fatbin): hipcc --genco makes the code object
KIND_STEP = "step"  # a mode that decides what the step makes (-cuda, -lib, -dlink, -M): the whole step translated
KIND_SAME = "same"  # the table's word for an option clang spells the same (the translation leaves it)

RDC_FLAG = "-fgpu-rdc"


@dataclass(frozen=True)
class OptionChange:
    consumed: int  # words of the input it replaces, from the option's first word
    words: tuple[str, ...]  # what replaces them (() = dropped)
    reason: str
    hand_work: bool = False
    kind: str = KIND_MAPPED


def offload_arch_words(targets: Sequence[str]) -> tuple[str, ...]:
    """clang takes several targets comma-separated in one option."""
    return (f"--offload-arch={','.join(targets)}",) if targets else ()


def is_nvcc(word: str) -> bool:
    """``nvcc``, ``/usr/local/cuda/bin/nvcc``, ``$(CUDA_HOME)/bin/nvcc``, ``${CUDA_PATH}/bin/nvcc``."""
    if word == "nvcc":
        return True
    if not word.endswith("/nvcc"):
        return False
    return is_cuda_root(word[: -len("/nvcc")].removesuffix("/bin")) or word.endswith("/bin/nvcc")


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value.replace('\\"', "")


def _split_list(value: str) -> tuple[str, ...]:
    """nvcc's option lists: comma- (or, quoted, space-) separated."""
    return tuple(part for piece in _unquote(value).split() for part in piece.split(",") if part)


# Each handler gets the option's value ("" for a flag) and the context; returns (words, reason, hand, kind).
Handler = Callable[[str, BuildContext], tuple[tuple[str, ...], str, bool, str]]


def _arch(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return (
        offload_arch_words(context.offload_arch),
        f"NVIDIA GPU architecture {_unquote(value) or value} -> AMD GPU targets",
        False,
        KIND_ARCH,
    )


def _code(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return (), "the NVIDIA code targets go with the architecture, now --offload-arch", False, KIND_ARCH


def _rdc(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    if _unquote(value).lower() in ("false", "0"):
        return (), "non-relocatable device code is hipcc's default", False, KIND_DROPPED
    return (RDC_FLAG,), "relocatable device code: -fgpu-rdc (needed at compile and at link)", False, KIND_RDC


def _device_c(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return (RDC_FLAG, "-c"), "-dc compiles relocatable device code: -fgpu-rdc -c", False, KIND_RDC


def _device_w(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return ("-c",), "-dw compiles non-relocatable device code: -c", False, KIND_MAPPED


def _host(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return _split_list(value), "hipcc takes host compiler options directly", False, KIND_HOST


def _linker(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    parts = _split_list(value)
    return ((f"-Wl,{','.join(parts)}",) if parts else ()), "linker options: -Wl,...", False, KIND_HOST


def _fixed(words: tuple[str, ...], reason: str, kind: str = KIND_MAPPED) -> Handler:
    return lambda value, context: (words, reason, False, kind)


def _drop(reason: str) -> Handler:
    return lambda value, context: ((), reason, False, KIND_DROPPED)


def _hand(reason: str) -> Handler:
    return lambda value, context: ((), reason, True, KIND_HAND)


def _bool_flag(when_true: tuple[str, ...], when_false: tuple[str, ...], reason: str) -> Handler:
    def handle(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
        truth = _unquote(value).lower() not in ("false", "0")
        words = when_true if truth else when_false
        return words, reason, False, (KIND_MAPPED if words else KIND_DROPPED)

    return handle


def _language(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return ("-x", "hip"), "the CUDA language is HIP for hipcc", False, KIND_MAPPED


def _default_stream(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    mode = _unquote(value)
    if mode == "per-thread":
        return (
            ("-fgpu-default-stream=per-thread",),
            "clang's spelling of the per-thread default stream",
            False,
            KIND_MAPPED,
        )
    return (), "the legacy default stream is hipcc's default", False, KIND_DROPPED


def _std(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return (f"-std={_unquote(value)}",), "clang's spelling of the language standard", False, KIND_MAPPED


def _optimize(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return (f"-O{_unquote(value)}",), "clang's spelling of the optimization level", False, KIND_MAPPED


def _machine(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return (f"-m{_unquote(value)}",), "clang's spelling of the host word size", False, KIND_MAPPED


def _device_only(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return (
        ("--genco",),
        "a file of device code alone, loaded at run time (cuModuleLoad: hipModuleLoad loads the AMD code object "
        "hipcc --genco makes)",
        False,
        KIND_DEVICE,
    )


def _spelled_as(option: str, joined: bool = True) -> Handler:
    """A long nvcc option clang spells another way (``--include-path=d`` -> ``-Id``, ``--pre-include f`` ->
    ``-include f``)."""

    def handle(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
        words = (f"{option}{value}",) if joined else (option, value)
        return words, f"clang's spelling of nvcc's {option}", False, KIND_MAPPED

    return handle


def _host_code(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return (
        ("-E", "--offload-host-only"),
        "nvcc -cuda writes the file's host code, preprocessed (name.cu.cpp.ii): hipcc -E --offload-host-only",
        False,
        KIND_STEP,
    )


# The device link makes an object that the final link takes with the others; clang links device code at the final
# link (-fgpu-rdc), so the step makes an empty object of the same name: the build's later steps find it.
DEVICE_LINK_WORDS = ("-c", "-x", "c++", "/dev/null", "-x", "none")


def _device_link(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return (
        DEVICE_LINK_WORDS,
        "an explicit device-link step: hipcc links device code at the final link (-fgpu-rdc there), so the step "
        "makes an empty object under the name the build links",
        False,
        KIND_STEP,
    )


def _static_lib(value: str, context: BuildContext) -> tuple[tuple[str, ...], str, bool, str]:
    return ("--emit-static-lib",), "nvcc -lib makes a static library: clang's --emit-static-lib", False, KIND_STEP


def _step_hand(reason: str) -> Handler:
    return lambda value, context: ((), reason, True, KIND_STEP)


_NVIDIA_IR = "it makes NVIDIA intermediate code (LTO-IR, OptiX-IR) that only NVIDIA's tools read: port the step by hand"

# Options that take a value (``-opt value``, ``-opt=value``, ``--long-opt value``, ``--long-opt=value``).
_VALUED: dict[str, Handler] = {}
# Options that take none.
_FLAGS: dict[str, Handler] = {}


def _valued(names: str, handler: Handler) -> None:
    for name in names.split():
        _VALUED[name] = handler


def _flag(names: str, handler: Handler) -> None:
    for name in names.split():
        _FLAGS[name] = handler


_valued("-arch --gpu-architecture", _arch)
_valued("-gencode --generate-code", _arch)
_valued("-code --gpu-code", _code)
_valued("-rdc --relocatable-device-code", _rdc)
_valued("-Xcompiler --compiler-options", _host)
_valued("-Xlinker --linker-options", _linker)
_valued("-ccbin --compiler-bindir", _drop("hipcc uses clang as its host compiler"))
_valued("-Xptxas --ptxas-options", _drop("options of NVIDIA's assembler ptxas; AMD's has none of them"))
_valued("-Xnvlink --nvlink-options", _drop("options of NVIDIA's device linker"))
_valued("-Xcudafe", _drop("options of nvcc's front end (diagnostic numbers): clang's differ"))
_valued("-Xcicc -Xfatbin --fatbin-options -Xarchive --archive-options", _drop("options of an nvcc-internal tool"))
_valued(
    "-maxrregcount --maxrregcount",
    _drop("NVIDIA register limit; on AMD GPUs use __launch_bounds__ to bound register use"),
)
_valued("-default-stream --default-stream", _default_stream)
_valued("-std --std", _std)
_valued("--optimize", _optimize)
_valued("-m --machine", _machine)
_valued("-cudart --cudart", _drop("which CUDA runtime nvcc links; hipcc links the HIP runtime"))
_valued("-cudadevrt --cudadevrt", _drop("nvcc's device runtime library; clang needs none"))
_valued("-t --threads -split-compile --split-compile", _drop("nvcc's parallel compilation of targets"))
_valued("-diag-suppress --diag-suppress --diag_suppress -diag_suppress", _drop("nvcc's diagnostic numbers"))
_valued("--diag-warn -diag-warn --diag-error -diag-error", _drop("nvcc's diagnostic numbers"))
_valued("-keep-dir --keep-dir", _drop("where nvcc keeps its intermediate files"))
_valued("-ftz --ftz", _bool_flag(("-fgpu-flush-denormals-to-zero",), (), "flush denormals to zero"))
_valued("-fmad --fmad", _bool_flag((), ("-ffp-contract=off",), "fused multiply-add contraction"))
_valued(
    "-prec-div --prec-div -prec-sqrt --prec-sqrt",
    _drop("clang's HIP division and square root are IEEE unless -ffast-math"),
)
_valued("--Werror", _drop("nvcc's warning classes (cross-execution-space-call, ...)"))
_valued("--run-args -run-args", _drop("arguments for nvcc --run"))
_valued(
    "--compress-mode -compress-mode",
    _drop("nvcc's fatbin compression (clang compresses offload bundles with --offload-compress)"),
)
_valued("-static-global-template-stub --static-global-template-stub", _drop("an nvcc whole-program switch"))
_valued(
    "-device-entity-has-hidden-visibility --device-entity-has-hidden-visibility", _drop("an nvcc visibility switch")
)
_valued("-opt-info --optimization-info -dopt --dopt", _drop("nvcc's optimization reports and device optimization"))
_valued("-jump-table-density --jump-table-density", _drop("an nvcc code generation threshold"))
_valued("-device-stack-protector --device-stack-protector", _drop("nvcc's device stack protector"))
_valued("--include-path", _spelled_as("-I"))
_valued("--system-include", _spelled_as("-isystem", joined=False))
_valued("--library-path", _spelled_as("-L"))
_valued("--define-macro", _spelled_as("-D"))
_valued("--undefine-macro", _spelled_as("-U"))
_valued("--pre-include", _spelled_as("-include", joined=False))
_valued("--output-file", _spelled_as("-o", joined=False))
_valued("--dependency-output", _spelled_as("-MF", joined=False))

_flag("-dc --device-c", _device_c)
_flag("-dw --device-w", _device_w)
# nvcc's fast math is --ftz=true --prec-div=false --prec-sqrt=false --fmad=true and the intrinsic forms of the math
# functions (__sinf for sinf); clang's -ffast-math also assumes no infinity or NaN (-ffinite-math-only), so code
# testing for -INFINITY (masks) or NaN would change meaning: only what nvcc's option says is asked for.
FAST_MATH_WORDS = ("-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt", "-fapprox-func")
_flag(
    "-use_fast_math --use_fast_math -use-fast-math --use-fast-math",
    _fixed(FAST_MATH_WORDS, "nvcc's fast math: flushed denormals, approximate division, square root and functions"),
)
_flag(
    "-lineinfo --generate-line-info",
    _drop("line tables for NVIDIA's profilers (-gline-tables-only gives them to rocprof)"),
)
_flag("-G --device-debug", _fixed(("-g",), "device debug information"))
_flag(
    "-expt-relaxed-constexpr --expt-relaxed-constexpr",
    _drop("clang calls constexpr functions from device code without it"),
)
_flag(
    "-expt-extended-lambda --expt-extended-lambda -extended-lambda --extended-lambda",
    _drop("clang compiles __device__ lambdas without it"),
)
_flag("-Wno-deprecated-gpu-targets", _drop("nvcc's warning about old NVIDIA targets"))
_flag("-Wno-deprecated-declarations", _fixed(("-Wno-deprecated-declarations",), "the same warning in clang"))
_flag("-res-usage --resource-usage", _drop("nvcc's register report (clang: -Rpass-analysis=kernel-resource-usage)"))
_flag("-keep --keep -save-temps --save-temps", _drop("nvcc's intermediate files"))
_flag("-dryrun --dryrun", _drop("nvcc's listing of its steps"))
_flag("-time --time", _drop("nvcc's timing of its steps"))
_flag("--disable-warnings", _fixed(("-w",), "clang's spelling"))
_flag("-allow-unsupported-compiler --allow-unsupported-compiler", _drop("nvcc's host compiler version check"))
_flag(
    "-forward-unknown-to-host-compiler --forward-unknown-to-host-compiler", _drop("hipcc takes host options directly")
)
_flag("-forward-unknown-to-host-linker --forward-unknown-to-host-linker", _drop("hipcc takes linker options directly"))
_flag("-dlto --dlto -lto", _drop("NVIDIA device link-time optimization (clang: -foffload-lto)"))
_flag("-ptx --ptx -cubin --cubin -fatbin --fatbin", _device_only)
_flag("-optix-ir --optix-ir -lto-ir --lto-ir -ltoir --ltoir", _hand(_NVIDIA_IR))
_flag("-cuda --cuda", _host_code)
_flag("--no-compress -no-compress", _drop("nvcc's fatbin compression"))
_flag("-ewp --extensible-whole-program -nodlink --no-device-link", _drop("nvcc's device link choices"))
_flag("-err-no --display-error-number --no-display-error-number", _drop("nvcc's diagnostic numbers"))
_flag("-Wdefault-stream-launch -Wmissing-launch-bounds -Wext-lambda-captures-this", _drop("nvcc's warning classes"))
_flag("--use-local-env -use-local-env", _drop("nvcc's Windows environment switch"))
_flag("--generate-dependencies-with-compile", _fixed(("-MD",), "clang's spelling"))
_flag("--generate-nonsystem-dependencies-with-compile", _fixed(("-MMD",), "clang's spelling"))
_flag("--generate-dependencies", _fixed(("-M",), "clang's spelling"))
_flag("--generate-nonsystem-dependencies", _fixed(("-MM",), "clang's spelling"))
_flag("--compile", _fixed(("-c",), "clang's spelling"))
_flag("--preprocess", _fixed(("-E",), "clang's spelling"))
_flag("--shared", _fixed(("-shared",), "clang's spelling"))
_flag("--debug", _fixed(("-g",), "clang's spelling"))
_flag("-dlink --device-link", _device_link)
_flag("-lib --lib", _static_lib)
_flag("-link --link", _fixed((), "linking is hipcc's default step", KIND_STEP))
_flag("-run --run", _step_hand("nvcc --run builds and runs the program in one step: run the program hipcc builds"))
_flag("-clean --clean-targets", _step_hand("nvcc -clean deletes the files a step would make: delete them with rm"))
_flag("-code-ls --list-gpu-code -arch-ls --list-gpu-arch", _step_hand("a query of nvcc's NVIDIA targets"))
_flag("-fdevice-syntax-only --fdevice-syntax-only", _fixed(("-fsyntax-only",), "a check of the source only", KIND_STEP))
_valued("-optf --options-file", _step_hand("nvcc's options read from a file: translate that file's options by hand"))
_valued("-odir --output-directory", _step_hand("where nvcc writes its outputs: name each output with -o"))
_flag("-r --relocatable-link", _step_hand("nvcc's relocatable link of device code: port the step by hand"))
_flag("-noeh --no-exceptions", _fixed(("-fno-exceptions",), "clang's spelling"))
_flag("-pg --profile", _fixed(("-pg",), "the same option of clang"))
_flag("--verbose", _fixed(("-v",), "clang's spelling"))
_flag("--m64", _fixed(("-m64",), "clang's spelling"))
_flag("--generate-dependency-targets", _fixed(("-MP",), "clang's spelling"))
_valued("--dependency-target-name", _spelled_as("-MT", joined=False))
_valued("-ftemplate-depth --ftemplate-depth", _spelled_as("-ftemplate-depth="))
_valued("-ftemplate-backtrace-limit --ftemplate-backtrace-limit", _spelled_as("-ftemplate-backtrace-limit="))
_valued("-frandom-seed --frandom-seed", _spelled_as("-frandom-seed="))
_flag("-Wreorder --Wreorder", _fixed(("-Wreorder",), "the same warning in clang"))
_flag("-objtemp --objdir-as-tempdir", _drop("where nvcc keeps its intermediate files"))
_valued("-arbin --archiver-binary", _drop("the archiver nvcc -lib runs; clang's --emit-static-lib uses its own"))
_valued("-ldir --libdevice-directory", _drop("where NVIDIA's libdevice is; clang finds ROCm's device libraries"))
_valued("-target-dir --target-directory", _drop("the CUDA toolkit's target folder for cross compilation"))
_flag("-force-cl-env-setup --force-cl-env-setup", _drop("nvcc's Windows environment switch"))
_valued("-Ofc --Ofast-compile", _drop("nvcc's fast-compile levels"))
_flag("-gen-opt-lto --gen-opt-lto", _drop("NVIDIA device link-time optimization"))
_flag("-forward-unknown-opts --forward-unknown-opts", _drop("hipcc takes host options directly"))
_flag("-noprof --dont-use-profile", _drop("nvcc's nvcc.profile file"))
_valued("-split-compile-extended --split-compile-extended", _drop("nvcc's parallel compilation of targets"))
_valued("-fdevice-time-trace --fdevice-time-trace", _drop("nvcc's device time trace (clang: -ftime-trace)"))
_valued("-idp --input-drive-prefix -ddp --dependency-drive-prefix -dp --drive-prefix", _drop("Windows drive prefixes"))
_flag("--no-align-double", _drop("a 32-bit host switch of nvcc"))
_valued("-e --entries", _drop("the kernels nvcc generates code for; hipcc generates every kernel"))
_flag("-keep-device-functions --keep-device-functions", _drop("an nvcc code generation switch"))
_flag("-qpp-config --qpp-config -astoolspatch --compile-as-tools-patch", _drop("an nvcc-internal switch"))
_valued("-hls --host-linker-script", _drop("nvcc's host linker script"))
_flag("-aug-hls --augment-host-linker-script", _drop("nvcc's host linker script"))
_valued("-brief-diag --brief-diagnostics", _drop("nvcc's diagnostic format"))
_flag("-reloc-ptx --relocatable-ptx", _drop("relocatable PTX (NVIDIA intermediate code)"))
_valued("-sanitize --sanitize", _drop("NVIDIA's compute-sanitizer instrumentation"))
_flag("-jobserver --jobserver", _drop("nvcc's use of make's job server"))
_flag("--no-host-device-initializer-list --no-host-device-move-forward", _drop("nvcc front-end switches"))
_flag("-src-in-ptx --source-in-ptx", _drop("annotates PTX"))
_flag("-extra-device-vectorization --extra-device-vectorization", _drop("an nvcc optimizer switch"))
_flag("-restrict --restrict", _drop("an nvcc optimizer hint"))


# Options clang (hipcc) spells as nvcc does: the translation leaves them; the table says so.
_SAME: dict[str, str] = {}


def _same(names: str, reason: str = "clang spells it the same") -> None:
    for name in names.split():
        _SAME[name] = reason


_same("-c -o -D -U -I -L -l -isystem -include -g -O -shared -std -w -v -m64")
_same("-x", "clang spells it the same (-x cu becomes -x hip)")
_same("-E -M -MM -MD -MMD", "the same step of clang: preprocess, or write the make dependencies (of the host code)")
_same("-MF -MP -MT", "the same option of clang's dependency output")
_same("-h --help -V --version", "a query of the compiler: hipcc answers its own")
# Modes: the option decides what the step makes. Each is translated with its step or the step is left whole.
_STEPS = frozenset(
    [
        "-cuda",
        "-cubin",
        "-fatbin",
        "-ptx",
        "-optix-ir",
        "-ltoir",
        "-E",
        "-M",
        "-MM",
        "-MD",
        "-MMD",
        "-c",
        "-dc",
        "-dw",
        "-dlink",
        "-link",
        "-lib",
        "-run",
        "-fdevice-syntax-only",
        "-clean",
        "-code-ls",
        "-arch-ls",
        "-r",
        "-optf",
        "-odir",
    ]
)


def _handler(name: str, table: dict[str, Handler]) -> Handler | None:
    """The handler of an option under any of its spellings: the table from nvcc's --help knows both (``-odir`` is
    ``--output-directory``)."""
    handler = table.get(name)
    if handler is not None or name in _SAME:
        return handler
    option = spelling_index().get(name)
    if option is None:
        return None
    return next((table[s] for s in option.spellings if s in table), None)


def classify(option: NvccOption, sample: str) -> tuple[str, str, str]:
    """(kind, what hipcc gets, why) for one option of nvcc's --help, for the table: the handler's answer on the
    option's own spellings (``sample`` as its value), or the same spelling, or ``unknown``."""
    context = BuildContext(offload_arch=("gfx90a",))
    step = any(s in _STEPS for s in option.spellings)
    for spelling in option.spellings:
        words = [spelling, sample] if sample else [spelling]
        change = translate_option(words, 0, context)
        if change is None:
            continue
        kind = KIND_STEP if step and not change.hand_work else change.kind
        if change.hand_work:
            return kind, "(left as written, reported)", change.reason
        return kind, " ".join(change.words) if change.words else "(dropped)", change.reason
    for spelling in option.spellings:
        reason = _SAME.get(spelling)
        if reason is not None:
            return (KIND_STEP if step else KIND_SAME), spelling, reason
    return "unknown", "", ""


_DEVICE_SUFFIXES = {"-ptx": ".ptx", "-cubin": ".cubin", "-fatbin": ".fatbin"}


def nvcc_default_output(words: Sequence[str]) -> tuple[str, str] | None:
    """What nvcc names the output of a step that names none, when hipcc would name it otherwise: (the suffix it ends
    with, the name; "" when the words do not say which source it comes from). None: the step's output is named as
    hipcc names it (an object, a program)."""
    sources = [w for w in words if w.endswith((".cu", ".hip")) and not w.startswith("-")]
    source = sources[0].rsplit("/", 1)[-1] if len(sources) == 1 else ""
    for word in words:
        option = "-" + word.lstrip("-")
        if option in _DEVICE_SUFFIXES:
            suffix = _DEVICE_SUFFIXES[option]
            return suffix, (source.rsplit(".", 1)[0] + suffix if source else "")
        if option == "-cuda":  # a.cu -> a.cu.cpp.ii
            return ".cpp.ii", (source + ".cpp.ii" if source else "")
        if option == "-lib":
            return ".a", "a.a"
    return None


def is_library_option(word: str) -> bool:
    """``-lcublas``, ``-l cublas``, ``--library=cublas``; not an nvcc flag that starts with ``-l`` (``-lto-ir``,
    ``-lineinfo``)."""
    if word in ("-l", "--library") or word.startswith("--library="):
        return True
    return word.startswith("-l") and len(word) > 2 and word not in _FLAGS and word.split("=", 1)[0] not in _VALUED


def _split_option(word: str) -> tuple[str, str | None]:
    if word.startswith("-") and "=" in word:
        name, value = word.split("=", 1)
        return name, value
    return word, None


def _cuda_path_change(prefix: str, path: str, rocm_root: str, rocm_var: str) -> tuple[str, ...] | None:
    root = rocm_root if path.startswith("/") else rocm_var
    new = rocm_path(path, root)
    if new is None:
        return None
    return (f"{prefix}{new}",)


def _path_or_library(
    words: Sequence[str], i: int, context: BuildContext, rocm_root: str, rocm_var: str
) -> OptionChange | None:
    word = words[i]
    for prefix in ("-I", "-L", "-isystem", "-idirafter", "-Xlinker=-rpath=", "-rpath="):
        if not word.startswith(prefix):
            continue
        if word == prefix and i + 1 < len(words):
            new = _cuda_path_change("", words[i + 1], rocm_root, rocm_var)
            if new is not None:
                return OptionChange(2, (prefix, *new), "the CUDA installation -> ROCm's", kind=KIND_PATH)
            return None
        new = _cuda_path_change(prefix, word[len(prefix) :], rocm_root, rocm_var)
        if new is not None:
            return OptionChange(1, new, "the CUDA installation -> ROCm's", kind=KIND_PATH)
        return None
    if word.startswith("-Wl,"):
        parts = word[len("-Wl,") :].split(",")
        new_parts = []
        for part in parts:
            prefix = "-L" if part.startswith("-L") else ""
            new = _cuda_path_change(prefix, part[len(prefix) :], rocm_root, rocm_var)
            new_parts.append(new[0] if new is not None else part)
        if new_parts != parts:
            return OptionChange(1, ("-Wl," + ",".join(new_parts),), "the CUDA installation -> ROCm's", kind=KIND_PATH)
        return None
    name = None
    consumed = 1
    if is_library_option(word) and word.startswith("-l") and len(word) > 2:
        name = word[2:]
    elif word in ("-l", "--library") and i + 1 < len(words):
        name, consumed = words[i + 1], 2
    elif word.startswith("--library="):
        name = word[len("--library=") :]
    if name is None:
        return None
    change = library_change(name, context)
    if change is None:
        return None
    if change.hand_work:
        return OptionChange(consumed, tuple(words[i : i + consumed]), change.reason, True, KIND_HAND)
    return OptionChange(consumed, (f"-l{change.name}",) if change.name else (), change.reason, kind=KIND_LIBRARY)


def translate_option(
    words: Sequence[str],
    i: int,
    context: BuildContext,
    *,
    rocm_root: str = "/opt/rocm",
    rocm_var: str = "/opt/rocm",
) -> OptionChange | None:
    """The change for the option at ``words[i]`` (None: not an nvcc option to change; see the module doc)."""
    word = words[i]
    if not word.startswith("-"):
        return None
    path_or_library = _path_or_library(words, i, context, rocm_root, rocm_var)
    if path_or_library is not None:
        return path_or_library
    if word == "-x" and i + 1 < len(words):
        return OptionChange(2, ("-x", "hip"), "the CUDA language is HIP for hipcc") if words[i + 1] == "cu" else None
    if word in ("-xcu", "-x=cu", "--x=cu"):
        return OptionChange(1, ("-x", "hip"), "the CUDA language is HIP for hipcc")
    if word == "--x" and i + 1 < len(words) and words[i + 1] == "cu":
        return OptionChange(2, ("-x", "hip"), "the CUDA language is HIP for hipcc")
    name, value = _split_option(word)
    handler = _handler(name, _VALUED)
    consumed = 1
    if handler is not None:
        if value is None:
            if i + 1 >= len(words):
                return None
            value, consumed = words[i + 1], 2
    else:
        handler = _handler(word, _FLAGS)
        if handler is None:
            flag_handler = _handler(name, _FLAGS)
            # --ftz=true style is valued; a flag never takes "=value" (except nvcc's booleans, handled above).
            if flag_handler is None:
                return None
            handler = flag_handler
        value = value or ""
    new_words, reason, hand, kind = handler(value, context)
    if hand:
        new_words = tuple(words[i : i + consumed])
    elif tuple(new_words) == tuple(words[i : i + consumed]):
        return None  # spelled the same for both compilers (-std=c++17)
    return OptionChange(consumed, tuple(new_words), reason, hand, kind)


def translate_words(
    words: Sequence[str],
    context: BuildContext,
    *,
    rocm_root: str = "/opt/rocm",
    rocm_var: str = "/opt/rocm",
    arch_done: bool = False,
) -> tuple[tuple[int, OptionChange], ...]:
    """Every change in ``words``, in order; the GPU targets are emitted by the first architecture option only
    (``arch_done``: they were emitted already, e.g. earlier on the same command)."""
    changes: list[tuple[int, OptionChange]] = []
    i = 0
    while i < len(words):
        change = translate_option(words, i, context, rocm_root=rocm_root, rocm_var=rocm_var)
        if change is None:
            i += 1
            continue
        change = _without_repeats(change, words, i)
        if change.kind == KIND_ARCH:
            if arch_done and change.words:
                change = OptionChange(change.consumed, (), "the AMD GPU targets are given once", kind=KIND_ARCH)
            elif change.words:
                arch_done = True
        changes.append((i, change))
        i += change.consumed
    return tuple(changes)


# Flags whose second copy says nothing: nvcc's -G (device debug) becomes -g, -dc becomes -fgpu-rdc -c, and the
# command often gives -g or -c already (``-g -G``, ``-c -dc``).
_IDEMPOTENT = frozenset(("-g", "-c"))


def _without_repeats(change: OptionChange, words: Sequence[str], at: int) -> OptionChange:
    """``change`` without the idempotent flags that the command gives elsewhere already."""
    others = set(words[:at]) | set(words[at + change.consumed :])
    kept = tuple(w for w in change.words if not (w in _IDEMPOTENT and w in others))
    if kept == change.words or change.hand_work:
        return change
    repeated = " ".join(w for w in change.words if w not in kept)
    return OptionChange(change.consumed, kept, f"{change.reason} ({repeated} given already)", False, change.kind)
