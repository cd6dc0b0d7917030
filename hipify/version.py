"""The package's version, in a module of its own: every part that records it (the cache key, reports, --version)
imports it from here, below everything else, instead of from the package's face."""

__version__ = "0.1.0"
