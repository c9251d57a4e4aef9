"""People and pets read off the dependency parse: the shape of the sentence, not its phrasing.

The regexes in ``people.py`` list the phrasings they were tuned on; fresh writers put the
name and the relation in other orders ("Sara's my wife", "Finn and Oscar, my boys, ..."),
other links ("my sister, who's called Anna"), other lists. Here a relation word (people_words)
owned by "my"/"our" is linked to a name by the parse: apposition, a flat compound, "called"/
"named", a copula in either order, "X's my wife", "my dog's name is Rex", and a list joined to
any of these. An unowned pet counts only as what the user has ("we adopted a cat called Mochi").
"my colleague's wife Anja" is owned by the colleague, so it yields nothing; a negated or
modal clause ("I don't have a sister called Anna", "I'd call my dog Rex") yields nothing either.

``people.py`` runs this after its own screens (questions, hypotheticals, quotes, fiction)
and keeps the union. Without spaCy it finds nothing and the regexes run alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from memory.write_policy.parse import doc_of
from memory.write_policy.people_screens import ADDRESSED, GIVING, PHONED_AFTER
from memory.write_policy.people_words import NOT_NAMES, relation_of
from memory.write_policy.phrasings import HEALTH_STATES
from memory.write_policy.self_names import NOT_A_NAME

_STATE = re.compile(rf"{HEALTH_STATES}|deaf|blind|mute", re.IGNORECASE)  # "My brother is Deaf"
_OWNERS = {"my", "our"}
_TITLES = {"mr", "mrs", "ms", "miss", "dr", "sir", "lady", "lord", "captain", "prof"}
_HAVING = {"have", "get", "adopt", "rescue", "welcome", "foster", "buy", "bring", "take"}
_NAMING = {"call", "name"}
# Words that name children only when names follow ("my boys, Finn and Oscar"), never in the shared table.
_WITH_NAMES = {"boys": "sons", "girls": "daughters"}
_KIN = {"partner", "child", "parent", "sibling", "grandparent", "grandchild"}
_HEADLINE_WORDS = {"son", "daughter", "wife", "husband", "hubby", "stepson", "stepdaughter", "grandma", "grandpa",
                   "granny", "nana", "grandad", "granddad"}  # "Grandma Rosa turns 90"
_BARE_KIN = {"mum", "mom", "mam", "dad"}  # "while mum worked nights": the user's, with no "my"
# "Kiki my tortoise hasnt eaten": a name first with no comma, not a word that starts a sentence
_NAME_FIRST = re.compile(r"^(?P<name>[A-Z][a-z]+),? (?:my|our) (?P<word>[a-z]+(?:-[a-z]+)*)\b")
_NOT_FIRST = {"sorry", "please", "help", "update", "ugh", "honestly", "basically", "anyway", "today", "btw", "ps",
              "congrats", "happy", "poor", "dear", "love", "also", "plus", "since", "because", "after", "before",
              "while", "until", "unless", "like", "with", "without", "for", "about", "at", "on", "in", "to", "from",
              "both", "all", "even", "once", "just", "only", "sadly", "truly", "early", "daily", "fully", "badly",
              "oddly", "newly", "soon", "later", "maybe", "sometimes", "tonight", "last", "this", "every", "since",
              "when", "if", "as", "omg", "wow", "yay", "aww", "hmm", "um", "whenever", "lately", "besides", "guess",
              "crazy", "proud", "excited", "weird", "funny", "lol", "lmao", "welp", "yep", "nope", "sure", "hooray",
              "tell", "ask", "call", "remind", "thank", "wish", "take", "get", "give", "show", "let", "send", "text",
              "message", "email", "invite", "hug", "kiss", "meet", "pick", "bring", "say", "write", "make", "find"}
_WISHING = {"go", "want", "plan", "hope", "wish", "intend", "think", "consider", "like", "love", "need", "try"}
_PARTING = {"leave", "lose", "divorce", "dump", "bury", "miss", "marry", "ditch"}
_HEDGES = {"would", "could", "might", "should", "may", "'d", "wanna", "gonna"}


@dataclass(frozen=True)
class ParsedPerson:
    """A relation word and the name the parse links it to, with where the relation word starts."""

    word: str  # the relation word as written, with its compound ("guinea pig", "best friend")
    name: str | None  # None: a nameless relative who is the subject of what the user tells ("my dad drove ...")
    start: int  # character offset of the owner ("my") or the word


def parsed_people(body: str) -> list[ParsedPerson]:
    """Every (relation word, name) pair the parse of ``body`` links, owned by the user."""
    doc = doc_of(body)
    if doc is None:
        return []
    out: list[ParsedPerson] = []
    naming = any(t.lemma_.lower() in _NAMING and t.tag_ == "VBN" for t in doc)  # "he's called Omar": whom?
    for token in doc:
        word = _relation_word(token)
        if word is None or _hedged(token):
            continue
        owner = next((c for c in token.children if c.dep_ == "poss" and c.lower_ in _OWNERS), None)
        bare = owner is None and token.lower_ in _BARE_KIN and token.dep_ == "nsubj" and not any(
            c.dep_ in ("det", "poss", "compound") for c in token.children)
        if owner is None and not bare and not _had(token) and not _headline(token) and not _named_by_user(token):
            continue
        start = owner.idx if owner is not None else token.idx
        if GIVING.search(body, 0, start) or ADDRESSED.search(body, 0, start):
            continue
        names = [*_linked_names(token)]
        out += [ParsedPerson(word=word, name=name, start=start) for name in names]
        subject = token.tag_ != "NNS" and (token.dep_ in ("nsubj", "nsubjpass") or _told(token))
        if not names and not naming and (owner is not None or bare) and subject and relation_of(word) in _KIN:
            out.append(ParsedPerson(word=word, name=None, start=start))  # "My dad drove four hours to help me"
    first = _NAME_FIRST.match(body)
    if first is not None and relation_of(first["word"]) is not None and doc[0].pos_ not in ("VERB", "AUX", "INTJ") and (
            (name := first["name"]).lower() not in NOT_NAMES | NOT_A_NAME | _NOT_FIRST
            and not name.endswith(("ing", "ed")) and not (name.endswith("ly") and len(name) > 5) and _name_like(name)):
        out.insert(0, ParsedPerson(word=first["word"], name=name, start=first.start("word")))
    return [p for p in out if not _misread(p.name, body)]


# "my mom called Verizon about the bill", "my dad called Anna yesterday": phoned, not named
_PHONED = re.compile(rf"\bcalled (?P<name>\w+)\s+{PHONED_AFTER}", re.IGNORECASE)


def _misread(name: str | None, body: str) -> bool:
    """A name that is the verb of an imperative ("Hug my dog for me") or whom someone phoned."""
    if name is None:
        return False
    first = body.split(maxsplit=1)[0] if body.strip() else ""
    phoned = any(m["name"] == name for m in _PHONED.finditer(body))
    return phoned or (first == name and name.lower() in _NOT_FIRST)


def _name_like(word: str) -> bool:
    """Whether the parser reads ``word`` as a name where only a name fits ("Meanwhile", "Proud" it does not)."""
    doc = doc_of(f"I met {word} yesterday.")
    return doc is not None and len(doc) > 2 and doc[2].pos_ == "PROPN"


def _relation_word(token: Any) -> str | None:
    """The relation word at ``token`` (with a compound before it: "guinea pig"), None for another word."""
    if token.pos_ not in ("NOUN", "PROPN") or not token.text.isalpha() and "-" not in token.text:
        return None
    doc = token.doc
    after = doc[token.i + 1:token.i + 3].text.lower()
    if after.startswith("-") or after == "in law" or token.i and doc[token.i - 1].text == "-":
        return None  # a part of "sister-in-law" or "son-in-law", which the parse splits
    before = [c for c in token.children if c.dep_ in ("compound", "amod") and c.i == token.i - 1]
    if before and relation_of(f"{before[0].lower_} {token.lower_}") is not None:
        return f"{before[0].lower_} {token.lower_}"
    if token.lower_ in _WITH_NAMES and token.tag_ == "NNS":
        return _WITH_NAMES[token.lower_]
    for word in (token.lower_, token.lemma_.lower()):  # "my two collies" as "collie"
        if relation_of(word) is not None:
            return word
    return None


def _had(token: Any) -> bool:
    """A pet the user or "we" have, got or adopted ("we adopted a cat called Mochi", "We've a new addition,
    a rescue greyhound called Biscuit").
    """
    node = token
    while node.dep_ in ("appos", "conj") and node.head.pos_ in ("NOUN", "PROPN"):
        node = node.head
    verb = node.head
    return (relation_of(token.lemma_.lower()) == "pet" and node.dep_ in ("dobj", "dep")
            and verb.lemma_.lower() in _HAVING
            and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in verb.children))


def _told(token: Any) -> bool:
    """The one object of what the user did ("I told my mom about him"); not a leaving or a loss, which
    may end them ("I lost my dad"), nor one of two objects ("I left my wife a note").
    """
    verb = token.head
    others = [c for c in verb.children if c.dep_ in ("dobj", "dative", "oprd") and c.i != token.i]
    return (token.dep_ == "dobj" and not others and verb.lemma_.lower() not in _PARTING
            and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in verb.children))


def _named_by_user(token: Any) -> bool:
    """What the user or "we" named or call something: "we named the puppy Churro"."""
    verb = token.head
    return (token.dep_ == "dobj" and verb.lemma_.lower() in _NAMING
            and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in verb.children))


def _headline(token: Any) -> bool:
    """A note-style start with no "my": "Daughter Mia has soccer at 5" (not "Mother Teresa", "Baby Driver")."""
    return token.i == token.sent.start and token.lower_ in _HEADLINE_WORDS and token.text.istitle()


def _hedged(token: Any) -> bool:
    """A modal clause above the word ("I'd call my dog Rex"), or a negated one that links it: "I don't have a
    sister named Anna", "Sara isn't my wife" (a negation further up leaves "my two collies, Skip and Meg" alone).
    """
    node = token
    while True:
        if any(c.dep_ == "neg" and node.i in (token.i, token.head.i) or c.dep_ == "aux" and c.lower_ in _HEDGES
               for c in node.children):
            return True
        if node.dep_ == "xcomp" and node.head.lemma_.lower() in _WISHING:  # "We're going to name our puppy Churro"
            return True
        if node.head.i == node.i or node.dep_ in ("conj", "parataxis"):
            return False
        node = node.head


def _linked_names(token: Any) -> Iterator[str]:
    """The names the parse links to the relation word ``token``."""
    seen: set[int] = set()
    for name in _link_heads(token):
        for each in (name, *_listed(name)):
            if each.i not in seen and (text := _name(each)) is not None:
                seen.add(each.i)
                yield text


def _link_heads(token: Any) -> Iterator[Any]:
    head = token.head
    for child in token.children:
        if child.dep_ in ("appos", "npadvmod") or child.dep_ == "compound" and child.i > token.i:
            yield child  # "my sister Anna", "my boys, Finn and Oscar"
        if child.dep_ == "poss" and child.i < token.i and any(g.dep_ == "case" for g in child.children) and (
                token.dep_ in ("ROOT", "attr")):
            yield child  # "Sara's my wife"
        if child.dep_ in ("acl", "relcl") and child.lemma_.lower() in _NAMING:
            yield from (g for g in child.children if g.dep_ in ("oprd", "dobj", "attr", "xcomp", "npadvmod"))
    if token.dep_ == "compound" and head.i > token.i:
        yield head  # "my sister Anna" parsed as one name
    if token.dep_ == "appos" and head.i < token.i:
        yield head  # "Mr Whiskers, our guinea pig"
    inverted = any(c.dep_ == "nsubj" and c.i > head.i for c in head.children)  # "Is Tom my cousin?" asks
    if head.lemma_ == "be" and token.dep_ in ("attr", "nsubj") and not inverted:  # "Sara is my wife", "my wife is Sara"
        other = "nsubj" if token.dep_ == "attr" else "attr"
        yield from (c for c in head.children if c.dep_ == other)
    if token.dep_ in ("nsubjpass", "dobj") and head.lemma_.lower() in _NAMING:  # "is called Anna", "named it Rex"
        yield from (c for c in head.children if c.dep_ in ("oprd", "attr", "xcomp", "dobj"))
    if token.dep_ == "poss" and head.lower_ == "name" and head.head.lemma_ == "be":  # "my dog's name is Rex"
        yield from (c for c in head.head.children if c.dep_ in ("attr", "acomp"))


def _set_off(token: Any) -> bool:
    """A lower-case word set off by commas after the relation in a message with no capitals at all:
    "my manager at the cafe, sophie, is the best" (not "my brother homework sucks", which no structure tells).
    """
    doc = token.doc
    if doc.text != doc.text.lower() or token.dep_ != "appos" or not token.tag_.startswith("NN") or len(token) < 3:
        return False
    before = doc[token.i - 1].text if token.i else ""
    after = doc[token.i + 1].text if token.i + 1 < len(doc) else "."
    return before == "," and after in (",", ".", "!", ";") and token.head.i < token.i


def _listed(token: Any) -> Iterator[Any]:
    """The names joined to ``token`` by "and" or a comma: "Finn and Oscar"."""
    for child in token.children:
        if child.dep_ == "conj":
            yield child
            yield from _listed(child)


def _name(token: Any) -> str | None:
    """``token`` as a name ("Mr Whiskers" with its title), None where it is no name."""
    text = token.text
    if _set_off(token):
        text = text.capitalize()
    if not (text[:1].isupper() and text.replace("-", "").isalpha()) or token.pos_ not in ("PROPN", "NOUN"):
        return None
    if text.lower() in NOT_NAMES | NOT_A_NAME or relation_of(text) is not None or _STATE.fullmatch(text):
        return None
    left = next((c for c in token.children if c.dep_ == "compound" and c.i == token.i - 1), None)
    if left is not None and left.lower_.rstrip(".") in _TITLES:
        return f"{left.text} {text}"
    if left is not None and left.text[:1].isupper() and relation_of(left.lower_) is None:
        return None  # "Anna Smith" or "Meet Luna": the regexes take the first name where it is one
    return text
