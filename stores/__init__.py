"""Persistence: the long-term store, the checkpointer and the data directory."""
