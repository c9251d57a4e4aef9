"""The application shell: the ``memory-agent`` CLI, the chat REPL, the demo and
``MemoryAgent`` (one process's graph with its persistence). Nodes never import it.
"""
