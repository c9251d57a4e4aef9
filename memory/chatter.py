"""Telling what a user *said happened* from what they *asked of the assistant*.

A question ("How do I boil an egg?") or a request ("Tell me a joke.") is the
session's business: it was answered then, and the message log keeps its words.
It states nothing about the user's life, so upkeep does not carry it into a
roll-up, does not count it as evidence of a habit ("Where did I go hiking?" is
not a hike), and an episode made only of such lines is small talk it may forget;
the prompt does not show a past message or episode that only asks (memory/prompt.py).
The same goes for a mood of the day ("I'm a bit tired today."): true when said,
it tells nothing once the day is over. And for the assistant's filler: a greeting, an
apology, a "noted", an "I'm not sure" or "I don't have anything remembered about you
yet." tells nothing about anything, so no later prompt shows it (``substance``).
"""

from __future__ import annotations

import re

from memory.text import statements

# Imperatives addressed to the assistant: "Tell me a joke.", "Please give me a word for happy."
_REQUEST = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+)?(?:tell|give|show|help|recommend|suggest|find|write|explain|list|"
    r"remind|translate|summari[sz]e|describe)\b",
    re.IGNORECASE,
)
# "I'm a bit tired today.", "Feeling so stressed right now!": a first-person mood bound to the moment.
_PASSING_MOOD = re.compile(
    r"^(?:i'm|i am|i feel|i'm feeling|i am feeling|feeling)\s+(?:a bit |a little |so |really |very |quite |pretty |"
    r"kind of |kinda |super )?(?:tired|exhausted|sleepy|sick|ill|unwell|stressed|bored|busy|hungry|cold|hot|sad|"
    r"happy|grumpy|cranky|lazy|nervous|anxious|excited|great|good|fine|okay|ok|meh|down|off)\b[^.!?]*?\b"
    r"(?:today|tonight|right now|at the moment|this (?:morning|afternoon|evening))\s*[.!]*$",
    re.IGNORECASE,
)
# An assistant's sentence that carries nothing: greetings, thanks, apologies, acknowledgements,
# not knowing, having nothing remembered, offers of more help.
_ACK = (r"(?:ok(?:ay)?|sure|noted|got it|understood|of course|certainly|great|will do|you're welcome|"
        r"thanks?(?: you)?(?: (?:so|very) much)?(?: for (?:telling|letting|sharing|asking)\b[^.!?]*)?)")
_FILLER = re.compile(
    r"^(?:(?:hi|hello|hey|good (?:morning|afternoon|evening))(?:\W+\w+)?\W*|"
    rf"{_ACK}(?:\W+{_ACK})*|(?:i'll|i will) (?:remember|keep) (?:that|this)\b.*|"
    r"(?:i'm|i am) (?:so |very |really )?sorry\b.*|(?:my )?apologies\b.*|i apologi[sz]e\b.*|sorry\b.*|"
    r"(?:i'm|i am) not (?:sure|certain)\b.*|i (?:do not|don't) (?:know|remember|recall)\b.*|"
    r"i (?:do not|don't) have (?:anything|any information|any memory|any memories|that information)\b.*|"
    r"(?:i have|i've) (?:nothing|no memory|no memories|no record)\b.*|"
    r"(?:i|i'm|i am) (?:can't|cannot|can not|unable to|not able to)\b.*|as an ai\b.*|"
    r"(?:let me know|feel free|is there anything else|anything else|how can i help|happy to help|glad to help)\b.*)"
    r"[.!?]*$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^(?P<label>[A-Za-z]{1,20}):\s*(?P<body>.*)$", re.DOTALL)


def is_request(sentence: str) -> bool:
    """Whether ``sentence`` asks something of the assistant (a question or an imperative request)."""
    text = sentence.strip()
    return text.endswith("?") or _REQUEST.match(text) is not None


def is_passing_mood(sentence: str) -> bool:
    """Whether ``sentence`` is a first-person mood of the moment ("I'm a bit tired today.")."""
    return _PASSING_MOOD.match(sentence.strip()) is not None


def is_filler(sentence: str) -> bool:
    """Whether an assistant's ``sentence`` carries nothing: a greeting, thanks, an apology, an
    acknowledgement, not knowing or having nothing remembered, an offer of more help.
    """
    return _FILLER.match(sentence.strip().replace("\u2019", "'")) is not None


def substance(reply: str) -> str:
    """An assistant's ``reply`` without its filler sentences; "" when nothing else is left
    ("I'm not sure. Sorry!" gives "", "Sure! Try a risotto." gives "Try a risotto.").
    """
    return " ".join(s for s in statements(reply) if not is_filler(s))


def labelled(line: str) -> tuple[str, str]:
    """("User", "I moved.") for a summary line "User: I moved."; ("", line) for an unlabelled one."""
    match = _LABEL.match(line.strip())
    return (match["label"], match["body"]) if match else ("", line.strip())


def told_lines(text: str) -> list[str]:
    """The summary lines of ``text`` that tell something, one per sentence, labels kept, requests and
    moods of the moment left out.

    "User: I moved to Berlin. Any tips for a rainy Sunday?" gives ["User: I moved to Berlin."].
    A line with another label (an assistant's detail, a roll-up's title) is kept whole.
    """
    out: list[str] = []
    for line in text.splitlines():
        label, body = labelled(line)
        if label != "User":
            if line.strip():
                out.append(line.strip())
            continue
        out += [f"User: {s}" for s in statements(body) if not is_request(s) and not is_passing_mood(s)]
    return out
