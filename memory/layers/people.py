"""People and pets as records of their own: one per person, relations kept with their history.

Part of the semantic layer (memory/layers/semantic.py): after each turn the rules
(memory/write_policy/people.py) read who the user's messages tell about, and at session end a
capable model's ``people`` list (memory/write_policy/llm.py) fills the same records. Every
write goes through ``env.store``, the user's write gate, into ``PEOPLE``.

A record's key is its relation's family and its name ("partner:marta", "pet:pierogi";
"pet:cat:" for a cat with no name yet), so a break-up changes Marta's relation without moving
her record. A relation that ends is kept in the record's ``history`` with the day it ended
(``valid_to``), as profile slots keep theirs: "Marta and I broke up" makes her an ex-partner;
a new partner makes the one before an ex-partner. Facts said about someone are kept on their
record with their sources; a nameless record is merged into the first named one of the same
relation, and a nameless fact ("my girlfriend loves sushi") joins the one current record of
its relation. Statement times decide, as for facts: an older statement never ends a newer one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from memory.layers.base import LayerEnv, LoggedMessage
from memory.text import content_words
from memory.write_policy.base import CandidateFact, safe_sentences, user_messages
from memory.write_policy.people import mentions_in
from memory.write_policy.people_events import life_events
from memory.write_policy.people_words import words_for
from memory.write_policy.person_mention import PersonMention, SaidPerson
from stores.namespaces import PEOPLE

Record = dict[str, Any]
PEOPLE_LIMIT = 500  # more people than anyone mentions; the records are read whole
MAX_FACTS = 20  # facts kept per person, newest last


def said_people(messages: Sequence[LoggedMessage]) -> list[SaidPerson]:
    """The rules' mentions in the user's messages, each with its message as source (secrets left out)."""
    out = []
    for msg in user_messages(messages):
        text = "\n".join(safe_sentences(msg.text))
        out += [SaidPerson(m, [msg.id], msg.time) for m in _mentions(text)] if text else []
    return out


def _mentions(text: str) -> list[PersonMention]:
    """The mention rules' people, then the life events' (people_events.py) that the rules did not already say."""
    found = mentions_in(text)
    said = {(m.relation, m.name, m.ended) for m in found}
    return found + [m for m in life_events(text) if (m.relation, m.name, m.ended) not in said]


# What an introduction says besides who: "The user says we got a puppy" adds nothing to Churro's record.
# "The user says we adopted a rabbit, she's called Biscuit.": the record says it in the right voice.
_WE_SAID = re.compile(r"^The user says (?:we|us|our)\b")
_INTRO_WORDS = frozenset("user user's says say got get have has had adopted rescued bought called named name new "
                         "just recently finally welcomed brought home took our dating seeing".split())


def told_of(facts: Sequence[CandidateFact], said: Sequence[SaidPerson]) -> tuple[list[CandidateFact], list[SaidPerson]]:
    """The loose facts to keep, and the mentions with the facts said about them.

    A fact from a message that tells of someone and names them (their name, the word the user called
    them, a pet's species) is copied onto their record when the mention has no fact of its own and it
    says more than the introduction; the prompt then shows it once, in their line (memory/prompt.py).
    One that says nothing more and not even their name ("The user says we got a puppy.") is not kept:
    the record says it better. An explicit request and a profile slot are left alone.
    """
    kept, out = [], list(said)
    for fact in facts:
        hit = None if fact.key is not None or fact.explicit else next(
            (i for i, s in enumerate(out) if set(fact.sources) & set(s.sources) and _names(fact.text, s.mention)), None)
        if hit is None:
            kept.append(fact)
            continue
        mention, own = out[hit].mention, _household(fact)
        extra = set(content_words(fact.text)) - _INTRO_WORDS - _who_words(mention)
        if mention.fact is None and extra:
            out[hit] = SaidPerson(replace(mention, fact=own.text), out[hit].sources, out[hit].stated_at)
        if extra or (mention.name and mention.name.lower() in fact.text.lower() and not _WE_SAID.match(fact.text)):
            kept.append(own)
    return kept, out


# "The user says we adopted a greyhound …" is the user's household's news: said so, it reads as a fact.
_WE_BROUGHT = re.compile(r"^The user says we (?=(?:just |recently |finally )?(?:got|adopted|rescued|bought|"
                         r"brought home|took in|welcomed|fostered)\b)(?!.*\b(?:we|us|our|we're|we've)\b)",
                         re.IGNORECASE)


def _household(fact: CandidateFact) -> CandidateFact:
    """An introduction said with "we" in the third person ("The user's household adopted a greyhound …")."""
    text = _WE_BROUGHT.sub("The user's household ", fact.text)
    return fact if text == fact.text else fact.model_copy(update={"text": text})


def _who_words(mention: PersonMention) -> set[str]:
    return {w.lower() for w in (mention.name, mention.word, mention.species) if w} | words_for(mention.relation,
                                                                                                mention.species)


def _names(text: str, mention: PersonMention) -> bool:
    who = [w for w in (mention.name, mention.word, mention.species) if w]
    return any(re.search(rf"\b{re.escape(w)}\b", text, re.IGNORECASE) for w in who)


def write_people(env: LayerEnv, said: Sequence[SaidPerson]) -> list[Record]:
    """Store each mention in statement order; returns the records written."""
    written = []
    for item in sorted(said, key=lambda s: s.stated_at or env.now):
        record = _write_one(env, item.mention, list(item.sources), (item.stated_at or env.now).isoformat())
        if record is not None:
            written.append(record)
    return written


def people_records(env: LayerEnv) -> list[Record]:
    """Every person record of the user."""
    return [i.value for i in env.store.search(env.scope.ns(PEOPLE), limit=PEOPLE_LIMIT)]


def person_key(relation: str, name: str | None, species: str | None = None, word: str | None = None) -> str:
    """The stable key: the relation's family (an ex-partner is filed with partners) and the name; with no
    name, the species or the word ("sibling:brother:"), ending in ':'.
    """
    family = "partner" if relation == "ex_partner" else relation
    if name:
        return family + ":" + re.sub(r"\W+", "-", name.casefold()).strip("-")
    return f"{family}:{species or (word if family not in ('partner', 'pet') else None) or ''}:"


def _write_one(env: LayerEnv, mention: PersonMention, sources: list[str], when: str) -> Record | None:
    records = people_records(env)
    if not mention.relation:  # "Bruno died": whoever the user has called Bruno, if that is one current record
        same = [r for r in records if r["current"] and (r.get("name") or "").casefold() == (mention.name or "~")
                .casefold()]
        if len(same) != 1:
            return None
        mention = replace(mention, relation=same[0]["relation"], species=same[0].get("species"))
    if mention.name is None:
        target = _the_one(records, mention)
        if target is None and (mention.ended or mention.relation == "partner" and mention.fact is None
                               and _current(records, "partner")):
            return None  # "we broke up" with no partner known; "I'm seeing someone" while the partner is known
        key = target["id"] if target is not None else person_key(mention.relation, None, mention.species,
                                                                   mention.word)
    else:
        key = person_key(mention.relation, mention.name, mention.species)
    nameless = None if mention.name is None else _nameless(records, mention, key)
    record = _update(env, key, lambda cur: _changed(cur, mention, key, sources, when, nameless))
    if nameless is not None:
        env.store.delete(env.scope.ns(PEOPLE), nameless["id"])
    if record is not None and record["relation"] == "partner" and record["current"]:
        for other in _current(records, "partner"):
            if other["id"] != key and not _after(other.get("since") or other["updated_at"], when):
                _update(env, other["id"], lambda cur: _ended(cur, when, by=record["name"]))
    return record


def _update(env: LayerEnv, key: str, change: Any) -> Record | None:
    return env.gate.atomic_update(env.scope.ns(PEOPLE), key, change)


def _changed(current: Record | None, mention: PersonMention, key: str, sources: list[str], when: str,
             nameless: Record | None) -> Record | None:
    """The record after ``mention`` (``current`` itself when it changes nothing)."""
    record = dict(current) if current is not None else _new(key, mention, when)
    if current is not None and _after(current["updated_at"], when) and mention.ended:
        return current  # an older break-up does not end a relation said later
    if nameless is not None:
        record["facts"] = nameless.get("facts", []) + record.get("facts", [])
        record["sources"] = list(dict.fromkeys([*nameless["sources"], *record.get("sources", [])]))
        record["created_at"] = min(record["created_at"], nameless["created_at"])
    record["sources"] = list(dict.fromkeys([*record.get("sources", []), *sources]))
    record["updated_at"] = max(record.get("updated_at") or when, when)
    if mention.species and not record.get("species"):
        record["species"] = mention.species
    if mention.word and mention.word not in record.get("words", []):
        record["words"] = [*record.get("words", []), mention.word]
    if mention.fact and all(f["text"] != mention.fact for f in record.get("facts", [])):
        record["facts"] = [*record.get("facts", []), {"text": mention.fact, "sources": sources, "stated_at": when}]
        record["facts"] = record["facts"][-MAX_FACTS:]
    if mention.ended and record["current"]:
        # a death keeps the relation it was ("My wife, Hanne, passed away": her late wife, not an ex)
        record = _ended(record, when, by=None, died=mention.relation != "ex_partner") or record
    elif mention.ended and current is None and mention.relation == "ex_partner":
        record["history"] = [{"relation": "partner", "since": None, "valid_to": when, "superseded_by": None}]
    elif not mention.ended and mention.relation != record["relation"] and mention.relation != "other":
        record = _relation_now(record, mention.relation, when)
    return _with_text(record)


def _new(key: str, mention: PersonMention, when: str) -> Record:
    return {"id": key, "kind": "person", "name": mention.name, "relation": mention.relation,
            "species": mention.species, "current": mention.relation != "ex_partner", "since": when,
            "words": [], "facts": [], "history": [], "sources": [], "created_at": when, "updated_at": when}


def _ended(record: Record | None, when: str, by: str | None, died: bool = False) -> Record | None:
    """The relation ended at ``when``: a partner becomes an ex-partner (a late partner stays a partner,
    no longer current), anyone else is no longer current.
    """
    if record is None or not record["current"]:
        return record
    past = {"relation": record["relation"], "since": record.get("since"), "valid_to": when, "superseded_by": by}
    out = {**record, "history": [*record.get("history", []), past], "current": False, "since": when}
    if record["relation"] == "partner" and not died:
        out["relation"] = "ex_partner"
    return _with_text(out)


def _relation_now(record: Record, relation: str, when: str) -> Record:
    """A new relation said of someone known ("Sam" was a friend, now a partner): the old one goes to history."""
    past = {"relation": record["relation"], "since": record.get("since"), "valid_to": when, "superseded_by": None}
    return {**record, "relation": relation, "current": relation != "ex_partner", "since": when,
            "history": [*record.get("history", []), past]}


def _the_one(records: list[Record], mention: PersonMention) -> Record | None:
    """The one record a nameless mention means: the only current one of its relation (and species)."""
    relation = "partner" if mention.ended and mention.relation == "ex_partner" else mention.relation
    same = [r for r in records if r["relation"] == relation and r["current"] and _fits(r, mention)]
    return same[0] if len(same) == 1 else None


def _fits(record: Record, mention: PersonMention) -> bool:
    """Whether a nameless mention can mean ``record``: the same species, and for family the same word
    ("my brother" is not the sister on record); partners may be called anything.
    """
    if mention.species is not None and record.get("species") not in (None, mention.species):
        return False
    words = record.get("words") or []
    return mention.relation in ("partner", "pet") or mention.word is None or not words or mention.word in words


def _nameless(records: list[Record], mention: PersonMention, key: str) -> Record | None:
    """A nameless record this named mention gives a name to ("I'm seeing someone" ... "Marta")."""
    family = key.split(":", 1)[0]
    for r in records:
        if r["id"].startswith(f"{family}:") and r["id"].endswith(":") and r.get("name") is None and r["current"] \
                and _fits(r, mention):
            return r
    return None


def _current(records: list[Record], relation: str) -> list[Record]:
    return [r for r in records if r["relation"] == relation and r["current"]]


_SAYS = {"partner": "partner", "ex_partner": "ex-partner", "child": "child", "parent": "parent",
         "sibling": "sibling", "grandparent": "grandparent", "grandchild": "grandchild", "friend": "friend",
         "colleague": "colleague", "pet": "pet", "other": "relation"}


def describe(record: Record) -> str:
    """Who someone is, in one line, then what the user said about them: the prompt's and the page's text."""
    who = record.get("name") or "Name not known"
    role = _SAYS.get(record["relation"], record["relation"])
    words = [w for w in record.get("words", []) if w != role]
    if record["relation"] == "pet" and record.get("species"):
        role = f"pet {record['species']}"
    elif words and record["relation"] != "ex_partner":
        role = f"{words[-1]} ({role})"
    line = f"{who}: the user's {role}"
    if record["relation"] == "ex_partner":
        line += f" (since {_day(record.get('since'))})"
    elif record["relation"] == "partner" and not record["current"]:  # only a death ends a partner this way
        line = f"{who}: the user's late {words[-1] if words else role} (died; said on {_day(record.get('since'))})"
    elif not record["current"]:
        line += f" (no longer in the user's life since {_day(record.get('since'))})"
    said = [_about(f["text"], record) for f in record.get("facts", [])]
    owned = [f for f in said if not f[:1].isupper()]  # "lives in Berlin": what the name's line goes on with
    return "; ".join([line, *owned]) + "." + "".join(" " + f for f in said if f[:1].isupper())


def _about(fact: str, record: Record) -> str:
    """A fact without its subject when the subject is the person ("The user's sister Anna lives in Berlin."
    -> "lives in Berlin"), so the line names them once; any other fact whole.
    """
    words = sorted({*record.get("words", []), *words_for(record["relation"], record.get("species"))}, key=len,
                   reverse=True)
    name = re.escape(record["name"]) if record.get("name") else None
    called = "|".join(re.escape(w) for w in words)
    subject = rf"(?:the user's (?:[\w-]+ )?(?:{called})(?:,? {name},?)?|{name})" if name else \
        rf"the user's (?:[\w-]+ )?(?:{called})"
    m = re.match(rf"^{subject} (?P<rest>.+?)\.?$", fact, re.IGNORECASE)
    return m["rest"] if m is not None else fact


def _with_text(record: Record | None) -> Record | None:
    return None if record is None else {**record, "text": describe(record)}


def _day(iso: str | None) -> str:
    return (iso or "")[:10] or "date unknown"


def _after(stored: str, when: str) -> bool:
    return datetime.fromisoformat(stored) > datetime.fromisoformat(when)
