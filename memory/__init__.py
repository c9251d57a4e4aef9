"""The memory machinery the graph's nodes (``nodes/``) call: the layers, the write policy, privacy,
the tools, upkeep, knowledge, and the text, word and time helpers they share.
"""
