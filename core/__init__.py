"""The shared vocabulary below the nodes and memory: the run's context, the graph state, prompts,
run modes, identity, limits and token verification. The wiring in ``graph/`` builds on it; nothing
here imports ``graph/``, ``nodes/`` or ``memory/``.
"""
