"""Pre-registered gold comparison: freeze gold + splits + gates BEFORE mining, then judge the miner.

Nothing under ``housestyle.pipelines.mining`` or ``housestyle.pipelines.contrast`` may import this package (a test walks
the import graph): the miner never sees gold. See ``model`` for the frozen record, ``freeze`` for
writing and verifying it, ``gold`` for reading gold files, ``evaluate`` for gates and the verdict.
"""
