"""What a summary must keep verbatim, and the text helpers the layers share.

A summary that paraphrases "order ORD-48213" into "the user's order" loses the
one thing the user will ask about later. Ids, amounts, dates, file paths,
commands and error messages are therefore pulled out with regexes and
guaranteed to appear character for character in every summary, whether a chat
model wrote it or the extractive fallback below did. The working-memory and
episodic layers share these helpers so both keep the same things; the episodic
and procedural layers share ``cosine_similarities`` for dedup and reconciling.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from memory.text import content_words, sentences
from models.word_split import cased_words, keywords
from stores.redaction.secrets import find_secrets

log = logging.getLogger(__name__)

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
# Program names that are rarely ordinary English words ("make", "go" are left out);
# python counts only with a flag or a script, so "python is great" is no command.
_COMMAND_WORDS = (
    r"pip3?|pytest|uv|poetry|npm|npx|yarn|pnpm|git|docker|kubectl|cargo|curl|wget|apt-get|"
    r"sudo|ssh|scp|systemctl|journalctl|chmod|chown|conda|terraform|gcloud|psql|redis-cli|"
    r"python3?(?= -| \S+\.py\b)"
)
_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"

# Order matters only for readability; overlapping matches are resolved by span.
PATTERNS: dict[str, re.Pattern[str]] = {
    "inline_code": re.compile(r"`([^`\n]+)`"),
    "error": re.compile(
        r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b(?:: [^\n]*)?|Traceback \(most recent call last\)|"
        r"\b(?:fatal|error|ERROR|FATAL): [^\n]*"
    ),
    "command": re.compile(
        rf"(?:^|(?<=[\s(\"']))(?:\$ )?(?:{_COMMAND_WORDS}) [^\n`;]*?"
        r"(?=\s+(?:and|then|but|to|which|so|because|after|before)\b|[;`]|,\s|"
        r"(?<!\s)\.(?:\s+[A-Z]|\s*$)|\s*$)",
        re.MULTILINE,
    ),
    "url": re.compile(r"\bhttps?://[^\s<>\"')\]]+[^\s<>\"')\].,;:!?]"),
    "email": re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"),
    "path": re.compile(
        r"(?<![\w/:.])(?:~|\.{1,2})?/(?:[\w.@+-]+/)*[\w.@+-]*[\w@+-]|"
        r"\b[A-Za-z]:\\(?:[\w .-]+\\)*[\w .-]*\w|"
        r"\b[\w.-]+/(?:[\w.-]+/)*[\w-]+\.[A-Za-z0-9]{1,8}\b"
    ),
    "date": re.compile(
        r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b|"
        r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|"
        rf"\b{_MONTH}\.? \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}\b|"
        rf"\b\d{{1,2}}(?:st|nd|rd|th)? {_MONTH}\.?,? \d{{4}}\b"
    ),
    "amount": re.compile(
        rf"(?:[$€£¥]|\b(?:USD|EUR|GBP|CHF) ?){_NUM}(?: ?(?:k|K|m|M|bn)\b)?|"
        rf"\b{_NUM} ?(?:USD|EUR|GBP|CHF|dollars|euros|pounds)\b"
    ),
    "id": re.compile(
        r"\b[A-Z][A-Z0-9]{1,9}[-_#]?\d{2,}[A-Za-z0-9-]*\b|"
        r"#\d{3,}\b|"
        # letters and digits mixed, 8+ long: tracking numbers, order codes, hashes ("1Z999AA10123456784")
        r"\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{8,}\b|"
        r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    ),
}


def extract_identifiers(text: str) -> list[str]:
    """Spans of ``text`` that must survive summarisation, in order of appearance.

    A span inside a longer one (a date inside a path, a path inside a command)
    is dropped: keeping the longer span verbatim keeps the shorter one too. A span
    that touches a secret is never lifted out: alone, away from its "pwd:" cue,
    the secret could no longer be recognised and redacted downstream.
    """
    secrets = [(a, b) for a, b, _ in find_secrets(text)]
    spans: list[tuple[int, int]] = []
    for pattern in PATTERNS.values():
        for m in pattern.finditer(text):
            start, end = m.span(m.lastindex or 0) if pattern is PATTERNS["inline_code"] else m.span()
            if text[start:end].strip() and not any(start < b and a < end for a, b in secrets):
                spans.append((start, end))
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    kept: list[tuple[int, int]] = []
    for start, end in spans:
        if kept and start < kept[-1][1]:
            if end > kept[-1][1]:  # partial overlap: widen so both survive
                kept[-1] = (kept[-1][0], end)
            continue
        kept.append((start, end))
    return _unique(text[s:e].strip() for s, e in kept)


def missing_identifiers(summary: str, sources: Iterable[str]) -> list[str]:
    """Identifiers found in ``sources`` that do not appear verbatim in ``summary``."""
    found = _unique(i for text in sources for i in extract_identifiers(text))
    return [i for i in found if i not in summary]


VERBATIM_HEADER = "Details kept verbatim:"


def ensure_verbatim(summary: str, sources: Iterable[str]) -> str:
    """``summary`` plus a list of every identifier of ``sources`` it lacks."""
    missing = missing_identifiers(summary, sources)
    if not missing:
        return summary
    block = "\n".join([VERBATIM_HEADER, *(f"- {m}" for m in missing)])
    return f"{summary.rstrip()}\n{block}" if summary.strip() else block


_FILLER = re.compile(
    r"^(?:hi|hello|hey|thanks|thank you|thx|ok|okay|sure|great|cool|nice|yes|no|yep|nope|bye|"
    r"good (?:morning|night|evening)|you're welcome|no problem|sounds good)\b[\s!.,]*$",
    re.IGNORECASE,
)
_CUES = re.compile(
    r"\b(?:decided|decide|will|need|want|prefer|must|plan|because|problem|issue|error|fail\w*|"
    r"deadline|remember|important|always|never|agreed|chose|booked|bought|moved|started|finished)\b",
    re.IGNORECASE,
)


split_sentences = sentences  # the summariser's splitter (memory/text.py)


def informativeness(sentence: str) -> float:
    """How much a sentence is worth keeping: identifiers, names, numbers, cues, length.

    Greetings and acknowledgements score 0: they carry nothing to remember.
    """
    words = cased_words(sentence)
    if len(words) < 3 and not extract_identifiers(sentence) or _FILLER.match(sentence):
        return 0.0
    names = sum(1 for w in words[1:] if w[:1].isupper())
    numbers = sum(1 for w in words if any(c.isdigit() for c in w))
    cues = len(_CUES.findall(sentence))
    return 3.0 * len(extract_identifiers(sentence)) + names + numbers + 1.5 * cues + min(len(words), 30) / 6


def extractive_summary(lines: Sequence[str], max_words: int, label_weights: Mapping[str, float] | None = None) -> str:
    """The most informative sentences of ``lines`` within ``max_words``, in original order.

    ``lines`` are units such as "User: ..." so each picked sentence keeps the
    speaker label of its line; sentences are copied verbatim, never rewritten.
    ``label_weights`` scales a speaker's sentences (what the user said about
    themselves usually matters more than the assistant's replies).
    """
    weights = label_weights or {}
    candidates: list[tuple[float, int, str]] = []
    for line in lines:
        label, sep, body = line.partition(": ")
        prefix, text = (f"{label}: ", body) if sep and len(label) <= 20 else ("", line)
        for sentence in split_sentences(text):
            score = informativeness(sentence) * weights.get(label if prefix else "", 1.0)
            candidates.append((score, len(candidates), prefix + sentence))
    chosen: list[tuple[int, str]] = []
    words = 0
    for score, order, sentence in sorted(candidates, key=lambda c: (-c[0], c[1])):
        n = len(sentence.split())
        if score <= 0 or (chosen and words + n > max_words):
            continue
        chosen.append((order, sentence))
        words += n
    return "\n".join(s for _, s in sorted(chosen))


def grounded(summary: str, source: str, share: float = 0.6) -> bool:
    """Whether most content words of a model-written ``summary`` occur in ``source``.

    A cheap guard against a small model inventing things: its summary is used
    only when it mostly reuses the conversation's own words.
    """
    said = set(keywords(source))
    used = content_words(summary, "summary")
    return bool(used) and sum(w in said for w in used) / len(used) >= share


def model_summary(model: BaseChatModel, instructions: str, source: str) -> str | None:
    """A chat model's summary of ``source``, or None when the call fails or the
    summary is not ``grounded`` in it: callers then fall back to the extractive path.
    """
    try:
        reply = model.invoke([SystemMessage(instructions), HumanMessage(source)])
    except Exception:  # a local model can fail in many ways; the extractive path always works
        log.warning("summary by the chat model failed; using the extractive summary", exc_info=True)
        return None
    text = reply.text.strip()
    return text if text and grounded(text, source) else None


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(i for i in items if i))
