"""The criteria-decomposed acceptance judge with cross-lingual transfer (issue 8).

An output is turned into a vector of criterion answers (deterministic housestyle criteria: SCS
verdicts and adequacy figures; LLM yes/no questions), aggregated per concept into z(x), and a small
scikit-learn model trained on one language pair's acceptance labels is applied, unchanged, to
another. Modules: samples (MQM → labelled samples), adequacy + scs (deterministic answers),
criteria (the versioned criteria set), llm (prompts, parsing, cost), evaluate (answers → z(x)),
features (per-language standardisation), transfer (the models), analyses (intervals, curves),
run (what the CLI and the asset call). Plain Python: no dagster.
"""
