"""One file's translation: engine selection, the one splice routine, the Python API, a worker's job."""
