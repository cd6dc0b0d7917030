"""Classify one top-level statement: what it declares (function, typedef, enum with its constants, struct/class,
alias, variable)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...lexing.parameters import parameter_types
from .decl import Decl
from .enums import enum_constants
from .marks import (
    DEPRECATED_WORD,
    documented_beta,
    documented_deprecated,
    documented_experimental,
    has_deprecation_mark,
    named_successor,
)
from .params import forwarded_to, param_count, param_defaults, param_names, param_types, split_params
from .statements import Group, Statement, Word
from .tokens import Token
from .vocabulary import AGGREGATE, IDENT, MACROISH, NOT_A_NAME, TYPE_WORDS


@dataclass(frozen=True)
class _Traits:
    """What the statement's words and doc comment say about every name it declares."""

    namespace: str
    deprecated: bool
    experimental: bool
    beta: bool
    replacement: str


def declared(st: Statement, toks: list[Token]) -> list[Decl]:
    """The declarations of ``st`` (no guards: the caller adds those)."""
    words, groups = st.words, st.groups
    texts = [w.text for w in words]
    all_words = texts + [toks[k].text for _, s, e in groups for k in range(s, e + 1)]
    deprecated = has_deprecation_mark(all_words) or documented_deprecated(st.doc)
    traits = _Traits(
        st.namespace,
        deprecated,
        documented_experimental(st.doc),
        documented_beta(st.doc),
        named_successor(all_words, st.doc) if deprecated else "",
    )
    tparams: list[str] = []
    while texts and texts[0] == "template" and len(texts) > 1 and texts[1] == "<":
        close = _template_close(texts)
        if close < 0:
            return []
        # type parameters: the name after class/typename (`template <class T, typename U = int>`)
        tparams += [
            texts[j + 1]
            for j in range(1, close - 1)
            if texts[j] in ("class", "typename") and IDENT.fullmatch(texts[j + 1])
        ]
        words, texts = words[close + 1 :], texts[close + 1 :]
        groups = [Group(g.pos - close - 1, g.start, g.end) for g in groups if g.pos > close]
    if not texts:
        return []
    if texts[0] == "using":
        return _using(words, texts, traits)
    if "typedef" in texts:
        return _typedef(words, texts, st.bodies, groups, toks, traits)
    agg = next((k for k, w in enumerate(texts) if w in AGGREGATE), -1)
    has_body = any(w.kind == "body" for w in words)
    # `struct cudaExtent make_cudaExtent(...)` is a function returning a struct: an aggregate has a body or
    # no parameter list (attribute groups such as __align__(16) aside, handled by the fallback below)
    if agg >= 0 and (not groups or has_body):
        return _aggregate(words, texts, st.bodies, agg, toks, traits)
    if groups:
        function = _function(words, texts, st, groups, toks, traits)
        if function is not None and (traits.replacement or tparams):
            return [replace(function, replacement=traits.replacement, template_params=tuple(tparams))]
        if function is not None:
            return [function]
        return _aggregate(words, texts, st.bodies, agg, toks, traits) if agg >= 0 else []
    # A variable: the last identifier before '=' or the end.
    cut = texts.index("=") if "=" in texts else len(texts)
    idents = [w.text for w in words[:cut] if w.kind == "ident"]
    if len(idents) >= 2:
        return [Decl(idents[-1], "variable", namespace=traits.namespace, deprecated=traits.deprecated)]
    return []


def _template_close(texts: list[str]) -> int:
    """Index of the '>' closing the template parameter list that ``texts[1]`` opens; -1 when unclosed."""
    depth = 0
    for k, w in enumerate(texts[1:], 1):
        if w == "<":
            depth += 1
        elif w == ">":
            depth -= 1
            if depth == 0:
                return k
    return -1


def _using(words: list[Word], texts: list[str], traits: _Traits) -> list[Decl]:
    """Alias declaration `using N = T;` or using-declaration `using ns::N;`: both introduce N here (an attribute
    may sit between: `using Sum CCCL_DEPRECATED_BECAUSE("...") = ...;`)."""
    if len(words) > 2 and words[1].kind == "ident" and "=" in texts and "::" not in texts[: texts.index("=")]:
        return [Decl(texts[1], "type", namespace=traits.namespace, deprecated=traits.deprecated)]
    if "namespace" not in texts and words[-1].kind == "ident" and "::" in texts:
        return [Decl(texts[-1], "type", namespace=traits.namespace, deprecated=traits.deprecated)]
    return []


def _tag_name(words: list[Word], agg: int) -> str:
    rest = words[agg + 1 :]
    for k, (kind, t) in enumerate(rest):
        if kind == "body" or t in (":", ";", "{"):
            return ""
        if kind == "ident" and MACROISH.match(t) and k + 1 < len(rest) and rest[k + 1].kind == "ident":
            continue  # an attribute macro before the tag (``struct __HIP_TEXTURE_ATTRIB texture : ...``)
        if (kind == "ident" and not MACROISH.match(t)) or (kind == "ident" and words[-1].kind != "ident"):
            # skip attribute macros such as __device_builtin__ / CUDNN_DEPRECATED between keyword and tag
            if t.startswith("__") and t.endswith("__"):
                continue
            if DEPRECATED_WORD.search(t) or t in ("alignas", "__align__", "final"):
                continue
            return t
    return ""


def _tag_decl(name: str, keyword: str, traits: _Traits) -> Decl:
    return Decl(
        name,
        "enum" if keyword == "enum" else "type",
        namespace=traits.namespace,
        deprecated=traits.deprecated,
        experimental=traits.experimental,
        tag=True,
    )


def _body(words: list[Word], bodies: list[tuple[int, int]], toks: list[Token]) -> list[Token] | None:
    """The tokens inside the statement's first depth-0 body (an aggregate's), None when it has none."""
    index = next((k for k, w in enumerate(words) if w.kind == "body"), -1)
    if index < 0:
        return None
    start, end = bodies[int(words[index].text)]
    return toks[start + 1 : end]


def _aggregate(
    words: list[Word], texts: list[str], bodies: list[tuple[int, int]], agg: int, toks: list[Token], traits: _Traits
) -> list[Decl]:
    # ``enum class E`` / ``enum struct E``: a scoped enum, whose constants are E::A (no name of the scope)
    scoped = texts[agg] == "enum" and agg + 1 < len(texts) and texts[agg + 1] in ("class", "struct")
    tag = _tag_name(words, agg + 1 if scoped else agg)
    out = [_tag_decl(tag, texts[agg], traits)] if tag else []
    body = _body(words, bodies, toks)
    if texts[agg] == "enum" and body is not None and not scoped:
        out += enum_constants(body, tag, traits.namespace)
    return out + _declarators_after_body(words, traits)


def _declarators_after_body(words: list[Word], traits: _Traits) -> list[Decl]:
    """The variable an aggregate's definition declares after its body: ``struct {...} warpSize{};`` (ROCm 7's
    warpSize, an object converting to the wavefront size)."""
    first = next((k for k, w in enumerate(words) if w.kind == "body"), -1)
    if first < 0:
        return []
    rest = words[first + 1 :]
    for k, (kind, text) in enumerate(rest):
        if text == "=":
            break
        followed_by_group = k + 1 < len(rest) and rest[k + 1].kind == "group"
        if kind == "ident" and not MACROISH.match(text) and not followed_by_group and text not in NOT_A_NAME:
            return [Decl(text, "variable", namespace=traits.namespace, deprecated=traits.deprecated)]
    return []


def _function(
    words: list[Word], texts: list[str], st: Statement, groups: list[Group], toks: list[Token], traits: _Traits
) -> Decl | None:
    """The function a statement with parameter groups declares: the identifier before the first group that is not
    an attribute, keyword or attribute-like macro call. None for operators, out-of-class member definitions and
    variables initialised by a call."""
    for pos, s, e in groups:
        if pos <= 0 or words[pos - 1].kind != "ident":
            continue
        if pos == 1 and len(words) == 2 and st.words is words:
            return None  # `NAME(...);` alone, no return type: a macro invocation (`__func__(double rsqrt(double));`)
        cand = words[pos - 1].text
        if cand in NOT_A_NAME or (pos > 1 and words[pos - 2].text == "operator"):
            if cand == "operator" or words[pos - 2].text == "operator":
                return None
            continue
        if MACROISH.match(cand) and pos + 1 < len(words):
            continue  # an attribute-like macro call: the name comes later
        if pos > 1 and words[pos - 2].text == "::":
            return None  # out-of-class member definition
        if "=" in texts[:pos]:
            return None  # a variable initialised by a call
        params = split_params(toks, s, e)
        count = param_count(params)
        names = param_names(params)
        calls: tuple[str, ...] = ()
        forwards = ""
        if st.is_definition and st.bodies:
            bs, be = st.bodies[-1]
            body = toks[bs : be + 1]
            calls = tuple(
                body[k].text for k in range(len(body) - 1) if body[k].kind == "ident" and body[k + 1].text == "("
            )
            forwards = forwarded_to(body[1:-1], names, count)
        return Decl(
            cand,
            "function",
            namespace=traits.namespace,
            deprecated=traits.deprecated,
            experimental=traits.experimental,
            beta=traits.beta,
            calls=calls,
            forwards=forwards,
            params=count,
            defined=st.is_definition,
            param_names=names,
            param_types=param_types(params),
            param_defaults=param_defaults(params),
            exact_param_types=parameter_types(",".join(" ".join(t.text for t in p) for p in params)),
        )
    return None


def _typedef(
    words: list[Word],
    texts: list[str],
    bodies: list[tuple[int, int]],
    groups: list[Group],
    toks: list[Token],
    traits: _Traits,
) -> list[Decl]:
    out: list[Decl] = []
    agg = next((k for k, w in enumerate(texts) if w in AGGREGATE), -1)
    body_index = next((k for k, w in enumerate(words) if w.kind == "body"), -1)
    tag = _tag_name(words, agg) if agg >= 0 else ""
    if tag:
        out.append(_tag_decl(tag, texts[agg], traits))
    # function pointer typedef: typedef R (CONV *NAME)(...);
    if groups and groups[0].pos >= 0 and body_index < 0:
        inner = toks[groups[0].start + 1 : groups[0].end]
        if any(t.text in ("*", "&") for t in inner):
            pointer_names = [t.text for t in inner if t.kind == "ident"]
            if pointer_names:
                out.append(
                    Decl(
                        pointer_names[-1],
                        "type",
                        namespace=traits.namespace,
                        deprecated=traits.deprecated,
                        experimental=traits.experimental,
                    )
                )
            return out
        # typedef R NAME(args);
    names = _typedef_names(words[body_index + 1 :] if body_index >= 0 else words)
    alias = ""
    if body_index < 0 and names:
        base = [
            w.text
            for w in words
            if w.kind == "ident" and w.text not in TYPE_WORDS and not DEPRECATED_WORD.search(w.text)
        ]
        if len(base) == 2 and "*" not in texts:
            alias = base[0]
    out += [
        Decl(
            name,
            "type",
            namespace=traits.namespace,
            deprecated=traits.deprecated,
            experimental=traits.experimental,
            alias_of=alias,
        )
        for name in names
    ]
    body = _body(words, bodies, toks)
    if agg >= 0 and texts[agg] == "enum" and body is not None:
        out += enum_constants(body, names[0] if names else tag, traits.namespace)
    return out


def _typedef_names(words: list[Word]) -> list[str]:
    """The names a typedef declares after its type (or after the aggregate body): `typedef T A, *B;` -> A, B."""
    names: list[str] = []
    chunk: list[Word] = []
    for w in words + [Word("punct", ",")]:
        if w.text == ",":
            ids = [x.text for x in chunk if x.kind == "ident" and not DEPRECATED_WORD.search(x.text)]
            ids = [x for x in ids if x not in TYPE_WORDS]
            if ids:
                names.append(ids[-1])
            chunk = []
        else:
            chunk.append(w)
    return names
