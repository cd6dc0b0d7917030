"""What the text of a file says, for both engines: the lexer (code, comments, literals,
directive lines), bracket matching, obvious ``#if`` decisions, the region map, and the
text facts (identifiers, launches, includes, directives) both engines start from.

The regex engine plans edits from these facts alone; the clang engine refines them with
the AST (``hipify.clang_mode.ast_facts``).
"""

from __future__ import annotations
