"""What a run writes and prints: the one writer (files, diffs, messages), atomic writes, the summary."""
