"""The message log's learned fusion (``model.py``), an opt-in of the benchmarks, and its training on locomo-dev only.

The runtime never imports this package: its weights are learned from LoCoMo (CC BY-NC 4.0), so the
shipped default is the hand-set rerank (docs/data-and-licences.md).
"""
