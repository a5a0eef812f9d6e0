"""Generation through one interface: OpenAI-compatible HTTP, in-process llama.cpp, or precomputed files.

base.py (the Backend protocol and records), prompts.py + templates/*.json (versioned prompts),
cache.py (the Parquet cache), runner.py (cache + thread pool + per-segment failures), one module per
backend, registry.py (name -> backend). Used by model-contrast mining (housestyle.pipelines.contrast) and
generated references (housestyle.pipelines.references). Plain Python: no dagster.
"""
