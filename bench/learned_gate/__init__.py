"""The learned disclosure gate, off by default and outside the runtime package: its weights, features,
training and samples. The runtime never imports it; ``GatedPatternExtractor(load_gate())`` (``extractor.py``) turns it on.
"""
