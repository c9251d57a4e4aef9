"""The LangGraph agent: graph wiring, run context, state and prompts."""
