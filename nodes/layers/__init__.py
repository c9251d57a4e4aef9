"""The memory layers, one module each, and the one default list of them.

``default_layers()`` is what the graph, Studio (graph/studio.py), ``import`` and
``recall`` use unless given another list: pass your own list to ``MemoryAgent``
or ``build_graph`` and it reaches all of them.
"""

from __future__ import annotations

from nodes.layers.base import MemoryLayer


def default_layers() -> list[MemoryLayer]:
    """Working, procedural, semantic, episodic and message-log memory, in that order, then the
    operator's shared knowledge (read only: nodes/layers/knowledge.py) and the user's past tasks
    as examples (nodes/layers/task_episodes.py).
    """
    from nodes.layers.episodic import EpisodicLayer
    from nodes.layers.knowledge import KnowledgeLayer
    from nodes.layers.message_log import MessageLogLayer
    from nodes.layers.procedural import ProceduralLayer
    from nodes.layers.semantic import SemanticLayer
    from nodes.layers.task_episodes import TaskEpisodeLayer
    from nodes.layers.working import WorkingMemoryLayer

    return [WorkingMemoryLayer(), ProceduralLayer(), SemanticLayer(), EpisodicLayer(), MessageLogLayer(),
            KnowledgeLayer(), TaskEpisodeLayer()]
