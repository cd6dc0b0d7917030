"""Every table transform in every preprocessor context: the translation still preprocesses.

A transform written for code (delete a calling-convention macro, wrap an argument, pick a
name by argument count, rename only a definition test) must not damage a directive: an
``#ifdef`` left without its name, a ``defined()`` emptied, an ``#include`` path rewritten. Each
transform row of the shipped table is put into each context below; the translation of the
whole file is then preprocessed by libclang and must raise no preprocessor error.
"""

from __future__ import annotations

import pytest

pytest.importorskip("clang.cindex")

import clang.cindex as ci

from hipify.clang_mode import environment
from hipify.knowledge.table import load_table
from hipify.options import Options
from hipify.translation.api import translate

if not environment.clang_available()[0]:
    pytest.skip(environment.clang_available()[1], allow_module_level=True)

TABLE = load_table()
TRANSFORM_ROWS = sorted(
    (r for r in TABLE if r.transform is not None and "::" not in r.cuda), key=lambda r: (r.transform.kind, r.cuda)
)

# {name} is a CUDA name with a transform; every block must stay a valid preprocessor construct.
CONTEXTS = {
    "ifdef": "#ifdef {name}\nint a_{i};\n#endif\n",
    "ifndef": "#ifndef {name}\nint b_{i};\n#endif\n",
    "if-defined": "#if defined({name}) || defined {name}\nint c_{i};\n#endif\n",
    "if-not-defined": "#if !defined({name})\nint d_{i};\n#elif defined({name})\nint e_{i};\n#endif\n",
    "if-value": "#if {name}\nint f_{i};\n#endif\n",
    "define-object": "#define OBJ_{i} {name}\n",
    "define-function": "#define FN_{i}(a, b) {name}(a, b)\n",
    "undef": "#undef {name}\n",
    "include": '#if 0\n#include "{name}.h"\n#endif\n',
    "code-call": "void g_{i}() {{ {name}(x_{i}, y_{i}, 0); }}\n",
}
_PREPROCESSOR = "Lexical or Preprocessor Issue"


def _preprocessor_errors(text: str) -> list[str]:
    index = ci.Index.create()
    tu = index.parse(
        "contexts.cpp",
        args=["-x", "c++", "-fsyntax-only", "-Wno-everything", "-resource-dir", str(environment.resource_dir())],
        unsaved_files=[("contexts.cpp", text)],
        options=ci.TranslationUnit.PARSE_INCOMPLETE,
    )
    return [
        f"{d.location.line}: {d.spelling}"
        for d in tu.diagnostics
        if d.severity >= ci.Diagnostic.Error and d.category_name == _PREPROCESSOR
    ]


def test_there_are_transforms_of_every_kind() -> None:
    kinds = {r.transform.kind for r in TRANSFORM_ROWS if r.transform}
    assert {"wrap_arg", "by_arity", "remove", "defined_only"} <= kinds


@pytest.mark.parametrize("engine", ["regex", "clang"])
@pytest.mark.parametrize("context", sorted(CONTEXTS))
def test_every_transform_still_preprocesses(context: str, engine: str) -> None:
    template = CONTEXTS[context]
    source = "".join(template.format(name=row.cuda, i=i) for i, row in enumerate(TRANSFORM_ROWS))
    assert not _preprocessor_errors(source), "the CUDA input itself must preprocess"
    result = translate(
        source, path="contexts.cpp", options=Options(engine=engine, use_cache=False, insert_runtime_include=False)
    )
    errors = _preprocessor_errors(result.text)
    assert not errors, f"{context}: {errors[:5]}\n{result.text[:2000]}"
    if context == "include":  # a file name is not an identifier
        assert result.text.count('#include "') == len(TRANSFORM_ROWS)
        for row in TRANSFORM_ROWS:
            assert f'#include "{row.cuda}.h"' in result.text
