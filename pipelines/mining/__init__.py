"""Mining: turn ``tm_units`` into candidate conventions with evidence (issue 5), and build a set from
the results (``build_set``, ``set_writer``), written through ``housestyle.pipelines.conventionset``'s store.

Never imports the registration/gold code (a test enforces it): the miner never sees gold.
"""
