"""The toolkit's ``msprof`` command: exports the PROF_* directories libmsprofiler writes.

``raw`` reads a collection (our raw data, docs/msprof.md), ``summaries`` and ``timeline`` write
CANN's ``mindstudio_profiler_output`` files from it, ``cli`` is the command.
"""
