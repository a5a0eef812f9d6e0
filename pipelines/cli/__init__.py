"""The command line: argument parsing and reporting over pipelines/; no Dagster.

``main.py`` is the entry point and the registry (one line per command); each command is one module of
``commands/`` named after it. The commands that run the Dagster graph live in the Dagster layer
(``assets/commands/``) and join through the ``housestyle.commands`` entry-point group (pyproject).
"""
