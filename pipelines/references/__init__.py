"""Generated multi-references (issue 7): N candidates per source in one generator call
(``generate``), robust parsing (``parse``), Self-BLEU diversity selection (``selfbleu``). The kept
references plug into ``housestyle.pipelines.metaeval`` as a ReferenceSet. Plain Python: no dagster.
"""
