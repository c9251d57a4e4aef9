"""Ended states: "I've stopped being vegetarian", "I'm not vegan anymore", "I quit my job at Deloitte".

An ended state is stored as a fact with ``negation_of``, which the semantic layer uses to end
the current slot value or loose fact, keeping it in the history
(``memory/layers/semantic_records.py``). Each form is brought to the positive clause that ended
("I'm vegetarian", "I work at Deloitte"), so the slot patterns name the slot it ends; a
positive clause no pattern reads still ends a loose fact ("The user no longer smokes.").

A wrong ending deletes a true memory, so the forms are narrow: only the speaker ("I"), never a
mood or a moment ("I'm not hungry anymore", "I stopped at the shop", "I quit the game halfway").
"""

from __future__ import annotations

import re

from memory.write_policy.base import CandidateFact
from memory.write_policy.ending_forms import ANYMORE, BARE
from memory.write_policy.person import third_person
from models.word_split import reply_words

_I = re.IGNORECASE
_STOPPED = r"(?:'ve|'d| have)? (?:just |finally |recently |completely |officially )?(?:stopped|quit|given up|gave up)"
# "on" that holds a lasting state, not a moment ("on the phone"): a shift, a team, a diet, a medication.
_DURABLE_ON = (r"(?:(?:the|a|an|my) )?(?:[\w-]+ ){0,2}(?:shifts?|team|rota|diet|committee|board|council|pills?|"
               r"meds|medication|medicine|tablets|antidepressants|insulin|steroids)\b|benefits\b|the dole\b")
_QUITTING = r"(?:'ve|'d| have)? (?:just |finally |recently |completely |officially )?(?:quit|given up|gave up)"
_LEFT = rf"(?:{_QUITTING}|(?:'ve| have)? left)"
# What one quits or leaves for a moment ("I left the party", "I quit the app"), or leaves somewhere ("my keys").
_ONE_OFF_THING = (r"(?:party|meeting|room|house|office|building|shop|pub|bar|restaurant|station|table|call|chat|app|"
                  r"game|window|tab|browser|application|software|seat|place|spot|turn|saturday|"
                  r"sunday|weekend|evening|morning|afternoon|day|night|lunch|time|chance|search|fight|argument|"
                  r"struggle|race|match|queue|phone|keys|wallet|purse|bag|jacket|coat|umbrella|laptop|charger|card|"
                  r"glasses|stuff|things|lights?|door|tap|oven|note|message|tip|review|comment|car|bus|train|kids|"
                  r"children|baby|dog|cat|key|book|food|rest|remainder|leftovers)")
# States that come and go: ending one is not news for the memory.
_PASSING = re.compile(
    r"^(?:(?:so|that|very|really|too|as) )?(?:hungry|thirsty|tired|sleepy|angry|mad|sad|upset|sure|certain|sick|ill|"
    r"scared|afraid|worried|cold|hot|warm|full|bored|busy|stressed|confused|annoyed|nervous|anxious|lonely|"
    r"interested\b.*|around|here|there|able|allowed|alone|awake|asleep|free|available|in the mood|in pain|happy|well|"
    r"ok|okay|fine|good|great|myself|the same|right|home|back|out|outside|online|in touch|ready|done|in love|"
    r"excited|motivated|hopeful|convinced|comfortable|safe|in charge|in a hurry|in a rush|"
    r"(?:remember|recall|recogni[sz]e|understand|know|feel|hear|want to talk|care|mind|trust|believe|get it|think|"
    r"guess|reckon|suppose)\b.*|"
    r"need (?:help|it|that|this|to|you|the)\b.*|have (?:any |more |other |further |the )?(?:questions?|time)\b.*|"
    r"(?:going|coming) (?:to (?:the |a |my |this |that )?(?:[\w-]+ )?(?:party|wedding|concert|meeting|dinner|lunch|"
    r"event|game|match|show|gig|trip|class|appointment)|tonight|today|tomorrow|over|along|with)\b.*|coming|going|"
    r"mad at \w+|angry at \w+|upset with \w+|worried about .+|sure (?:about|what|if|how|why|whether) .*|"
    r".*\b(?:you|your|yours)\b.*|(?:want(?:ed)?|wanna|plan|intend|hope|need) to\b.*|wanna\b.*|.*\b(?:that|this|it|"
    r"them|those|these)|(?:a )?fan of .*)$",
    _I,
)
# Objects that make "I stopped/quit X" a moment, not an ended habit; after a gerund only the second
# line counts ("I stopped going to the gym" is a habit, "I stopped to buy milk" a moment).
_MOMENT_START = re.compile(rf"^(?:at|to|by|in|on(?! {_DURABLE_ON})|for|off|it|this|that|there|here|now)\b", _I)
_MOMENT = re.compile(r"\b(?:halfway|midway|early|for (?:lent|ramadan|passover|navratri|dry january|sober october|"
                     r"the (?:summer|holidays?|season|month|week))|for a (?:bit|while|second|minute|moment)|by "
                     r"(?:accident|mistake)|"
                     r"at (?:\d|midnight|noon|lunch|night|dawn|the (?:end|start|interval|break))|without saving|"
                     r"on (?:the|a) (?:bus|train|table|floor|plane|side|counter)|with (?:him|her|them|my (?:mum|mom|"
                     r"dad|parents|neighbou?r|friend|sister|brother))|"
                     r"after (?:chapter|page|episode|level|round|part|the first (?:\w+ )?(?:chapter|page|episode|few|"
                     r"lecture|class|lesson|session|meeting|hour|set|round|game|day))|"
                     r"for (?:a|an|one|two|three|four|\d+|a few|a couple of) (?:days?|weeks?|weekends?|months?|while|"
                     r"bit|night|evening)|(?:outside|behind|upstairs|downstairs|at home|"
                     r"in the (?:car|kitchen|fridge|oven|hall|garden|drawer)|on the (?:side|sofa|desk|counter|table)|"
                     r"(?:out|behind)$)|"
                     r"that (?:book|game|show|film|movie))\b", _I)
# "I'm no longer at Google" or "not at university anymore" is a state, "I stopped at Tesco" a moment.
_STAYS_AT = re.compile(r"^i'm (?:no longer|not) (?:at|in) (?:(?-i:[A-Z])|(?:uni|university|college|school|"
                       r"sixth form|law school|med school)\b|the (?:[\w-]+ )?(?:church|choir|band|army|navy|club|"
                       r"team|union|party|group|programme|program|orchestra|society|council|committee|"
                       r"congregation)\b)", _I)
_FOR_NOW = re.compile(r"\b(?:tonight|tomorrow|right now|at the moment|for now|later|next (?:week|month|year))\b", _I)
# A verb alone says too little to end anything: "I no longer work" is most often what is left of
# "I no longer work as a nurse" once its object is cut.
_BARE_VERB = re.compile(r"^(?:work|live|go|do|have|get|take|make|use|need|want|feel|stay|come|see|know|be)$", _I)
_BARE_GERUND = re.compile(r"^(?:working|living|going|doing|having|getting|taking|making|using|trying)$", _I)
_ON_MOMENT = re.compile(r"^on (?:the |a |my |an )?(?:phone|train|bus|plane|flight|way|road|call|break|holiday|"
                        r"vacation|leave|lunch|hold|board|fire|track|time|it|that|this|here|there|top|my own|a roll|"
                        r"the line|the list|the same page|speaker|mute|duty|shift today)\b", _I)
# Nouns that make a gerund before them part of a name: "dating apps", "running club", "climbing gear".
_COMPOUND_HEAD = re.compile(r"^(?:apps?|sites?|websites?|classes|lessons|shoes|games?|club|groups?|shows?|scene|"
                            r"gear|boots|team|league|app|platforms?)\b", _I)
# Gerunds that stop in a moment: "I stopped laughing".
_MOMENTARY = re.compile(r"^(?:laughing|crying|talking|listening|screaming|shouting|waiting|looking|staring|"
                        r"breathing|shaking|typing|moving|walking|thinking|worrying|panicking|trying|bothering|"
                        r"pretending|arguing|"
                        r"fighting|resisting|hoping|asking|going by)\b|^\w+ing (?:it|this|that)$",
                        _I)
# Where the ended thing's words stop: "since my knee surgery", ", 2 years sober".
_TAIL = re.compile(r"\s*(?:[,;(]|:(?!\d)|\s[-–—]\s|\s(?:since|because|as(?! (?:an?|the) )|so|but|and now|now that|"
                   r"after|"
                   r"ago|last|and (?=\w+ed\b)|then\b|"
                   r"for good|completely|totally|altogether|entirely|cold turkey|years ago|recently|"
                   r"this (?:year|month|week)|"
                   r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|a few|a couple of|several|many|some)"
                   r"(?: \w+)? (?:days?|weeks?|months?|years?|decades?)\b|"
                   r"in (?:january|february|march|april|may|june|july|august|september|october|november|december|"
                   r"(?:19|20)\d\d)|in (?:the )?(?:spring|summer|autumn|fall|winter|end)|"
                   r"and (?=(?:i|i'm|i've|haven't|have|never|now|it|it's|still|feel|am|honestly|my|so|the)\b))\b)", _I)
CESSATION: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^i no longer (?P<x>.+)$", _I), "I {x}"),
    (re.compile(r"^i'm no longer (?P<x>.+)$", _I), "I'm {x}"),
    (re.compile(rf"^i don't (?P<x>.+?) {ANYMORE}\b.*$", _I), "I {x}"),
    (re.compile(rf"^i'm not (?P<x>.+?) {ANYMORE}\b.*$", _I), "I'm {x}"),
    (re.compile(rf"^i{_STOPPED} being (?P<x>.+)$", _I), "I'm {x}"),
    (re.compile(rf"^i(?:{_STOPPED}|(?:'ve| have)? left) (?:my job|my position|working|my post) (?P<p>at|as|in|for) "
                r"(?P<x>.+)$", _I), "I work {p} {x}"),
    (re.compile(rf"^i{_STOPPED} (?P<g>[a-z]+ing)\b(?P<x>.*)$", _I), "I {g} {x}"),
    (re.compile(rf"^i{_LEFT} (?P<x>(?:the|my) (?!(?:[\w-]+ )?{_ONE_OFF_THING}\b(?! (?:shift|team|club|job|group)))"
                r"[\w -]+(?:[,;(].*)?|(?-i:[A-Z])[\w-]+(?:(?: (?-i:[A-Z])[\w-]+)*)(?: (?:after|since|last|because|"
                r"for good|in (?:january|february|march|april|may|june|july|august|september|october|november|"
                r"december)|in (?:19|20)\d\d|(?:\w+ )?\w+ (?:years?|months?) ago)\b.*)?)$", _I), "I'm in {x}"),
    # "I gave up meat", "I've quit caffeine for good": a habit said without an article.
    (re.compile(rf"^i{_QUITTING} (?P<x>{BARE}(?: [\w-]+){{0,2}}(?:[\s,;(].*)?)$", _I), "I {v} {x}"),
    (re.compile(rf"^i{_STOPPED} (?P<x>(?=(?-i:[a-z])){BARE}(?: [\w-]+){{0,2}}(?:[\s,;(].*)?)$", _I), "I {v} {x}"),
)
# The verb of a habit given up, by what was given up ("coffee": drink); others are "done".
_HABIT_VERBS = (
    ("drink", re.compile(r"\b(?:coffee|tea|alcohol|booze|beer|wine|spirits|soda|coke|fizzy drinks|energy drinks|"
                         r"caffeine|milk|juice|lager|cider|vodka|whisky|whiskey|liquor|drinks?)$", _I)),
    ("eat", re.compile(r"\b(?:meat|pork|beef|chicken|fish|seafood|dairy|cheese|eggs|sugar|gluten|bread|carbs|sweets|"
                       r"chocolate|food|takeaways?|snacks|crisps|chips|junk|desserts|cake|pasta|rice|red meat)$", _I)),
    ("smoke", re.compile(r"\b(?:cigarettes|cigs|tobacco|weed|cannabis|cigars|joints|pot)$", _I)),
    ("use", re.compile(r"\b(?:media|apps?|drugs|caffeine pills|nicotine|vapes?|snus|porn)$", _I)),
)
_GERUNDS = {"running": "run", "swimming": "swim", "shopping": "shop", "jogging": "jog", "getting": "get",
            "sitting": "sit", "putting": "put", "cutting": "cut", "planning": "plan", "dating": "date",
            "smoking": "smoke", "taking": "take", "using": "use", "living": "live", "dancing": "dance",
            "cycling": "cycle", "riding": "ride", "writing": "write", "baking": "bake", "driving": "drive",
            "making": "make", "having": "have", "giving": "give", "coming": "come", "vaping": "vape",
            "hiking": "hike", "skating": "skate", "biking": "bike", "practising": "practise", "practicing": "practice"}


def dated_ending(clause: str) -> bool:
    """Whether a time in an ending dates it ("I quit my job yesterday"), not makes it a plan or a
    moment ("I'm not drinking tonight", "I'll stop next week").
    """
    return not _FOR_NOW.search(clause)


def positive_form(clause: str) -> tuple[str, bool]:
    """'I don't play tennis anymore' -> ('I play tennis', True): the clause that ended."""
    clause = re.sub(r"[^\w)'\"]+$", "", clause)
    for pattern, template in CESSATION:
        m = pattern.match(clause)
        if m is None:
            continue
        groups = {k: v or "" for k, v in m.groupdict().items()}
        whole = groups.get("x", "")
        rest = groups["x"] = _TAIL.split(whole)[0].strip()
        gerund = groups.get("g", "")
        if _passing(clause, template, whole, rest, gerund):
            return clause, False
        if "{v}" in template:
            if len(rest.split()) > 3:  # "I gave up hope that …": not a habit's name
                return clause, False
            groups["v"] = next((verb for verb, words in _HABIT_VERBS if words.search(rest)), "do")
        if gerund and _COMPOUND_HEAD.match(rest):
            continue  # "dating apps" names a thing, not "date apps"
        if "g" in groups:
            groups["g"] = _base(groups["g"])
        return template.format(**groups).strip(), True
    return clause, False


def _passing(clause: str, template: str, whole: str, rest: str, gerund: str) -> bool:
    """Whether what "ended" is a mood, a moment or too little to name a state."""
    if _PASSING.match(rest) or _BARE_VERB.match(rest) or _MOMENT.search(whole) \
            or (not rest and _BARE_GERUND.match(gerund)) \
            or _MOMENTARY.match(f"{gerund} {rest}".strip()):
        return True
    if template.startswith("I'm {x}") and re.match(r"on ", rest, _I):
        return bool(_ON_MOMENT.match(rest))  # "not on metformin anymore" ended; "not on the phone" a moment
    return not gerund and bool(_MOMENT_START.match(rest)) and not _STAYS_AT.match(clause)


def loose_ending(positive: str, clause: str) -> CandidateFact:
    """The ending of a clause no slot or statement pattern reads: ends a loose fact of the same words.
    Its value is the user's own words for what ended ("running", not "run").
    """
    head, rest = positive.split(" ", 1)
    negative = ("I'm no longer " if head.lower() == "i'm" else "I no longer ") + rest
    m = re.match(rf"^i{_STOPPED} (?P<g>[a-z]+ing\b)", clause, _I)
    value = m["g"] + rest[len(rest.split(" ", 1)[0]):] if m and m["g"].lower() != "being" else rest
    verb, _, thing = value.partition(" ")
    if thing and not m and verb.lower() not in reply_words(clause.lower()):
        value = thing  # "I gave up coffee" ends "drink coffee": its value is the user's "coffee"
    value = re.sub(r"^(?:an?|the) ", "", value, flags=_I)  # "stopped being a smoker": the value is "smoker"
    if rest.split(" ", 1)[0].lower().endswith("ing"):  # a verb without a known base form: "caring what people think"
        return CandidateFact(text=f"The user has stopped {value}.", value=value, negation_of=f"The user keeps {value}.")
    return CandidateFact(text=third_person(negative), value=value, negation_of=third_person(positive))


def _base(gerund: str) -> str:
    """'drinking' -> 'drink'; a stem that may have lost its e ('caring') stays a gerund."""
    low = gerund.lower()
    stem = low[:-3]
    if low in _GERUNDS:
        return _GERUNDS[low]
    if len(stem) > 2 and re.search(r"(?:[^aeiou][^aeiouy]|[aeiou]{2}[^aeiou]|[wxy])$", stem):
        return stem
    return low
