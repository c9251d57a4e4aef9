"""The food lexicon behind the answer check, read from the shared ``memory/words.toml``.

The words live in a data file so that a newcomer extends the check by editing
TOML, not regular expressions. This module turns a set of food groups into one
compiled ``FoodMatcher`` (cached), which finds the foods of those groups in a
reply and skips mentions that say the food is absent: a negation cue before it
("without chicken", "instead of meat"), a word after it ("meat-free", "meat
alternatives"), a harmless word right before it ("oat milk", "veggie burger")
or a fixed phrase that only looks like it ("goat cheese").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from memory.words import WORDS_FILE, words
from models.word_split import apostrophe_words

_BOUNDARY = re.compile(r"[.!?;:\n]|^\s*[-*•]\s", re.MULTILINE)


def _form_regex(form: str) -> str:
    """A term as a regex: spaces match spaces or hyphens, apostrophes match both kinds."""
    out = re.escape(form)
    out = out.replace(r"\ ", r"[\s-]+").replace(r"\-", r"[\s-]?")
    return out.replace("'", "['’]")


def plural_forms(term: str) -> set[str]:
    """The term and its plurals ("egg", "eggs"; "anchovy", "anchovies"; "peach", "peaches")."""
    forms = {term, term + "s", term + "es"}
    if len(term) > 2 and term.endswith("y") and term[-2] not in "aeiou":
        forms.add(term[:-1] + "ies")
    return forms


def singular(word: str) -> str:
    """A crude singular, enough to look a memory's word up in the lexicon."""
    w = word.strip().lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "oes", "sses")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us")) and len(w) > 3:
        return w[:-1]
    return w


def _alternation(items: list[str]) -> str:
    return "|".join(sorted(items, key=len, reverse=True))


@dataclass(frozen=True)
class FoodMatcher:
    """Finds the (non-negated) foods of some groups in a text."""

    terms: re.Pattern[str]
    safe_before: re.Pattern[str] | None
    safe_phrases: re.Pattern[str] | None
    lexicon: Lexicon

    def find(self, text: str) -> list[str]:
        """The foods mentioned as present, lower-cased, first mention first, each once."""
        found: list[str] = []
        safe_spans = [m.span() for m in self.safe_phrases.finditer(text)] if self.safe_phrases else []
        for m in self.terms.finditer(text):
            start, end = m.span()
            if any(a <= start and end <= b for a, b in safe_spans):
                continue
            sentence_start = max((b.end() for b in _BOUNDARY.finditer(text, 0, start)), default=0)
            before = text[sentence_start:start]
            if self._is_place(m.group(0), before):
                continue
            if self.safe_before is not None and self.safe_before.search(before):
                continue
            if self.lexicon.negated(before, text[end:]):
                continue
            item = re.sub(r"[\s-]+", " ", m.group(0).lower())
            if item not in found:
                found.append(item)
        return found

    def _is_place(self, word: str, before: str) -> bool:
        return word[:1].isupper() and word.lower() in self.lexicon.proper_nouns and bool(before.strip())


class Lexicon:
    """Groups, diets, allergen words and negation cues from one TOML file."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.groups: dict[str, dict[str, Any]] = data["groups"]
        self.diets: dict[str, list[str]] = {d: g for d, g in data["diets"].items() if g}  # none: not checked
        self.allergens: dict[str, list[str]] = data["allergens"]
        self.rule_settings: dict[str, Any] = data.get("rules", {})
        neg = data["negation"]
        self.reach = int(neg["reach"])
        self.proper_nouns = {w.lower() for w in neg.get("proper_nouns", [])}
        self._before = re.compile(rf"\b(?:{_alternation(neg['before'])})\b", re.IGNORECASE)
        self._adjacent = re.compile(
            rf"\b(?:{_alternation(neg['adjacent'])})[\s-]+(?:(?:a|an|the|any|some)\s+)?$", re.IGNORECASE
        )
        self._breakers = re.compile(rf"\b(?:{_alternation(neg['breakers'])})\b", re.IGNORECASE)
        self._after = re.compile(rf"^(?:{'|'.join(neg['after'])})\b", re.IGNORECASE)
        unknown = {g for groups in [*self.diets.values(), *self.allergens.values()] for g in groups} - set(self.groups)
        unknown |= {g for spec in self.groups.values() for g in spec.get("include", [])} - set(self.groups)
        if unknown:
            raise ValueError(f"{WORDS_FILE.name}: unknown food group(s) {sorted(unknown)}")

    def negated(self, before: str, after: str) -> bool:
        """Whether the words around a food say it is left out or replaced."""
        if self._after.match(after) or self._adjacent.search(before):
            return True
        for cue in reversed(list(self._before.finditer(before))):
            gap = before[cue.end():]
            if len(apostrophe_words(gap)) <= self.reach and not self._breakers.search(gap):
                return True
        return False

    def label(self, group: str) -> str:
        """How a group reads in a sentence ("tree nuts")."""
        return str(self.groups[group].get("label", group.replace("_", " ")))

    def expand(self, groups: tuple[str, ...]) -> list[str]:
        """The groups with every group they include, each once."""
        out: list[str] = []
        todo = list(groups)
        while todo:
            g = todo.pop(0)
            if g not in out:
                out.append(g)
                todo.extend(self.groups[g].get("include", []))
        return out

    def matcher(self, groups: tuple[str, ...] = (), literal: tuple[str, ...] = ()) -> FoodMatcher:
        """A matcher for some groups plus literal words (cached per combination)."""
        return _matcher(self, groups, literal)

    def groups_for(self, word: str) -> tuple[str, ...] | None:
        """The groups an allergy or "doesn't eat" word stands for, or None (match it literally)."""
        w = re.sub(r"\s+", " ", word.strip().lower())
        for candidate in (w, singular(w), " ".join(singular(p) for p in w.split())):
            if candidate in self.allergens:
                return tuple(self.allergens[candidate])
        return None


@cache
def _matcher(lex: Lexicon, groups: tuple[str, ...], literal: tuple[str, ...]) -> FoodMatcher:
    specs = [lex.groups[g] for g in lex.expand(groups)]
    forms = {f for spec in specs for t in spec["terms"] for f in plural_forms(t.lower())}
    forms |= {f for word in literal for f in plural_forms(singular(word))}
    terms = re.compile(rf"(?<![\w])(?:{_alternation([_form_regex(f) for f in forms])})(?![\w])", re.IGNORECASE)
    before = sorted(
        {_form_regex(w.lower()) for spec in specs for w in spec.get("safe_before", [])}, key=len, reverse=True
    )
    phrases = sorted(
        {_form_regex(p.lower()) for spec in specs for p in spec.get("safe_phrases", [])}, key=len, reverse=True
    )
    return FoodMatcher(
        terms=terms,
        safe_before=re.compile(rf"(?<![\w])(?:{'|'.join(before)})[\s-]+$", re.IGNORECASE) if before else None,
        safe_phrases=re.compile(rf"(?<![\w])(?:{'|'.join(phrases)})", re.IGNORECASE) if phrases else None,
        lexicon=lex,
    )


@cache
def load_lexicon() -> Lexicon:
    """The lexicon in the shared word file, built once per process."""
    return Lexicon(words())
