"""Mining: turn ``tm_units`` into candidate conventions with evidence (issue 5).

Never imports the registration/gold code (a test enforces it): the miner never sees gold.
"""
