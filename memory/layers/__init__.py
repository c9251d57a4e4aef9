"""The memory layers, one module each, and the one default list of them.

``default_layers()`` is what the graph, Studio (graph/studio.py), ``import`` and
``recall`` use unless given another list: pass your own list to ``MemoryAgent``
or ``build_graph`` and it reaches all of them.
"""

from __future__ import annotations

from memory.layers.base import MemoryLayer


def default_layers() -> list[MemoryLayer]:
    """Working, procedural, semantic, episodic and message-log memory, in that order, then the
    operator's shared knowledge (read only: memory/layers/knowledge.py) and the user's past tasks
    as examples (memory/layers/task_episodes.py).
    """
    from memory.layers.episodic import EpisodicLayer
    from memory.layers.knowledge import KnowledgeLayer
    from memory.layers.message_log import MessageLogLayer
    from memory.layers.procedural import ProceduralLayer
    from memory.layers.semantic import SemanticLayer
    from memory.layers.task_episodes import TaskEpisodeLayer
    from memory.layers.working import WorkingMemoryLayer

    return [WorkingMemoryLayer(), ProceduralLayer(), SemanticLayer(), EpisodicLayer(), MessageLogLayer(),
            KnowledgeLayer(), TaskEpisodeLayer()]
