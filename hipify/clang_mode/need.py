"""When the AST can change a file's translation, and when the text already says it all.

Parsing a file with libclang costs tens to hundreds of milliseconds (a kernel file includes
half the standard library); the lexer's facts cost a millisecond. The AST is asked only what
the text cannot know, and for most files the text shows there is nothing to ask:

- a table name the file (or the project) declares itself: which use is the user's own
  (``hipError_t cudaMallocHost(int)``) and which is CUDA's is a question of overloads;
- a CUDA namespace brought in unqualified (``using namespace cub``): which names are CUB's;
- a call whose arguments the text could not split, to a row that rewrites its arguments;
- inactive ``#if`` branches when they are to be skipped: which ones the real macros select;
- kernel launches rewritten to ``hipLaunchKernelGGL``: which kernels are (deduced) templates;
- inside the body of a template with parameters, a member template called with explicit arguments through a
  template-id or a member access (``vec_cast<T, S>::cast<N>(p)``, ``obj.get<N>(q)``): whether the scope depends on a
  template parameter, so that the call needs ``template`` (``clang_mode.dependent_templates``). The text decides
  where no scope can depend on one: outside every template body, or in an explicit specialization
  (``template <>``), there is no template parameter to depend on (a generic lambda's ``auto`` parameter is one
  without a ``template`` header, so a file with one is asked as before); and in a function template that is no
  member of a class template, a call on a plain name the template does not declare itself (``self->get<T>(n)``,
  ``self`` a static member of a class that is no template): its type depends on none of the parameters.

``parse_reason`` says which applies ("" when none does); the clang engine then plans from the
text facts, with the same result the AST would have given. ``REASONS`` names each kind of reason
(``reason_kind`` maps a reason to it) so that benchmarks count files parsed per reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..knowledge.table import MappingTable
from ..lexing.facts import FileFacts
from ..model import SourceFile
from ..options import Options
from ..rewrite.index import TableIndex

# Each kind of reason: its name in benchmarks, and the text ``parse_reason`` gives ({} is the name concerned).
REASONS = {
    "project-declares": "the project declares {} itself",
    "skipped-branches": "inactive #if branches are skipped: the real macro values decide which",
    "launches": "launches are rewritten: template kernels need the AST",
    "member-template": "a member template is called with explicit arguments: a dependent scope needs 'template'",
    "file-declares": "the file declares {} itself",
    "namespace": "namespace {} used without qualification",
    "arguments": "the arguments of {} are not plain text",
}

_CONDITIONALS = frozenset(("if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"))
# ``X<T>::name<...>(`` or ``obj.name<...>(``: a call of a member template that may sit in a dependent scope.
_MEMBER_TEMPLATE_CALL = re.compile(r"(?:>\s*::|\.|->)\s*[A-Za-z_]\w*\s*<[^;{}()<>]*>\s*\(")
_TEMPLATE_HEADER = re.compile(r"\btemplate\s*<")
# A parameter declared ``auto`` (a generic lambda, an abbreviated function template): a template without a header.
_AUTO_PARAMETER = re.compile(r"[(,]\s*(?:const\s+)?auto\b\s*(?:&&?|\*)?\s*(?:\.\.\.\s*)?[A-Za-z_]\w*\s*[,)]")


def parse_reason(source: SourceFile, facts: FileFacts, table: MappingTable, index: TableIndex, options: Options) -> str:
    shadowed = [name for name in source.project.shadowed if _written_otherwise(table, name)]
    if shadowed:
        return REASONS["project-declares"].format(shadowed[0])
    skipping = options.skip_excluded_blocks and not options.amap
    if skipping and any(d.keyword in _CONDITIONALS for d in facts.directives):
        return REASONS["skipped-branches"]
    if options.hip_kernel_syntax and facts.launches:
        return REASONS["launches"]
    masked = facts.masked
    if "template" in masked and _dependent_member_template_call(masked, facts):
        return REASONS["member-template"]
    transformed = index.transformed
    for ident in facts.identifiers:
        name = ident.name
        if ident.user_declared and name in table and _written_otherwise(table, name):
            return REASONS["file-declares"].format(name)
        if name in index.namespaces and ident.next_token != "::" and not ident.qualifier:
            return REASONS["namespace"].format(name)
        if name in transformed and ident.next_token == "(" and ident.call_args is None:
            return REASONS["arguments"].format(name)
    return ""


def reason_kind(reason: str) -> str:
    """The key of ``REASONS`` whose text ``reason`` is ("" for none)."""
    for kind, text in REASONS.items():
        head, _, tail = text.partition("{}")
        if reason.startswith(head) and reason.endswith(tail) and len(reason) >= len(head) + len(tail):
            return kind
    return ""


def _dependent_member_template_call(masked: str, facts: FileFacts) -> bool:
    """Whether a member template call with explicit arguments sits where its scope may depend on a template
    parameter: in the body of a template that has parameters, unless its object is a name no template parameter
    can reach (:func:`_independent_object`); anywhere in a file with ``auto`` parameters; in a macro definition
    (expanded where the text cannot say)."""
    calls = [m.start() for m in _MEMBER_TEMPLATE_CALL.finditer(masked)]
    if not calls:
        return False
    if _AUTO_PARAMETER.search(masked):
        return True
    macros = [(d.start, d.end) for d in facts.directives if d.keyword == "define"]
    if any(start <= at < end for at in calls for start, end in macros):
        return True
    templates = _templates(masked)
    for at in calls:
        around = next((t for t in templates if t.body[0] <= at < t.body[1]), None)
        if around is not None and not _independent_object(masked, at, around):
            return True
    return False


@dataclass(frozen=True)
class _Template:
    header: int  # where ``template <...>`` starts
    head: tuple[int, int]  # what follows the parameter list, up to the body's ``{``
    body: tuple[int, int]  # the braces of the body


def template_bodies(masked: str) -> list[tuple[int, int]]:
    """(start, end) of the braces of each declaration that follows a template header with parameters
    (``template <class T> struct A {...}``, ``template <int N> void f() {...}``), in comment- and literal-free
    text. An explicit specialization's ``template <>`` has no parameters: its body is no template's."""
    return [t.body for t in _templates(masked)]


def _templates(masked: str) -> list[_Template]:
    found: list[_Template] = []
    covered = 0
    for header in _TEMPLATE_HEADER.finditer(masked):
        if header.start() < covered:
            continue  # a member template inside a body already counted
        close = _closing_angle(masked, header.end())
        if close < 0:
            break
        if not masked[header.end() : close].strip():
            continue  # template <>: an explicit specialization
        body = _body_after(masked, close + 1)
        if body is not None:
            found.append(_Template(header.start(), (close + 1, body[0]), body))
            covered = body[1]
    return found


# The head of a template declared as a class (its members may depend on its parameters).
_CLASS_HEAD = re.compile(r"\s*(?:struct|class|union)\b")
# ``A<T>::f(``: a member of a class template (or of a class nested in one), defined outside it.
_TEMPLATE_SCOPE = re.compile(r">\s*::")
# Words before a name that use it rather than declare it (``return self->get<N>()``).
_USING_WORDS = frozenset(("return", "case", "else", "do", "throw", "co_return", "co_yield", "not", "and", "or"))


def _independent_object(masked: str, call: int, around: _Template) -> bool:
    """Is the member template call at ``call`` (its ``.`` or ``->``) made on an object whose type no template
    parameter can reach? So where the object is a plain name (``self->get<N>(x)``), the template around it is a
    function template that is no member of a class template (nor a class template itself: its members' types may
    depend on its parameters), and the name is declared nowhere inside that template (no parameter, local or
    capture of that name): then it names a member of a class that is no template, or an entity of a namespace,
    whose type depends on nothing the template declares. Anything else is left to the AST."""
    if masked.startswith(">", call):
        return False  # X<T>::name<...>(: a scope that may depend on a parameter
    end = call
    while end > 0 and masked[end - 1].isspace():
        end -= 1
    start = end
    while start > 0 and (masked[start - 1].isalnum() or masked[start - 1] == "_"):
        start -= 1
    name = masked[start:end]
    if not name or name[0].isdigit() or name == "this" or _after_member_or_scope(masked, start):
        return False  # a member of another object (a.b.get<N>()), a qualified name, a call's result, this
    head = masked[around.head[0] : around.head[1]]
    if _CLASS_HEAD.match(head) or "(" not in head or _TEMPLATE_SCOPE.search(head[: head.index("(")]):
        return False
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    return not any(_declares(masked, m.start()) for m in word.finditer(masked, around.header, around.body[1]))


def _after_member_or_scope(masked: str, at: int) -> bool:
    return masked[:at].rstrip().endswith((".", "->", "::", "$"))


def _declares(masked: str, at: int) -> bool:
    """Could the name at ``at`` be declared there (``T* self``, ``auto self``, ``B self``, ``[self]``,
    ``decltype(x) self``, ``a, self``)? Unsure counts as yes: the AST is asked then."""
    before = masked[:at].rstrip()
    if not before:
        return False
    last = before[-1]
    if before.endswith(("->", ".", "::")):
        return False  # a member of something else, or a qualified name: no declaration of this name
    if last in "*&>,[])":
        return True
    if last.isalnum() or last == "_":
        word = re.search(r"[A-Za-z_]\w*$", before)
        return word is None or word.group() not in _USING_WORDS
    return False


def _closing_angle(text: str, at: int) -> int:
    """The offset of the ``>`` closing a template parameter list opened just before ``at`` (-1 if none):
    angle brackets nest, and those inside parentheses (a default argument's comparison) do not count."""
    angles, parens = 1, 0
    for i in range(at, len(text)):
        c = text[i]
        if c in "([":
            parens += 1
        elif c in ")]":
            parens -= 1
        elif parens == 0 and c == "<":
            angles += 1
        elif parens == 0 and c == ">":
            angles -= 1
            if angles == 0:
                return i
        elif c in ";{}" and parens == 0:
            return -1
    return -1


def _body_after(text: str, at: int) -> tuple[int, int] | None:
    """The braces of the declaration starting at ``at``: from the first ``{`` outside parentheses to the end of
    its body (None when a ``;`` ends the declaration first). A constructor's initializers in braces
    (``: x{1}, y{2} {...}``) run on to the body they precede."""
    first = _braces_after(text, at)
    if first is None:
        return None
    end = first[1]
    while True:
        rest = end
        while rest < len(text) and text[rest].isspace():
            rest += 1
        if rest >= len(text) or text[rest] not in ",{":
            return first[0], end
        more = _braces_after(text, rest)
        if more is None:
            return first[0], end
        end = more[1]


def _braces_after(text: str, at: int) -> tuple[int, int] | None:
    """The first ``{`` outside parentheses from ``at`` to its match (None when a ``;`` comes first)."""
    parens, i = 0, at
    while i < len(text):
        c = text[i]
        if c == "(":
            parens += 1
        elif c == ")":
            parens -= 1
        elif parens == 0 and c == ";":
            return None
        elif parens == 0 and c == "{":
            break
        i += 1
    else:
        return None
    depth, start = 0, i
    for j in range(start, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return start, j + 1
    return start, len(text)


def _written_otherwise(table: MappingTable, name: str) -> bool:
    """Does translating a use of ``name`` write or report something (a rename, an argument transform, a name HIP
    lacks)? Only then does it matter which use is the project's own: a name HIP spells the same (``max``, which the
    compatibility header may overload) is decided for the project as a whole (``ProjectFacts.shadowed``)."""
    row = table.by_name.get(name)
    if row is None:
        return True
    return row.hip_status != "supported" or row.hip != name or row.transform is not None
