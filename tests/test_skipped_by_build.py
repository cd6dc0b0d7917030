"""What a current CUDA build skips in both passes (rewrite/skipped_by_build.py)."""

from __future__ import annotations

import pytest

from hipify.lexing.lexer import lex
from hipify.lexing.text_facts import directives_of
from hipify.rewrite.skipped_by_build import inside, skipped_spans


def _skipped_lines(text: str) -> list[str]:
    spans = skipped_spans(directives_of(text, lex(text)))
    return [line for line in text.splitlines() if line and inside(spans, text.index(line))]


@pytest.mark.parametrize(
    ("text", "skipped"),
    [
        ("#if __CUDACC_VER_MAJOR__ < 12\nold\n#else\nnew\n#endif\n", ["old"]),
        ("#if CUDART_VERSION >= 11000\nnew\n#else\nold\n#endif\n", ["old"]),
        # the host pass compiles the first branch, the device pass the second: neither is skipped by both
        ("#if __CUDA_ARCH__ >= 800\ndevice\n#else\nhost\n#endif\n", []),
        ("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600\npolyfill\n#endif\n", ["polyfill"]),
        # anything else is unknown: nothing is skipped
        ("#if __CUDACC_VER_MAJOR__ < 12 && USE_OLD\nold\n#endif\n", ["old"]),
        ("#if __CUDACC_VER_MAJOR__ < 12 || USE_OLD\nmaybe\n#endif\n", []),
        ("#ifdef USE_OLD\nmaybe\n#endif\n", []),
    ],
)
def test_branches_skipped_in_both_passes(text: str, skipped: list[str]) -> None:
    assert _skipped_lines(text) == skipped
