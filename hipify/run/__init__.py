"""One run, phase by phase: what it is asked to do, warm start, project facts, destinations, the end."""
