"""The no-LLM fact extractor: explicit requests and first-person durable statements.

It is the default because the embedded model invents facts
(docs/architecture.md, "Why writes do not trust the model"): a rule can only
store what the user literally said, rewritten in the third person. It is cheap
enough to run after every turn. What it does not recognise it ignores, which is
the write policy: moods, one-off requests and small talk are not facts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from memory.layers.base import LoggedMessage
from memory.write_policy.base import (
    FAVOURITE_PREFIX,
    CandidateFact,
    join_values,
    safe_sentences,
    slot_for,
    user_messages,
)
from memory.write_policy.blend import RuleReader, blend
from memory.write_policy.chat_forms import FORMS as CHAT_FORMS
from memory.write_policy.chat_forms import RELEVANCE_TAG, statement_before_question
from memory.write_policy.clauses import clauses
from memory.write_policy.dialect import plain_scots
from memory.write_policy.disclosure import disclosure_fact, we_as_user
from memory.write_policy.ending_forms import ended_sentence
from memory.write_policy.ending_idioms import reason_first
from memory.write_policy.ending_parse import parsed_endings
from memory.write_policy.endings import dated_ending, loose_ending, positive_form
from memory.write_policy.patterns import (
    DEICTIC_OBJECT,
    LANGUAGES,
    MOVED,
    PATTERNS,
    SINCE,
    SINCE_THEN,
    TRANSIENT,
    Pattern,
    visiting,
)
from memory.write_policy.person import third_person
from memory.write_policy.phrasings import FORMS
from memory.write_policy.quoted import without_quoted_speech
from memory.write_policy.self_names import BARE_GREETING, NAME_FORMS, greeting_name, is_name, name_words
from memory.write_policy.voices import CAPTION, is_not_the_user, list_items, normalise

_I = re.IGNORECASE
EXPLICIT = re.compile(
    r"^(?:/remember\b|(?P<polite>(?:please |pls )?(?:can|could|would|will) you (?:please )?)?(?:please |pls )?"
    r"(?:remember|don't forget|do not forget|keep in mind|note|make a note|take note|write down)(?: that| this)?\b)"
    r"\s*[:,-]?\s*(?P<body>.*)$",
    _I,
)
_TAG_QUESTION = re.compile(r"\s*[-–—,]\s*(?:(?:pretty|so|really|quite) \w+,?\s*)?(?:huh|right|eh|isn't it|aren't they|"
                           r"don't you think)\s*\?+$", _I)
_WH_BODY = re.compile(r"^(?:when|what|how|where|who|why|which|if|whether|me|us|the time|to self|to)\b", _I)
# A question texted without its "?": "wat temp do i bake sourdough at", "how do i get there"
_TEXTED_QUESTION = re.compile(r"^(?:what|wat|wot|wht|how|hw|where|when|why|which|who)\b[^,.;]*?\b(?:do|does|did|can|"
                              r"should|shall|would|will|could)\s+(?:i|we)\b", _I)
# A value that is a pronoun says nothing: "The user's partner is she." (from "she is my partner")
_PRONOUN_VALUE = re.compile(r"\b(?:is|are|was|were) (?:she|he|they|it|him|her|them|this|that)\.?$", _I)
# News asked as a question: "Did I tell you I quit?", "Have I mentioned that I'm not vegan anymore?"
_TOLD_YOU = re.compile(r"^(?:did|have) I (?:tell|told|mention(?:ed)?)(?: to)? you(?: that)? "
                       r"(?P<news>I(?:'m|'ve)?\b[^?]+)\?+\s*$", _I)
_SELF_START = re.compile(r"^(?:i'm|im|i am|my name is|my name's)\s", _I)
_TO_ASSISTANT = re.compile(r"\b(?:you|your|you're)\b", _I)  # "remember: from now on you answer in French"
_FILLER = re.compile(
    r"^(?:(?:actually|well|oh|also|btw|by the way|fyi|just so you know|for context|for the record|so|ok|okay|"
    r"yeah|yes|no|hi|hello|hey|honestly|anyway|and|but|now|fun fact|as you know|oh and)\b[,:!.]?\s*)+",
    _I,
)
_CUT = re.compile(
    r"(?:,\s*(?=[a-z0-9])|\s+(?:and|but|because|since|with|where|which|who|so|as|though|although|now|these days|"
    r"nowadays|anymore|too|at the moment|right now|if|when|after|before|for|ever since)\b).*$",
    _I,
)
# "Remember that staying positive is important": advice about anyone, not a note about the user.
_MAXIM = re.compile(r"^(?!.*\b(?:i|i'm|my|me)\b)\w+ing\b(?:\s+[\w'-]+){0,4}?\s+(?:is|are)\b", _I)
_BIRTH = re.compile(r"^i was born\b", _I)
_UNFINISHED = re.compile(r"\b(?:but|and|or|so|because)$", _I)
_PLACE_KEYS = {"location", "hometown", "employer"}  # values must look like a place or workplace
_TRAILING_FILLER = re.compile(
    r"(?:,?\s+(?:now|too|as well|these days|nowadays|again|though|actually|btw|fyi|lol|haha|tbh))+$", _I)
_TRAILING = re.compile(r"(?:\s+(?:now|too|anymore|as well|these days|nowadays))+$|[\s.,!;:]+$", _I)
EXPLICIT_IMPORTANCE = 7


class PatternFactExtractor:
    """Extracts facts from user messages with the patterns in ``patterns.py``."""

    needs_llm = False

    def extract(self, messages: Sequence[LoggedMessage]) -> list[CandidateFact]:
        facts: list[CandidateFact] = []
        for msg in user_messages(messages):
            if is_not_the_user(msg.text):
                continue  # role-play or an instruction to the memory: none of it is the user's fact
            previous = ""
            for sentence in safe_sentences(without_quoted_speech(CAPTION.sub("", plain_scots(msg.text)))):
                if BARE_GREETING.match(previous) and _SELF_START.match(sentence):
                    sentence = f"{previous} {sentence}"  # "hiya. im niamh btw": the greeting's name
                facts.extend(self.sentence_facts(sentence, sources=[msg.id], stated_at=msg.time))
                previous = sentence
        return facts

    def sentence_facts(
        self,
        sentence: str,
        sources: Sequence[str] = (),
        stated_at: datetime | None = None,
        explicit: bool = False,
        parsed: bool = True,
    ) -> list[CandidateFact]:
        """Facts in one sentence. ``explicit`` marks text the user asked us to remember,
        which is stored even when no durable-statement pattern matches. ``parsed``
        lets the dependency parse veto and complete the rules (``blend.py``); without
        it only the slot and statement patterns run, as on the parse's own clauses.
        """
        body, asked = _explicit_body(sentence.strip())
        if body is None:
            return []
        facts: list[CandidateFact] = []
        greeting = greeting_name(body)
        if greeting is not None:
            facts.append(_keyed("name", greeting[0], "The user's name is {v}.", explicit or asked))
            body = body[greeting[1] :]
        items = list_items(body)
        for clause in items if items is not None else clauses(normalise(ended_sentence(body))):
            fact = _clause_fact(clause, explicit or asked)
            if fact is not None:
                facts.append(fact)
        if parsed and not (explicit or asked) and not any(f.negation_of for f in facts):
            facts.extend(_parsed_endings(body))
        if not facts and not (explicit or asked) and parsed:
            loose = disclosure_fact(normalise(body))
            facts.extend([loose] if loose is not None else [])
        if parsed and not (explicit or asked):
            facts = self._blend(body, facts, lambda clause: self.sentence_facts(clause, parsed=False))
        return [f.model_copy(update={"sources": list(sources), "stated_at": stated_at}) for f in facts
                if not _PRONOUN_VALUE.search(f.text)]


    def _blend(self, body: str, facts: list[CandidateFact], rules: RuleReader) -> list[CandidateFact]:
        """The parse's check of one sentence's rule facts (``blend.py``); the learned gate that was
        tried after it (bench/learned_gate/extractor.py) overrides this.
        """
        return blend(body, facts, rules)


def _explicit_body(sentence: str) -> tuple[str | None, bool]:
    """(text to parse, whether the user asked to remember it); None for questions.
    A tag ("..., huh?", "- right?") asks for agreement with a statement, not a question.
    """
    sentence = reason_first(RELEVANCE_TAG.sub("", _TAG_QUESTION.sub("", sentence)))
    plain = _FILLER.sub("", sentence)
    m = EXPLICIT.match(plain)
    if m:
        body = m["body"].strip()
        if not body or _WH_BODY.match(body) or _TO_ASSISTANT.search(body) or (body.endswith("?") and not m["polite"]):
            return None, True
        return body.rstrip("?").strip(), True
    if sentence.rstrip().endswith("?"):
        told = _TOLD_YOU.match(plain)
        if told:
            return told["news"], False  # "Did I tell you I stopped smoking?" tells it
        # "I'm vegan, can you ...?" keeps "I'm vegan"; "stopped the pill in jan, what's normal?" keeps the news
        return statement_before_question(sentence) or statement_before_question(ended_sentence(sentence)), False
    return (None, False) if _TEXTED_QUESTION.match(plain) else (sentence, False)


def _parsed_endings(body: str) -> list[CandidateFact]:
    """The endings the parse reads where the regexes read none (``ending_parse.py``), as the rules build them."""
    built = (_clause_fact(clause, False) for clause in parsed_endings(body))
    return [f for f in built if f is not None and f.negation_of is not None]


def _clause_fact(clause: str, explicit: bool) -> CandidateFact | None:
    clause = _TRAILING_FILLER.sub("", _FILLER.sub("", clause)).strip()
    if not _BIRTH.match(clause):  # "I was born in 1988": the date is the fact, not when a change happened
        clause = SINCE.sub("", SINCE_THEN.sub("", clause) if MOVED.match(clause) else clause).strip()
    positive, ended = positive_form(clause)
    moment = TRANSIENT.search(clause) and not (ended and dated_ending(clause))
    if not clause or (not explicit and (moment or _UNFINISHED.search(clause))):
        return None
    fact = _match(positive)
    if ended and not explicit and (fact is None or fact.key is None):
        # a statement pattern's words may not be the user's ("eat meat" for "I stopped eating meat");
        # the kind is the one the user's own clause has ("I cut out meat": diet), else the positive's
        kind = _match(clause) or fact
        ending = loose_ending(positive, clause)
        return ending if kind is None else ending.model_copy(update={"category": kind.category})
    if fact is None:
        return _note(clause) if explicit and not _MAXIM.match(clause) else None
    if explicit:
        fact = fact.model_copy(update={"explicit": True, "importance": max(fact.importance, EXPLICIT_IMPORTANCE)})
    if not ended:
        return fact
    rest = positive.split(" ", 1)[1]
    negative = third_person(("I'm no longer " if positive.lower().startswith("i'm ") else "I no longer ") + rest)
    return fact.model_copy(update={"text": negative, "negation_of": fact.text})


def _match(clause: str) -> CandidateFact | None:
    for rule in (*CHAT_FORMS, *FORMS, *PATTERNS, *NAME_FORMS):
        m = rule.pattern.match(clause)
        if m is None:
            continue
        groups = m.groupdict()
        if groups.get("o") and DEICTIC_OBJECT.match(groups["o"]):
            return None  # about the conversation ("I like that idea"), not a lasting taste
        fact = _from_rule(rule, clause, groups)
        if fact is not None:
            return fact
    return None


def _from_rule(rule: Pattern, clause: str, groups: dict[str, str]) -> CandidateFact | None:
    value = _clean(groups["v"], rule.cut)
    thing = groups["k"].strip().lower().replace("color", "colour") if groups.get("k") else ""
    key = FAVOURITE_PREFIX + re.sub(r"\W+", "_", thing) if thing else rule.key
    if key in ("name", "preferred_name"):
        value = name_words(value)
    if not value or (key in ("name", "preferred_name") and not is_name(value)):
        return None
    if key in _PLACE_KEYS and not _is_place(value, clause, articles="an? |the " if key == "employer" else "an? "):
        return None
    if key == "location" and visiting(clause):
        return None  # "we moved to Leeds for a week": a visit, not where the user lives
    if key in ("name", "preferred_name"):
        value = " ".join(w[:1].upper() + w[1:] for w in value.split())
    slot = slot_for(key)
    if slot is not None and slot.multi:
        items = _items(value, slot.name)
        if not items:
            return None
        value = join_values(items)
        return _with_slot(CandidateFact(text=slot.template.format(values=value), key=key, value=value))
    if key is not None and rule.template is not None:
        return _keyed(key, value, rule.template, False)
    fact = CandidateFact(text=third_person(we_as_user(clause)), category=rule.category, key=key, value=value,
                         importance=rule.importance)
    return _with_slot(fact)


def _keyed(key: str, value: str, template: str, explicit: bool) -> CandidateFact:
    article = "an" if value[:1].lower() in "aeiou" else "a"
    text = template.format(v=value, a_v=f"{article} {value}")
    fact = _with_slot(CandidateFact(text=text, key=key, value=value, explicit=explicit))
    return fact.model_copy(update={"importance": max(fact.importance, EXPLICIT_IMPORTANCE)}) if explicit else fact


def _with_slot(fact: CandidateFact) -> CandidateFact:
    """Category and importance come from the slot, so every extractor agrees on them."""
    slot = slot_for(fact.key)
    if slot is None:
        return fact
    return fact.model_copy(update={"category": slot.category, "importance": slot.importance})


def _note(clause: str) -> CandidateFact:
    """An explicit request no pattern understood: keep the user's words, in the third person."""
    first_person = re.search(r"\b(?:i|i'm|my|me|mine)\b", clause, _I)
    text = third_person(clause) if first_person else clause[:1].upper() + clause[1:].rstrip(".") + "."
    return CandidateFact(text=text, category="note", value=clause, importance=EXPLICIT_IMPORTANCE, explicit=True)


def _clean(value: str, cut: bool) -> str:
    value = value.strip()
    if cut:
        value = _CUT.sub("", value)
    return _TRAILING.sub("", value).strip()


def _items(value: str, key: str) -> list[str]:
    if key == "language":
        return list(dict.fromkeys(w.capitalize() for w in re.findall(rf"\b(?:{LANGUAGES})\b", value, _I)))
    parts = re.split(r",\s*|\s+and\s+|\s+or\s+", value.lower())
    return [re.sub(r"^(?:a|an|the|some)\s+", "", p).strip() for p in parts if p.strip()]


def _is_place(value: str, clause: str, articles: str) -> bool:
    """'Lisbon' or 'a small bakery', not 'fear of deadlines' or 'the future'.
    A writer who never capitalises gets the benefit of the doubt.
    """
    if clause == clause.lower() or re.search(r"[A-Z]", value) or re.match(articles, value):
        return True
    # an "I" is no capital ("moved out of brixton" was rewritten "I no longer live in brixton"), for a short value
    lowered = re.sub(r"\bI\b", "i", clause)
    return lowered == lowered.lower() and bool(re.fullmatch(r"(?!(?:the|now|here|there|home)\b)[a-z][\w-]*", value))
