"""Task episodes: procedural memory by example (rules, prompt block, shared pool).

The layer itself is ``memory/layers/task_episodes.py``.
"""
