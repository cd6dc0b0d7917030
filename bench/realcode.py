"""Translate and compile real CUDA code nobody here wrote, as a user would; results in docs/realcode.md.

    python bench/realcode.py [--realcode ../shared/realcode] [--corpus hecbench|samples] [--only GLOB]
                             [--limit N] [--every K] [-j 2] [--json results.json] [--keep DIR]
                             [--no-build | --no-compile | --ports-only] [--rocm X.Y]
                             [--shim | --shim-only]

--rocm X.Y targets and compiles with that ROCm release (its chroot, `hipify-py validate --setup --rocm X.Y`);
without it, the newest toolchain found, whose release the translation then targets. A whole run writes
docs/realcode.md for the release translations target by default, docs/realcode-rocmX.Y.md for another.

The real-code folder holds two archives (see its README): half of HeCBench, each benchmark in CUDA
(`src/<name>-cuda/`) with a hand-written HIP port (`src/<name>-hip/`), and NVIDIA's CUDA Library
Samples. Each is extracted, translated whole with default options (`python -m hipify --out-dir OUT
TREE -j N`, this checkout's translator), and each program's sources, as its Makefile or
CMakeLists.txt names them, are compiled with ROCm's hipcc for gfx90a
(`hipcc --offload-arch=gfx90a -std=c++17 -x hip -c`). The hand-written HIP ports are compiled the
same way: the ceiling of this environment. A program compiles when all its sources do.

Whole programs are built beside (bench/realcode_build.py): `make` in each translated HeCBench benchmark
folder and in each hand-written port (no variables on the command line), `cmake -S -B` and `cmake --build`
for each library sample's CMake project; built = compiled and linked. --ports-only builds the ports alone
(they do not depend on the translator), --no-build skips the builds, --no-compile the per-file compile
(cached verdicts are still used), --every K takes every K-th program.

--shim also compiles each program *unmodified*, with the include folder `hipify-py shim --include-dir` writes
for it first on the include path (bench/realcode_shim.py): how a single-source project compiles its CUDA code for
AMD GPUs; --shim-only does that alone (with the ports, the ceiling), without translating.

Compile verdicts are cached (default ~/.cache/hipify-py/realcode) under a hash of the compiler's
identity, the flags and every file that can reach the compile, so an unchanged program is not
compiled again: the hand-written ports are compiled once. --only/--limit translate only the
selected programs' folders, so project-wide facts may differ slightly from a whole run.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # this checkout's hipify, as the translation uses
import realcode_build_report as build_report
from realcode_build import (
    BuildCache,
    BuildResult,
    BuildUnit,
    build_key,
    build_unit,
    cmake_units,
    library_unit,
    make_units,
)
from realcode_compile import (
    CompileSettings,
    ProgramResult,
    VerdictCache,
    compile_program,
    compiler_identity,
    program_key,
    shared_digest,
)
from realcode_programs import Program, bitsandbytes_programs, ggml_programs, hecbench_programs, samples_programs
from realcode_report import (
    console_groups,
    failure_groups,
    failures_markdown,
    groups_markdown,
    summary,
    summary_markdown,
    write_json,
)
from realcode_shim import KIND as SHIMMED
from realcode_shim import SHIM_FOLDER, shim_tree

from hipify import __version__
from hipify.options import DEFAULT_ROCM
from hipify.rewrite.rules.unavailable import TRAP
from hipify.validate.parts import build_parts, lacking
from hipify.validate.toolchain import Toolchain, detect

REPO = Path(__file__).resolve().parent.parent
ARCHIVES = {
    "hecbench": "hecbench-dev.tar.xz",
    "samples": "cuda-library-samples.tar.xz",
    "bitsandbytes": "bitsandbytes-csrc.tar.xz",
    "bitsandbytes-hipport": "bitsandbytes-csrc.tar.xz",
    "ggml": "ggml.tar.xz",
}
CORPUS_TITLES = {
    "hecbench": "HeCBench (half)",
    "samples": "CUDA Library Samples",
    "bitsandbytes": "bitsandbytes (one source for CUDA and HIP), per source file",
    "bitsandbytes-hipport": "bitsandbytes (the tree with a hand-written HIP port beside it), per source file",
    "ggml": "ggml's CUDA backend (its own HIP build through vendors/hip.h beside it), per top-level source",
}
BNB_BACKEND = "COMPUTE_BACKEND"  # bitsandbytes' CMake option choosing the backend (cuda, hip, cpu, ...)
BITSANDBYTES = ("bitsandbytes", "bitsandbytes-hipport")  # two trees of one archive, each translated on its own


@dataclass
class Corpus:
    """One extracted corpus: where its original and translated trees are and what programs it has."""

    name: str
    original: Path  # the extracted tree: CUDA programs, and the hand-written ports for HeCBench
    translated: Path
    programs: list[Program]
    ports: list[Program] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    shimmed: Path | None = None  # the unmodified tree with each program's shim include folder (--shim)
    shim_programs: list[Program] = field(default_factory=list)  # the programs as compiled there
    translate_log: str = ""
    disabled: dict[str, int] = field(default_factory=dict)  # disabled_units() of the translation
    disabled_before: dict[str, int] = field(default_factory=dict)  # the same with --compare-translator


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--realcode", type=Path, default=REPO.parent / "shared" / "realcode", help="folder of the archives")
    p.add_argument("--corpus", choices=sorted(ARCHIVES), action="append", help="only this corpus (repeatable)")
    p.add_argument("--only", action="append", metavar="GLOB", help="only programs whose name matches (repeatable)")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N programs of each corpus")
    p.add_argument(
        "--every", type=int, default=1, metavar="K", help="only every K-th program (a sample spread over the corpus)"
    )
    p.add_argument("-j", "--jobs", type=int, default=2, help="parallel translation workers and compiles (default 2)")
    p.add_argument("--arch", default="gfx90a", help="AMD offload arch (default gfx90a)")
    p.add_argument(
        "--syntax-only",
        action="store_true",
        help="hipcc -fsyntax-only instead of -c: same verdicts on a sample, ~4x faster; no device back end",
    )
    p.add_argument("--hipcc", metavar="CMD", help="hipcc command (default: the ROCm chroot, else the system hipcc)")
    p.add_argument("--rocm-chroot", metavar="DIR", help="use hipcc inside this ROCm chroot")
    p.add_argument(
        "--rocm",
        metavar="X.Y",
        help="the ROCm release to target and compile with: its chroot (hipify-py validate --setup --rocm X.Y) and "
        "`--rocm X.Y` for the translator (default: the newest toolchain found, and its release as the target)",
    )
    p.add_argument("--hipify-arg", action="append", default=[], metavar="ARG", help="extra translator option")
    p.add_argument(
        "--compare-translator",
        type=Path,
        metavar="CHECKOUT",
        help="also translate each tree with another checkout's translator and report what each left out (HPY010)",
    )
    p.add_argument(
        "--hipcc-arg", action="append", default=[], metavar="ARG", help="extra hipcc flag (what-if experiments)"
    )
    p.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "hipify-py" / "realcode")
    p.add_argument("--no-cache", action="store_true", help="compile everything again")
    p.add_argument("--json", type=Path, metavar="FILE", help="write every result as JSON")
    p.add_argument(
        "--markdown",
        type=Path,
        metavar="FILE",
        help="write the results as Markdown (default: docs/realcode.md for a run over both whole corpora "
        "with default options)",
    )
    p.add_argument("--keep", type=Path, metavar="DIR", help="keep the extracted and translated trees in DIR")
    p.add_argument("-q", "--quiet", action="store_true", help="no per-program progress lines")
    builds = p.add_argument_group("whole programs, built with their own (translated) build files")
    builds.add_argument("--no-build", action="store_true", help="only the per-file compile")
    builds.add_argument(
        "--no-compile",
        action="store_true",
        help="only the builds; the per-file compile verdicts already cached are used (the samples' share counts "
        "the samples whose sources are known to compile), nothing else is compiled",
    )
    shim = p.add_argument_group("single source: unmodified CUDA with hipify-py shim's include folder")
    shim.add_argument(
        "--shim",
        action="store_true",
        help="also compile each program unmodified with its `hipify-py shim --include-dir` folder on the include path",
    )
    shim.add_argument(
        "--shim-only", action="store_true", help="only that (and the hand-written ports): no translation, no builds"
    )
    builds.add_argument(
        "--ports-only",
        action="store_true",
        help="only build HeCBench's hand-written ports (no translation; fills the build cache)",
    )
    return p


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def pick_toolchain(args: argparse.Namespace) -> Toolchain | None:
    found = detect(args.hipcc, args.rocm_chroot, "auto", args.rocm)
    return found[0] if found else None


def reference_document(tc: Toolchain) -> Path:
    """Where a whole run writes its results: docs/realcode.md for the release translations target by default, a
    document of its own (docs/realcode-rocm6.4.md) for another."""
    if tc.rocm_version == DEFAULT_ROCM:
        return REPO / "docs" / "realcode.md"
    return REPO / "docs" / f"realcode-rocm{tc.rocm_version[0]}.{tc.rocm_version[1]}.md"


def target_args(tc: Toolchain, hipify_args: list[str]) -> list[str]:
    """The translator's options: the user's, and the compiler's ROCm release as the target unless they name one,
    so that a translation is compiled by the release it was written for."""
    if any(a == "--rocm" or a.startswith("--rocm=") for a in hipify_args):
        return hipify_args
    major, minor = tc.rocm_version
    return [*hipify_args, "--rocm", f"{major}.{minor}"]


def extract(archive: Path, into: Path) -> Path:
    """Extract ``archive`` into ``into``; the tree's root (the archive's one top folder, if it has one)."""
    into.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4: refuse links and paths leaving ``into``
            tar.extractall(into, filter="data")
        else:
            tar.extractall(into)  # an archive the user chose, as `tar -x` would
    entries = list(into.iterdir())
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else into


def select(programs: list[Program], only: list[str] | None, limit: int | None, every: int = 1) -> list[Program]:
    if only:
        programs = [p for p in programs if any(fnmatch.fnmatchcase(p.name, g) for g in only)]
    programs = programs[:: max(1, every)]
    return programs[:limit] if limit is not None else programs


def translation_input(root: Path, programs: list[Program], dest: Path, whole: Iterable[str] | None) -> Path:
    """The tree a user would translate: ``whole`` (tree-relative folders) if given, else the folders,
    include folders and source folders of the selected programs. Copied, so the original stays as it is."""
    folders = set(whole) if whole is not None else set()
    if whole is None:
        for p in programs:
            folders.update([p.folder, *p.include_dirs, *(str(Path(s).parent) for s in p.sources)])
    kept = sorted(f for f in folders if (root / f).is_dir() and not f.startswith(".."))
    for folder in kept:
        if any(folder.startswith(other + "/") for other in kept):
            continue  # inside a folder copied whole
        shutil.copytree(root / folder, dest / folder, symlinks=True, dirs_exist_ok=True)
    dest.mkdir(parents=True, exist_ok=True)
    return dest


def translate_tree(
    tree: Path, out: Path, jobs: int, extra: list[str], log_file: Path, checkout: Path = REPO
) -> tuple[float, int]:
    """``python -m hipify --out-dir OUT TREE -j N --report OUT.json`` with a checkout's translator (this one by
    default); (seconds, exit code)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(checkout), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    }
    cmd = [sys.executable, "-m", "hipify", "--out-dir", str(out), str(tree), "-j", str(jobs), "--no-cache", *extra]
    cmd += ["--report", str(report_path(out))]
    start = time.perf_counter()
    with log_file.open("w") as fh:
        rc = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=tree, check=False).returncode
    return time.perf_counter() - start, rc


def report_path(out: Path) -> Path:
    return out.parent / f"{out.name}.report.json"


def disabled_units(report: Path) -> dict[str, int]:
    """What a translation left out where HIP lacks an API (HPY010) and the uses of what it disabled whole (HPY111),
    counted from its JSON report."""
    counts = {"statements left out": 0, "function bodies left out": 0, "declarations disabled whole": 0}
    users: set[str] = set()
    uses = 0
    try:
        diagnostics = json.loads(report.read_text())["diagnostics"]
    except (OSError, ValueError, KeyError):
        return {}
    for d in diagnostics:
        if d["code"] == "HPY010":
            message = d["message"]
            kind = (
                "statements left out"
                if message.startswith("a statement of")
                else "function bodies left out"
                if message.startswith("the body of")
                else "declarations disabled whole"
            )
            counts[kind] += 1
        elif d["code"] == "HPY111":
            uses += 1
            users.add(d["path"])
    return {**counts, "uses of code HIP cannot compile (HPY111)": uses, "files with such uses": len(users)}


def add_untranslated_files(tree: Path, out: Path) -> int:
    """Copy the files the translator did not write (build files, data, files it left alone) so that the
    translated tree holds everything the original does."""
    copied = 0
    for src in tree.rglob("*"):
        dst = out / src.relative_to(tree)
        if src.is_file() and not dst.exists():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
            copied += 1
    return copied


def prepare(name: str, args: argparse.Namespace, work: Path) -> Corpus:
    start = time.perf_counter()
    root = extract(args.realcode / ARCHIVES[name], work / "original" / name)
    extracted = time.perf_counter() - start
    if name == "hecbench":
        programs, ports = hecbench_programs(root, "-cuda"), hecbench_programs(root, "-hip")
        whole: list[str] | None = [f"src/{p.folder.split('/')[1]}" for p in programs] + ["src/include"]
    elif name in BITSANDBYTES:
        programs, ports = bitsandbytes_programs(root, name)
        whole = [name]
    elif name == "ggml":
        programs, ports = ggml_programs(root)
        whole = ["ggml"]
    else:
        programs, ports, whole = samples_programs(root), [], ["."]
    selected = select(programs, args.only, args.limit, args.every)
    names = {p.name for p in selected}
    subset = len(selected) != len(programs)
    if subset and name == "samples":  # a sample's CMakeLists.txt includes its library's shared cmake/ files
        whole = sorted({p.folder.split("/", 1)[0] for p in selected})
    out = work / "translated" / name
    corpus = Corpus(name, root, out, [] if args.shim_only else selected, [p for p in ports if p.name in names])
    corpus.seconds = {"extract": extracted}
    if args.shim or args.shim_only:
        log(f"{name}: {len(selected)} programs; writing each one's shim include folder ...")
        corpus.shimmed = work / SHIMMED / name
        corpus.shim_programs, corpus.seconds["shim"] = shim_tree(root, selected, corpus.shimmed)
        log(f"{name}: include folders written in {corpus.seconds['shim']:.0f} s ({SHIM_FOLDER}/ in {corpus.shimmed})")
    if args.shim_only:
        return corpus
    keep_whole = name in ("samples", "ggml") or name in BITSANDBYTES or not subset
    tree = translation_input(root, selected, work / "input" / name, whole if keep_whole else None)
    log_file = work / f"translate-{name}.log"
    log(f"{name}: {len(selected)} programs; translating {tree} ...")
    seconds, rc = translate_tree(tree, out, args.jobs, args.translate_args, log_file)
    copied = add_untranslated_files(tree, out)
    log(f"{name}: translated in {seconds:.0f} s (exit {rc}); {copied} other files copied; log {log_file}")
    corpus.seconds["translate"] = seconds
    corpus.translate_log = str(log_file)
    corpus.disabled = disabled_units(report_path(out))
    if args.compare_translator:
        other = work / "compared" / name
        translate_tree(tree, other, args.jobs, args.translate_args, work / f"translate-{name}-compared.log",
                       args.compare_translator)  # fmt: skip
        corpus.disabled_before = disabled_units(report_path(other))
    return corpus


Task = tuple[Program, Path, str]


def compile_all(
    tasks: list[Task],
    settings: CompileSettings,
    cache: VerdictCache,
    jobs: int,
    progress: Callable[[str], None],
    cache_only: bool = False,
) -> tuple[list[ProgramResult], dict[str, float]]:
    """Compile every (program, tree, kind) with ``jobs`` in parallel; cached verdicts are reused. With
    ``cache_only``, only the cached verdicts are returned and nothing is compiled."""
    start = time.perf_counter()
    results: dict[int, ProgramResult] = {}
    pending: list[tuple[int, str]] = []
    # A translated tree can change outside the program folders (shared headers, the compatibility header);
    # an extracted original cannot without changing the folders too.
    translated_roots = {root for _, root, kind in tasks if kind in ("translated", SHIMMED)}
    shared = {
        root: shared_digest(root, [p for p, r, _ in tasks if r == root], SHIM_FOLDER) for root in translated_roots
    }
    for i, (program, root, kind) in enumerate(tasks):
        key = program_key(settings, program, root, shared.get(root, ""))
        hit = cache.get(key, program, kind)
        if hit:
            results[i] = hit
        else:
            pending.append((i, key))
    hashed = time.perf_counter() - start
    if cache_only:
        progress(f"compile: {len(results)} cached verdicts used, {len(pending)} not compiled (--no-compile)")
        return [results[i] for i in sorted(results)], {"cached": len(results)}
    progress(f"compile: {len(results)} cached, {len(pending)} to compile (-j{jobs}; hashing took {hashed:.1f} s)")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {
            pool.submit(compile_program, settings, tasks[i][0], tasks[i][1], tasks[i][2]): (i, key)
            for i, key in pending
        }
        for done, future in enumerate(as_completed(futures), 1):
            i, key = futures[future]
            result = future.result()
            cache.put(key, result)
            results[i] = result
            state = "ok" if result.ok else f"FAIL {result.error.where() if result.error else ''}"
            progress(f"  [{done}/{len(pending)}] {result.kind} {result.name}: {state} ({result.seconds:.1f} s)")
    compiled = [results[i] for i, _ in pending]
    timing = {
        "wall": time.perf_counter() - start,
        "compile_seconds": sum(r.seconds for r in compiled),
        "compiled": len(compiled),
        "cached": len(tasks) - len(compiled),
        "sources_compiled": sum(len(r.sources) for r in compiled),
    }
    return [results[i] for i in range(len(tasks))], timing


BuildTask = tuple[BuildUnit, Path, str]


def build_all(
    tasks: list[BuildTask],
    settings: CompileSettings,
    cache: BuildCache,
    jobs: int,
    build_root: Path,
    progress: Callable[[str], None],
) -> tuple[list[BuildResult], dict[str, float]]:
    """Build every (unit, tree, kind) with its own build files, ``jobs`` builds at a time (each make or
    cmake --build runs one job); cached verdicts are reused. Every key is computed before the first build
    writes objects into a tree."""
    start = time.perf_counter()
    roots = {root for _, root, kind in tasks if kind == "translated"}
    shared = {root: shared_digest(root, [u.program for u, r, _ in tasks if r == root]) for root in roots}
    keys = [build_key(settings, unit, root, shared.get(root, "")) for unit, root, _ in tasks]
    results: dict[int, BuildResult] = {}
    pending = []
    for i, (unit, _root, kind) in enumerate(tasks):
        hit = cache.get(keys[i], unit, kind, _root)
        if hit:
            results[i] = hit
        else:
            pending.append(i)
    progress(f"build: {len(results)} cached, {len(pending)} to build ({jobs} at a time, under nice)")
    build_root.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {
            pool.submit(build_unit, settings, tasks[i][0], tasks[i][1], tasks[i][2], build_root): i for i in pending
        }
        for done, future in enumerate(as_completed(futures), 1):
            i = futures[future]
            result = future.result()
            cache.put(keys[i], result)
            results[i] = result
            state = (
                "built"
                if result.built
                else f"FAIL at {result.stage}: {result.error.message[:120] if result.error else ''}"
            )
            progress(f"  [{done}/{len(pending)}] build {result.kind} {result.name}: {state} ({result.seconds:.0f} s)")
    built = [results[i] for i in pending]
    timing = {"wall": time.perf_counter() - start, "built": len(built), "cached": len(tasks) - len(built)}
    return [results[i] for i in range(len(tasks))], timing


def _build_title(corpus: str) -> str:
    """The corpus's title for whole builds (bitsandbytes' per-file wording does not apply to a whole build)."""
    return CORPUS_TITLES[corpus].replace(", per source file", "")


def build_tasks(prepared: list[Corpus]) -> list[BuildTask]:
    tasks: list[BuildTask] = []
    for c in prepared:
        if c.name == "hecbench":
            tasks += [(u, c.translated, "translated") for u in make_units(c.programs, c.translated)]
            tasks += [(u, c.original, "ported") for u in make_units(c.ports, c.original)]
        elif c.name == "samples":
            tasks += [(u, c.translated, "translated") for u in cmake_units(c.programs, c.translated)]
        elif c.name in BITSANDBYTES and c.programs and c.ports:
            # the library's own CMakeLists.txt: the translated CUDA backend; the project's own HIP backend, the ceiling
            tasks.append((library_unit(c.programs, c.name, (f"-D{BNB_BACKEND}=cuda",)), c.translated, "translated"))
            tasks.append((library_unit(c.ports, c.name, (f"-D{BNB_BACKEND}=hip",)), c.original, "ported"))
    return tasks


def build_ports_only(args: argparse.Namespace, settings: CompileSettings, work: Path) -> int:
    """Build HeCBench's hand-written ports alone: they do not depend on the translator, and they are the
    long part of a run, so they can be built (and cached) while the translator is being worked on."""
    root = extract(args.realcode / ARCHIVES["hecbench"], work / "original" / "hecbench")
    ports = select(hecbench_programs(root, "-hip"), args.only, args.limit, args.every)
    tasks: list[BuildTask] = [(u, root, "ported") for u in make_units(ports, root)]
    cache = BuildCache(None if args.no_cache else args.cache_dir)
    results, timing = build_all(
        tasks, settings, cache, args.jobs, work / "builds", (lambda m: None) if args.quiet else log
    )
    print(f"ports built: {sum(r.built for r in results)} of {len(results)} ({timing['wall']:.0f} s)")
    return 0


def hip_library_exists(tc: Toolchain) -> Callable[[str], bool]:
    """Whether the HIP library that a CUDA library (a samples folder: cuBLAS, cuTENSOR, ...) becomes is in
    the environment: its CMake package or its shared object next to the compiler's include folders."""
    from hipify.buildfiles import BuildContext
    from hipify.buildfiles.libraries import library_change

    def exists(cuda_library: str) -> bool:
        change = library_change(cuda_library.lower(), BuildContext())
        if change is None or not change.name or change.hand_work:
            return False
        for include in tc.include_roots:
            prefix = Path(include).parent
            patterns = [f"lib/*/cmake/{change.name}", f"lib/cmake/{change.name}", f"lib/*/lib{change.name}.so"]
            if any(any(prefix.glob(p)) for p in patterns):
                return True
        return False

    return exists


def report_builds(
    corpora: list[str], builds: list[BuildResult], compiled: list[ProgramResult], library_exists: Callable[[str], bool]
) -> tuple[list[str], list[str]]:
    """(console lines, Markdown lines) for the whole-program builds of every corpus."""
    shares: list[build_report.BuildShare] = []
    md: list[str] = ["## Whole programs, built with their own translated build files", ""]
    sample_notes: dict[str, str] = {}
    if "hecbench" in corpora:
        shares.append(build_report.hecbench_share(builds))
    for corpus in (c for c in corpora if c in BITSANDBYTES):
        shares.append(build_report.ported_share(builds, corpus, f"{_build_title(corpus)}: the CUDA backend built "
                                                "where the project's own HIP backend builds"))  # fmt: skip
    if "samples" in corpora:
        by_folder: dict[str, list[ProgramResult]] = {}
        for r in compiled:
            if r.corpus == "samples" and r.kind == "translated":
                by_folder.setdefault(r.name.split(":", 1)[0], []).append(r)
        share, sample_notes = build_report.samples_share(builds, by_folder, library_exists)
        shares.append(share)
    md += [
        "`make` in each benchmark's folder with no variables on the command line (the translated `*-cuda` "
        "folder; the hand-written `*-hip` port as it is, the ceiling); `cmake -S <sample> -B <build>` and "
        "`cmake --build <build>` for each library sample's CMake project; bitsandbytes' CMakeLists.txt with "
        f"`-D{BNB_BACKEND}=cuda` (translated) and `-D{BNB_BACKEND}=hip` (the project's own HIP backend, the "
        "ceiling). Built = compiled and linked. "
        "Linking needs the HIP libraries' shared objects or their link stubs (what `hipify-py validate --setup` installs).",
        "",
        *build_report.share_markdown(shares),
        "",
    ]
    ported_ok = {b.name for b in builds if b.corpus in ("hecbench", *BITSANDBYTES) and b.kind == "ported" and b.built}
    for corpus in corpora:
        title = _build_title(corpus)
        md += [f"### {title}: stages", "", *build_report.stages_markdown(builds, corpus), ""]
        counted = ported_ok if corpus != "samples" else {n for n, why in sample_notes.items() if not why}
        md += [f"### {title}: translated programs that do not build, grouped by first error", ""]
        md += build_report.groups_markdown(builds, corpus, "translated", counted) + [""]
        if corpus != "samples":
            note: Callable[[str], str] = lambda n: "port builds" if n in ported_ok else "port does not build"  # noqa: E731
        else:
            note = lambda n: sample_notes.get(n, "") or "counted"  # noqa: E731
        md += [f"### {title}: every translated program that does not build, with its first error", ""]
        md += build_report.failures_markdown(builds, corpus, "translated", note) + [""]
        if corpus != "samples":
            md += [f"### {title}: hand-written ports that do not build (the ceiling)", ""]
            md += build_report.failures_markdown(builds, corpus, "ported", lambda n: "") + [""]
    return build_report.console_summary(shares), md


def archive_digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:12]


def compiler_description(tc: Toolchain, identity: str) -> str:
    """Name, HIP version and clang version; no host paths (the results are committed)."""
    clang = next((line.strip() for line in identity.splitlines() if "clang version" in line), "")
    where = "ROCm chroot" if tc.chroot else tc.name
    return f"{where}, HIP {tc.hip_version}" + (f", {clang}" if clang else "")


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
        )
    except OSError:
        return ""
    return out.stdout.strip()


SHIM_TITLE = "unmodified CUDA with `hipify-py shim --include-dir` (single source)"


def shim_results(results: list[ProgramResult]) -> list[ProgramResult]:
    """The shimmed programs in the translated ones' place (beside the ports): the same tables and failure groups
    then say how the unmodified sources compile with their include folders."""
    return [replace(r, kind="translated") if r.kind == SHIMMED else r for r in results if r.kind != "translated"]


def report_corpus(corpus: str, results: list[ProgramResult], how: str = "") -> tuple[list[str], list[str]]:
    """(console lines, Markdown lines) for one corpus; ``how``: what "translated" stands for, when not a
    translation."""
    mine = [r for r in results if r.corpus == corpus]
    ported_ok = {r.name for r in mine if r.kind == "ported" and r.ok}
    has_ports = any(r.kind == "ported" for r in mine)
    rows = summary(mine, corpus)
    translated_groups = failure_groups(mine, "translated", ported_ok)
    title = f"{CORPUS_TITLES[corpus]}: {how}" if how else CORPUS_TITLES[corpus]
    console = [
        f"== {title}",
        *summary_markdown(rows),
        "",
        "translated programs that fail, by first error:",
    ]
    console += console_groups(translated_groups)
    md = [f"## {title}", "", *summary_markdown(rows), ""]
    md += ["### Translated programs that fail, grouped by first error", ""]
    md += groups_markdown(translated_groups, has_ports) + [""]
    if has_ports:
        port_groups = failure_groups(mine, "ported", ported_ok)
        console += ["", "hand-written ports that fail (the ceiling), by first error:", *console_groups(port_groups, 10)]
        md += ["### Hand-written ports that fail (the environment's ceiling), grouped by first error", ""]
        md += groups_markdown(port_groups, False) + [""]
    md += ["### Every translated program that fails, with its first error", ""]
    md += failures_markdown(mine, "translated", ported_ok if has_ports else None) + [""]
    if has_ports:
        md += ["### Every hand-written port that fails, with its first error", ""]
        md += failures_markdown(mine, "ported", None) + [""]
    return console, md


def stopping_programs(corpus: Corpus, results: list[ProgramResult]) -> tuple[int, int]:
    """(translated programs that compile, those of them whose own sources hold code left out where HIP lacks an
    API: they compile, and stop if they reach it)."""
    ok = [r for r in results if r.corpus == corpus.name and r.kind == "translated" and r.ok]
    by_name = {p.name: p for p in corpus.programs}
    stopping = 0
    for r in ok:
        program = by_name.get(r.name) or by_name.get(r.name.split(":", 1)[0])
        sources = program.sources if program else ()
        if any(_holds_trap(corpus.translated / s) for s in sources):
            stopping += 1
    return len(ok), stopping


def _holds_trap(path: Path) -> bool:
    try:
        return f'{TRAP}("' in path.read_text(errors="replace")
    except OSError:
        return False


def report_disabled(
    prepared: list[Corpus], compared: Path | None, results: list[ProgramResult] | None = None
) -> tuple[list[str], list[str]]:
    """(console lines, Markdown lines): what each translation left out where HIP lacks an API, the uses in other
    files of what it disabled whole (none, where every unit is as small as it can be), and how many of the programs
    that compile hold such code in their own sources."""
    kinds = list(next((c.disabled for c in prepared if c.disabled), {}))
    if not kinds:
        return [], []
    stopping = {c.name: stopping_programs(c, results) for c in prepared} if results is not None else {}
    head = ["corpus", *kinds, *(["programs compiled", "of those, stopping at code left out in their own sources"]
                                if stopping else [])]  # fmt: skip
    rows = [[CORPUS_TITLES[c.name].split(" (")[0] + ("" if c.name != "bitsandbytes-hipport" else " (hand-port tree)"),
             *(str(c.disabled.get(k, 0)) for k in kinds),
             *((str(stopping[c.name][0]), str(stopping[c.name][1])) if stopping else ())] for c in prepared]  # fmt: skip
    md = [
        "## Code left out where HIP lacks an API (HPY010)",
        "",
        "Counted from each translation's report: statements and function bodies left out (the program stops there, "
        "naming the API; a header's, and a translation unit's own), declarations of headers disabled whole (only "
        "where no smaller unit holds the API), and the uses, in the project, of what was disabled whole (HPY111). "
        "The last columns: the translated programs that compile, and how many of them hold code left out in their "
        "own sources (they compile and stop where they reach it: a port needs that code written for HIP).",
        "",
        "| " + " | ".join(head) + " |",
        "|---|" + "---:|" * (len(head) - 1),
        *("| " + " | ".join(r) + " |" for r in rows),
        "",
    ]
    if compared is not None:
        md += [f"The same trees translated by the translator at `{compared.name}` (before):", ""]
        md += ["| " + " | ".join(head[: len(kinds) + 1]) + " |", "|---|" + "---:|" * len(kinds)]
        md += ["| " + " | ".join([r[0], *(str(c.disabled_before.get(k, 0)) for k in kinds)]) + " |"
               for r, c in zip(rows, prepared, strict=True)]  # fmt: skip
        md += [""]
    console = ["== code left out where HIP lacks an API", *md[4:]]
    return console, md


def markdown_document(meta: dict[str, object], sections: list[str]) -> str:
    timings = meta["timings"]
    assert isinstance(timings, dict)
    head = [
        "# Real code: translate, then compile with ROCm's hipcc",
        "",
        f"Generated by `python bench/realcode.py` on {meta['date']} (translator {meta['translator']})"
        + (f", translating with `{meta['target']}`." if meta.get("target") else "."),
        f"Compiler: {meta['toolchain']}; `{meta['compile']}` per source; a program compiles when all its sources do.",
        "Each corpus is translated whole with default options (`python -m hipify --out-dir OUT TREE -j N`); "
        "HeCBench's tree is its `*-cuda` benchmarks plus `src/include`. Sources, `-I` folders and `-D` flags come "
        "from each program's Makefile (conditionals evaluated; `source = ...`, else its top-level `.cu` files; "
        "`-fgpu-rdc` where it asks for nvcc's `-dc`) or from its CMakeLists.txt targets; C sources of the samples "
        "are compiled as C with the HIP platform macro. The hand-written HIP ports of HeCBench, compiled the same "
        "way, are the ceiling of this environment (some need MPI, Boost, GDAL or headers of SYCL versions that "
        "are not in the archive).",
        "`--syntax-only` (`hipcc -fsyntax-only`) gave the same verdict and the same first error as `-c` on all 203 "
        "programs of a sample (70 HeCBench benchmarks and their ports, 63 library samples) in about a quarter of "
        "HeCBench's compile time; `-c` stays the measure, since only it runs the device back end.",
        f"Archives: {meta['archives']}.",
        "",
    ]
    if meta.get("shim"):
        head[-1:-1] = [
            "Sections marked *unmodified CUDA with `hipify-py shim --include-dir`* compile each program's sources as "
            "they are, with the include folder `hipify-py shim --include-dir` writes from the program's own files "
            "(its folder and include folders) first on the include path (`bench/realcode_shim.py`, "
            "`docs/shim.md`): how a single-source project compiles its CUDA code for AMD GPUs.",
        ]
    timing_lines = ["## Timings", "", "| step | seconds |", "|---|---:|"]
    timing_lines += [f"| {k} | {v:.0f} |" if isinstance(v, float) else f"| {k} | {v} |" for k, v in timings.items()]
    return "\n".join(head + sections + timing_lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    corpora = args.corpus or sorted(ARCHIVES)
    missing = [args.realcode / ARCHIVES[c] for c in corpora if not (args.realcode / ARCHIVES[c]).is_file()]
    if missing:
        log(f"realcode: archive not found: {', '.join(map(str, missing))} (pass --realcode DIR)")
        return 2
    tc = pick_toolchain(args)
    if tc is None:
        setup = f"hipify-py validate --setup{' --rocm ' + args.rocm if args.rocm else ''}"
        log(f"realcode: no usable hipcc; run `{setup}` (as root) or pass --hipcc / --rocm-chroot")
        return 2
    args.translate_args = target_args(tc, args.hipify_arg)
    if tc.rocm_version < (6, 4):
        log(f"realcode: warning: {tc.describe()} is older than ROCm 6.4, the oldest release the table targets")
    lacks = "" if args.no_build else lacking(tc, (*build_parts("make", ()), *build_parts("cmake", ())))
    if lacks:  # its builds would fail for it, and their verdicts would be kept in the shared cache as the programs'
        log(f"realcode: {lacks}; or pass --no-build to measure compiles alone")
        return 2
    settings = CompileSettings(tc, compiler_identity(tc), args.arch, args.syntax_only, extra=tuple(args.hipcc_arg))
    cache = VerdictCache(None if args.no_cache else args.cache_dir)
    work = Path(tempfile.mkdtemp(prefix="hipify-realcode-", dir=tc.work_root()))
    log(f"realcode: {tc.describe()}; work folder {work}")
    started = time.perf_counter()
    if args.ports_only:
        try:
            return build_ports_only(args, settings, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    try:
        prepared = [prepare(name, args, work) for name in corpora]
        tasks: list[Task] = []
        for c in prepared:
            # Each program's translated and shimmed compiles side by side, so that a run stopped early has compared
            # the programs it reached (their verdicts are cached; --no-compile reports them).
            shimmed_root = c.shimmed
            shimmed = {p.name: p for p in c.shim_programs} if shimmed_root is not None else {}
            for p in c.programs:
                tasks.append((p, c.translated, "translated"))
                if shimmed_root is not None and p.name in shimmed:
                    tasks.append((shimmed.pop(p.name), shimmed_root, SHIMMED))
            if shimmed_root is not None:
                tasks += [(p, shimmed_root, SHIMMED) for p in shimmed.values()]
            tasks += [(p, c.original, "ported") for p in c.ports]
        say = (lambda m: None) if args.quiet else log
        results, timing = compile_all(tasks, settings, cache, args.jobs, say, cache_only=args.no_compile)
        builds: list[BuildResult] = []
        build_timing: dict[str, float] = {}
        if not (args.no_build or args.shim_only):
            build_cache = BuildCache(None if args.no_cache else args.cache_dir)
            builds, build_timing = build_all(
                build_tasks(prepared), settings, build_cache, args.jobs, work / "builds", say
            )
        timings: dict[str, float | int] = {}
        for c in prepared:
            timings.update({f"{c.name}: {k}": v for k, v in c.seconds.items()})
        timings.update({f"compile: {k}": v for k, v in timing.items()})
        timings.update({f"build: {k}": v for k, v in build_timing.items()})
        timings["total"] = time.perf_counter() - started
        meta: dict[str, object] = {
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
            "translator": f"hipify-py {__version__} ({git_commit() or 'no git'})",
            "toolchain": compiler_description(tc, settings.identity),
            "compile": " ".join(["hipcc", *settings.flags(False), "..."]),
            "archives": ", ".join(
                f"`{ARCHIVES[c]}` sha256 {archive_digest(args.realcode / ARCHIVES[c])}" for c in corpora
            ),
            "only": args.only,
            "limit": args.limit,
            "hipify_args": args.hipify_arg,
            "target": " ".join(args.translate_args[-2:]) if args.translate_args != args.hipify_arg else "",
            "hipcc_args": args.hipcc_arg,
            "shim": bool(args.shim or args.shim_only),
            "timings": timings,
        }
        sections: list[str] = []
        console, md = report_disabled(prepared, args.compare_translator, results)
        print("\n".join(console) + "\n")
        sections += md
        if builds:
            built = [c.name for c in prepared if c.name in ("hecbench", "samples", *BITSANDBYTES)]
            console, md = report_builds(built, builds, results, hip_library_exists(tc))
            print("\n".join(console) + "\n")
            sections += md
        for c in prepared:
            if args.no_compile:
                break
            if c.programs:
                console, md = report_corpus(c.name, results)
                print("\n".join(console) + "\n")
                sections += md
            if c.shimmed is not None:
                console, md = report_corpus(c.name, shim_results(results), SHIM_TITLE)
                print("\n".join(console) + "\n")
                sections += md
        print(
            "timings: "
            + ", ".join(f"{k} {v:.0f} s" if isinstance(v, float) else f"{k} {v}" for k, v in timings.items())
        )
        if args.json:
            write_json(args.json, results, {**meta, "builds": [b.to_json() for b in builds]})
        whole_run = len(corpora) == len(ARCHIVES) and not args.only and args.limit is None and args.every == 1
        whole_run = whole_run and not (args.hipcc_arg or args.hipify_arg or args.syntax_only)  # the reference run
        whole_run = whole_run and not (args.no_compile or args.no_build or args.shim_only)
        target = args.markdown or (reference_document(tc) if whole_run else None)
        if target:
            target.write_text(markdown_document(meta, sections))
            log(f"realcode: wrote {target}")
        return 0
    finally:
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for item in work.iterdir():
                shutil.move(str(item), str(args.keep / item.name))
            log(f"realcode: trees kept in {args.keep}")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
