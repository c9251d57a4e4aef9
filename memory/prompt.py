"""How recalled memories become a system prompt.

Layout, in this order:
1. the stable prefix — persona, memory rules, procedural rules, profile. It is
   byte-identical from turn to turn while none of them changes, so providers'
   prompt caches can reuse it. A fact due for review that the message bears on
   (at most one, memory/layers/semantic_review.py) is asked about by one more line
   of the memory rules: an instruction, so never inside a data block;
2. the volatile part — the people and pets the message names (one line each, with
   what the user said about them), recalled facts, episodes, past messages, the summary of
   earlier turns, and today's date — within a token budget, lowest scores
   dropped first. A fact whose every content word a shown person's line says is left out:
   each person is said once.

The memory block is lean: it never says the same thing twice. A past message that
a shown profile slot, fact or episode came from (its ``sources``) is left out; so
is an episode whose every source a larger shown memory cites (a week's roll-up
shown, its sessions are not), a fact or episode whose every content word the
profile already says, and an episode whose every content word the profile and the
facts shown say; a past message that a shown roll-up excerpt quotes is left out
too. Line by line, an episode is shown without the lines the profile and facts
shown already say or another shown line says in full, and not at all when what is
left only asks (questions and requests: memory/chatter.py). A past message that only
asks is not shown either, and one the current message repeats is not even recalled
(``repeats_question``, applied by retrieve): a question holds no answer.

Every recalled text is rendered as quoted data (a JSON string inside a fenced
<memories> block), never as an instruction, so a stored "ignore previous
instructions" stays inert text. Nothing that is meant as an instruction goes in a
block either: the one review question of a turn is a line of the memory rules,
its fact's words still quoted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from langchain_core.messages import SystemMessage
from langchain_core.messages.utils import count_tokens_approximately

from core.prompts import MEMORY_INSTRUCTIONS, REVIEW_INSTRUCTION
from memory.chatter import told_lines
from memory.layers.excerpt import is_title, quoted_bodies
from memory.layers.identifiers import VERBATIM_HEADER
from memory.layers.message_query import terms
from memory.layers.message_text import message_body

VOLATILE_KINDS = ("person", "fact", "history", "episode", "message")
_TITLES = {
    "person": "People and pets in the user's life that this message names",
    "profile": "What you know about the user (current profile)",
    "rule": "How the user wants you to work (follow these)",
    "fact": "Facts recalled for this message",
    "history": "Earlier values, no longer current (asked about the past)",
    "episode": "Past sessions recalled for this message",
    "message": "Past messages recalled for this message",
}


def quote(text: str) -> str:
    """A memory as inert data: a JSON string with angle brackets escaped."""
    return json.dumps(text, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")


def _block(kind: str, items: Iterable[dict[str, Any]]) -> str:
    lines = [f"- {quote(item['text'])}" for item in items]
    return f"<memories kind=\"{kind}\">\n# {_TITLES[kind]}\n" + "\n".join(lines) + "\n</memories>"


def review_instruction(recalled: list[dict[str, Any]]) -> str:
    """The one review question of the turn as an instruction ("" when none is due): outside every
    <memories> block, whose text is data and never instructions. The question is still quoted.
    """
    review = next((r for r in recalled if r["kind"] == "review"), None)
    return REVIEW_INSTRUCTION.format(question=quote(review["text"])) if review else ""


def stable_prefix(persona: str, recalled: list[dict[str, Any]]) -> str:
    """Persona, memory rules (and the turn's review, if one is due), rules and profile — unchanged
    while they are unchanged.
    """
    parts = [persona.strip(), MEMORY_INSTRUCTIONS]
    review = review_instruction(recalled)
    if review:
        parts[-1] += "\n- " + review
    rules = [r for r in recalled if r["kind"] == "rule"]
    if rules:
        # Rules are the user's own instructions about style: shown as a list, still quoted.
        parts.append(_block("rule", rules))
    profile = sorted((r for r in recalled if r["kind"] == "profile"), key=lambda r: str(r.get("key") or r["text"]))
    if profile:
        parts.append(_block("profile", profile))
    return "\n\n".join(parts)


def select_within_budget(recalled: list[dict[str, Any]], budget_tokens: int) -> list[dict[str, Any]]:
    """The volatile memories that fit ``budget_tokens``, best scores kept first, none saying
    again what is already shown (see ``_fill``).

    Keeping a fact or episode can make a message kept earlier redundant (it is one of
    their sources), and keeping a roll-up an episode it cites; such items are dropped
    and the budget filled again, until stable.
    """
    candidates = sorted((r for r in recalled if r["kind"] in VOLATILE_KINDS), key=lambda r: -float(r["score"]))
    profile = [r for r in recalled if r["kind"] == "profile"]
    dropped: set[int] = set()
    while True:
        kept = _fill(candidates, dropped, profile, budget_tokens)
        shown = [candidates[i] for i in kept if candidates[i]["kind"] != "message"]
        covered = _sources(shown)
        quoted = quoted_bodies([q for m in shown for q in (m.get("meta") or {}).get("quotes") or ()])
        redundant = {i for i in kept if candidates[i]["kind"] == "message"
                     and (covered & _sources([candidates[i]]) or message_body(candidates[i]["text"]) in quoted)}
        redundant |= {i for i in kept if _cited_by(candidates[i], [candidates[j] for j in kept if j != i])}
        # An episode scored above the facts that say all it says: they are kept, so it goes (in any order).
        said = set().union(*(_terms(p["text"]) for p in profile),
                           *(_terms(candidates[j]["text"]) for j in kept if candidates[j]["kind"] == "fact"))
        redundant |= {i for i in kept if candidates[i]["kind"] == "episode" and _terms(candidates[i]["text"]) <= said}
        # A past message, an answer that quoted memory most often, whose every word a kept memory says.
        shown_terms = said.union(*(_terms(m["text"]) for m in shown))
        redundant |= {i for i in kept if candidates[i]["kind"] == "message"
                      and _terms(message_body(candidates[i]["text"])) <= shown_terms}
        if not redundant:
            said |= set().union(*(_terms(candidates[j]["text"]) for j in kept if candidates[j]["kind"] == "history"))
            lines_shown: list[set[str]] = []
            return [e for i in kept if (e := _unsaid_lines(candidates[i], said, lines_shown)) is not None]
        dropped |= redundant


def _fill(candidates: list[dict[str, Any]], dropped: set[int], profile: list[dict[str, Any]],
          budget_tokens: int) -> list[int]:
    """Indexes of the candidates kept, in score order. A candidate is left out when its text
    was kept already (a message's words, whatever its date: a question asked in three weeks
    shows once), when it is a fact or episode whose every content word is in the profile, an
    episode whose every content word is in the profile and the kept facts, an episode a kept
    memory cites, a message that a profile slot or a kept fact or episode came from, or a
    message whose every content word is shown already (an answer that repeated a memory).
    """
    profile_terms = set().union(*(_terms(p["text"]) for p in profile))
    said = set(profile_terms)  # what the profile and the facts kept so far say
    covered = _sources(profile)
    quoted: set[str] = set()  # sentences a kept roll-up excerpt shows word for word
    told = set(profile_terms)  # every content word shown so far
    people_terms: set[str] = set()  # what the people kept so far say
    kept: list[int] = []
    used, seen = 0, set()
    for i, item in enumerate(candidates):
        said_as = message_body(item["text"]) if item["kind"] == "message" else item["text"]
        if i in dropped or said_as in seen:
            continue
        if item["kind"] == "message" and (covered & _sources([item]) or said_as in quoted
                                          or _terms(said_as) <= told or not told_lines(f"User: {said_as}")):
            continue
        if item["kind"] != "message" and profile_terms and _terms(item["text"]) <= profile_terms:
            continue
        if item["kind"] == "fact" and people_terms and _terms(item["text"]) <= people_terms:
            continue  # the people block says it: each person once
        if item["kind"] == "episode" and (_terms(item["text"]) <= said or _all_quoted(item, quoted)
                                          or _cited_by(item, [candidates[j] for j in kept])):
            continue
        cost = count_tokens_approximately([SystemMessage(content=f"- {quote(item['text'])}")])
        if used + cost > budget_tokens:
            continue
        kept.append(i)
        used += cost
        seen.add(said_as)
        told |= _terms(said_as)
        if item["kind"] != "message":
            covered |= _sources([item])
            quoted |= quoted_bodies(list((item.get("meta") or {}).get("quotes") or ()))
        if item["kind"] == "fact":
            said |= _terms(item["text"])
        if item["kind"] == "person":
            people_terms |= _terms(item["text"])
    return kept


def _unsaid_lines(item: dict[str, Any], said: set[str], shown: list[set[str]]) -> dict[str, Any] | None:
    """An episode as shown: without the lines whose every content word ``said`` (the profile and
    the kept facts) already holds, nor those another of its lines, or a line of an episode ``shown``
    before it, says in full ("I live in Paris." beside "I live in Paris, near the canal."; a week's
    line again in its month's roll-up), nor a period title left with no line under it. Its kept
    lines join ``shown``. None when no line is left; other kinds come back as they are.
    """
    if item["kind"] != "episode":
        return item
    lines = item["text"].splitlines()
    content = {n: _terms(line) for n, line in enumerate(lines) if not is_title(line)}
    cut = {n for n, words in content.items()
           if words <= said or any(words <= other for other in shown)
           or any(m != n and (words < other or (words == other and m < n)) for m, other in content.items())}
    kept = [n for n in range(len(lines)) if n not in cut and n in content]
    if not told_lines("\n".join(lines[n] for n in kept)):
        return None  # nothing left but questions and requests: small talk, shown it only crowds
    shown.extend(content[n] for n in kept)
    if not cut:
        return item
    titles = [n for n in range(len(lines)) if n not in content]
    shown = sorted(kept + [t for t in titles if _heads(t, titles, kept)])
    return {**item, "text": "\n".join(lines[n] for n in shown)}


def _heads(title: int, titles: list[int], kept: list[int]) -> bool:
    """Whether a kept line sits under ``title``: anywhere after the first line, else before the next title."""
    end = min((t for t in titles if t > title), default=None) if title else None
    return any(n > title and (end is None or n < end) for n in kept)


def _all_quoted(item: dict[str, Any], quoted: set[str]) -> bool:
    """Whether every line of an episode or excerpt that quotes the user is already quoted by a kept
    excerpt (a week's excerpt under the month's that shows the same line).
    """
    own = quoted_bodies([line for line in item["text"].splitlines() if line.startswith("User:")])
    return bool(own) and own <= quoted


def _cited_by(item: dict[str, Any], others: Iterable[dict[str, Any]]) -> bool:
    """Whether ``item`` is an episode another shown memory sums up: one whose sources are a
    strict superset of its own (a roll-up cites every message of the sessions it sums up).
    """
    own = _sources([item])
    return item["kind"] == "episode" and bool(own) and any(
        o["kind"] != "message" and own < _sources([o]) for o in others)



def _sources(items: Iterable[dict[str, Any]]) -> set[str]:
    return {str(s) for item in items for s in item.get("sources") or ()}


# Words a restatement adds without adding content: "I live in Berlin now." says what the profile says.
_RESTATING = frozenset({"now", "still", "currently", "nowadays", "anymore", "again", "too"})


def _terms(text: str) -> set[str]:
    """Content words, the verbatim-details header and restating adverbs left out (wording, not content)."""
    return terms(text.replace(VERBATIM_HEADER, "")) - _RESTATING


def shown_memories(recalled: list[dict[str, Any]], budget_tokens: int) -> list[dict[str, Any]]:
    """Every recalled memory the prompt shows: rules, profile, then the budgeted volatile part."""
    fixed = [r for r in recalled if r["kind"] in ("rule", "profile")]
    return fixed + select_within_budget(recalled, budget_tokens)


def volatile_part(recalled: list[dict[str, Any]], summary: str, now: datetime, budget_tokens: int) -> str:
    """The per-turn part of the system prompt: budgeted recalled memories, the summary and the date."""
    kept = select_within_budget(recalled, budget_tokens)
    parts = [
        _block(kind, [r for r in kept if r["kind"] == kind])
        for kind in VOLATILE_KINDS
        if any(r["kind"] == kind for r in kept)
    ]
    if summary:
        parts.append("<memories kind=\"summary\">\n# Summary of earlier turns in this conversation\n"
                     f"- {quote(summary)}\n</memories>")
    parts.append(f"Current date: {now.date().isoformat()}")
    return "\n\n".join(parts)


def render_system_prompt(
    persona: str, recalled: list[dict[str, Any]], summary: str, now: datetime, budget_tokens: int,
    knowledge: str = "",
) -> str:
    """The full system prompt: the stable (cacheable) prefix, the ``knowledge`` block
    (memory/knowledge/prompt.py, its own budget), then the volatile part.
    """
    middle = knowledge + "\n\n" if knowledge else ""
    return stable_prefix(persona, recalled) + "\n\n" + middle + volatile_part(recalled, summary, now, budget_tokens)
