"""Who is in the user's life: people and pets the user names, read by rules (no LLM).

``mentions_in(text)`` reads one user message and returns a ``PersonMention`` per person or
pet it introduces, names, says something lasting about, or says has left the user's life
("Marta and I broke up", "our dog Rex died"). Precision comes first, as for facts
(docs/architecture.md, "Why writes do not trust the model"): a question, a hypothetical
("if I got a dog I'd call it Rex"), a quote, someone else's pet ("my friend's dog Max") and
role-play yield nothing; a person with no name is kept only when the user says they exist
or something lasting about them. "His name is Churro" names the last nameless one the same
message introduced. The semantic layer keeps what it reads as person records
(memory/layers/people.py); the capable-model extractor fills the same records (llm.py).
"""

from __future__ import annotations

import re
from dataclasses import replace

from memory.text import statements
from memory.write_policy import people_screens as screens
from memory.write_policy.chat_forms import statement_before_question
from memory.write_policy.clauses import clauses
from memory.write_policy.hypotheticals import HYPOTHETICAL
from memory.write_policy.people_merged import merged
from memory.write_policy.people_parse import parsed_people
from memory.write_policy.people_words import (
    BREAK_UP,
    NOT_NAMES,
    OWNED_THINGS,
    PET_WORD,
    RELATION_WORD,
    RUN_ON_NAMING,
    relation_of,
    species_of,
    words_for,
)
from memory.write_policy.person import third_person
from memory.write_policy.person_mention import PersonMention
from memory.write_policy.phrasings import HEALTH_STATES
from memory.write_policy.quoted import QUOTED
from memory.write_policy.self_names import NOT_A_NAME
from memory.write_policy.voices import CAPTION, is_not_the_user

_I = re.IGNORECASE
# A name, with a title when it has one: pets are "Mr Whiskers" and "Lady Grey" as often as people are "Dr Lee".
_NAME = r"(?-i:(?:(?:Mr|Mrs|Ms|Miss|Dr|Sir|Lady|Lord|Captain|Prof)\.? )?[A-Z][a-zà-ÿ]+(?:-[A-Z][a-zà-ÿ]+)?)"
_NAMES = rf"{_NAME}(?:(?:, | and | & ){_NAME})*"
_MOD = (r"(?:(?:little|big|baby|younger|older|elder|eldest|youngest|oldest|middle|twin|new|lovely|wonderful|"
        r"beautiful|amazing|sweet|dear|adorable|rescue|long-term|late|old|\d+(?:[- ](?:year|month|week)s?[- ]old|"
        r"\s?yo|\s?y/o)|"
        r"one|two|three|four|1|2|3|4) )*")
# Words in -ed and -ing describe only after "a" or "my": "a retired racing greyhound", not "I have tutored kids"
_DESCRIBED = r"(?:[a-z]+(?:ed|ing) )*"
# One word before a pet word, a breed or a kind: "my leopard gecko Ziggy", "a black lab"
_KIND = rf"(?:[a-z][\w-]+ (?=(?:{PET_WORD})\b))?"
_REL = rf"(?P<rel>{RELATION_WORD})"
_AFTER_REL = (r"(?!'s\b|s?\s+(?:allerg\w*|food|walker|sitter|hair|bed|toys?|park|person|people|lover|owner|"
              r"friendly|show|trainer|groomer|treats?|door|flap|litter|insurance|breed|years?|tongue|figure|shower|bump|"
              r"nature|ship|board|city|company|issues|jokes|jeans|bod|clock|printer|group|chat)\b"
              r"|(?<=\bpet)\s+(?:peeves?|projects?|theor(?:y|ies)|subjects?|names? for)\b)")  # "my pet peeve"
# After "my wife is", a nationality, a faith or a state is no name ("my dad is Irish").
_NOT_AFTER_IS = rf"(?!(?:{'|'.join(sorted(NOT_A_NAME, key=len, reverse=True))}|{HEALTH_STATES})\b)"
_NAMING_ASKED = re.compile(r"\b(?:call|name|naming|calling)\b", _I)  # "should I call my cat Pierogi?"
_EMOJI = re.compile(r"\s*[\U0001F000-\U0001FAFF\u2600-\u27BF][\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]*")
_FILLER = re.compile(r"^(?:(?:oh|well|so|also|btw|by the way|fyi|and|but|actually|anyway|guess what|news|update|"
                     r"ok|okay|yeah|yes|hey|hi|hello|omg|wow|finally|big news)\b[,:!.]?\s*)+", _I)
_EXISTS = ""  # a mention that says the person exists, with nothing more to keep as a fact
_TRANSIENT = re.compile(r"^(?:is |are |was |were |'s )?(?:not |so |really |very )?(?:sick|ill|tired|sad|upset|angry|"
                        r"mad|late|busy|away|here|home|asleep|hungry|coming|visiting|waiting|out|being|going|annoying|"
                        r"driving me|on (?:his|her|their) way)\b", _I)

_PHONED = rf"(?!\s+{screens.PHONED_AFTER})"  # "my mom called Verizon about the bill"
_NAMED = (
    # "my girlfriend Marta", "our dog, Rex", "my kids Tom and Ella"
    re.compile(rf"\b(?:my|our) {_DESCRIBED}{_MOD}{_KIND}{_REL}{_AFTER_REL},? (?P<names>{_NAMES})\b", _I),
    # "my dog's name is Rex", "my sister is called Anna", "a cat named Mochi"
    re.compile(rf"\b(?:my|our) {_MOD}{_REL}(?:, an? (?:[\w-]+ )?(?:{PET_WORD}))?(?:'?s? name(?: is|'s|:)?|'s called|"
               rf"'s named| is called| is named| named| called| whose name is|"
               rf",? who(?:'s| is) (?:called|named)) "
               rf"(?P<names>{_NAMES})\b{_PHONED}", _I),
    # "Anna is my sister", "Marta, my girlfriend, ..."
    re.compile(rf"(?:^|[,;] |\band )(?P<names>{_NAME})(?: is|,) (?:my|our) {_MOD}{_REL}{_AFTER_REL}\b", _I),
    # "RIP Goldie, our goldfish —", "Jake (my stepson)", "Skip and Meg, my two collies,": an apposition that closes
    re.compile(rf"\b(?P<names>{_NAMES})(?:, | \()(?:my|our) {_MOD}{_KIND}(?P<rel>(?:{RELATION_WORD})s?){_AFTER_REL}"
               rf"(?=\s*(?:$|[),.!;:—–-]))", _I),
    # "my wife (Claire)", "my partner — Sam —"
    re.compile(rf"\b(?:my|our) {_MOD}{_KIND}{_REL}{_AFTER_REL}(?: \(| [—–-] )(?P<names>{_NAMES})(?:\)| [—–-])", _I),
    # "my wife is Claire."
    re.compile(rf"\b(?:my|our) {_MOD}{_REL} is {_NOT_AFTER_IS}(?P<names>{_NAME})(?=\s*(?:$|[,.!;]|and\b))", _I),
    # "we've named the kitten Sesame" (a pet said before, named now: the layer gives the nameless record the name)
    re.compile(rf"\b(?:we|i)(?:'ve| have|ve)? (?:finally )?(?:named|called|decided to (?:name|call)) (?:the|our|my) "
               rf"{_MOD}(?P<rel>{PET_WORD}) (?P<names>{_NAMES})\b", _I),
)
# "I have a son named Leo and a daughter named Mia": more of them after what the user has
_MORE = re.compile(rf"^(?:,? and|,) (?:a|an|one|two|three|\d) {_MOD}{_REL}{_AFTER_REL}"
                   rf"(?:,? (?:called |named )?(?P<names>{_NAMES}))?\b", _I)
# Where a writer who never capitalises puts a name: after "my sister", "called", "named", "name is".
_NAME_SLOT = re.compile(
    rf"(?:\b(?:my|our) {_MOD}{_KIND}(?:{RELATION_WORD}){_AFTER_REL},? \(?(?!names?\b)(?P<w>[a-z][a-zà-ÿ]+)"
    rf"(?=[,)]|$| (?:is|are|r|was|'s|and|has|had|lives|works|just|who|turns|turned|starts|started|loves|died|hasn't|"
    rf"hasnt|keeps|kept|got|gets|forgot|wants|needs|said|says|told|texted|called|asked|won't|wont|can't|cant|doesn't|"
    rf"doesnt|didn't|didnt|isn't|isnt|will|always|never|still|finally|also|made|went|moved|hates|likes|graduated)\b)|"
    rf"\b(?:called|named|name is|name's|married to|broke up with) "
    rf"(?P<w2>(?!(?:the|our|my)\b)[a-z][a-zà-ÿ]+)\b|"
    rf"(?:^|\brip |\bmeet )(?P<w3>[a-z][a-zà-ÿ]+)(?=, (?:my|our) | and i\b)|"
    rf"\b(?:named|called) (?:the|our|my) (?:{PET_WORD}) (?P<w4>[a-z][a-zà-ÿ]+)\b)", _I)
# "I adopted a cat called Pierogi", "we got a puppy!", "I have a sister", "we have two cats, Mochi and Tofu"
_HAS = re.compile(
    rf"(?:\b(?:i|we|my \w+ and i)(?:'ve| have)?|^)(?:\s?(?:just|recently|finally|also|now))?\s?(?:have|own|got|adopted|"
    rf"rescued|"
    rf"bought|brought home|took in|welcomed|fostered|have got|had(?= an? (?:baby|son|daughter|twins)\b)) "
    rf"(?:ourselves |myself )?"
    rf"(?:(?:a|an|one|two|three|four|\d|a new|another|our|my|a second|a third) {_DESCRIBED})?{_MOD}{_REL}s?{_AFTER_REL}"
    rf"(?:,? (?:an? |the )?(?:[\w-]+ )?(?:{PET_WORD}))?"  # "a dog, a lab called Bruno"
    rf"(?:,? (?:called |named |whose name is )?(?P<names>{_NAMES}))?\b", _I)
# "I'm seeing someone new", "I've (just) started dating someone", "I've been dating Marta", "I got engaged to Sam"
_DATING = re.compile(
    rf"\bi(?:'m| am|'ve been| have been|(?:'ve| have)?(?:, [^,.;]{{1,40}},)? (?:just |recently )?"
    rf"(?:started|began|begun))? (?:seeing|dating) "
    rf"(?:(?:someone|somebody|a (?:guy|girl|man|woman))(?: new)?(?=$|[,.!;]| and)|(?P<names>{_NAME}))|"
    rf"(?:\bi(?:'m| am| got| just got|'ve been| have been)?|^(?:been|got|just got)) (?:engaged|married) to "
    rf"(?P<names2>{_NAME})\b|"
    rf"\bi(?: just)? married (?P<names3>{_NAME})\b|\bi'm in a relationship with (?P<names4>{_NAME})\b", _I)
# Names for the last nameless one: "His name is Churro", "we named her Luna"
_NAMING = re.compile(
    rf"(?:^|[,;:] |\band )(?:(?:his|her|their|its) (?:names? (?:is|are)|name's|name:?)|"
    rf"(?:he|she|it)(?:'s| is) (?:called|named)|they(?:'re| are) (?:called|named)|"
    rf"(?:(?:we|i)(?:'ve| have)? )?(?:named|called) (?:him|her|it|them)|(?:i|we) call (?:him|her|it|them)|"
    rf"the (?P<kind>{RELATION_WORD}) (?:is|'s) (?:called|named)|"
    rf"an? (?:[\w-]+ )?(?P<kind2>{PET_WORD}) (?:called|named)) "
    rf"(?P<names>{_NAMES})\b", _I)
_PARTNER = "|".join(sorted(words_for("partner"), key=len, reverse=True))
_BREAKS = (
    re.compile(rf"(?:^|[,;] |\band )(?P<names>{_NAME}) and i (?:just |finally |recently |have |'ve )?"
               rf"{BREAK_UP}\b", _I),
    re.compile(rf"\b(?:my|our) {_MOD}(?P<rel>{_PARTNER})(?: (?P<names>{_NAME}))? and i (?:just |finally |recently )?"
               rf"{BREAK_UP}\b", _I),
    re.compile(rf"\bi (?:just |finally |recently )?(?:broke up|split up|split|separated) with (?:(?:my|our) {_MOD}"
               rf"(?P<rel>{_PARTNER})(?: (?P<names>{_NAME}))?|(?P<names2>{_NAME}))", _I),
    re.compile(rf"\bi (?:just |finally )?(?:divorced|dumped|left) (?:my {_MOD}(?P<rel>{_PARTNER})"
               rf"(?: (?P<names>{_NAME}))?|(?P<names2>{_NAME})(?! to\b))", _I),
    re.compile(rf"(?:^|[,;] )(?:(?:my|our) (?P<rel>{_PARTNER})(?: (?P<names>{_NAME}))?|(?P<names2>{_NAME})) "
               rf"(?:dumped|left|divorced|broke up with) me\b", _I),
    re.compile(rf"^we (?:just |finally |recently |have |'ve )?{BREAK_UP}\b", _I),
    # "me and jess broke up": between "me and" and a break-up verb only a name fits, written as it may be
    re.compile(rf"(?:^|[,;] )(?:me and (?P<names>[a-z][a-zà-ÿ]+)|(?P<names2>[a-z][a-zà-ÿ]+) and me) "
               rf"(?:just |finally |recently )?{BREAK_UP}\b", _I),
)
_GONE = re.compile(
    rf"\b(?:my|our) {_MOD}{_REL}(?:,? (?P<names>{_NAME}),?)? (?:just |recently |sadly )?(?:died|passed away|passed|"
    rf"was put down|had to be put down)\b|\bwe (?:lost|had to put down) (?:my|our) {_MOD}(?P<rel2>{RELATION_WORD})"
    rf"(?: (?P<names2>{_NAME}))?\b", _I)
_FACT = re.compile(
    rf"^(?:my|our) {_MOD}{_REL}{_AFTER_REL}(?:,? (?P<names>{_NAME}),?)? (?P<said>(?:is|are|was|were|'s|lives|live|"
    rf"works|work|loves|love|likes|like|have|"
    rf"hates|has|plays|studies|teaches|speaks|eats|prefers|enjoys|adores|was born|turned|turns|just turned|"
    rf"can't|doesn't|does not|cannot|never|always) .+)$", _I)
_NAMING_ONLY = re.compile(rf"^(?:is|'s|are) (?:called|named)\b|^'s name|^(?:is|'s) {_NAME}$", _I)
# "divorced from Mark since 2019", "I'm separated from my husband"
_BROKE_FROM = re.compile(rf"(?:^|\bi(?:'m| am|'ve been| have been| got) )(?:just |recently |finally )?"
                         rf"(?:divorced|separated) from (?:my {_MOD}(?P<rel>{_PARTNER})(?: (?P<names>{_NAME}))?|"
                         rf"(?P<names2>{_NAME}))", _I)
# Who the user does things with is in their life: "my older sister and I", "me and my ex-wife"
_TOGETHER = re.compile(rf"(?P<me>\bme and )?\b(?:my|our) {_MOD}{_REL}{_AFTER_REL}(?(me)(?! {_NAME})|,? and (?:i|me)\b)"
                       r"(?!(?:'re| are) (?:getting divorced|divorcing|splitting|separating|breaking up))", _I)
# "my husband's away", "mum's in hospital": "'s" for "is" before a state, after "my X" or a bare parent's word
_CONTRACTED = re.compile(rf"^(?:(?:my|our) {_MOD}{_REL}|(?P<kin>mum|mom|mam|dad|grandma|grandpa|nan|nana|gran|granny|"
                         r"grandad))(?:'s| is) (?:away|home|in|at|off|out|back|not|been|got|always|never|so|really|"
                         r"very|still|also|just|from|an?|\d+|turning|going|coming|getting|moving|staying|visiting|"
                         r"working|starting|retired|pregnant|sick|ill|allergic)\b", _I)
_KEEP_NAMELESS = frozenset({"partner", "ex_partner", "child", "parent", "sibling", "grandparent", "grandchild", "pet"})


def mentions_in(text: str) -> list[PersonMention]:
    """The people and pets the user's message ``text`` tells about (see the module docstring)."""
    if is_not_the_user(text):
        return []
    found: list[PersonMention] = []
    text = _EMOJI.sub(". ", QUOTED.sub(" ", CAPTION.sub("", text)))  # an emoji ends a sentence
    for sentence in statements(_capitalised(text) if text == text.lower() else text):
        body = _FILLER.sub("", RUN_ON_NAMING.sub(r"\g<w>,", sentence.strip()))
        if body.endswith("?"):  # "can you help me write a card for my sister Leah?" still says who Leah is
            asked = screens.SUPPOSED.search(screens.REQUEST.sub("", body)) or _NAMING_ASKED.search(body)
            if not asked:  # "should I tell my boyfriend Liam?" still says who Liam is
                found += [_mention(m["rel"], n) for m in _NAMED[0].finditer(body) for n in _names(m["names"])]
                found += [_mention(p.word, p.name) for p in parsed_people(body) if p.name is not None]
            body = statement_before_question(body) or ""
        cue = HYPOTHETICAL.search(body)
        found += _past_cue(body[cue.start():]) if cue is not None else []
        body = body[:cue.start()] if cue is not None else body  # what comes before "if", "would", ... stands
        if not body.strip():
            continue
        found = _named_later(found + _sentence_mentions(body.rstrip(".! ")), body)
    return merged([m for m in found if m.name is not None or (m.relation in _KEEP_NAMELESS and _lasting(m))])


def _past_cue(rest: str) -> list[PersonMention]:
    """Who "my aunt Maria" is stands after a want or a plan ("I want to thank my aunt Maria"); not after a
    supposition, fiction or naming ("if my sister Anna ...", "I might name my daughter Rose").
    """
    if screens.SUPPOSED.search(rest) or _NAMING_ASKED.search(rest):
        return []
    return [_mention(m["rel"], n) for m in _NAMED[0].finditer(rest) for n in _names(m["names"])
            if not (screens.GIVING.search(rest, 0, m.start()) and not screens.OBJECT_AFTER.match(rest, m.end()))]


def _sentence_mentions(body: str) -> list[PersonMention]:
    out: list[PersonMention] = []
    for pattern in _NAMED:
        out += [_mention(m["rel"], name) for m in pattern.finditer(body) for name in _names(m["names"])
                if not (screens.GIVING.search(body, 0, m.start()) and not screens.OBJECT_AFTER.match(body, m.end()))
                and not screens.ADDRESSED.search(body, 0, m.start())]
    out += [_mention(p.word, p.name, existing=p.name is None) for p in parsed_people(body)]  # people_parse.py
    for m in _HAS.finditer(body):
        given = screens.BOUGHT_FOR.search(m.group(0)) and not screens.OBJECT_AFTER.match(body, m.end())
        if given and relation_of(m["rel"]) != "pet":
            continue  # "I bought my son Lego": a person is bought for, not bought
        out += [_mention(m["rel"], name, existing=True) for name in _names_or_none(m["names"])]
        end = m.end()
        while (more := _MORE.match(body[end:])) is not None:
            out += [_mention(more["rel"], name, existing=True) for name in _names_or_none(more["names"])]
            end += more.end()
    for m in _DATING.finditer(body):
        named = m["names"] or m["names2"] or m["names3"] or m["names4"]
        out.append(PersonMention(name=_name(named), relation="partner", fact=_EXISTS))
    ended = len(out)
    for pattern in (*_BREAKS, _BROKE_FROM):
        for m in (m for m in pattern.finditer(body) if not screens.OBJECT_AFTER.match(body, m.end())):
            groups = m.groupdict()
            named, word = groups.get("names") or groups.get("names2"), groups.get("rel")
            out.append(PersonMention(name=_name(named), relation="ex_partner", ended=True, word=word and word.lower()))
    for m in _GONE.finditer(body):
        rel, named = m["rel"] or m["rel2"], m["names"] or m["names2"]
        out.append(replace(_mention(rel, _name(named)), ended=True))
    if len(out) == ended:  # "my ex and I split up" ends a relation; only then is "and I" no news; first, as
        out = [_mention(m["rel"], None, existing=True) for m in _TOGETHER.finditer(body)] + out  # not the one named
    if (said := _CONTRACTED.match(body)) is not None:
        out.append(_mention(said["kin"] or said["rel"], None, existing=True))
    first = clauses(body)[0] if body.strip(" .!") else body  # "... lives in Rome and I have a dog": Rex is not hers
    fact = _FACT.match(first) or _FACT.match(body)
    if fact is not None and not _NAMING_ONLY.match(fact["said"]):
        lasting = not _TRANSIENT.match(fact["said"])  # "my mom is sick today": she exists, the rest passes
        said = third_person(fact.string) if lasting else _EXISTS
        out.append(replace(_mention(fact["rel"], _name(fact["names"])), fact=said))
    return [m for m in out if m.relation]


def _capitalised(text: str) -> str:
    """A message written all in lower case with the words in name slots capitalised ("my son oliver is 7")."""
    def cap(m: re.Match[str]) -> str:
        group = next(g for g in ("w", "w2", "w3", "w4") if m[g])
        word = m[group]
        verb = word.endswith("ing") or word.endswith("ed") and len(word) > 5 and not word.endswith("mmed")
        if word in NOT_NAMES | OWNED_THINGS or relation_of(word) is not None or verb:  # "my daughter graduated"
            return m.group(0)
        start = m.start(group) - m.start()
        return m.group(0)[:start] + word.capitalize() + m.group(0)[start + len(word):]
    return _NAME_SLOT.sub(cap, text)


def _named_later(found: list[PersonMention], body: str) -> list[PersonMention]:
    """"His name is Churro": the last nameless mention gets the name (none before: nothing to name);
    "the dog is called Bruno", the last nameless dog.
    """
    m = _NAMING.search(body)
    nameless = [i for i, p in enumerate(found) if p.name is None and not p.ended]
    if m is not None and (kind := m["kind"] or m["kind2"]):
        said = _mention(kind, None)
        nameless = [i for i in nameless if (found[i].relation, found[i].species) == (said.relation, said.species)]
    if m is None or not nameless:
        return found
    names = _names(m["names"])
    if not names:
        return found
    last = found[nameless[-1]]
    return found[:nameless[-1]] + [replace(last, name=n) for n in names] + found[nameless[-1] + 1:]


def _mention(word: str, name: str | None, existing: bool = False) -> PersonMention:
    relation = relation_of(word) or ""
    species = species_of(word) if relation == "pet" else None
    return PersonMention(name=name, relation=relation, species=species, fact=_EXISTS if existing else None,
                         word=re.sub(r"\s+", " ", word.lower()))


def _names_or_none(raw: str | None) -> list[str | None]:
    """The names, or one None for a nameless mention."""
    return [*_names(raw)] or [None]


def _names(raw: str | None) -> list[str]:
    return [n for part in re.split(r", | and | & ", raw or "") if (n := _name(part)) is not None]


def _name(raw: str | None) -> str | None:
    word = (raw or "").strip()
    no_name = {word.lower(), word.lower().removesuffix("s")} & NOT_NAMES  # "Sundays" as "Sunday"
    return word[:1].upper() + word[1:] if word and not no_name else None


def _lasting(mention: PersonMention) -> bool:
    """Whether a nameless mention says something worth a record: they exist, ended, or a fact."""
    return mention.ended or mention.fact is not None
