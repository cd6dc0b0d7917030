"""Finding and reading the inputs: directory walks, safe reads and decoding, what git says changed."""
