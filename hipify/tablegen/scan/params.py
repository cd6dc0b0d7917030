"""A function's parameter list: count, names, plain types, and whether its body only forwards them."""

from __future__ import annotations

from .tokens import Token, split_top_level
from .vocabulary import NOT_A_NAME, QUALIFIERS

_OPEN = frozenset("([{<")
_CLOSE = frozenset(")]}>")
# a parameter whose declarator holds one of these is not a plain named type (template, function pointer, array)
_NOT_PLAIN = frozenset("([<")


def split_params(tokens: list[Token], start: int, end: int) -> list[list[Token]]:
    """The tokens of each parameter between the parentheses at ``start`` and ``end`` (top-level commas)."""
    return split_top_level(tokens[start + 1 : end], _OPEN, _CLOSE)


def param_count(params: list[list[Token]]) -> int:
    """How many parameters (`(void)` has none); -1 for a variadic list."""
    texts = [t.text for p in params for t in p]
    if not texts or texts == ["void"]:
        return 0
    if any("..." in "".join(t.text for t in p) for p in params):
        return -1
    return len(params)


def _declarator(param: list[Token]) -> list[Token]:
    """A parameter without its default argument (`int flags = 0` -> `int flags`)."""
    cut = next((k for k, t in enumerate(param) if t.text == "=" and k > 0), len(param))
    return param[:cut]


def param_names(params: list[list[Token]]) -> tuple[str, ...]:
    """Parameter names ('' where a parameter is unnamed)."""
    names: list[str] = []
    for p in params:
        cut = len(_declarator(p))
        # a default through a macro, `flags __dv(0)` / `stream __dparm(0)`: the name precedes the call
        call = next(
            (
                k
                for k in range(2, cut)
                if p[k].text == "("
                and p[k - 1].kind == "ident"
                and sum(1 for t in p[: k - 1] if t.kind == "ident") >= 2
            ),
            cut,
        )
        cut = min(cut, call - 1) if call < cut else cut
        idents = [t.text for t in p[:cut] if t.kind == "ident"]
        names.append(idents[-1] if len(idents) >= 2 else "")
    return tuple(names) if any(p for p in params) else ()


def param_defaults(params: list[list[Token]]) -> tuple[str, ...]:
    """Each parameter's default argument as written (`int flags = 0`, or through a macro as CUDA's headers give it:
    `unsigned int flags __dv(0)`); '' where it has none."""
    out: list[str] = []
    for p in params:
        cut = len(_declarator(p))
        if cut < len(p):
            out.append(" ".join(t.text for t in p[cut + 1 :]))
            continue
        # the macro's call after the name: `flags __dv(0)` (at least a type and a name before it)
        call = next(
            (
                k
                for k in range(2, len(p))
                if p[k].text == "("
                and p[k - 1].kind == "ident"
                and sum(1 for t in p[: k - 1] if t.kind == "ident") >= 2
                and p[-1].text == ")"
            ),
            -1,
        )
        out.append(" ".join(t.text for t in p[call + 1 : -1]) if call > 0 else "")
    return tuple(out) if any(out) else ()


def param_types(params: list[list[Token]]) -> tuple[str, ...]:
    """Base type of each parameter with its pointer depth and pointee const ('cudaPointerAttributes*',
    'const void*'); '' where not a plain named type (templates, function pointers, arrays)."""
    out: list[str] = []
    for p, default in zip(params, param_defaults(params) or ("",) * len(params), strict=True):
        head = _declarator(p)
        if default and len(head) == len(p) and p[-1].text == ")":
            head = _before_default_macro(head)
        if any(t.text in _NOT_PLAIN for t in head):
            out.append("")
            continue
        idents = [t.text for t in head if t.kind == "ident" and t.text not in QUALIFIERS]
        stars = sum(1 for t in head if t.text == "*")
        base = idents[-2] if len(idents) >= 2 else (idents[0] if idents else "")
        # const of the pointee (`const void *p`, `void const *p`), not of the pointer itself
        first_star = next((k for k, t in enumerate(head) if t.text == "*"), len(head))
        const = "const " if any(t.text == "const" for t in head[:first_star]) else ""
        out.append(const + base + "*" * stars if base else "")
    return tuple(out) if any(p for p in params) else ()


def _before_default_macro(param: list[Token]) -> list[Token]:
    """`unsigned int flags __dv(0)` -> `unsigned int flags`."""
    for k in range(2, len(param)):
        if param[k].text == "(" and param[k - 1].kind == "ident":
            return param[: k - 1]
    return param


def forwarded_to(body: list[Token], names: tuple[str, ...], params: int) -> str:
    """The callee when a function body is one call passing the function's own parameters through unchanged, in
    order (`{ return __ocml_add_rtz_f32(__x, __y); }`); '' otherwise (`__ocml_div_rtz_f32(1.0f, __x)`, casts,
    reordered or extra arguments, more statements)."""
    if params == 0:
        names = ()  # `f(void)`
    texts = [t.text for t in body]
    if texts[:1] == ["return"]:
        body, texts = body[1:], texts[1:]
    if (
        len(texts) < 4
        or body[0].kind != "ident"
        or texts[1] != "("
        or texts[-2:] != [")", ";"]
        or body[0].text in NOT_A_NAME
        or params < 0
        or len(names) != params
        or not all(names)
    ):
        return ""
    args = texts[2:-2]
    expected = [x for k, n in enumerate(names) for x in ((",", n) if k else (n,))]
    return body[0].text if args == expected else ""
