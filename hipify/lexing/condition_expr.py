"""``#if`` conditions as expressions: parsed with their spans, evaluated where some names are unknown.

The preprocessor's grammar over integers: ``defined X``/``defined(X)``, numbers, names, unary ``! ~ - +``, the
binary operators of C by precedence, ``?:`` and parentheses. Evaluation is three-valued: a name the caller does
not know is *unknown*, and so is what depends on it, except where the other operand decides (``0 && X`` is 0,
``1 || X`` is 1). Spans are offsets into the text given to :func:`parse`, so that a caller can replace a part.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

Span = tuple[int, int]

_TOKEN = re.compile(
    r"(?:\s|\\\r?\n)*"
    r"(?:(?P<number>0[xX][0-9a-fA-F]+|\d+)[uUlL]*|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<op>\|\||&&|==|!=|<=|>=|<<|>>|[()?:<>!~+\-*/%&|^]))"
)
_BLANK = re.compile(r"(?:\s|\\\r?\n)*\Z")
# Binary operators by precedence, loosest first.
_LEVELS: tuple[frozenset[str], ...] = (
    frozenset(("||",)), frozenset(("&&",)), frozenset(("|",)), frozenset(("^",)), frozenset(("&",)),
    frozenset(("==", "!=")), frozenset(("<", ">", "<=", ">=")), frozenset(("<<", ">>")), frozenset(("+", "-")),
    frozenset(("*", "/", "%")),
)  # fmt: skip


@dataclass(frozen=True)
class Node:
    """``kind``: number, name, defined (``value`` is the macro tested), unary, binary, ternary, group (parens)."""

    kind: str
    span: Span
    value: str = ""  # the number's digits, the name, the operator
    children: tuple[Node, ...] = ()

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str, int, int]] = []  # (kind, text, start, end)
        at = 0
        while not _BLANK.match(text, at):
            m = _TOKEN.match(text, at)
            if m is None:
                raise ValueError(f"not a preprocessor expression at {at}")
            kind = m.lastgroup or ""
            self.tokens.append((kind, m.group(kind), m.start(kind), m.end()))
            at = m.end()
        self.i = 0

    def peek(self) -> str:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else ""

    def take(self) -> tuple[str, str, int, int]:
        if self.i >= len(self.tokens):
            raise ValueError("unexpected end of the condition")
        token = self.tokens[self.i]
        self.i += 1
        return token

    def expect(self, op: str) -> int:
        kind, text, _, end = self.take()
        if kind != "op" or text != op:
            raise ValueError(f"expected {op!r}")
        return end

    def expression(self) -> Node:
        condition = self.binary(0)
        if self.peek() != "?":
            return condition
        self.take()
        yes = self.expression()
        self.expect(":")
        no = self.expression()
        return Node("ternary", (condition.span[0], no.span[1]), "?", (condition, yes, no))

    def binary(self, level: int) -> Node:
        if level == len(_LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.i < len(self.tokens) and self.tokens[self.i][0] == "op" and self.peek() in _LEVELS[level]:
            op = self.take()[1]
            right = self.binary(level + 1)
            left = Node("binary", (left.span[0], right.span[1]), op, (left, right))
        return left

    def unary(self) -> Node:
        kind, text, start, end = self.take()
        if kind == "op" and text in ("!", "~", "-", "+"):
            operand = self.unary()
            return Node("unary", (start, operand.span[1]), text, (operand,))
        if kind == "op" and text == "(":
            inner = self.expression()
            close = self.expect(")")
            return Node("group", (start, close), "()", (inner,))
        if kind == "number":
            return Node("number", (start, end), text)
        if kind == "name" and text == "defined":
            if self.peek() == "(":
                self.take()
                name = self.take()
                close = self.expect(")")
            else:
                name = self.take()
                close = name[3]
            if name[0] != "name":
                raise ValueError("defined needs a macro name")
            return Node("defined", (start, close), name[1])
        if kind == "name":
            return Node("name", (start, end), text)
        raise ValueError(f"unexpected {text!r}")


def parse(text: str) -> Node | None:
    """The expression of an ``#if``/``#elif`` condition, None when it is not one this grammar reads."""
    try:
        parser = _Parser(text)
        if not parser.tokens:
            return None
        node = parser.expression()
    except (ValueError, RecursionError):
        return None
    return node if parser.i == len(parser.tokens) else None


# What a name means to an evaluation: its value (a defined macro), 0 with ``defined`` false (not defined), or
# None (unknown).
Lookup = Callable[[str], "int | None"]
Defined = Callable[[str], "bool | None"]


def evaluate(node: Node, value_of: Lookup, defined: Defined) -> int | None:
    """The condition's value, None when it depends on something unknown."""
    kind = node.kind
    if kind == "number":
        return (
            int(node.value, 0) if node.value[:2] in ("0x", "0X") else int(node.value, 8 if node.value[0] == "0" else 10)
        )
    if kind == "name":
        if node.value in ("true", "false"):
            return int(node.value == "true")
        return value_of(node.value)
    if kind == "defined":
        known = defined(node.value)
        return None if known is None else int(known)
    if kind == "group":
        return evaluate(node.children[0], value_of, defined)
    if kind == "unary":
        inner = evaluate(node.children[0], value_of, defined)
        if inner is None:
            return None
        return {"!": int(not inner), "~": ~inner, "-": -inner, "+": inner}[node.value]
    if kind == "ternary":
        condition = evaluate(node.children[0], value_of, defined)
        yes = evaluate(node.children[1], value_of, defined)
        no = evaluate(node.children[2], value_of, defined)
        if condition is None:
            return yes if yes is not None and yes == no else None
        return yes if condition else no
    left = evaluate(node.children[0], value_of, defined)
    op = node.value
    if op in ("&&", "||"):
        decisive = 0 if op == "&&" else 1
        if left is not None and bool(left) == bool(decisive):
            return decisive
        right = evaluate(node.children[1], value_of, defined)
        if right is not None and bool(right) == bool(decisive):
            return decisive
        return None if left is None or right is None else 1 - decisive
    right = evaluate(node.children[1], value_of, defined)
    if left is None or right is None:
        return None
    return _arithmetic(op, left, right)


def _arithmetic(op: str, a: int, b: int) -> int | None:
    if op in ("/", "%") and b == 0:
        return None
    if op in ("<<", ">>") and not 0 <= b < 64:
        return None
    result = {
        "|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b, "==": lambda: int(a == b),
        "!=": lambda: int(a != b), "<": lambda: int(a < b), ">": lambda: int(a > b), "<=": lambda: int(a <= b),
        ">=": lambda: int(a >= b), "<<": lambda: a << b, ">>": lambda: a >> b, "+": lambda: a + b,
        "-": lambda: a - b, "*": lambda: a * b, "/": lambda: int(a / b), "%": lambda: a - b * int(a / b),
    }[op]  # fmt: skip
    return result()


def names_used_for_value(node: Node) -> frozenset[str]:
    """Names the condition uses for their value (not only in ``defined``)."""
    return frozenset(n.value for n in node.walk() if n.kind == "name")


def macro_decider(known: Mapping[str, int | None]) -> Callable[[str, str], bool | None]:
    """Decide a conditional directive (keyword, argument) from the macros whose state is known: a name mapped to a
    number is defined with that value, one mapped to None is undefined, and a condition that depends on any other
    name is unknown (None)."""

    def value_of(name: str) -> int | None:
        if name not in known:
            return None
        value = known[name]
        return 0 if value is None else value

    def defined(name: str) -> bool | None:
        return (known[name] is not None) if name in known else None

    def decide(keyword: str, argument: str) -> bool | None:
        if keyword in ("ifdef", "ifndef"):
            name = argument.strip()
            if name not in known:
                return None
            return (known[name] is not None) == (keyword == "ifdef")
        node = parse(argument)
        if node is None:
            return None
        value = evaluate(node, value_of, defined)
        return None if value is None else bool(value)

    return decide
