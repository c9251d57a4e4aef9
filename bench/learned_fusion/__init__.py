"""Training of the message log's learned fusion (memory/layers/message_fusion.py) on locomo-dev only.

The runtime never imports this package: it reads the weights the trainer writes.
"""
