"""Fuzzing the make and CMake translators over build files generated from their constructs and the readers' edges
(a bounded share; ``bench/fuzz_buildfiles.py`` also cuts and recombines real build files). Checks: nothing raises,
no internal error, no overlapping edits, idempotence (``build_fuzzing.failures``)."""

from __future__ import annotations

import os
import random

import pytest
from build_fuzzing import context, failures, generated, recombine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipify.buildfiles import CMAKE, MAKE

EXAMPLES = int(os.environ.get("HIPIFY_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("kind", [MAKE, CMAKE])
@FUZZ
@given(seed=seeds)
def test_translator_on_generated_build_files(kind: str, seed: int) -> None:
    rng = random.Random(seed)
    text = generated(rng, kind)
    assert failures(text, kind, context(rng)) == [], text


@FUZZ
@given(seeds)
def test_generated_build_files_cut_and_recombined(seed: int) -> None:
    rng = random.Random(seed)
    kind = rng.choice((MAKE, CMAKE))
    text = recombine(rng, [generated(rng, kind) for _ in range(4)])
    assert failures(text, kind, context(rng)) == [], text
