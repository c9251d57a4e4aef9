"""The shared knowledge base: documents the operator adds for every user (RAG).

``sources`` finds and reads files (refusing what it cannot read, one line each),
``chunks`` splits them into sections and passages, ``base`` stores, replaces,
lists, removes and searches them on the raw store under ``KNOWLEDGE_ROOT``. The
knowledge layer (memory/layers/knowledge.py) reads it through each user's gate,
which refuses every write there: only ``memory-agent knowledge`` writes it.
"""
