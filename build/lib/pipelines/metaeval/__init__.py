"""Metric meta-evaluation against human MQM judgements (issue 7).

mqm.py loads WMT MQM annotations and scores them; metrics.py computes BLEU/chrF single- and
multi-reference; stats.py holds the agreement statistics; meta_eval.py ties them together with a
paired segment bootstrap; report.py renders the readable table. Plain Python + polars: no dagster.
"""
