"""Tools the chat model can call to read and edit its memory."""
