"""What counts as a task, what counts as the user's verdict on it, and what the approach was.

Rules, no LLM, so the embedded model records episodes too. A task is a message
that asks the assistant to *produce or do* something ("Write a cover letter for…",
"Can you plan a 3-day trip to Rome?", "Help me fix this SQL query"), not a question
of fact ("What is the capital of Peru?"), small talk or a memory command. Precision
over recall, as for rules: a missed task only loses one example, a false one shows
a chat line as an example of how to work.

A verdict is the user's next message when it judges the reply as a whole ("thanks,
that worked", "that's wrong"). Explicit feedback outranks the answer check.
"""

from __future__ import annotations

import re

from memory.text import sentences

MAX_TASK_CHARS = 400
MAX_APPROACH_CHARS = 400

_I = re.IGNORECASE
_LEAD = r"^(?:(?:ok|okay|so|hey|hi|now|also|and|then|please|pls|kindly)\b[,!]?\s+)*"
_ASK = (r"(?:(?:can|could|would|will) you\s+(?:please\s+)?(?:help me\s+)?|help me\s+(?:to\s+)?|"
        r"i(?:'d| would)? (?:need|want|like) (?:you )?to\s+|i need help (?:to |with )?|"
        r"how (?:do|can|should) i\s+|what(?:'s| is) the best way to\s+)?")
_VERBS = (
    r"write|draft|rewrite|compose|edit|proofread|summari[sz]e|translate|outline|plan|schedule|organi[sz]e|"
    r"prepare|make|create|build|design|generate|fix|debug|refactor|optimi[sz]e|convert|calculate|compute|"
    r"estimate|budget|compare|review|analy[sz]e|set up|setup|configure|install|deploy|migrate|format|"
    r"sort|clean up|reorgani[sz]e|book|cook|bake|pack|structure|shorten|simplify|turn|port|implement|test"
)
_TASK = re.compile(_LEAD + _ASK + rf"(?:{_VERBS})\b\s+\S", _I)
# Questions of fact and chit-chat that open like a task but ask for no work.
_NOT_TASK = re.compile(
    r"\b(?:remember|forget|memory|memories)\b|^(?:what|who|when|where|why|which)\b(?!.*\bbest way to\b)", _I)

_GOOD = re.compile(
    r"^(?:(?:thanks|thank you|thx|great|perfect|excellent|awesome|brilliant|nice|lovely|wonderful)\b.*"
    r"|(?:that|this|it) (?:worked|works|helped|did it|did the trick|was (?:great|perfect|helpful|exactly))\b.*"
    r"|(?:works|worked) (?:now|perfectly|great)\b.*|exactly what i (?:needed|wanted)\b.*)$",
    _I,
)
_BAD = re.compile(
    r"\b(?:(?:that|this|it) (?:didn't|did not|doesn't|does not) work|(?:that|this|it)(?:'s| is) (?:wrong|"
    r"not (?:right|what i (?:asked|wanted|needed))|useless|unhelpful)|not what i (?:asked|wanted|needed)|"
    r"still (?:broken|fails|failing|doesn't work|does not work)|(?:you|that) (?:got it|made it) wrong|"
    r"that failed|it failed|no good|wrong answer)\b",
    _I,
)


def is_task(text: str) -> bool:
    """Whether a user message asks the assistant for a piece of work (see the module docstring)."""
    first = next(iter(sentences(text.strip())), "").strip()
    if not first or len(text) > 8 * MAX_TASK_CHARS:
        return False
    return _TASK.match(first) is not None and _NOT_TASK.search(first) is None


def task_text(text: str) -> str:
    """The task as an episode keeps it: the message, whitespace folded, at most ``MAX_TASK_CHARS``."""
    return _clip(" ".join(text.split()), MAX_TASK_CHARS)


def verdict(text: str) -> float | None:
    """The quality a user's message gives the previous reply: 1.0 praise, 0.0 complaint, None neither.

    A complaint wins over politeness ("thanks, but that didn't work" is a failure).
    """
    clean = " ".join(text.split())
    if not clean or len(clean) > 300:
        return None
    if _BAD.search(clean):
        return 0.0
    if _GOOD.match(clean):
        return 1.0
    return None


def approach_of(reply: str) -> str:
    """How the reply went about the task, by rule: its outline when it has one (numbered or bulleted
    lines), else its first two sentences; at most ``MAX_APPROACH_CHARS``.
    """
    steps = [ln.strip() for ln in reply.splitlines() if re.match(r"^\s*(?:\d+[.)]|[-*•])\s+\S", ln)]
    if len(steps) >= 2:
        return _clip("; ".join(re.sub(r"^(?:\d+[.)]|[-*•])\s+", "", s) for s in steps), MAX_APPROACH_CHARS)
    return _clip(" ".join(sentences(" ".join(reply.split()))[:2]), MAX_APPROACH_CHARS)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
