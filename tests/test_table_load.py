"""The table's rows loaded from the cache are made by a documented fast path (``table._row_of``), not by their
constructor: here it is held to giving exactly what the constructor gives, for every shipped row."""

from __future__ import annotations

from dataclasses import fields

from hipify.knowledge.table import ROW_KEYS, Row, _row_of, load_table


def test_the_fast_path_gives_what_the_constructor_gives_for_every_row() -> None:
    for row in load_table():
        values = tuple(getattr(row, key) for key in ROW_KEYS)
        made = Row(*values)
        fast = _row_of(values)
        assert type(fast) is Row and fast == made and hash(fast) == hash(made)
        assert vars(fast) == vars(made)  # the same attributes, no more: nothing the constructor sets is missing


def test_a_row_computes_nothing_in_its_construction() -> None:
    """What the fast path relies on: a change here (a __post_init__ that checks or derives a value, slots) must
    change ``_row_of`` too, or drop it for the constructor."""
    assert "__post_init__" not in vars(Row) and not hasattr(Row, "__slots__")
    assert tuple(f.name for f in fields(Row)) == ROW_KEYS
