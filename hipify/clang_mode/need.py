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
- in a file with templates, a member template called with explicit arguments through a template-id or a member
  access (``vec_cast<T, S>::cast<N>(p)``, ``obj.get<N>(q)``): whether the scope depends on a template parameter,
  so that the call needs ``template`` (``clang_mode.dependent_templates``).

``parse_reason`` says which applies ("" when none does); the clang engine then plans from the
text facts, with the same result the AST would have given.
"""

from __future__ import annotations

import re

from ..knowledge.table import MappingTable
from ..lexing.facts import FileFacts
from ..model import SourceFile
from ..options import Options
from ..rewrite.index import TableIndex

_CONDITIONALS = frozenset(("if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"))
# ``X<T>::name<...>(`` or ``obj.name<...>(``: a call of a member template that may sit in a dependent scope.
_MEMBER_TEMPLATE_CALL = re.compile(r"(?:>\s*::|\.|->)\s*[A-Za-z_]\w*\s*<[^;{}()<>]*>\s*\(")


def parse_reason(source: SourceFile, facts: FileFacts, table: MappingTable, index: TableIndex, options: Options) -> str:
    if source.project.shadowed:
        return f"the project declares {source.project.shadowed[0]} itself"
    skipping = options.skip_excluded_blocks and not options.amap
    if skipping and any(d.keyword in _CONDITIONALS for d in facts.directives):
        return "inactive #if branches are skipped: the real macro values decide which"
    if options.hip_kernel_syntax and facts.launches:
        return "launches are rewritten: template kernels need the AST"
    masked = facts.masked
    if "template" in masked and _MEMBER_TEMPLATE_CALL.search(masked):
        return "a member template is called with explicit arguments: a dependent scope needs 'template'"
    transformed = index.transformed
    for ident in facts.identifiers:
        name = ident.name
        if ident.user_declared and name in table:
            return f"the file declares {name} itself"
        if name in index.namespaces and ident.next_token != "::" and not ident.qualifier:
            return f"namespace {name} used without qualification"
        if name in transformed and ident.next_token == "(" and ident.call_args is None:
            return f"the arguments of {name} are not plain text"
    return ""
