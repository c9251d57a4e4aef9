"""A sentence cut into the first-person clauses the statement patterns read one at a time.

The patterns match one whole clause ("I live in Lisbon"); people join several in one
sentence ("I'm 34, I live in Lisbon and work as a nurse") or dictate them without
punctuation. The cut happens where a new first-person clause starts, and a clause
whose subject was left out ("... and work as a nurse") gets the speaker's "I" back.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE
# Where a preferred name follows another clause: the call-me forms ``patterns.py`` and ``self_names.py`` read.
CALL_ME = (r"(?:(?:please |just |you can |feel free to )?call me|(?:my (?:friends|mates|family)|everyone|everybody|"
           r"most people|people) calls? me) (?-i:[A-Z])")
_CLAUSE_SPLIT = re.compile(
    r"(?:,\s*|\s+)(?:and|but|so|also|plus|while)\s+(?=(?:i|i'm|my|we)\b)|,\s+(?=(?:i|i'm|my)\b)"
    r"|(?:,\s*|\s+)(?:and|but)\s+(?=(?:live|work|speak|have|play|love|study)\b)"
    r"|,\s+(?=(?:currently |now |but )?(?:living|based|working|settled|married)\b)"
    r"|,\s+(?=(?:live|work) (?:in|at|for|as|from)\b)"
    # "My name is Alexandra, but please call me Sandy", "I'm Robert but everyone calls me Bob"
    rf"|(?:,\s*|\s+)(?:but|and|so)\s+(?={CALL_ME})|,\s+(?={CALL_ME})", _I)
_SUBJECTLESS = re.compile(r"^(?:live|work|speak|have|play|love|study)\b", _I)
_ONGOING = re.compile(r"^(?:but )?((?:currently |now )?(?:living|based|working|settled|married)\b)", _I)
# Dictated run-ons without punctuation: "i live in denver i work as a nurse". A new clause starts at "i"
# before a slot verb, unless the word before makes it subordinate or reported ("if i live", "says i'm").
_RUN_ON = re.compile(r"(?<=[a-z0-9])\s+(?=i(?:'m| am| live| work| have| was born| grew up| moved| speak)\b)", _I)
_SUBORDINATING = set("that where which who when what how if whether unless once until wish think thinks hope guess "
                     "say says said tell told tells believe believes know knows because cause since than as and but so "
                     "or while the imagine pretend suppose mean feel".split())
_NORMALISE = ((r"\bI am\b", "I'm"), (r"\bdo not\b", "don't"), (r"\bcannot\b", "can't"), (r"\bI have got\b", "I have"))


def clauses(body: str) -> list[str]:
    """The first-person clauses of one sentence, each with its subject spelled out."""
    for pattern, repl in _NORMALISE:
        body = re.sub(pattern, repl, body, flags=_I)
    parts = [p.strip().rstrip(".!").strip() for p in _CLAUSE_SPLIT.split(_run_ons(body)) if p and p.strip(" .!")]
    return parts[:1] + [f"I {p}" if _SUBJECTLESS.match(p) else _ONGOING.sub(r"I'm \1", p) for p in parts[1:]]


def _run_ons(body: str) -> str:
    """Commas where a dictated run-on starts a new first-person clause (see ``_RUN_ON``)."""
    out, last = [], 0
    for m in _RUN_ON.finditer(body):
        before = body[last:m.start()].split()
        if before and before[-1].lower() not in _SUBORDINATING:
            out.append(body[last:m.start()] + ",")
            last = m.start()
    return "".join(out) + body[last:]
