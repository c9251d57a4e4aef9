"""The part of a text that a forget request names, and the text without it.

"Forget that I live in Lisbon" must not take "I work as a nurse" with it when both
were said in one message, so a message, an episode or a thread message loses only the
clause that mentions the forgotten words: its sentence, cut further where a new
first-person clause starts ("I live in Lisbon | and I work as a nurse"). Each line is
cut on its own, keeping its label ("User: ", "- "); a line left empty goes.

A part matches when it holds the words as whole words, in any case, the last one
singular or plural: "Lisbon" matches "Lisbon's" and "lisbon", "peanuts" matches
"peanut", never a longer word that merely contains them ("cat" is not in "education",
"nurse" is not in "nursing"), so cutting one fact never cuts an unrelated sentence,
while every copy of the forgotten word itself is found (a byte search for it then
finds nothing).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from memory.privacy.forget_items import cut_item
from memory.text import sentences
from stores.redaction.scrub import map_strings

_I = re.IGNORECASE
_SUBJECT = r"(?:i|i'm|my|we|you|you're|she|he|they|the user)\b"
_VERB = r"(?:live|lives|work|works|speak|speaks|have|has|play|plays|love|loves|study|studies)\b"
# Where a new clause starts: after "and/but/so ..." or a comma, before a subject or (after and/but) a verb.
_CLAUSE_CUT = re.compile(
    rf"(?:,\s*|\s+)(?:and|but|so|also|plus|while)\s+(?={_SUBJECT})|,\s+(?={_SUBJECT})"
    rf"|(?:,\s*|\s+)(?:and|but)\s+(?={_VERB})|;\s*", _I)
_SUBJECTLESS = re.compile(rf"^{_VERB}", _I)
_PRONOUN = re.compile(r"^(i|you|we|they|he|she)\b", _I)  # given back to a clause cut off from its subject
_LABEL = re.compile(r"^(?:\s*(?:[-*•]|\w[\w ]{0,30}:)\s+)?")  # "User: ", "- ", kept on a cut line


class Needle:
    """The forgotten words: find them, and cut the parts of a text that say them."""

    def __init__(self, text: str, also: Sequence[str] = ()) -> None:
        """``also``: whole parts to cut as well (those near the request by meaning, without its words)."""
        self.text = " ".join(text.split())
        self.also = tuple(dict.fromkeys(" ".join(p.split()) for p in also if p.strip()))
        phrases = sorted((self.text, *self.also), key=len, reverse=True)
        self._pattern = re.compile("|".join(_phrase(p) for p in phrases), _I)

    def in_text(self, text: str) -> bool:
        return self._pattern.search(text) is not None

    def in_any(self, strings: Any) -> bool:
        """Whether any string of ``strings`` (an iterable of str) mentions the words."""
        return any(self.in_text(s) for s in strings)

    def parts(self, text: str) -> list[str]:
        """The parts ``cut`` would remove from ``text``, as written."""
        return [p for p in all_parts(text) if self.in_text(p)]

    def cut(self, text: str) -> str:
        """``text`` without the parts that mention the words; the same object when none does."""
        if not self.in_text(text):
            return text
        kept = [line if not self.in_text(line) else self._cut_line(line) for line in text.split("\n")]
        return "\n".join(line for line in kept if line is not None)

    def deep(self, obj: Any) -> Any:
        """``obj`` with every string in it cut; ``obj`` itself when none mentions the words."""
        return map_strings(obj, self.cut)

    def _cut_line(self, line: str) -> str | None:
        label = _LABEL.match(line).group(0)  # type: ignore[union-attr]
        kept = [k for k in (self._cut_sentence(s) for s in sentences(line[len(label):])) if k]
        if not kept:
            return None
        return (label + " ".join(kept)) if label.strip() else " ".join(kept)

    def _cut_sentence(self, sentence: str) -> str:
        if not self.in_text(sentence):
            return sentence
        end = re.search(r"[.!?]+$", sentence)
        stop = end.group(0) if end else ""
        body = sentence[: len(sentence) - len(stop)]
        kept = [k for k in (self._cut_clause(c.strip(" ,")) for c in _CLAUSE_CUT.split(body)) if k]
        if not kept:
            return ""
        subject = _PRONOUN.match(body.strip())
        if subject and _SUBJECTLESS.match(kept[0]):
            kept[0] = f"{subject.group(1)} {kept[0]}"
        kept[0] = kept[0][:1].upper() + kept[0][1:]
        return ", and ".join(kept) + (stop or ".")

    def _cut_clause(self, clause: str) -> str:
        """The clause, without the list item the words name ("I speak French and Spanish" - Spanish:
        "I speak French"); empty when they are more than an item of a list.
        """
        if not self.in_text(clause):
            return clause
        item = cut_item(self._pattern, clause)
        return item.strip(" ,") if item is not None and not self.in_text(item) else ""

    def cut_items(self, text: str) -> str | None:
        """``text`` with only list items cut ("The user speaks French and Spanish." - Spanish: "The user
        speaks French."); None when some mention is more than an item, so the record goes whole.
        """
        out = []
        for sentence in sentences(" ".join(text.split())):
            if not self.in_text(sentence):
                out.append(sentence)
                continue
            item = cut_item(self._pattern, sentence)
            if item is None or self.in_text(item):
                return None
            out.append(item)
        return " ".join(out)


def _phrase(text: str) -> str:
    """A pattern for ``text``: its words in order, any spacing, whole words, the last one singular
    or plural ("peanuts" finds "peanut allergy", "nurse" finds "nurses", never "nursing").
    """
    words = text.split()
    last = words[-1]
    if len(last) > 3 and last[-1:].casefold() == "s" and last[-2:-1].isalpha():
        last = last[:-1]
    plural = r"(?:s|es)?" if last[-1:].isalpha() else ""
    lead = r"(?<!\w)" if text[:1].isalnum() else ""
    tail = r"(?!\w)" if last[-1:].isalnum() else ""
    return lead + r"\s+".join(map(re.escape, [*words[:-1], last])) + plural + tail


def all_parts(text: str) -> list[str]:
    """``text`` cut into the parts ``Needle.cut`` removes one by one: each line's clauses, labels left out."""
    out = []
    for line in text.split("\n"):
        body = line[len(_LABEL.match(line).group(0)):]  # type: ignore[union-attr]
        out += [c.strip(" ,") for s in sentences(body) for c in _CLAUSE_CUT.split(s.rstrip(".!? ")) if c.strip(" ,")]
    return out
