"""The learned disclosure gate, off by default and outside the runtime package: its weights, features,
training and samples. The runtime never imports it; ``PatternFactExtractor(gate=load_gate())`` turns it on.
"""
