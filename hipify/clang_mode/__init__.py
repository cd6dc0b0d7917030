"""The clang engine: libclang tokens say *where*, the AST says *what*.

Modules, one job each:

- ``environment``: find libclang, clang 18's resource headers and a CUDA installation
  (toolkit, PyPI NVIDIA header wheels, or nothing: a generated prelude).
- ``prelude``: declarations generated from the mapping table, for parsing without CUDA headers.
- ``compdb``: per-file flags from ``compile_commands.json`` (``-p BUILD_DIR``).
- ``parsing``: assemble the clang arguments, precompiled headers, parse once per file.
- ``cindex_ext``: the few libclang C entry points the 18.1.1 Python bindings lack, and the
  whole-file token stream with one annotation pass (a cursor per token).
- ``ast_facts``: refine the text facts of ``hipify.lexing`` with the AST into
  :class:`hipify.lexing.facts.FileFacts`.
- ``engine``: ``run(source, table, options)``, the entry point ``hipify.translation.engines`` calls.
"""

from __future__ import annotations
