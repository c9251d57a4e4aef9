"""One record per person or pet a message tells of, however many readers and phrasings found them.

The regexes and the parse reader in ``people.py`` and ``people_parse.py`` often find the same
person twice ("my sister Anna" by both) or first nameless and then named; here they become one.
"""

from __future__ import annotations

from dataclasses import replace

from memory.write_policy.person_mention import PersonMention


def merged(mentions: list[PersonMention]) -> list[PersonMention]:
    """One mention per (relation, name, species), keeping any fact, word and end; a nameless one joins
    the one named mention of its relation ("our hamster is called Peanut"), or else the nameless one
    of its species or word ("a son and a daughter" are two); an existence mark is no fact
    (``_EXISTS`` becomes None).
    """
    out: dict[tuple[str, str | None, str | None], PersonMention] = {}
    for m in mentions:
        named = [k for k in out if k[1] is not None and k[0] == m.relation and m.species in (None, k[2])]
        key = named[0] if m.name is None and len(named) == 1 else (m.relation, m.name, m.species or (
            m.word if m.name is None else None))
        old = out.get(key)
        if old is not None:
            m = replace(old, ended=old.ended or m.ended, fact=old.fact or m.fact, word=old.word or m.word)
        out[key] = m
    return [replace(m, fact=m.fact or None) for m in out.values()]
