"""The answer check: test a reply against what memory says before it is shown.

``memory/words.toml`` (data, shared with the write policy) + ``lexicon.py`` find foods a diet or allergy forbids;
``memories.py`` turns recalled memories into checks; ``rules.py`` checks
procedural rules; ``node.py`` is the graph node that retries and discloses.
"""
