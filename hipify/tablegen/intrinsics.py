"""Half-precision intrinsics CUDA declares for a type that HIP's headers lack, written with HIP's own operations.

CUDA declares most fp16/bf16 intrinsics for both ``__half``/``__half2`` and ``__nv_bfloat16``/``__nv_bfloat162``;
ROCm's headers often define a name for one of the two only (``__hmax2`` for ``__hip_bfloat162``), or not the
variants CUDA names by a suffix (``_nan``, ``_sat``, ``_relu``). Where HIP has the operations such an intrinsic is
made of, its definition follows from CUDA's own naming and documentation:

- a *lane-wise* vector intrinsic (``__hmax2(a, b)`` on ``__half2``) applies its scalar (``__hmax``) to each half
  and packs the results (``__halves2half2``), as CUDA documents every ``__h*2`` function;
- ``_nan`` (``__hmax_nan``): the scalar operation, except that a NaN operand gives a NaN;
- ``_sat`` (``__hadd_sat``): the scalar operation's result clamped to [0, 1], NaN giving +0;
- ``_relu`` (``__hfma_relu``): negative results clamped to 0, NaN kept;
- a packing conversion (``__float2bfloat162_rn(x)``, ``__floats2bfloat162_rn(x, y)``): the scalar conversion
  (``__float2bfloat16_rn``, HIP's ``__float2bfloat16``) of each operand into one lane each.

:func:`derive` reads which overloads CUDA's headers declare and which each ROCm release's headers have, and writes
compatibility entries (``hipify/compat/derived.toml``) for the overloads a release lacks; an overload only some
releases lack is guarded by ``HIP_VERSION``. ``python -m hipify.tablegen intrinsics`` regenerates the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..knowledge.table import MappingTable
from ..lexing.lexer import lex
from .headers import HeaderIndex

# The CUDA headers of the half-precision intrinsics.
CUDA_HEADERS = ("cuda_fp16.h", "cuda_fp16.hpp", "cuda_bf16.h", "cuda_bf16.hpp")


@dataclass(frozen=True)
class Lanes:
    """How CUDA's API splits a vector of two halves and packs two into one (the intrinsics of its headers)."""

    scalar: str  # CUDA's element type
    low: str
    high: str
    pack: str
    from_float: str  # the element from a float (for the constants 0 and 1)
    header: str  # the CUDA header declaring them


# CUDA's vector types of two halves, by CUDA type name.
LANES = {
    "__half2": Lanes("__half", "__low2half", "__high2half", "__halves2half2", "__float2half", "cuda_fp16.h"),
    "__nv_bfloat162": Lanes(
        "__nv_bfloat16", "__low2bfloat16", "__high2bfloat16", "__halves2bfloat162", "__float2bfloat16", "cuda_bf16.h"
    ),
}
SCALARS = {lanes.scalar: vector for vector, lanes in LANES.items()}


@dataclass(frozen=True)
class Overload:
    """One CUDA declaration: parameter types and return type as CUDA spells them."""

    name: str
    params: tuple[str, ...]
    returns: str


@dataclass(frozen=True)
class Derived:
    overload: Overload
    code: str  # the HIP definition (CUDA type names replaced by HIP's)
    calls: tuple[str, ...]  # the CUDA names of the intrinsics the definition calls


Have = Callable[[str, tuple[str, ...]], bool]  # does HIP (or a derived definition) have name(types)?
Returns = Callable[[str, tuple[str, ...]], str]  # what CUDA's name(types) returns ("" when CUDA declares none)


def cuda_overloads(index: HeaderIndex, texts: Iterable[str]) -> dict[str, list[Overload]]:
    """Every function of the half-precision headers with plain parameter types, with its return type (read from the
    declarations' text: the type before the name)."""
    joined = "\n".join(texts)
    out: dict[str, list[Overload]] = {}
    for name, hits in index.names.items():
        seen: set[tuple[str, ...]] = set()
        for hit in hits:
            decl = hit.decl
            if decl.kind != "function" or decl.exact_param_types is None or decl.exact_param_types in seen:
                continue
            returns = _return_type(joined, name, decl.exact_param_types)
            if returns:
                seen.add(decl.exact_param_types)
                out.setdefault(name, []).append(Overload(name, decl.exact_param_types, returns))
    return out


def _return_type(text: str, name: str, params: tuple[str, ...]) -> str:
    """The type written before ``name(`` in a declaration whose first parameter has ``params[0]``'s type."""
    pattern = re.compile(rf"\b([A-Za-z_]\w*)\s+{re.escape(name)}\s*\(([^)]*)\)")
    for m in pattern.finditer(text):
        written = [p.strip() for p in m.group(2).split(",") if p.strip()]
        if len(written) == len(params) and all(_spells(w, t) for w, t in zip(written, params, strict=True)):
            return m.group(1)
    return ""


def _spells(written: str, type_: str) -> bool:
    words = written.replace("*", " * ").split()
    return " ".join(w for w in words if w not in ("const", "volatile")).startswith(type_.replace("*", " *").strip())


def derive(overloads: Mapping[str, list[Overload]], have: Have) -> list[Derived]:
    """The definitions of the overloads ``have`` says HIP lacks that the rules of this module can write; a
    definition may build on another one derived here (the rules run until nothing more can be written)."""
    missing = [o for name in sorted(overloads) for o in overloads[name] if not have(name, o.params)]
    derived: dict[tuple[str, tuple[str, ...]], Derived] = {}
    declared = {(o.name, o.params): o.returns for group in overloads.values() for o in group}

    def returns(name: str, params: tuple[str, ...]) -> str:
        return declared.get((name, params), "")

    def can(name: str, params: tuple[str, ...]) -> bool:
        return have(name, params) or (name, params) in derived

    changed = True
    while changed:
        changed = False
        for overload in missing:
            key = (overload.name, overload.params)
            if key in derived:
                continue
            for rule in _RULES:
                found = rule(overload, can, returns)
                if found is not None:
                    derived[key] = found
                    changed = True
                    break
    return [derived[k] for k in sorted(derived)]


# --- the rules --------------------------------------------------------------------------------------------------


def _lanewise(o: Overload, can: Have, returns: Returns) -> Derived | None:
    lanes = LANES.get(o.returns)
    m = re.fullmatch(r"(__h\w*?)2(_\w+)?", o.name)
    if lanes is None or m is None or not o.params or any(p != o.returns for p in o.params):
        return None
    scalar = m.group(1) + (m.group(2) or "")
    element = (lanes.scalar,) * len(o.params)
    if returns(scalar, element) != lanes.scalar or not (can(scalar, element) and _splits(lanes, can)):
        return None  # (``__hequ`` answers a bool: ``__hequ2``'s lanes are 1.0 or 0.0, not its result)
    names = _names(len(o.params))
    low = ", ".join(f"{lanes.low}({n})" for n in names)
    high = ", ".join(f"{lanes.high}({n})" for n in names)
    body = f"return {lanes.pack}({scalar}({low}),\n{' ' * (len(lanes.pack) + 10)}{scalar}({high}));"
    return Derived(o, _function(o, body), (scalar, lanes.low, lanes.high, lanes.pack))


def _nan_variant(o: Overload, can: Have, returns: Returns) -> Derived | None:
    if not o.name.endswith("_nan") or o.returns not in SCALARS or any(p != o.returns for p in o.params):
        return None
    base = o.name[: -len("_nan")]
    if returns(base, o.params) != o.returns or len(o.params) != 2:
        return None
    if not (can(base, o.params) and can("__hisnan", (o.returns,))):
        return None
    body = "return __hisnan(a) ? a : (__hisnan(b) ? b : " + f"{base}(a, b));"
    return Derived(o, _function(o, body), (base, "__hisnan"))


def _clamped_variant(
    o: Overload,
    can: Have,
    returns: Returns,
    suffix: str,
    compares: tuple[str, ...],
    result: Callable[[str], str],
) -> Derived | None:
    """``<base><suffix>`` as ``<base>`` followed by a clamp of its result ``r``: ``compares`` are the comparisons the
    clamp calls, ``result(zero_of)`` its expression (``zero_of``: the type's conversion from float)."""
    lanes = LANES.get(SCALARS.get(o.returns, ""))
    if not o.name.endswith(suffix) or lanes is None or any(p != o.returns for p in o.params):
        return None
    base = o.name[: -len(suffix)]
    if returns(base, o.params) != o.returns:
        return None
    two = (o.returns, o.returns)
    needed = [
        (base, o.params),
        ("__hisnan", (o.returns,)),
        *((c, two) for c in compares),
        (lanes.from_float, ("float",)),
    ]
    if not all(can(n, p) for n, p in needed):
        return None
    args = ", ".join(_names(len(o.params)))
    body = f"const {o.returns} r = {base}({args});\n  return {result(lanes.from_float)};"
    return Derived(o, _function(o, body), tuple(n for n, _ in needed))


def _sat_variant(o: Overload, can: Have, returns: Returns) -> Derived | None:
    """Saturated to [0, 1], NaN to 0 (CUDA's _sat)."""
    return _clamped_variant(
        o,
        can,
        returns,
        "_sat",
        ("__hmin", "__hmax"),
        lambda f: f"__hisnan(r) ? {f}(0.0f) : __hmin(__hmax(r, {f}(0.0f)), {f}(1.0f))",
    )


def _relu_variant(o: Overload, can: Have, returns: Returns) -> Derived | None:
    """Negative results to 0, NaN kept (CUDA's _relu)."""
    return _clamped_variant(
        o, can, returns, "_relu", ("__hlt",), lambda f: f"(!__hisnan(r) && __hlt(r, {f}(0.0f))) ? {f}(0.0f) : r"
    )


def _packing(o: Overload, can: Have, returns: Returns) -> Derived | None:
    lanes = LANES.get(o.returns)
    m = re.fullmatch(r"__(\w+?)(s?)2(\w+)2(_r[nduz])", o.name)
    if lanes is None or m is None:
        return None
    source, plural, target, rounding = m.groups()
    if len(o.params) != (2 if plural else 1) or len(set(o.params)) != 1:
        return None
    scalar = f"__{source}2{target}{rounding}"
    if returns(scalar, o.params[:1]) != lanes.scalar:
        return None
    if not (can(scalar, o.params[:1]) and can(lanes.pack, (lanes.scalar, lanes.scalar))):
        return None
    names = _names(len(o.params))
    second = names[1] if plural else names[0]
    body = f"return {lanes.pack}({scalar}({names[0]}), {scalar}({second}));"
    return Derived(o, _function(o, body), (scalar, lanes.pack))


_RULES = (_lanewise, _nan_variant, _sat_variant, _relu_variant, _packing)


def _splits(lanes: Lanes, can: Have) -> bool:
    vector = next(v for v, lane in LANES.items() if lane is lanes)
    return can(lanes.low, (vector,)) and can(lanes.high, (vector,)) and can(lanes.pack, (lanes.scalar, lanes.scalar))


def _names(count: int) -> list[str]:
    return ["a", "b", "c", "d"][:count]


def _function(o: Overload, body: str) -> str:
    params = ", ".join(f"const {t} {n}" for t, n in zip(o.params, _names(len(o.params)), strict=True))
    head = f"__device__ inline {o.returns} {o.name}({params}) {{"
    if len(head) > 100:  # (HIP's spelling of the types is longer)
        head = f"__device__ inline {o.returns} {o.name}(\n    {params}) {{"
    return f"{head}\n  {body}\n}}"


# --- the entries ----------------------------------------------------------------------------------------------------


def hip_spelling(table: MappingTable) -> Callable[[str], str]:
    """CUDA's spelling of a name or type -> HIP's (the table's target; unchanged where HIP spells it alike)."""

    def spell(name: str) -> str:
        row = table.lookup(name)
        return row.hip if row is not None and row.hip else name

    return spell


def entries_text(
    per_release: Mapping[str, list[Derived]],
    spell: Callable[[str], str],
    provenance: str,
    by_hand: frozenset[str] = frozenset(),
) -> str:
    """``derived.toml``: one entry per CUDA name, holding its derived overloads; an overload not every release that
    lacks the name lacks is guarded by ``HIP_VERSION`` (each ROCm release's headers decide, whatever the target).
    ``by_hand``: names the written catalog (``entries.toml``) provides, which keep its definitions."""
    releases = sorted(per_release, key=_version)
    newest = releases[-1]
    by_name: dict[str, dict[tuple[str, ...], tuple[Derived, list[str]]]] = {}
    for release in releases:
        for d in per_release[release]:
            if d.overload.name in by_hand:
                continue
            slot = by_name.setdefault(d.overload.name, {})
            slot.setdefault(d.overload.params, (d, []))[1].append(release)
    lines = [
        "# Generated by `python -m hipify.tablegen intrinsics` from the vendors' headers; do not edit by hand.",
        f"# {provenance}",
        "# Half-precision intrinsics CUDA declares that a ROCm release lacks, written with HIP's own operations",
        "# (hipify/tablegen/intrinsics.py says how each is derived), and the device overloads of HIP's error strings",
        "# (hipify/tablegen/device_errors.py). Schema: hipify/compat/entries.toml.",
    ]
    derived_names = set(by_name)
    for name in sorted(by_name):
        overloads = by_name[name]
        lacking = sorted({r for _, rs in overloads.values() for r in rs}, key=_version)
        blocks = []
        calls: set[str] = set()
        for params in sorted(overloads):
            d, rs = overloads[params]
            calls.update(c for c in d.calls if c in derived_names and c != name)
            code = _in_hip_spelling(d.code, spell)
            blocks.append(code if rs == lacking else _guarded(code, rs, releases))
        until = "" if newest in lacking else lacking[-1]
        example = _example(name, [overloads[p][0].overload for p in sorted(overloads)], spell)
        lines += ["", "[[entry]]", f'name = "derived{name}"', f'provides = ["{name}"]']
        types = {t for d, _ in overloads.values() for t in (*d.overload.params, d.overload.returns)}
        headers = sorted({spell(lanes.header) for v, lanes in LANES.items() if v in types or lanes.scalar in types})
        lines.append("hip_includes = [" + ", ".join(f'"{h}"' for h in headers) + "]")
        if calls:
            lines.append("needs = [" + ", ".join(f'"derived{c}"' for c in sorted(calls)) + "]")
        if until:
            lines.append(f'rocm_until = "{until}"')
        lines += ["code = '''", *("\n\n".join(blocks)).split("\n"), "'''"]
        how = sorted({_rule_of(d) for d, _ in overloads.values()})
        signatures = ", ".join(f"({', '.join(spell(t) for t in p)})" for p in sorted(overloads))
        lines.append(f'note = """{name} for {signatures}, which ROCm {", ".join(lacking)} lacks: {"; ".join(how)}."""')
        lines += ["example = '''", example, "'''", f'checked_by = "{CHECKED_BY}"']
    return "\n".join(lines) + "\n"


CHECKED_BY = "half_intrinsics"


def _rule_of(d: Derived) -> str:
    o = d.overload
    if o.name.endswith("_nan") and o.returns in SCALARS:
        return "the scalar operation, a NaN operand giving a NaN"
    if o.name.endswith("_sat") and o.returns in SCALARS:
        return "the result clamped to [0, 1], NaN giving +0"
    if o.name.endswith("_relu") and o.returns in SCALARS:
        return "negative results clamped to 0, NaN kept"
    if any(p not in LANES for p in o.params):
        return "the scalar conversion of each operand, one lane each"
    return "the scalar operation on each lane"


def _in_hip_spelling(code: str, spell: Callable[[str], str]) -> str:
    """Every CUDA name of ``code`` as HIP spells it (``__nv_bfloat16`` -> ``__hip_bfloat16``, ``__float2bfloat16_rn``
    -> ``__float2bfloat16``)."""
    return re.sub(r"[A-Za-z_]\w*", lambda m: spell(m.group()), code)


def _guarded(code: str, lacking: list[str], releases: list[str]) -> str:
    """``code`` compiled only where the ROCm release is one of ``lacking`` (a contiguous range of ``releases``)."""
    last = max(lacking, key=_version)
    major, minor = _version(last)
    return (
        f"#if HIP_VERSION_MAJOR < {major} || (HIP_VERSION_MAJOR == {major} && HIP_VERSION_MINOR <= {minor})\n"
        f"{code}\n#endif"
    )


def _example(name: str, overloads: list[Overload], spell: Callable[[str], str]) -> str:
    lines = []
    for i, o in enumerate(overloads):
        params = ", ".join(f"{spell(t)} {n}" for t, n in zip(o.params, _names(len(o.params)), strict=True))
        args = ", ".join(_names(len(o.params)))
        lines.append(f"__device__ {spell(o.returns)} compat_example{name}_{i}({params}) {{ return {name}({args}); }}")
    return "\n".join(lines)


def _version(release: str) -> tuple[int, ...]:
    return tuple(int(p) for p in release.split("."))


def hip_has(index: HeaderIndex, spell: Callable[[str], str]) -> Have:
    """Does one ROCm release's index declare the function (in HIP's spelling) for the types (CUDA's spelling)?"""

    def have(name: str, params: tuple[str, ...]) -> bool:
        wanted = tuple(spell(p) for p in params)
        return any(
            hit.decl.kind == "function" and hit.decl.exact_param_types == wanted
            for hit in index.names.get(spell(name), ())
        )

    return have


def cuda_header_texts(paths: Iterable[Path]) -> list[str]:
    """The headers' code, comments blanked (their prose names functions too: ``\\see __float2bfloat16_rn(float)``)."""
    return [lex(p.read_text(encoding="utf-8", errors="replace")).masked for p in paths]


def write_derived(cache: Path, out: Path) -> int:
    """Regenerate ``out`` (``hipify/compat/derived.toml``) from the cached headers; the number of entries."""
    from ..knowledge.table import load_table
    from .device_errors import entry_text as error_entry_text
    from .device_errors import error_enumerators
    from .headers import build_index
    from .sides import hip_side

    root = cache / "cuda" / "cu13"
    folder = next((root / d for d in ("toolkit", "cuda_runtime") if (root / d / CUDA_HEADERS[0]).is_file()), None)
    if folder is None:
        raise FileNotFoundError(f"no {CUDA_HEADERS[0]} under {root} (run `python -m hipify.tablegen fetch`)")
    paths = [folder / h for h in CUDA_HEADERS if (folder / h).is_file()]
    overloads = cuda_overloads(build_index((p.name, p) for p in paths), cuda_header_texts(paths))
    spell = hip_spelling(load_table())
    hip = hip_side(cache)
    per_release = {release: derive(overloads, hip_has(index, spell)) for release, index in hip.indexes.items()}
    provenance = (
        f"CUDA headers: {folder.relative_to(cache)}; ROCm releases: {', '.join(sorted(per_release, key=_version))}"
    )
    text = entries_text(per_release, spell, provenance, written_catalog_names())
    newest = max(hip.indexes, key=_version)
    text += "\n" + error_entry_text(error_enumerators(hip.indexes, newest)) + "\n"
    out.write_text(text, encoding="utf-8")
    return text.count("[[entry]]")


def written_catalog_names() -> frozenset[str]:
    """The names the hand-written catalog (``hipify/compat/entries.toml``) provides."""
    from ..compat.catalog import load_written_catalog

    return frozenset(n for e in load_written_catalog().entries for n in e.provides)
