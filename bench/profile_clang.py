"""Where the clang engine's time goes, per phase, on a set of files (not a test).

    python bench/profile_clang.py FILE_OR_DIR... [--limit 40] [--cuda-path none] [--always]

Phases per file: the text facts (the lexer, all the regex engine does), the decision whether
the AST can change the answer, the libclang parse (PCH load + parse), the token annotation,
the AST refinement, and the planner. ``--always`` parses every file, as the engine did before
it asked whether the AST could change anything.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

from hipify import Options
from hipify.clang_mode import ast_facts, parsing
from hipify.clang_mode.need import parse_reason
from hipify.knowledge.table import load_table
from hipify.model import SourceFile
from hipify.regex_mode.engine import text_facts
from hipify.rewrite import plan
from hipify.rewrite.index import index_of
from hipify.sources.discover import DEFAULT_EXTENSIONS


def files_of(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        out += sorted(p for p in path.rglob("*") if p.suffix in DEFAULT_EXTENSIONS) if path.is_dir() else [path]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--cuda-path", default="")
    parser.add_argument("--always", action="store_true", help="parse every file")
    args = parser.parse_args()
    table = load_table()
    index = index_of(table)
    options = Options(engine="clang", use_cache=False, cuda_path=args.cuda_path)
    files = files_of(args.paths)[: args.limit]
    times: dict[str, float] = defaultdict(float)
    tokenize = ast_facts.tokenize

    def timed_tokenize(*a, **k):
        start = time.perf_counter()
        result = tokenize(*a, **k)
        times["token annotation"] += time.perf_counter() - start
        return result

    ast_facts.tokenize = timed_tokenize
    parsed = 0
    for path in files:
        source = SourceFile(str(path), path.read_text(encoding="utf-8", errors="surrogateescape"))
        start = time.perf_counter()
        facts = text_facts(source, table, options)
        times["text facts"] += time.perf_counter() - start
        start = time.perf_counter()
        reason = parse_reason(source, facts, table, index, options)
        times["parse decision"] += time.perf_counter() - start
        if reason or args.always:
            parsed += 1
            start = time.perf_counter()
            result = parsing.parse(source, table, options)
            times["libclang parse"] += time.perf_counter() - start
            start = time.perf_counter()
            facts = ast_facts.build_facts(result, source.text, table, options)
            times["AST refinement (incl. annotation)"] += time.perf_counter() - start
        start = time.perf_counter()
        plan(source, facts, table, options, "clang")
        times["planner"] += time.perf_counter() - start
    total = sum(v for k, v in times.items() if k != "token annotation")
    print(f"{len(files)} files, {parsed} parsed with libclang; {total:.2f} s in all\n")
    print("| phase | seconds | ms per file |\n|---|---:|---:|")
    for phase, seconds in times.items():
        print(f"| {phase} | {seconds:.2f} | {seconds / max(1, len(files)) * 1000:.1f} |")


if __name__ == "__main__":
    main()
