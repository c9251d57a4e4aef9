"""Which recalled memories a reply can be checked against, and how.

A memory becomes a ``Check`` when a reply can be tested against it without a
model: a diet the lexicon knows (vegetarian, vegan, halal, ...), an allergy or
intolerance, "doesn't eat / avoids X", and the procedural rules in
``rules.py``. Everything else (a keto diet, a dislike, a tone rule) is listed
as unchecked and left to the prompt. Only memories recalled for this turn are
used, so the check sees exactly what the model was shown, and consent (memory
off: nothing recalled) is respected for free.
"""

from __future__ import annotations

import re
from typing import Any

from nodes.check.checks import Check
from nodes.check.lexicon import FoodMatcher, Lexicon, load_lexicon
from nodes.check.rules import rule_check

_SPLIT = re.compile(r",\s*|\s+and\s+|\s+or\s+|\s*/\s*")
_LEADING = re.compile(r"^(?:any|a|an|the|some|all|of)\s+", re.IGNORECASE)
_TRAILING = re.compile(r"\s+(?:anymore|any more|at all|products?|of any kind|any longer)$", re.IGNORECASE)
_USER = r"^the user\s+"
_AVOID = re.compile(
    _USER + r"(?:does not|doesn't|never|can't|cannot|won't|will not|no longer|avoids|does not ever)\s+"
    r"(?:eat|eats|drink|drinks|have|has|consume|consumes|touch|touches)?\s*(?P<o>[^.;]+)",
    re.IGNORECASE,
)
_ALLERGY = re.compile(_USER + r"(?:is|has been)\s+allergic\s+to\s+(?P<o>[^.;]+)", re.IGNORECASE)
_ALLERGY_NOUN = re.compile(
    _USER + r"has\s+an?\s+(?:severe\s+|mild\s+)?(?P<o>[\w -]+?)\s+allerg(?:y|ies)\b", re.IGNORECASE
)
_INTOLERANT = re.compile(
    _USER + r"is\s+(?P<o>[\w-]+)[- ]intolerant\b|" + _USER + r"is\s+intolerant\s+to\s+(?P<o2>[^.;]+)", re.IGNORECASE
)
_CELIAC = re.compile(_USER + r"has\s+(?:celiac|coeliac)\s+disease\b", re.IGNORECASE)


def second_person(text: str) -> str:
    """'The user is vegetarian.' -> 'you are vegetarian' (for the Memory check line)."""
    t = text.strip().rstrip(".")
    for pattern, repl in (
        (r"^the user's\b", "your"), (r"^the user is\b", "you are"), (r"^the user has\b", "you have"),
        (r"^the user does\b", "you do"), (r"^the user doesn't\b", "you don't"),
        (r"^the user (never|no longer|also|always|usually) (\w+?)s\b", r"you \1 \2"),
        (r"^the user (can't|cannot|won't)\b", r"you \1"), (r"^the user (\w+?)s\b", r"you \1"),
    ):
        new = re.sub(pattern, repl, t, count=1, flags=re.IGNORECASE)
        if new != t:
            return new
    return f'you told me "{t}"'


def _values(raw: str) -> list[str]:
    out = []
    for part in _SPLIT.split(raw.strip().rstrip(".")):
        part = _TRAILING.sub("", _LEADING.sub("", part.strip())).strip()
        if part:
            out.append(part.lower())
    return out


def _food_check(lex: Lexicon, label: str, memory: str, reason: str, word: str | None = None,
                groups: tuple[str, ...] | None = None) -> Check:
    if groups is None:
        groups = lex.groups_for(word or "")
    literal = () if groups else (word or "",)
    matcher: FoodMatcher = lex.matcher(groups or (), literal)
    forbidden = " or ".join([lex.label(g) for g in groups] if groups else [word or ""])
    return Check(
        label=label,
        memory=memory,
        find=matcher.find,
        reminder=f'Remember: "{memory}" So no {forbidden} in the answer, please.',
        flag=lambda items, reason=reason: f"this suggests {' and '.join(items)}, but {reason}",
        meta={"groups": list(groups or ()), "literal": list(literal)},
    )


def _diet(lex: Lexicon, value: str) -> str | None:
    for name in sorted(lex.diets, key=len, reverse=True):
        words = r"[\s-]".join(re.escape(w) for w in name.split("-"))
        if re.search(rf"(?<![\w-]){words}(?![\w-])", value, re.IGNORECASE):
            return name
    return None


def food_checks(item: dict[str, Any], lex: Lexicon) -> tuple[list[Check], bool]:
    """The food checks one profile entry or fact gives, and whether it was food-related at all."""
    text = str(item.get("text") or "")
    key = item.get("key")
    value = str((item.get("meta") or {}).get("value") or "")
    if item.get("kind") == "profile" and key == "diet":
        name = _diet(lex, value or text)
        if name is None:
            return [], True
        return [_food_check(lex, f"diet: {name}", text, second_person(text), groups=tuple(lex.diets[name]))], True
    if item.get("kind") == "profile" and key == "allergies":
        return [_food_check(lex, f"allergy: {v}", text, f"you are allergic to {v}", word=v)
                for v in _values(value or text)], True
    if _CELIAC.match(text):
        return [_food_check(lex, "intolerance: gluten", text, second_person(text), groups=("gluten",))], True
    for pattern, kind in (
        (_ALLERGY, "allergy"), (_ALLERGY_NOUN, "allergy"), (_INTOLERANT, "intolerance"), (_AVOID, "avoids")
    ):
        m = pattern.match(text)
        if m:
            raw = next(g for g in m.groups() if g)
            return [_food_check(lex, f"{kind}: {v}", text, second_person(text), word=v) for v in _values(raw)], True
    name = _diet(lex, text) if re.match(_USER + r"(?:is|follows)\b", text, re.IGNORECASE) else None
    if name is not None and (item.get("meta") or {}).get("category") == "diet":
        return [_food_check(lex, f"diet: {name}", text, second_person(text), groups=tuple(lex.diets[name]))], True
    category = (item.get("meta") or {}).get("category")
    return [], category == "diet" or key == "diet"


def gather_checks(recalled: list[dict[str, Any]], lex: Lexicon | None = None) -> tuple[list[Check], list[str]]:
    """(checks, unchecked labels) for this turn's recalled profile, facts and rules."""
    lex = lex or load_lexicon()
    checks: list[Check] = []
    unchecked: list[str] = []
    for item in recalled:
        kind = item.get("kind")
        if kind == "rule":
            check = rule_check(item, lex)
            if check is None:
                unchecked.append(f"rule: {item.get('text')}")
            else:
                checks.append(check)
        elif kind in ("profile", "fact"):
            found, food = food_checks(item, lex)
            checks.extend(found)
            if food and not found:
                unchecked.append(f"diet: {item.get('text')}")
    unique: dict[str, Check] = {}
    for check in checks:
        unique.setdefault(check.label, check)
    return list(unique.values()), unchecked
