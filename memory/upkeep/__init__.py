"""Upkeep: the pass that keeps a user's memory small, current and lean over months.

Memory is written at the end of every session and would otherwise only grow.
``run_upkeep`` (memory/upkeep/run.py) runs, for one user, in order: merge
near-duplicates and settle conflicting facts, promote repeated observations to
facts, roll old episodes up into weekly and monthly summaries, prune episodes
that add nothing to their roll-up (unused restatements, small talk), expire what is
past its TTL and date important facts for review, and reflect. Every write goes
through the user's ``MemoryGate``; derived items have deterministic keys and are
written before what they replace is deleted, so a pass killed midway loses
nothing and its rerun completes it.
"""
