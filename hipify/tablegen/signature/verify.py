"""Decide, per function row and per target flavour (HIP; ROC/MIOpen), whether the target's declaration takes what
the translated call passes; retarget to a sibling or record a definition where that makes it so."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ...knowledge.table import Row, Transform
from ..fetch import log
from ..matcher import Matcher
from ..sides import HipSide
from . import clang_tu
from .compatible import accepts
from .cuda_side import cuda_declarations
from .declarations import Declarations, Declared, Signature, alias_signatures, read_declarations
from .mapping import USABLE, map_spelling

# Row.hip_signature / Row.roc_signature values
SAME = "same"  # the target's declaration takes the mapped CUDA types
SIBLING = "sibling"  # the row targets a sibling (_v2, _64, ...) whose declaration does
DEFINE = "define"  # it does once hip_requires / roc_requires is defined before the HIP headers
DIFFERS = "differs"  # nothing does: *_signature_diff says how
OLDER = "older"  # it takes an older CUDA version's declaration (CUDA 13 changed it): *_signature_diff says how
# it takes CUDA 13's declaration, and the same-named function an older CUDA's of as many parameters (cudaMemAdvise:
# hipMemAdvise_v2 takes a location, hipMemAdvise a device number): *_signature_diff names it
NEWER = "newer"
UNCHECKED = "unchecked"  # no CUDA declaration to compare (C++ templates, names no scanned CUDA declares)
# Older CUDA families in the header cache, newest first: (cache folder, version)
_OLDER = (("cu12", "12.9"), ("cu11", "11.8"))

_ALIAS = "__hipify_f"
_SIBLING_SUFFIX = re.compile(r"(?:_v\d+|_64)+")
# Configuration macros a user may define to change the HIP headers' types; never platform selectors
_NOT_CONFIG = re.compile(r"CUDA|NVCC|NVIDIA|^_")
# ... nor macros for building, linking or documenting the library itself, which change no API type
_BUILD_ONLY = re.compile(r"_EXPORTS$|_STATIC_(DEFINE|BUILD)$|INTERNAL|DOXYGEN|NO_DEPRECATED_WARNINGS$|^NDEBUG$")
_CONDITION = re.compile(r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif)\b[^\n]*", re.MULTILINE)
_TESTED = re.compile(r"#\s*if(?:n?def)\s+([A-Za-z_]\w*)|\bdefined\s*\(?\s*([A-Za-z_]\w*)")
_NAME = re.compile(r"[A-Za-z_]\w*")
_COMMENT = re.compile(r"//.*|/\*.*?(\*/|$)")


@dataclass(frozen=True)
class Check:
    """One row's CUDA declarations mapped for one flavour, ready to compare."""

    row: Row
    roc: bool
    target: str
    cuda: tuple[Signature, ...]
    aliases: tuple[str, ...]  # one function-type alias per CUDA overload
    unmapped: tuple[str, ...]  # CUDA type names without a usable target
    lines: tuple[str, ...] = ()  # the aliases' declarations
    arguments: tuple[str, ...] = ()  # the primary overload's parameter types, mapped (what a call passes)

    @property
    def header(self) -> str:
        return self.row.roc_header if self.roc else self.row.hip_header


@dataclass(frozen=True)
class Verdict:
    status: str
    target: str = ""
    requires: str = ""
    diff: str = ""


def _usable(name: str, status: str) -> bool:
    return bool(name) and status in USABLE


def _cuda_overloads(row: Row, decls: Declarations) -> list[Declared]:
    found = decls.overloads(row.cuda)
    own = [d for d in found if d.header.endswith("/" + row.cuda_header)]
    return own or found


def _public(header: str, files: dict[str, Path]) -> str:
    """The library's main header for a declaration in one of its parts (hipsolver/internal/hipsolver-dense.h ->
    hipsolver/hipsolver.h), which sets up what the part needs."""
    folder = header.split("/", 1)[0] if "/" in header else ""
    for main in (f"{folder}/{folder}.h", f"{folder}/{folder}.hpp"):
        if folder and main in files:
            return main
    return header


def _hip_includes(rows: Iterable[Row], hip: HipSide) -> str:
    files = hip.current_files
    headers: set[str] = set()
    for r in rows:
        if r.api == "cub":
            continue
        for name, status, header in ((r.hip, r.hip_status, r.hip_header), (r.roc, r.roc_status, r.roc_header)):
            if _usable(name, status) and header in files and r.kind in ("function", "type", "enum"):
                headers.update((_public(header, files), header))
    # main headers first: a part may need what its library's main header sets up before it
    ordered = ["hip/hip_runtime.h"] + sorted(headers - hip.preincluded, key=lambda h: (_public(h, files) != h, h))
    return "".join(f"#include <{h}>\n" for h in dict.fromkeys(ordered))


def _checks(
    rows: list[Row], cuda: Declarations, lookup: dict[str, Row], prefix: str = _ALIAS
) -> tuple[list[Check], list[str]]:
    """One check per row and usable flavour, and the function-type alias lines (``using __hipify_fN = R(P...);``)
    of the mapped CUDA overloads. A CUDA overload whose types have no HIP equivalent is left out when others remain
    (curand_uniform(curandStateTest_t*): using that type is reported where it is written)."""
    out: list[Check] = []
    lines: list[str] = []
    for row in rows:
        overloads = [d.signature for d in _cuda_overloads(row, cuda)]
        for roc in (False, True):
            name, status = (row.roc, row.roc_status) if roc else (row.hip, row.hip_status)
            if not _usable(name, status) or (not roc and row.api == "dnn"):
                continue
            if not roc and overloads:
                name = _by_arity(row, len(overloads[0].params), name)
            mapped = [[map_spelling(s, lookup.get, roc) for s in (sig.result, *sig.params)] for sig in overloads]
            complete = [(sig, m) for sig, m in zip(overloads, mapped, strict=True) if not any(x.unmapped for x in m)]
            if not complete:
                unmapped = tuple(dict.fromkeys(u for m in mapped for x in m for u in x.unmapped))
                out.append(Check(row, roc, name, tuple(overloads), (), unmapped))
                continue
            names: list[str] = []
            own: list[str] = []
            for sig, (result, *params) in complete:
                spelled = [p.spelling for p in params] + (["..."] if sig.variadic else [])
                names.append(f"{prefix}{len(lines)}")
                lines.append(f"using {names[-1]} = {result.spelling}({', '.join(spelled)});")
                own.append(lines[-1])
            first = tuple(p.spelling for p in complete[0][1][1:])
            out.append(Check(row, roc, name, tuple(sig for sig, _ in complete), tuple(names), (), tuple(own), first))
    return out, lines


def _by_arity(row: Row, count: int, target: str) -> str:
    """The name translation writes for a call of ``count`` arguments: a ``by_arity`` transform's choice
    (cuEventCreate(&e, flags) -> hipEventCreateWithFlags), else ``target``."""
    if row.transform is None or row.transform.kind != "by_arity":
        return target
    return dict(row.transform.arity).get(count, target)


def _siblings(target: str, hip: Declarations) -> list[str]:
    """HIP functions named like ``target`` but for a version/ILP64 suffix (hipblasCgemmBatched_v2,
    hipblasSgemm_64), closest first; then HIP's driver-API form of a runtime-named target (hipDrvGraphAddMemcpyNode
    beside hipGraphAddMemcpyNode: HIP spells the variant that takes the driver API's types with ``hipDrv``)."""
    base = re.sub(r"(?:_v\d+|_64)+$", "", target)
    names = [
        n
        for n in hip.functions
        if n != target and n.startswith(base) and _SIBLING_SUFFIX.fullmatch(n[len(base) :] or "_")
    ]
    driver = "hipDrv" + target[3:] if target.startswith("hip") and not target.startswith("hipDrv") else ""
    return sorted(names, key=lambda n: (len(n), n)) + ([driver] if driver in hip.functions else [])


def takes(have: Signature, want: Signature) -> bool:
    """Does a function of signature ``have`` take a call with arguments (and result use) of ``want``? Parameters
    beyond the call's need default arguments."""
    n = len(want.canonical_params)
    return (
        have.canonical_result == want.canonical_result
        and have.variadic == want.variadic
        and have.required <= n <= len(have.canonical_params)
        and all(accepts(h, w) for h, w in zip(have.canonical_params[:n], want.canonical_params, strict=True))
    )


def _taken(alias: str, name: str, hip: Declarations, mapped: dict[str, Signature]) -> bool:
    return alias in mapped and any(takes(d.signature, mapped[alias]) for d in hip.overloads(name))


def _matches(check: Check, name: str, hip: Declarations, mapped: dict[str, Signature]) -> bool:
    """The target takes the CUDA API's primary declaration (the first one; C++ convenience overloads that CUDA adds
    later in its header, such as cublasGemmEx with a cudaDataType compute type, are noted, not required)."""
    return _taken(check.aliases[0], name, hip, mapped)


def _untaken(check: Check, name: str, hip: Declarations, mapped: dict[str, Signature]) -> str:
    """The further CUDA overloads ``name`` does not take, in words ('' when it takes them all)."""
    return "; ".join(
        f"{name} has no overload for CUDA's {check.row.cuda}({', '.join(sig.params)})"
        for alias, sig in zip(check.aliases[1:], check.cuda[1:], strict=True)
        if not _taken(alias, name, hip, mapped)
    )


def _difference(check: Check, hip: Declarations, mapped: dict[str, Signature]) -> str:
    """How the target's declaration differs from what the translated call passes, in words."""
    if check.unmapped:
        return "the translated call's argument types have no HIP equivalent: " + ", ".join(check.unmapped)
    target = hip.overloads(check.target)
    if not target:
        return f"{check.target} is not declared as a function on AMD GPUs"
    for alias, sig in zip(check.aliases, check.cuda, strict=True):
        if alias not in mapped:
            return f"the mapped CUDA declaration of {check.row.cuda} does not compile against the HIP headers"
        want = mapped[alias]
        best = min(target, key=lambda d: _distance(want, d.signature))
        have = best.signature
        if takes(have, want):
            continue
        if len(want.canonical_params) != len(have.canonical_params) or want.variadic != have.variadic:
            return f"{check.target} takes {len(have.params)} parameters, {check.row.cuda} {len(sig.params)}"
        parts = []
        for k, (w, h) in enumerate(zip(want.canonical_params, have.canonical_params, strict=True)):
            if not accepts(h, w):
                pname = sig.names[k] if k < len(sig.names) and sig.names[k] else f"#{k + 1}"
                parts.append(f"parameter {k + 1} ({pname}): passes {want.params[k]}, takes {have.params[k]}")
        if want.canonical_result != have.canonical_result:
            parts.append(f"returns {have.result}, {check.row.cuda} returns {sig.result}")
        return "; ".join(parts)
    return ""


def _closer_sibling(check: Check, hip: Declarations, mapped: dict[str, Signature]) -> str:
    """Where neither the target nor a sibling takes the call as CUDA declares it: a sibling that differs in fewer
    parameters ('' if none). ROCm 6.4's hipblasGemmBatchedEx takes hipblasDatatype_t and its _v2 hipDataType, as
    the translated call passes; both take the pointer arrays without CUDA's inner const, which a call passing
    ``const void**`` never meets: the sibling is the one such calls compile with."""
    if check.unmapped or not check.aliases or check.aliases[0] not in mapped:
        return ""
    alias = check.aliases[0]
    want = mapped[alias]

    def distance(name: str) -> int:
        return min((_distance(want, d.signature) for d in hip.overloads(name)), default=_UNDECLARED)

    own = distance(check.target)
    if own >= _OTHER_ARITY:  # a target of another arity, or none: which sibling is meant is no count's to say
        return ""
    closer = [s for s in _siblings(check.target, hip) if distance(s) < own]
    return min(closer, key=distance) if closer else ""


_OTHER_ARITY = 1000  # _distance of a declaration taking another number of parameters: at least this
_UNDECLARED = 10_000


def _distance(want: Signature, have: Signature) -> int:
    if len(want.canonical_params) != len(have.canonical_params):
        return _OTHER_ARITY + abs(len(want.canonical_params) - len(have.canonical_params))
    return sum(not accepts(h, w) for w, h in zip(want.canonical_params, have.canonical_params, strict=True))


def _folder(header: str) -> str:
    return header.split("/", 1)[0] if "/" in header else header


def _config_macros(checks: Iterable[Check], hip: HipSide) -> dict[str, set[str]]:
    """Macros that the libraries of the failing targets test (`#ifdef X`, `defined(X)`) and never define
    themselves (HIPBLAS_V2, HIPBLAS_USE_HIP_HALF, ROCM_MATHLIBS_API_USE_HIP_COMPLEX): definitions a translated
    file may make before its first HIP include. Macro -> the library folders testing it."""
    files = hip.current_files
    current = hip.current
    folders = {_folder(c.header) for c in checks}
    found: dict[str, set[str]] = {}
    for rel, path in sorted(files.items()):
        if _folder(rel) not in folders or rel in hip.preincluded:
            continue
        for line in _CONDITION.findall(path.read_text(encoding="utf-8", errors="replace")):
            for name in _TESTED.findall(_COMMENT.sub(" ", line)):
                name = next(n for n in name if n)
                defined = any(h.decl.kind == "macro" for h in current.names.get(name, ()))
                if not defined and not _NOT_CONFIG.search(name) and not _BUILD_ONLY.search(name):
                    found.setdefault(name, set()).add(_folder(rel))
    return dict(sorted(found.items()))


def _narrow_text(checks: list[Check], hip: HipSide) -> str:
    """A parse of just what ``checks`` need: their targets' libraries and the headers declaring the HIP names
    their aliases spell (a definition's parse is much quicker this way)."""
    files = hip.current_files
    headers: set[str] = {"hip/hip_complex.h", "hip/library_types.h"}
    for check in checks:
        headers.update((_public(check.header, files), check.header))
        for line in check.lines:
            for word in set(_NAME.findall(line.split("=", 1)[1])):
                hit = hip.current.best(word)
                if hit is not None and hit.header in files:
                    headers.add(_public(hit.header, files))
    ordered = ["hip/hip_runtime.h"] + sorted(headers - hip.preincluded, key=lambda h: (_public(h, files) != h, h))
    includes = "".join(f"#include <{h}>\n" for h in dict.fromkeys(ordered))
    return includes + "\n".join(line for c in checks for line in c.lines) + "\n"


@dataclass(frozen=True)
class _Side:
    decls: Declarations
    mapped: dict[str, Signature]


def _packages(cache: Path, hip: HipSide) -> list[Path]:
    """The include folders of the release the targets are verified against."""
    return sorted(p for p in (cache / "hip" / hip.release).iterdir() if p.is_dir())


def _hip_parse(text: str, cache: Path, hip: HipSide, defines: tuple[str, ...], prefix: str = _ALIAS) -> _Side:
    parsed = clang_tu.parse(text, clang_tu.hip_args(_packages(cache, hip), defines), "hipify_signatures.hip")
    return _Side(read_declarations(parsed.tu), alias_signatures(parsed.tu, parsed.main, prefix))


def _decide(checks: list[Check], side: _Side, define: str) -> dict[int, Verdict]:
    out: dict[int, Verdict] = {}
    for k, check in enumerate(checks):
        if check.unmapped or not check.aliases:
            continue
        if _matches(check, check.target, side.decls, side.mapped):
            extra = _untaken(check, check.target, side.decls, side.mapped)
            out[k] = Verdict(DEFINE if define else SAME, check.target, define, extra)
            continue
        sibling = next(
            (s for s in _siblings(check.target, side.decls) if _matches(check, s, side.decls, side.mapped)), ""
        )
        if sibling:
            extra = _untaken(check, sibling, side.decls, side.mapped)
            out[k] = Verdict(DEFINE if define else SIBLING, sibling, define, extra)
    return out


def verify_signatures(rows: dict[str, Row], cache: Path, hip: HipSide, matcher: Matcher) -> dict[str, Row]:
    """The rows with their signature verdicts (function rows with a usable target; others unchanged)."""
    functions = [r for r in rows.values() if r.kind == "function" and r.api != "cub"]
    cuda = cuda_declarations(functions, cache)
    checks, lines = _checks(functions, cuda, rows)
    text = _hip_includes(rows.values(), hip) + "\n".join(lines) + "\n"
    log(f"signatures: {len(checks)} checks")
    base = _hip_parse(text, cache, hip, ())
    verdicts = _decide(checks, base, "")
    pending = [c for k, c in enumerate(checks) if k not in verdicts and c.aliases]
    macros = _config_macros(pending, hip)
    log(f"signatures: {len(pending)} differ as declared; trying {len(macros)} definitions: {' '.join(macros)}")
    for macro, folders in macros.items():
        concerned = [c for c in pending if _folder(c.header) in folders]
        if not concerned:
            continue
        found = _decide(concerned, _hip_parse(_narrow_text(concerned, hip), cache, hip, (macro,)), macro)
        for k, verdict in found.items():
            verdicts[checks.index(concerned[k])] = verdict
        done = {id(concerned[k]) for k in found}
        pending = [c for c in pending if id(c) not in done]
    _template_calls(checks, verdicts, base, cache, hip)
    _older_declarations(checks, verdicts, base, rows, cache, hip)
    older_forms = _older_forms(checks, verdicts, rows, cache, hip)
    out = dict(rows)
    for k, check in enumerate(checks):
        closer = "" if k in verdicts or not check.cuda else _closer_sibling(check, base.decls, base.mapped)
        differing = replace(check, target=closer) if closer else check
        verdict = verdicts.get(k) or Verdict(
            DIFFERS if check.cuda else UNCHECKED,
            differing.target,
            diff=_difference(differing, base.decls, base.mapped) if check.cuda else "",
        )
        plain, count, version = older_forms.get(k, ("", -1, ""))
        if plain and count == len(check.cuda[0].params):
            verdict = Verdict(
                NEWER,
                verdict.target,
                verdict.requires,
                f"takes CUDA 13.0's declaration; {plain} takes CUDA {version}'s",
            )
        out[check.row.cuda] = _apply(out[check.row.cuda], check.roc, verdict, matcher)
        if plain and count != len(check.cuda[0].params):
            out[check.row.cuda] = _with_older_arity(out[check.row.cuda], count, plain)
    return out


def _older_forms(
    checks: list[Check], verdicts: dict[int, Verdict], rows: dict[str, Row], cache: Path, hip: HipSide
) -> dict[int, tuple[str, int, str]]:
    """HIP targets retargeted to a sibling that takes CUDA 13's declaration, whose same-named function takes an older
    CUDA's (cudaMemPrefetchAsync: CUDA 13's five parameters take hipMemPrefetchAsync_v2, CUDA 12.9's four
    hipMemPrefetchAsync): code written for the older CUDA calls the plain name. Check -> (plain name, the older
    declaration's parameter count, its CUDA version)."""
    found: dict[int, tuple[str, int, str]] = {}
    for family, version in _OLDER:
        open_ = {
            c.row.cuda: k
            for k, c in enumerate(checks)
            if k not in found and not c.roc and c.cuda and k in verdicts and verdicts[k].status == SIBLING
        }
        if not open_ or not (cache / "cuda" / family).is_dir():
            continue
        subset = [rows[name] for name in open_]
        older, _ = _checks(subset, cuda_declarations(subset, cache, family), rows, f"__hipify_{family}_")
        older = [c for c in older if not c.roc and c.row.cuda in open_ and c.aliases and not c.unmapped]
        if not older:
            continue
        side = _hip_parse(_narrow_text(older, hip), cache, hip, (), f"__hipify_{family}_")
        for check in older:
            if _matches(check, check.target, side.decls, side.mapped):
                found[open_[check.row.cuda]] = (check.target, len(check.cuda[0].params), version)
    return found


def _with_older_arity(row: Row, count: int, plain: str) -> Row:
    """``row`` choosing ``plain`` for a call of ``count`` arguments (an older CUDA's form), unless it rewrites its
    arguments otherwise."""
    if row.transform is not None and row.transform.kind != "by_arity":
        return row
    arity = dict(row.transform.arity) if row.transform is not None else {}
    arity.setdefault(count, plain)
    return replace(row, transform=Transform(kind="by_arity", arity=tuple(sorted(arity.items()))))


def _template_calls(checks: list[Check], verdicts: dict[int, Verdict], base: _Side, cache: Path, hip: HipSide) -> None:
    """Targets HIP declares as function templates (hiprand_uniform<StateType>, hipHostMalloc<T> with a defaulted
    flags argument) have no one signature to compare: a call with the mapped argument types must compile (overload
    resolution and deduction by libclang, in an unevaluated operand)."""
    tried: list[tuple[int, str, bool]] = []  # (check, candidate, sibling)
    lines = ["#include <utility>"]
    for k, check in enumerate(checks):
        if k in verdicts or check.unmapped or not check.aliases:
            continue
        names = [check.target] + _siblings(check.target, base.decls)
        for name in names:
            if base.decls.resolve(name) in base.decls.templates:
                args = ", ".join(f"std::declval<{a}>()" for a in check.arguments)
                lines.append(f"using __hipify_call{len(tried)} = decltype({name}({args}));")
                tried.append((k, name, name != check.target))
    if not tried:
        return
    subset = [checks[k] for k, _, _ in tried]
    text = _narrow_text(subset, hip).split("\n__hipify", 1)[0]
    includes = "".join(line + "\n" for line in text.splitlines() if line.startswith("#include"))
    parsed = clang_tu.parse(
        includes + "\n".join(lines) + "\n", clang_tu.hip_args(_packages(cache, hip)), "hipify_calls.hip"
    )
    first = includes.count("\n") + 2  # the line of __hipify_call0
    for n, (k, name, sibling) in enumerate(tried):
        if k not in verdicts and first + n not in parsed.errors:
            verdicts[k] = Verdict(SIBLING if sibling else SAME, name)


def _older_declarations(
    checks: list[Check], verdicts: dict[int, Verdict], base: _Side, rows: dict[str, Row], cache: Path, hip: HipSide
) -> None:
    """Rows still without a verdict, checked against the declarations of older CUDA versions: names CUDA 13 no
    longer declares (cuSPARSE's csr2csc, cudaThreadSynchronize's kin) and APIs CUDA 13 changed (cudaMemAdvise
    and cudaMemPrefetchAsync take a cudaMemLocation since 13.0; cuCtxCreate takes CUctxCreateParams, which HIP
    lacks), which code written for older CUDA calls. A name CUDA 13 no longer declares that no older declaration
    matches either differs from the newest one that declares it."""
    older_diffs: dict[int, Verdict] = {}
    for family, version in _OLDER:
        open_ = {(c.row.cuda, c.roc): k for k, c in enumerate(checks) if k not in verdicts}
        if not open_ or not (cache / "cuda" / family).is_dir():
            continue
        subset = list({checks[k].row.cuda: checks[k].row for k in open_.values()}.values())
        older, _ = _checks(subset, cuda_declarations(subset, cache, family), rows, f"__hipify_{family}_")
        older = [c for c in older if (c.row.cuda, c.roc) in open_ and (c.aliases or c.unmapped)]
        if not older:
            continue
        side = _hip_parse(_narrow_text([c for c in older if c.aliases], hip), cache, hip, (), f"__hipify_{family}_")
        decided = _decide(older, side, "")
        for j, check in enumerate(older):
            k = open_[(check.row.cuda, check.roc)]
            current = checks[k]
            verdict = decided.get(j)
            if verdict is None:
                if not current.cuda and k not in older_diffs:
                    why = _difference(check, side.decls, side.mapped)
                    older_diffs[k] = Verdict(DIFFERS, check.target, diff=f"CUDA {version}'s declaration: {why}")
            elif current.cuda:
                why = _difference(current, base.decls, base.mapped)
                verdicts[k] = Verdict(
                    OLDER, verdict.target, verdict.requires, f"takes CUDA {version}'s declaration; CUDA 13.0's: {why}"
                )
            else:
                verdicts[k] = replace(verdict, diff=f"CUDA {version}'s declaration (CUDA 13.0 no longer declares it)")
    for k, verdict in older_diffs.items():
        verdicts.setdefault(k, verdict)


def _apply(row: Row, roc: bool, verdict: Verdict, matcher: Matcher) -> Row:
    side = "roc" if roc else "hip"
    changes: dict[str, object] = {f"{side}_signature": verdict.status, f"{side}_signature_diff": verdict.diff}
    old = row.roc if roc else row.hip
    chosen_by_arity = row.transform is not None and verdict.target in dict(row.transform.arity).values()
    if verdict.target and verdict.target != old and not chosen_by_arity:
        t = matcher.target(verdict.target, row.source)
        changes.update({side: t.name, f"{side}_status": t.status, f"{side}_header": t.header, f"{side}_since": t.since})
        takes = "differs in fewer parameters" if verdict.status == DIFFERS else "takes what the translated call passes"
        changes["note"] = "; ".join(n for n in (row.note, f"{old} takes other types; {verdict.target} {takes}") if n)
    if verdict.requires:
        changes[f"{side}_requires"] = verdict.requires
    return Row.from_json({**row.to_json(), **changes})
