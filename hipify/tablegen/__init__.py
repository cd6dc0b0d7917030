"""Generator of the CUDA<->HIP mapping table (mapping_tables/) from vendor headers.

Run ``python -m hipify.tablegen --help``. Steps: ``fetch`` (download headers into a cache),
``generate`` (parse, match, write mapping_tables/*.json), ``docs`` (docs/supported/*.md).
"""
