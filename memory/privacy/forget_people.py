"""Forgetting people and pets (memory/layers/people.py): the person, or what was said about them.

``forget`` (forget.py) calls ``forget_people`` with the user's text. When the text only names
someone ("Marta", "my dog Churro", "forget my ex"), their whole record goes; forget's own
matching then removes every fact, episode and message that still names them. Any other text
removes only the facts on a record that contain it ("Berlin" takes "The user's sister Anna
lives in Berlin." off Anna's record, and Anna stays). ``would_forget_people`` is the dry run.
"""

from __future__ import annotations

from langgraph.store.base import BaseStore

from memory.layers.people import Record, describe
from memory.privacy.export import iter_items
from memory.text import content_words
from memory.write_policy.people_words import words_for
from models.word_split import plain_words
from stores.namespaces import PEOPLE, UserScope

_ASIDE = frozenset({"forget", "about", "everything", "user", "user's", "please", "pet", "ex"})


def would_forget_people(store: BaseStore, scope: UserScope, text: str) -> tuple[list[Record], list[Record]]:
    """(records forget would delete, records it would rewrite without some facts), nothing changed."""
    needle = text.strip().casefold()
    gone, trimmed = [], []
    for item in iter_items(store, scope.ns(PEOPLE)):
        record = item.value
        if _names_only(record, text):
            gone.append(record)
        elif any(needle in f["text"].casefold() for f in record.get("facts", [])):
            kept = [f for f in record["facts"] if needle not in f["text"].casefold()]
            trimmed.append({**record, "facts": kept, "text": describe({**record, "facts": kept})})
    return gone, trimmed


def forget_people(store: BaseStore, scope: UserScope, text: str) -> list[str]:
    """Delete the people ``text`` names and the facts it matches on the others; the keys touched."""
    gone, trimmed = would_forget_people(store, scope, text)
    for record in gone:
        store.delete(scope.ns(PEOPLE), record["id"])
    for record in trimmed:
        store.put(scope.ns(PEOPLE), record["id"], record, index=False)
    return sorted(r["id"] for r in [*gone, *trimmed])


def _names_only(record: Record, text: str) -> bool:
    """Whether ``text`` says nothing but who the record is: its name, and the words for its relation."""
    words = set(content_words(text)) - _ASIDE
    name = set(plain_words(record.get("name") or ""))
    relation = {w for phrase in words_for(record["relation"], record.get("species")) for w in phrase.split()}
    said = name | relation | set(record.get("words", []))
    return bool(words) and words <= said and (bool(words & name) or not name or record["current"])
