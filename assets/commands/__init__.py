"""The `housestyle` commands that run the Dagster graph, one module per command; they join the command line
through the ``housestyle.commands`` entry-point group in pyproject (pipelines/cli never names them)."""
