"""What a run found, as values and documents: the porting report, its formats, findings, work, stats."""
