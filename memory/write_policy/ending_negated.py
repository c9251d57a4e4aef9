"""The speaker's state negated with "anymore", read off the parse ("i am not vegan any more",
"we dont have the cat anymore"): the one ending ``ending_parse`` finds without a verb of ending.
"""

from __future__ import annotations

from typing import Any

from memory.write_policy import ending_parse_words as vocab


def no_longer(token: Any) -> str | None:
    """"i am not vegan any more", "we dont have the cat anymore": the speaker's state, negated with "anymore"."""
    if token.pos_ not in ("VERB", "AUX") or token.dep_ not in ("ROOT", "conj"):
        return None
    kids = list(token.children)
    said = " ".join(c.text for c in kids if c.dep_ in ("advmod", "neg", "npadvmod"))
    if any(g.dep_ == "det" and g.lower_ in ("any", "enough", "much", "many") for c in kids for g in c.children):
        return None  # "we don't have any milk anymore": run out, not ended
    if not vocab.ANYMORE.search(said) or not any(c.dep_ == "neg" for c in kids) or not _speaker_now(token):
        return None
    if any(c.tag_ == "MD" for c in kids):
        return None
    cut = next((t.i for t in token.doc[token.i:] if t.is_punct), len(token.doc))  # "not angry anymore, just sad"
    rest = [t for c in kids if token.i < c.i < cut and c.dep_ in ("dobj", "attr", "acomp", "prep", "prt", "xcomp")
            for t in c.subtree if t.i < cut]
    words = " ".join(t.text for t in sorted(rest, key=lambda t: t.i) if not vocab.ANYMORE.search(t.text))
    if not words:
        return None
    return f"I'm not {words} anymore" if token.lemma_ == "be" else f"I don't {token.lemma_.lower()} {words} anymore"


def _speaker_now(verb: Any) -> bool:
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    return subject is not None and subject.lower_ in vocab.SPEAKER
