"""How long a run's start takes to load the mapping table (not a test).

    python bench/table_load.py [--repeat 7]

Three ways, each the best of ``--repeat`` runs in this process: from the JSON files (a cold cache: every row
made by its constructor), from the rows kept in the cache (what a run does: the fast path ``table._row_of``), and
from the kept rows made by the constructor instead (what the fast path saves). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from unittest import mock

from hipify.knowledge import table


def best(repeat: int, load: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        load()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    directory = Path(str(resources.files("mapping_tables")))
    with tempfile.TemporaryDirectory() as cache:
        rows = len(table.load_table_from(directory, Path(cache)))  # keeps the rows in the cache
        cold = best(args.repeat, lambda: table.load_table_from(directory, None))
        kept = best(args.repeat, lambda: table.load_table_from(directory, Path(cache)))
        with mock.patch.object(table, "_row_of", lambda values: table.Row(*values)):
            constructed = best(args.repeat, lambda: table.load_table_from(directory, Path(cache)))
    print(f"Mapping table: {rows:,} rows; best of {args.repeat}.\n")
    print("| load | time |\n|---|---|")
    print(f"| from the JSON files (cold cache) | {cold * 1000:.1f} ms |")
    print(f"| from the kept rows, fast path (a run's start) | {kept * 1000:.1f} ms |")
    print(f"| from the kept rows, each made by its constructor | {constructed * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
