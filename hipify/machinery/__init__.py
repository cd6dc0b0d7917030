"""What a run stands on: supervised worker processes, limits on one file's work, the result cache."""
