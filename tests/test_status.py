from __future__ import annotations

import pytest

from hipify.rewrite.status import newer_than_target

RELEASES = ((5, 2), (5, 7), (6, 4))


@pytest.mark.parametrize(
    "since, target, expected",
    [
        ("6.4", (6, 4), False),
        ("6.4", (7, 0), False),
        ("6.4", (5, 7), True),  # scanned 5.7 lacks it: certainly missing
        ("6.4", (5, 2), True),
        ("6.4", (6, 2), False),  # between 5.7 and 6.4, not scanned: do not claim it is missing
        ("5.7", (5, 2), True),
        ("5.7", (5, 5), False),
        ("5.2", (5, 0), True),  # nothing scanned before 5.2: older targets lack it
    ],
)
def test_newer_than_target(since: str, target: tuple[int, int], expected: bool) -> None:
    assert newer_than_target(since, target, RELEASES) is expected
