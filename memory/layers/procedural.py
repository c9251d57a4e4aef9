"""Procedural memory: how the user wants to be answered, as short imperative rules.

Write policy (``on_turn``, no LLM): feedback in a user message ("stop giving me
three options", "please be more concise", "don't use emojis") is matched by
precise patterns, each tied to a topic, and becomes one imperative sentence. A
false rule changes every later answer, so the patterns prefer missing feedback
to inventing it; open-ended wishes count only after "from now on" (or "going
forward", "in the future").

Rules are reconciled, never blindly appended. The store key is the topic, so a
related rule updates the stored one and a contradiction ("use emojis" then
"don't use emojis") revises it; open-ended rules find their topic by embedding
similarity. Restating a rule refreshes it, and at ``context.max_rules`` the
least recently restated rule is dropped. With ``context.review_rules`` every
add or update is first shown to the user through ``env.approve``.

``approve`` wraps LangGraph's ``interrupt``, so the node runs again on resume
and each ``approve`` call must meet the same proposal in the same order. All
proposals are therefore computed before any write and written only after the
last answer, and a message already applied to a rule is never proposed again:
running ``on_turn`` twice adds nothing twice.

Write policy (``on_session_end``, with ``llm_extraction`` on): the chat model's
one session-end extraction call (``memory/write_policy/llm.py``) also proposes
rules, each kept only when its quote is the user's own words
(``memory/write_policy/llm_rules.py``). Its topic is the catalog's when a
pattern recognises the rule's text, else the model's when it names a catalog
topic, else open-ended; then it is reconciled, reviewed and written exactly as
the per-turn rules are, which keep running: nothing depends on the model.

Read policy (``recall``): every rule, oldest first, score 1.0. Rules go into
the stable prompt prefix, so their order must not change between turns. A search
keeps a rule only when it is relevant (memory/search_rank.py).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from memory.layers.base import LayerBase, LayerEnv, LoggedMessage, Recalled
from memory.layers.standing_instructions import not_a_rule, standing_rule
from memory.text import cosine_similarities
from memory.text import sentences as split_sentences
from memory.write_policy.llm import llm_extraction_on, session_answer
from memory.write_policy.llm_rules import ProposedRule, grounded_rules
from stores.namespaces import RULES

CUSTOM = "custom"
RELATED_THRESHOLD = 0.6  # cosine at which two open-ended rules are about the same thing
PAGE = 100

_LANGS = (
    "english|french|german|spanish|italian|portuguese|dutch|polish|russian|ukrainian|"
    "turkish|arabic|hebrew|hindi|chinese|mandarin|japanese|korean|swedish|norwegian|"
    "danish|finnish|greek|czech|vietnamese|indonesian"
)
_STOP = r"(?:stop|quit|don't|do not|never|no more)"
_ANSWERS = r"(?:answers|replies|responses|messages)"
_BULLETS = r"bullet(?:ed)?[ -]?(?:points|lists)"
_LEAD = r"^(?:(?:please|also|and|so|ok|okay|from now on|in (?:the )?future|going forward),?\s+)*"

# (topic, rule, pattern). Patterns run on one sentence, case-insensitively; the
# first match in this order wins, so opposite wishes share a topic and revise each other.
_CATALOG: tuple[tuple[str, str, str], ...] = (
    ("options", "Pick one option instead of listing several.",
     rf"\b{_STOP}\s+(?:giving|give|listing|list|offering|offer)\s+(?:me\s+)?(?:\w+\s+)?"
     r"(?:options|choices|alternatives)\b|\bjust (?:pick|choose|recommend|give me) one\b"),
    ("options", "Offer a few options to choose from.",
     r"\bi (?:prefer|like|want) (?:to see |having )?(?:several|multiple|a few) (?:options|choices)\b"),
    ("length", "Give detailed, thorough answers.",
     rf"\bbe (?:more |much more )?(?:detailed|thorough)\b|\byour {_ANSWERS} are (?:too|way too|so) "
     rf"(?:short|brief|terse)\b|\bi prefer (?:longer|detailed|thorough) {_ANSWERS}\b"),
    ("length", "Keep answers concise.",
     rf"\bbe (?:more |much more )?(?:concise|brief|succinct)\b|\byour {_ANSWERS} are (?:too|way too|so) "
     rf"(?:long|verbose|wordy)\b|\bkeep (?:it|them|your {_ANSWERS}) (?:short|shorter|brief)\b|"
     rf"\bi prefer (?:short|shorter|concise|brief) {_ANSWERS}\b|\bless verbose\b"),
    ("emojis", "Do not use emojis.",
     rf"\b{_STOP}\s+(?:use|using|add|adding|include|including|put|putting|send|sending)\s+"
     r"(?:any\s+|so many\s+)?emojis?\b|^(?:please,?\s+)?no (?:more )?emojis?\b|\bno emojis?,? please\b"),
    ("emojis", "Use emojis.",
     rf"{_LEAD}(?:always |do )?use (?:more |some )?emojis?(?: in your {_ANSWERS}| more often)?[.!]?$|"
     r"\bi (?:like|love|prefer) (?:it when you use |your )?emojis\b"),
    ("format", "Write in prose, not bullet points.",
     rf"\b{_STOP}\s+(?:use|using)\s+{_BULLETS}\b|^(?:please,?\s+)?no (?:more )?{_BULLETS}\b|"
     r"\bi prefer (?:prose|paragraphs|full sentences)\b"),
    ("format", "Use bullet points.",
     rf"\bi (?:prefer|like|want) (?:\w+ )?{_BULLETS}\b|{_LEAD}(?:always )?use {_BULLETS}\b|"
     rf"\b(?:answer|reply|respond) (?:with|in) {_BULLETS}\b"),
    ("apologies", "Do not apologise.",
     r"\b(?:stop|quit|don't|do not) apologi[sz]ing\b|\b(?:don't|do not|never) apologi[sz]e\b"),
    ("questions", "Do not end answers with follow-up questions.",
     r"\b(?:stop|quit|don't|do not) (?:asking|ask)(?: me)? (?:so many |any )?(?:follow[- ]?up|clarifying) "
     r"questions\b"),
    ("tone", "Use a formal tone.", r"\bbe (?:more|a bit more) formal\b|\byou(?:'re| are) too casual\b"),
    ("tone", "Use a casual, friendly tone.",
     r"\bbe (?:more casual|less formal)\b|\byou(?:'re| are) too formal\b"),
    ("language", "Answer in {0}.",
     rf"{_LEAD}(?:(?:can|could|would) you (?:please )?)?(?:always |only )?(?:answer|reply|respond|write|"
     rf"speak|talk)(?: to me)?(?: only)? in ({_LANGS})\b|\bi (?:prefer|want) (?:your )?{_ANSWERS} in ({_LANGS})\b"),
)
_COMPILED = tuple((topic, rule, re.compile(p, re.IGNORECASE)) for topic, rule, p in _CATALOG)
TOPICS = frozenset(topic for topic, _, _ in _CATALOG)

# Open-ended wishes: only after an explicit "from now on"-style marker.
_OPEN_ENDED = re.compile(
    r"^(?:from now on|going forward|in (?:the )?future|for future (?:answers|replies)),?\s+"
    r"(?:please\s+)?(?:you (?:should|must|need to|will)\s+)?(?P<rule>.{3,160}?)[.!]*$",
    re.IGNORECASE,
)
_NOT_IMPERATIVE = re.compile(r"^(?:i|i'm|i'll|we|we'll|my|our|it|it's|there|the|this|he|she|they)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Feedback:
    """A rule found in one user sentence; ``topic`` is ``CUSTOM`` for open-ended wishes."""

    topic: str
    rule: str
    message_id: str
    by: str = "pattern"  # or "model": proposed by the chat model at session end


@dataclass
class _Proposal:
    key: str
    value: dict[str, Any]
    review: dict[str, Any] | None  # None: a restatement, saved without asking
    evicts: str | None = None


def detect_feedback(message: LoggedMessage) -> list[Feedback]:
    """Rules stated in a user message, at most one per sentence; no LLM involved."""
    if message.role != "user":
        return []
    found: list[Feedback] = []
    for sentence in split_sentences(message.text):
        sentence = sentence.strip(" \"'")
        if not_a_rule(sentence):
            continue
        for topic, rule, pattern in _COMPILED:
            m = pattern.search(sentence)
            if m:
                lang = next((g for g in m.groups() if g), "")
                found.append(Feedback(topic, rule.format(lang.capitalize()), message.id))
                break
        else:
            m = _OPEN_ENDED.match(sentence)
            if m and not _NOT_IMPERATIVE.match(m.group("rule")):
                text = m.group("rule").strip()
                found.append(Feedback(CUSTOM, text[0].upper() + text[1:] + ".", message.id))
            elif (standing := standing_rule(sentence)) is not None:
                found.append(Feedback(CUSTOM, standing, message.id))
    return found


def model_feedback(proposed: ProposedRule) -> Feedback:
    """A model's grounded rule as feedback: the catalog's topic and wording when a pattern knows its text."""
    for topic, rule, pattern in _COMPILED:
        m = pattern.search(proposed.rule)
        if m:
            lang = next((g for g in m.groups() if g), "")
            return Feedback(topic, rule.format(lang.capitalize()), proposed.message_id, by="model")
    topic = proposed.topic if proposed.topic in TOPICS else CUSTOM
    return Feedback(topic, proposed.rule, proposed.message_id, by="model")


class ProceduralLayer(LayerBase):
    """Feedback rules; see the module docstring for both policies."""

    name = "procedural"

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        self._save(env, [f for m in turn for f in detect_feedback(m)])
        return None

    def on_session_end(self, env: LayerEnv, session: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        if env.chat_model is None or not llm_extraction_on(env.context.llm_extraction, env.context.chat_model):
            return None
        answer = session_answer(env.chat_model, session, env.context.extraction_max_tokens)
        proposed = grounded_rules(answer.rules, session)
        self._save(env, [model_feedback(p) for p in proposed])
        return None

    def _save(self, env: LayerEnv, feedback: list[Feedback]) -> None:
        """Propose every rule in ``feedback``, ask when reviewing, then write the approved ones."""
        if not feedback:
            return
        ns = env.scope.ns(RULES)
        rules = {item.key: item.value for item in _all_items(env, ns)}
        proposals = [p for f in feedback if (p := self._propose(env, rules, f)) is not None]
        approved = [
            p for p in proposals
            if p.review is None or not env.context.review_rules or env.approve(p.review)
        ]
        for p in approved:
            env.store.put(ns, p.key, p.value)
            if p.evicts is not None:
                env.store.delete(ns, p.evicts)

    def _propose(self, env: LayerEnv, rules: dict[str, dict[str, Any]], fb: Feedback) -> _Proposal | None:
        """What saving ``fb`` would change; ``rules`` is updated as if it were approved."""
        key = fb.topic if fb.topic != CUSTOM else self._custom_key(env, rules, fb.rule)
        now = env.now.isoformat()
        old = rules.get(key)
        if old is not None and fb.message_id in old.get("sources", ()):
            return None  # already applied: the node is running again after an interrupt
        if fb.by != "pattern" and _said_already(env, rules, fb):
            return None
        sources = [*(old or {}).get("sources", ()), fb.message_id]
        value = {
            "text": fb.rule,
            "topic": fb.topic,
            "sources": sources,
            "created_at": (old or {}).get("created_at", now),
            "updated_at": now,
            **({"by": fb.by} if fb.by != "pattern" else {}),
        }
        evicts, evicted_text = None, None
        if old is None and len(rules) >= env.context.max_rules:
            evicts = min(rules, key=lambda k: (rules[k].get("updated_at", ""), rules[k].get("created_at", "")))
            evicted_text = rules.pop(evicts).get("text")
        rules[key] = value
        if old is not None and old.get("text") == fb.rule:
            return _Proposal(key, value, review=None)
        review = {
            "type": "rule_review",
            "action": "update" if old is not None else "add",
            "rule": fb.rule,
            "replaces": old.get("text") if old is not None else None,
            "topic": fb.topic,
            "evicts": evicted_text,
        }
        return _Proposal(key, value, review=review, evicts=evicts)

    def _custom_key(self, env: LayerEnv, rules: dict[str, dict[str, Any]], rule: str) -> str:
        """The key of the stored open-ended rule about the same thing, or a new one."""
        custom = [k for k, v in rules.items() if v.get("topic") == CUSTOM]
        sims = cosine_similarities(env.embeddings, rule, [rules[k]["text"] for k in custom])
        if sims and max(sims) >= RELATED_THRESHOLD:
            return custom[sims.index(max(sims))]
        return f"{CUSTOM}-{uuid.uuid5(uuid.NAMESPACE_URL, rule.lower()).hex[:12]}"

    def can_recall(self, env: LayerEnv, query: str) -> bool:
        return bool(env.store.search(env.scope.ns(RULES), limit=1))  # no rule kept yet: nothing to show

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        items = sorted(_all_items(env, env.scope.ns(RULES)), key=lambda i: (i.value.get("created_at", ""), i.key))
        return [
            Recalled(
                kind="rule",
                text=i.value["text"],
                score=1.0,
                sources=tuple(i.value.get("sources", ())),
                key=i.key,
                meta={"topic": i.value.get("topic"), "updated_at": i.value.get("updated_at")},
            )
            for i in items
        ]


def _said_already(env: LayerEnv, rules: dict[str, dict[str, Any]], fb: Feedback) -> bool:
    """Whether a stored rule from the same message says what the model proposes (a pattern got there first)."""
    same = [v["text"] for v in rules.values() if fb.message_id in v.get("sources", ())]
    sims = cosine_similarities(env.embeddings, fb.rule, same)
    return bool(sims) and max(sims) >= RELATED_THRESHOLD


def _all_items(env: LayerEnv, ns: tuple[str, ...]) -> Iterator[Any]:
    """Every item in ``ns``, page by page (store searches default to 10 results)."""
    offset = 0
    while True:
        page = env.store.search(ns, limit=PAGE, offset=offset)
        yield from page
        if len(page) < PAGE:
            return
        offset += PAGE
