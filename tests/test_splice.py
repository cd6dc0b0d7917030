from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hipify.model import Edit
from hipify.translation.splice import apply


def edit(start: int, end: int, text: str, code: str = "HPY001") -> Edit:
    return Edit(start, end, text, code)


def test_no_edits_returns_text_unchanged() -> None:
    result = apply("abc", [])
    assert result.text == "abc" and not result.applied and not result.rejected


def test_edits_apply_in_offset_order_regardless_of_input_order() -> None:
    text = "cudaMalloc(cudaFree)"
    result = apply(text, [edit(11, 19, "hipFree"), edit(0, 10, "hipMalloc")])
    assert result.text == "hipMalloc(hipFree)"
    assert result.counts()["HPY001"] == 2


def test_overlapping_edit_is_refused_and_reported() -> None:
    result = apply("abcdef", [edit(0, 4, "X"), edit(2, 5, "Y")])
    assert result.text == "Xef"
    assert len(result.rejected) == 1
    assert result.diagnostics[0].code == "HPY202"


def test_insertion_before_replacement_at_same_offset() -> None:
    result = apply("abc", [edit(0, 1, "A"), edit(0, 0, ">")])
    assert result.text == ">Abc"


def test_two_insertions_at_same_offset_keep_given_order() -> None:
    result = apply("x", [edit(0, 0, "1"), edit(0, 0, "2")])
    assert result.text == "12x"


def test_identical_duplicate_edits_apply_once() -> None:
    result = apply("abc", [edit(0, 1, "Z"), edit(0, 1, "Z")])
    assert result.text == "Zbc" and len(result.applied) == 1 and not result.rejected


def test_out_of_range_edit_is_refused() -> None:
    result = apply("abc", [edit(2, 9, "Z")])
    assert result.text == "abc" and len(result.rejected) == 1


@st.composite
def texts_and_edits(draw: st.DrawFn) -> tuple[str, list[Edit]]:
    text = draw(st.text(max_size=60))
    edits = []
    for _ in range(draw(st.integers(0, 8))):
        a = draw(st.integers(0, len(text)))
        b = draw(st.integers(a, len(text)))
        edits.append(edit(a, b, draw(st.text(max_size=5))))
    return text, edits


@settings(deadline=None)  # (no time limit per example: a busy machine's pause is no failure of the splice)
@given(texts_and_edits())
def test_applied_edits_never_overlap_and_rest_of_text_survives(case: tuple[str, list[Edit]]) -> None:
    text, edits = case
    result = apply(text, edits)
    assert len(result.applied) + len(result.rejected) == len(set(edits))
    # Rebuild the output independently from the applied edits alone.
    cursor, pieces = 0, []
    for e in sorted(result.applied, key=lambda e: (e.start, e.end)):
        assert e.start >= cursor
        pieces += [text[cursor : e.start], e.replacement]
        cursor = e.end
    assert result.text == "".join(pieces) + text[cursor:]
