"""Ended states read off the dependency parse: the shape of the sentence, not its phrasing.

The regexes in ``ending_forms.py`` and ``endings.py`` list the phrasings they were tuned on; a
new writer puts the same ending in another order or tense ("My Vespa I have sold", "The allotment
we gave up", "I've rehomed both of my rabbits", "Priya and I split up"). Here a cessation verb,
found by lemma, whose subject is the speaker ("I", "we", or none at the start of a texted
message) and which no negation, modal, question, "if" or reported speech hedges, names what
ended by its object. Each ending is written back as a plain clause the regex table already reads
("I don't have my Vespa anymore", "I gave up cigars", "I left the band", "I'm no longer with
Priya"), so ``endings.positive_form`` and the slot patterns decide what it ends, as for the rules.

A wrong ending deletes a true memory, so the objects are narrow: the user's own ("my"/"our"),
a name, a bare habit, or "the" before a word of a lasting thing ("the band", "the car"); never a
thing of a moment ("I stopped the timer", "I left my keys", "I cancelled the meeting").
``pattern_extractor.py`` adds these only where the regexes ended nothing in the sentence.
Without spaCy it finds nothing.
"""

from __future__ import annotations

import re
from typing import Any

from memory.write_policy import ending_parse_words as vocab
from memory.write_policy.ending_negated import no_longer
from memory.write_policy.parse import doc_of
from memory.write_policy.people_words import relation_of


def parsed_endings(body: str) -> list[str]:
    """Each ending the parse of ``body`` reads, as a clause the regex table of endings reads."""
    doc = doc_of(re.sub(r"\bi\b", "I", re.sub(r"\bim\b", "I'm", body)))
    if doc is None or _unsure(body, doc):
        return []
    out: list[str] = []
    for token in doc:
        clause = _cessation(token) if token.pos_ in ("VERB", "AUX") else None
        clause = clause or no_longer(token)
        if clause and clause not in out:
            out.append(clause)
    return out


def _unsure(body: str, doc: Any) -> bool:
    """A question, a supposition or a quotation: none of it ends anything."""
    first = next((t for t in doc if not t.is_punct), None)
    return (body.rstrip().endswith("?") or vocab.QUOTES.search(body) is not None or first is None
            or first.tag_ in ("WRB", "WP", "MD") or first.lower_ in ("do", "did", "does", "have", "has", "should")
            or any(t.lower_ in ("if", "unless", "whether") for t in doc))


def _cessation(verb: Any) -> str | None:
    """The ending ``verb`` states, as a plain clause ("I gave up cigars"), or None."""
    lemma = verb.lemma_.lower()
    if not _asserted(verb) or vocab.FOR_A_WHILE.search(_span(verb)):
        return None
    particles = {c.lower_ for c in verb.children if c.dep_ in ("prt", "advmod", "prep")}
    if lemma in vocab.PARTICLE and not particles & vocab.PARTICLE[lemma] and lemma not in ("break",):
        return None  # "I gave my dog a bath", "I came home"
    if lemma in vocab.PARTING:
        return _parting(verb)
    if lemma in vocab.MOVING and particles & {"out", "away", "from"}:
        place = _object(verb, ("from", "of"))
        return f"I no longer live in {_words(place)}" if place is not None and place.pos_ == "PROPN" else None
    thing = _object(verb, vocab.PREPS.get(lemma, ("of", "out")))  # "I stopped Tom from falling" ends nothing
    if thing is None or {thing.lemma_.lower(), thing.lower_} & (vocab.NOT_THINGS | vocab.MOMENTARY) or _for_another(
            verb, thing) or relation_of(thing.lower_) not in (None, "pet"):
        return None  # "I dropped my daughter at the station", "I closed the account for my mum"
    if lemma == "drop" and "out" not in particles and _determined(thing) and thing.lemma_.lower() not in vocab.GROUPS:
        return None  # "I dropped the class project"
    if lemma in vocab.LEAVING and (lemma != "drop" or "out" in particles):
        return _left(thing, named=lemma != "leave")  # "We left Paris" may be a trip; "I resigned from Aviva" is not
    if lemma in vocab.HAVING or lemma == "give" and "away" in particles:
        return f"I don't have {_words(thing)} anymore" if _owned(thing, vocab.HAD) else None
    if lemma in vocab.ACCOUNTS:
        ok = thing.pos_ == "PROPN" or thing.lemma_.lower() in vocab.ACCOUNT_WORDS
        return f"I don't have {_words(thing)} anymore" if ok and _owned(thing, vocab.ACCOUNT_WORDS) else None
    if lemma == "come":
        ok = thing.tag_ in ("NN", "NNS") and thing.lemma_.lower() not in vocab.OFF_PLACES | vocab.MOMENTARY
        return f"I'm not on {_words(thing, bare=True)} anymore" if ok else None
    if lemma in vocab.QUITTING:
        return _quit(thing, lemma)
    return None


def _for_another(verb: Any, thing: Any) -> bool:
    """Done for someone else: "I closed the account for my mum", "sold it for him"."""
    return any(p.lower_ == "for" and any(g.lower_ in ("him", "her", "them") or relation_of(g.lower_) is not None
                                         for g in p.children) for n in (verb, thing) for p in n.children)


def _parting(verb: Any) -> str | None:
    """A couple's ending: "Priya and I split up", "I broke up with Marco", "I split from my husband"."""
    if "up" not in {c.lower_ for c in verb.children} and not any(c.lower_ in ("from", "with") for c in verb.children):
        return None
    partner = _object(verb, ("with", "from"))
    if partner is None:
        subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
        joined = [c for c in subject.children if c.dep_ == "conj"] if subject is not None else []
        if subject is None or not any(c.lower_ in ("i", "me") for c in joined):
            return None
        partner = subject
    ok = partner.pos_ == "PROPN" and partner.text[:1].isupper() or _mine(partner) and relation_of(partner.lower_) in (
        "partner", "ex_partner")
    return f"I'm no longer with {_words(partner)}" if ok else None


def _left(thing: Any, named: bool) -> str | None:
    """What one leaves, resigns or retires from: a group, a workplace, a faith ("I left the band")."""
    if (thing.tag_ == "VBG" or thing.lower_.endswith("ing") and not _determined(thing)) and not any(
            c.dep_ in ("dobj", "compound") for c in thing.children) and thing.dep_ != "compound":
        return f"I stopped {_words(thing)}"  # "I retired from coaching", not "I left teaching materials"
    word = thing.lemma_.lower()
    if word in vocab.MOMENTARY or relation_of(thing.lower_) is not None:
        return None  # "I left my keys", "I left my wife a note"
    if thing.pos_ == "PROPN" and named or word in vocab.GROUPS and (_determined(thing) or word in vocab.BARE_GROUPS):
        return f"I left {_words(thing)}"
    return None


def _quit(thing: Any, lemma: str) -> str | None:
    """A habit, a group or an account given up: "I have quit the band", "gave up the cigars"."""
    word = thing.lemma_.lower()
    if thing.tag_ == "VBG" or lemma != "stop" and thing.lower_ in vocab.HABITS and all(
            c.dep_ == "det" for c in thing.children):
        return f"I stopped {_words(thing, bare=True)}"  # "I stopped going to the gym", "kicked the vaping"
    if word == "habit":  # "I kicked the vaping habit"
        habit = [c for c in thing.children if c.dep_ in ("compound", "amod") and c.i < thing.i]
        return f"I gave up {' '.join(c.text for c in habit)}" if habit else None
    if word in vocab.MOMENTARY:
        return None
    if word in vocab.HAD:  # "gave up the allotment" ends having it; "I stopped my car" ends nothing
        return f"I don't have {_words(thing)} anymore" if lemma in ("give", "ditch", "quit") and _owned(
            thing, vocab.HAD) else None
    if word in vocab.GROUPS and (_determined(thing) or thing.pos_ == "PROPN"):
        return f"I left {_words(thing)}"
    if word in vocab.ACCOUNT_WORDS and _mine(thing):
        return f"I don't have {_words(thing)} anymore"
    if word in vocab.MEDS or thing.lower_ in vocab.MEDS:
        return f"I'm not on {_words(thing, bare=True)} anymore"  # "I've discontinued my blood pressure tablets"
    if thing.pos_ == "PROPN" or not _determined(thing) or _mine(thing):
        return f"I gave up {_words(thing, bare=True)}"
    return None


def _asserted(verb: Any) -> bool:
    """``verb`` is the speaker's own past act, stated plainly (not negated, hedged, planned or reported)."""
    if verb.dep_ == "ccomp" and verb.i < verb.head.i and verb.head.lemma_ not in vocab.SAYING and any(
            t.text in (",", ";", "-") for t in verb.doc[verb.i:verb.head.i]):
        return _speaker(verb) and _asserted_words(verb)  # "I've stopped the club, my knees can't take it"
    if verb.dep_ not in ("ROOT", "conj", "parataxis", "relcl"):
        return False
    node = verb
    while node.dep_ in ("conj", "parataxis"):
        node = node.head
    if node.dep_ not in ("ROOT", "relcl") or node.dep_ == "relcl" and not _topic(node):
        return False
    return _asserted_words(verb) and _speaker(verb)


def _asserted_words(verb: Any) -> bool:
    """No hedge, modal or progressive on ``verb``, and a past tense."""
    kids = list(verb.children)
    if any(c.lower_ in vocab.HEDGES for c in kids) or any(
            c.tag_ == "MD" or c.dep_ == "aux" and c.lower_ in ("to", "gonna") for c in kids):
        return False
    if any(c.dep_ in ("aux", "auxpass") and c.lemma_ == "be" for c in kids) and verb.tag_ == "VBG":
        return False  # "I'm quitting my job": a plan
    return verb.tag_ in ("VBD", "VBN") or verb.lower_ == "quit" and verb.tag_ in ("VBP", "VB")


def _topic(verb: Any) -> bool:
    """A thing said first and then what was done with it: "My Vespa I have sold", "The allotment we gave up",
    "my fasting on Tuesdays i have discontinued" (the clause hangs on a word of the topic).
    """
    root = _topic_of(verb)
    return root is not None and not any(c.dep_ in ("dobj", "nsubjpass") or c.tag_ in ("WDT", "WP")
                                        for c in verb.children)


def _topic_of(verb: Any) -> Any | None:
    if verb.dep_ != "relcl":
        return None
    node = verb.head
    while node.dep_ in ("pobj", "prep", "compound"):
        node = node.head
    ok = node.dep_ == "ROOT" and node.pos_ in ("NOUN", "PROPN") and node.left_edge.i == node.sent.start
    return node if ok else None


def _speaker(verb: Any) -> bool:
    """The subject is "I"/"we", or the clause has none and opens the message ("Sold my old Corolla")."""
    node = verb
    while True:
        subject = next((c for c in node.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is not None:
            joined = {c.lower_ for c in subject.children if c.dep_ == "conj"}
            couple = bool(joined & {"i", "me"}) and verb.lemma_.lower() in vocab.PARTING  # "Priya and I split up"
            return subject.lower_ in vocab.SPEAKER or couple
        if node.dep_ not in ("conj", "parataxis"):
            break
        node = node.head
    before = [t for t in verb.doc[: node.i] if not t.is_punct]
    return node.dep_ == "ROOT" and verb.tag_ in ("VBD", "VBN") and all(
        t.pos_ in ("ADV", "INTJ", "CCONJ") for t in before)


def _object(verb: Any, preps: tuple[str, ...]) -> Any | None:
    """The ended thing: the topic said first, the verb's object, or a preposition's object."""
    if _topic(verb):
        return _topic_of(verb)
    for child in verb.children:
        if child.dep_ in ("dobj", "xcomp") and (child.dep_ == "dobj" or child.tag_ == "VBG"):
            return _through_of(child)
        if child.dep_ == "nsubjpass" and verb.lemma_.lower() == "rid" or child.dep_ in ("prep", "prt") and (
                child.lower_ in preps):
            inner = next((g for g in child.children if g.dep_ in ("pobj", "pcomp")), None)
            if inner is None and child.lower_ == "out":  # "dropped out of my course"
                inner = next((g for p in child.children for g in p.children if g.dep_ in ("pobj", "pcomp")), None)
            if inner is not None and child.dep_ != "nsubjpass":
                return _through_of(inner)
    return None


def _through_of(token: Any) -> Any:
    """"both of my rabbits" is "my rabbits"."""
    if token.tag_ in ("DT", "CD", "PDT") or token.lower_ in ("all", "both", "most", "rest"):
        inner = next((g for p in token.children if p.lower_ == "of" for g in p.children if g.dep_ == "pobj"), None)
        return inner if inner is not None else token
    return token


def _determined(thing: Any) -> bool:
    return any(c.dep_ in ("det", "poss") for c in thing.children)


def _mine(thing: Any) -> bool:
    return any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in thing.children)


def _owned(thing: Any, lasting: set[str]) -> bool:
    """The user's own lasting thing: "my Vespa", "our flat", "the caravan", "the Honda", not "the tickets"."""
    word = thing.lemma_.lower()
    if word in vocab.MOMENTARY or relation_of(thing.lower_) not in (None, "pet"):
        return False
    if _mine(thing):
        return True
    det = next((c.lower_ for c in thing.children if c.dep_ == "det"), "")
    return det == "the" and (word in lasting or thing.lower_ in lasting or thing.pos_ == "PROPN") or (
        not det and thing.pos_ == "PROPN" and thing.text[:1].isupper())


def _words(thing: Any, bare: bool = False) -> str:
    """The thing's words with what modifies it before and "of/on/at …" after ("my evening walks")."""
    keep = {thing.i}
    for child in thing.children:
        if child.i < thing.i and child.dep_ in ("det", "poss", "nummod", "amod", "compound", "nmod", "quantmod"):
            keep |= {t.i for t in child.subtree}
        elif child.i > thing.i and (child.dep_ in ("prep",) and child.lower_ in ("of", "on", "at", "in") or
                                    thing.tag_ == "VBG" and child.dep_ in ("dobj", "prep", "prt", "advmod")):
            keep |= {t.i for t in child.subtree}
    words = [t for t in thing.doc if t.i in keep and not t.is_punct and not _clause_below(t, thing)]
    if bare:
        words = [t for t in words if not (t.dep_ in ("det", "poss") and t.head.i == thing.i)]
    return " ".join(t.text for t in words)


def _clause_below(token: Any, thing: Any) -> bool:
    """A word of a clause or a list hung on the thing ("Tuesdays I have discontinued")."""
    node = token
    while node.i != thing.i and node.head.i != node.i:
        if node.dep_ in ("relcl", "acl", "advcl", "appos", "conj", "cc"):
            return True
        node = node.head
    return False


def _span(verb: Any) -> str:
    return " ".join(t.text for t in verb.subtree if not _below_clause(t, verb))


def _below_clause(token: Any, verb: Any) -> bool:
    node = token
    while node.i != verb.i:
        if node.dep_ in ("advcl", "relcl", "ccomp", "conj") and node.head.i == verb.i:
            return True
        node = node.head
    return False
