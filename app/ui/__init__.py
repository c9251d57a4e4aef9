"""The memory page: a small web app to see, search, correct and forget what the agent keeps.

``memory-agent ui`` serves it for one user on loopback (app/ui/serve.py); the
``langgraph dev`` server mounts the same app under ``/memory`` behind its auth
(app/ui/mounted.py). Every read and change goes through the project's own
functions (export, forget, consent, supersession, upkeep), never around them.
"""
