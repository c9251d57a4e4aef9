"""Graph nodes and the memory layers, checks, privacy and tools they use."""
