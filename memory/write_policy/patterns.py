"""The rule extractor's allow-list: which first-person statements are durable.

Only statements matching one of these patterns are stored, so moods, requests and
small talk ("I'm tired", "I'd like a poem") fall through by default. Patterns run
on one clause at a time, after "I am" has become "I'm" and "do not" "don't".
Keyed patterns come first: a clause that fills a profile slot should not also
become a loose fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memory.words import alternation, diets, relatives
from memory.write_policy.people_words import PET_WORD

DIETS = alternation(diets())  # memory/words.toml [diets], shared with the answer check
OCCUPATIONS = (
    r"teacher|nurse|doctor|engineer|developer|programmer|lawyer|chef|cook|student|designer|"
    r"accountant|architect|scientist|researcher|writer|journalist|photographer|pharmacist|dentist|"
    r"firefighter|farmer|pilot|electrician|plumber|carpenter|mechanic|consultant|manager|analyst|"
    r"librarian|professor|lecturer|translator|musician|artist|actor|actress|therapist|psychologist|"
    r"veterinarian|vet|paramedic|surgeon|baker|barista|cashier|driver|secretary|entrepreneur|"
    r"freelancer|tutor|coach|editor|economist|physicist|chemist|biologist|mathematician|"
    r"statistician|police officer|social worker|civil servant|nanny|soldier|intern|data scientist|"
    r"product manager|web developer|software engineer|dev|(?:phd|grad|graduate|medical|law) student|"
    r"tech|technician|clerk|receptionist|bookkeeper|caregiver|carer|hairdresser|midwife|optician|welder|tailor|"
    r"waiter|waitress|bartender|flight attendant|dietitian|nutritionist|physiotherapist|physio|counsellor|counselor|"
    r"recruiter|realtor|estate agent|banker|auditor|solicitor|attorney|paralegal|curator|archivist|illustrator|"
    r"animator|copywriter|marketer|instructor|trainer|lifeguard|pastor|priest|rabbi|imam"
)
# Where a job is done, for "I moved to the day clinic" (a place in town is a location, not a workplace).
WORKPLACES = (
    r"clinic|hospital|ward|practice|surgery|office|branch|department|dept|team|unit|lab|laboratory|school|"
    r"nursery|college|university|firm|company|agency|studio|store|shop|restaurant|kitchen|bakery|cafe|factory|"
    r"plant|warehouse|depot|site|station|newsroom|desk|headquarters|hq|campus|pharmacy|library"
)
LANGUAGES = (
    r"english|french|german|spanish|italian|portuguese|dutch|swedish|norwegian|danish|finnish|"
    r"polish|czech|russian|ukrainian|greek|turkish|arabic|hebrew|persian|farsi|hindi|urdu|bengali|"
    r"punjabi|tamil|mandarin|cantonese|chinese|japanese|korean|vietnamese|thai|indonesian|malay|"
    r"tagalog|swahili|hungarian|romanian|catalan|basque|welsh|irish|icelandic|esperanto|latin"
)
HEALTH = (r"(?:type [12] )?diabetes|asthma|adhd|autism|epilepsy|(?:celiac|coeliac)(?: disease)?|migraines|"
          r"high blood pressure|hypertension|dyslexia|arthritis|a bad (?:back|knee|hip|shoulder|ankle|neck|wrist)|"
          r"a heart condition|"
          r"tinnitus|lupus|crohn's(?: disease)?|chronic \w+ pain")
RELATIVES = alternation(relatives("rules"))  # memory/words.toml [relatives]
POSSESSIONS = (rf"{PET_WORD}|kids?|children|sons?|daughters?|brothers?|sisters?|siblings?|husband|wife|"
               r"partner|boyfriend|girlfriend|grandchildren|grandkids|twins|baby|car|bike|motorcycle|house|flat|"
               r"apartment|garden|boys|girls")
ACTIVITIES = (r"play|practice|practise|collect|volunteer|teach|study|knit|paint|surf|ski|climb|hike|"
              r"swim|run|cycle|garden|meditate|sing|dance|cook|bake|read|watch|listen to|use|code in|"
              r"program in|drive|own|ride|attend|support|follow|eat|drink")
PREFERENCES = r"prefer|like|love|enjoy|adore|hate|dislike|detest|can't stand|don't like|don't enjoy"


@dataclass(frozen=True)
class Pattern:
    """One durable-statement pattern.

    ``template`` renders a keyed fact from its value ("{v}", or "{a_v}" for the
    value with an article); without one the clause itself is rewritten in the
    third person. ``cut`` trims the value at the first trailing phrase ("Paris
    with my wife" -> "Paris"), which suits names and places but not lists.
    """

    pattern: re.Pattern[str]
    category: str
    key: str | None = None
    template: str | None = None
    cut: bool = False
    importance: int = 5


def rule(pattern: str, category: str, **kw: object) -> Pattern:
    """A case-insensitive ``Pattern`` (shared by every module that adds statement forms)."""
    return Pattern(re.compile(pattern, re.IGNORECASE), category, **kw)  # type: ignore[arg-type]


Rewrite = tuple[re.Pattern[str], str]


def rewrites(pairs: Iterable[tuple[str, str]]) -> tuple[Rewrite, ...]:
    """Case-insensitive (pattern, replacement) pairs that bring a form to the clause the patterns read."""
    return tuple((re.compile(pattern, re.IGNORECASE), replacement) for pattern, replacement in pairs)


def rewritten(text: str, *tables: Sequence[Rewrite]) -> str:
    """``text`` with each table's substitutions applied in order, table after table."""
    for table in tables:
        for pattern, replacement in table:
            text = pattern.sub(replacement, text)
    return text


PATTERNS: tuple[Pattern, ...] = (
    rule(r"^my name(?: is|'s) (?P<v>.+)$", "identity", key="name", template="The user's name is {v}.", cut=True),
    rule(r"^(?:please |just |you can |feel free to )?call me (?P<v>(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)?)\b",
         "identity", key="preferred_name",
         template="The user likes to be called {v}.", cut=True),
    rule(r"^i go by (?P<v>.+)$", "identity", key="preferred_name", template="The user likes to be called {v}.",
         cut=True),
    rule(r"^my pronouns are (?P<v>\w+/\w+(?:/\w+)?)", "identity", key="pronouns",
       template="The user's pronouns are {v}."),
    rule(r"^i use (?P<v>\w+/\w+(?:/\w+)?) pronouns", "identity", key="pronouns",
         template="The user's pronouns are {v}."),
    rule(r"^i'm (?P<v>\d{1,3})(?: years old| years| yo)?(?:,.*)?$", "identity", key="age",
       template="The user is {v} years old."),
    rule(r"^(?:my birthday is|i was born on) (?:on )?(?P<v>.+)$", "identity", key="birthday",
       template="The user's birthday is {v}.", cut=True),
    rule(r"^my time ?zone is (?P<v>.+)$", "location", key="timezone", template="The user's time zone is {v}.",
         cut=True),
    rule(r"^(?:i|we)(?: currently| now)? (?:live|reside)(?: together)? in (?P<v>.+)$", "location", key="location",
       template="The user lives in {v}.", cut=True),
    rule(r"^(?:i'm|we're) (?:currently |now )?(?:living|based) in (?P<v>.+)$", "location", key="location",
       template="The user lives in {v}.", cut=True),
    rule(r"^(?:i|we)(?: currently| now)? (?:live|reside)(?: together)? (?:on|in|at) (?:an?|the) [\w -]+? in "
       r"(?P<v>(?-i:[A-Z]).+)$", "location", key="location", template="The user lives in {v}.", cut=True),
    rule(r"^(?:i|we)(?: currently| now)? (?:live|reside) (?P<v>(?:just |right )?(?:outside|near) .+)$", "location",
       key="location", template="The user lives {v}.", cut=True),
    rule(r"^(?:i|we) (?:just |recently )?(?:moved|relocated) to (?P<v>.+)$", "location", key="location",
       template="The user lives in {v}.", cut=True),
    rule(r"^(?:i grew up|i was raised|i was born(?: and raised)?) (?:on|in|at|near) (?:an?|the) [\w -]+? in "
       r"(?P<v>(?-i:[A-Z]).+)$", "identity", key="hometown", template="The user is from {v}.", cut=True),
    rule(r"^i was born in (?P<v>(?:19|20)\d\d)$", "identity"),
    rule(r"^(?:.*?\b)?my (?:home ?town|home country|home city|birthplace)(?:,| is| was|'s)? "
       r"(?P<v>(?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)?)", "identity", key="hometown",
       template="The user is from {v}."),
    rule(r"^(?:i'm (?:originally )?from|i grew up in|i was born in) (?P<v>[a-z].+)$", "identity", key="hometown",
       template="The user is from {v}.", cut=True),
    rule(rf"^i'm (?:(?:a|an) )?(?:strict |strictly |fully )?(?P<v>{DIETS})$", "diet", key="diet",
       template="The user is {v}."),
    rule(rf"^i (?:follow|eat|keep|stick to) (?:a |an )?(?P<v>{DIETS}|low[- ]carb|low[- ]fodmap|mediterranean)"
         r"(?: diet)?$",
       "diet", key="diet", template="The user follows a {v} diet."),
    rule(r"^i'm on an? (?P<v>[\w-]+(?: [\w-]+)?) diet$", "diet", key="diet", template="The user follows a {v} diet."),
    rule(r"^i'm (?:\w+ )?allergic to (?P<v>.+)$", "health", key="allergies"),
    rule(r"^i have an allergy to (?P<v>.+)$", "health", key="allergies"),
    rule(r"^i have (?:a |an )?(?:severe |mild |bad )?(?P<v>[\w -]+?) allerg(?:y|ies)$", "health", key="allergies"),
    rule(rf"^(?:i speak|we speak|i'm fluent in|my (?:native|first|mother) (?:language|tongue) is) "
       rf"(?P<v>.*\b(?:{LANGUAGES})\b.*)$",
       "language", key="language"),
    rule(rf"^i'm a native (?P<v>{LANGUAGES}) speaker$", "language", key="language"),
    rule(r"^(?:i work as|i'm working as|i'm employed as|my job is|my profession is) (?:(?:a|an) )?(?P<v>.+)$", "work",
       key="occupation", template="The user works as {a_v}.", cut=True),
    rule(rf"^i'm (?:a|an) (?P<v>(?:[\w-]+ ){{0,3}}(?:{OCCUPATIONS}))(?: (?:at|in|for|by|from) .*|,.*)?$", "work",
       key="occupation", template="The user is {a_v}."),
    rule(r"^i'm (?P<v>retired|unemployed|self-employed|a stay-at-home (?:mom|dad|parent))$", "work",
       key="occupation", template="The user is {v}."),
    # "I moved to the day clinic", "I transferred to the Leeds branch", "I'm now at the children's ward"
    rule(rf"^(?:i (?:just |recently |finally )?(?:moved|transferred|switched|got transferred|was transferred)"
         rf"(?: over)? to|i'm now (?:at|in|on)|i now work (?:at|in|on|for)) (?P<v>(?:the|a|an|another) "
         rf"(?:(?!of\b)[\w'-]+ ){{0,3}}(?:{WORKPLACES}))(?: (?:in|at|on) .+)?$", "work", key="employer",
         template="The user works at {v}."),
    rule(r"^i work (?:at|for) (?P<v>(?!home\b|myself\b).+)$", "work", key="employer",
       template="The user works at {v}.", cut=True),
    rule(r"^i'm (?P<v>married|single|engaged|divorced|widowed|separated|in a relationship)$", "family",
       key="relationship_status", template="The user is {v}."),
    rule(r"^my (?:favou?rite|fave) (?P<k>[a-z][a-z ]{0,30}?) (?:is|are) (?P<v>.+)$", "preference", importance=4),
    rule(rf"^i have (?P<v>{HEALTH})\b", "health", importance=8),
    rule(r"^i'm (?P<v>(?:type [12] )?diabetic|sober|(?:celiac|coeliac)|colou?r ?blind|deaf|hard of hearing|blind|"
       r"dyslexic|autistic|epileptic|asthmatic|"
       r"(?:lactose|gluten|fructose)[- ]intolerant|left[- ]handed|an? (?:early bird|night owl|morning person))$",
       "health", importance=7),
    rule(rf"^(?:i|we|my \w+ and i) (?:have|own) (?:a|an|one|two|three|four|five|\d+) "
       rf"(?:[\w-]+ ){{0,2}}(?P<v>{POSSESSIONS})\b",
       "family"),
    rule(rf"^my (?P<v>{RELATIVES})(?: (?-i:[A-Z])[\w'-]+)?(?:'s name)? (?:is|are|'s|lives|works|loves|likes|has) "
       r"(?!(?:sick|ill|tired|sad|upset|angry|late|busy|away|here|home|asleep|hungry|coming|visiting|waiting|out|"
       r"not|being|going)\b).+$", "family"),
    rule(r"^i'm (?:a |an )(?P<v>(?:proud |single |working |stay-at-home )?"
       r"(?:mom|mother|dad|father|parent|grandmother|grandfather|grandparent)\b.*)$",
       "family"),
    rule(r"^i'm (?P<v>an only child|the (?:eldest|oldest|youngest|middle) "
       r"(?:of \w+|child|kid|sibling|son|daughter)\b.*)$",
       "family"),
    rule(r"^(?:i'm|we're) (?P<v>expecting (?:a|our|my) (?:first |second |third |\w+ )?(?:baby|child|kid)\b.*)$",
       "family"),
    rule(r"^i have (?P<v>an? (?:phd|ph\.d\.?|doctorate|master's|masters|bachelor's|bachelors|degree|msc|bsc|mba|ma|"
       r"ba)\b.*)$",
       "identity"),
    rule(r"^i'm an? (?P<v>aries|taurus|gemini|cancer|leo|virgo|libra|scorpio|sagittarius|capricorn|aquarius|pisces)$",
       "identity"),
    rule(r"^(?P<v>(?:[\w-]+ ){1,3}is what i do)(?: for (?:a living|work))?$", "work"),
    rule(r"^i (?P<v>do (?:[\w-]+ ){1,3}for a living)$", "work"),
    rule(r"^i'm (?P<v>not (?:a |an )?(?:big |huge |great )?fan of (?P<o>.+))$", "preference"),
    rule(r"^i (?:don't|never|can't|cannot) (?P<v>eat|drink) (?P<o>.+)$", "diet"),
    rule(rf"^i (?:really |absolutely |generally |also |just |much )?(?P<v>(?:{PREFERENCES}) (?P<o>.+))$", "preference"),
    rule(r"^i'm (?P<v>(?:a (?:huge |big )?fan of|into|passionate about|obsessed with) (?P<o>.+))$", "preference"),
    rule(r"^i (?P<v>(?:usually|always|often|normally|typically|regularly|never|rarely|mostly) (?P<o>.+))$", "habit"),
    rule(rf"^i (?:also )?(?P<v>(?:{ACTIVITIES}) (?P<o>.+))$", "activity"),
    rule(r"^i'm (?:a|an) (?P<v>(?:big|huge|avid|keen|passionate) \w+(?:er|or|ist|fan))\b", "preference"),
    rule(r"^i'm (?P<v>an? (?:early bird|night owl|morning person|evening person))\b", "habit"),
    rule(r"^i work (?P<v>from home|remotely|part[- ]time|full[- ]time|night shifts?|weekends|in .+)$", "work"),
    rule(r"^i'm (?:currently )?(?P<v>(?:learning|studying|training for|saving for|trying to learn) .+)$", "activity"),
)

# Objects that point at the conversation, not at a lasting taste ("I like that idea").
DEICTIC_OBJECT = re.compile(
    r"^(?:\w+ ){0,2}?(?:it|that|this|these|those|you|your|yours|what|how|when|if|them|him|her|"
    r"the (?:idea|answer|poem|response|suggestion|story|joke|plan|first|second|last|one|way|reply|"
    r"example|code|result)s?|not|to (?:know|see|ask|hear|get|have|try|go|talk|chat|think|say|be honest))\b",
    re.IGNORECASE,
)
# When a lasting change happened ("I moved to Lisbon last month"): dropped from the
# clause, so the fact is kept and the value does not carry the date.
_WHEN_CHANGED = (
    r"(?:,?\s+(?:(?:last|this past) (?:week|month|year|summer|winter|spring|autumn|fall)|"
    r"(?:a few|a couple of|several|\d+|two|three|four|five) (?:days|weeks|months|years) ago|"
    r"a (?:week|month|year) ago|in (?:19|20)\d\d|recently|a while ago|"
    r"(?:last|this past|in) (?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)))+")
SINCE = re.compile(_WHEN_CHANGED + "$", re.IGNORECASE)
# The same date before a comma, in a move ("We moved to Leeds last week, the flat is full of boxes"): dropped
# too, so the time phrase does not make the move read as a one-off.
MOVED = re.compile(r"^(?:i|we) (?:just |recently |finally )?(?:moved|relocated|transferred|switched)\b", re.IGNORECASE)
SINCE_THEN = re.compile(_WHEN_CHANGED + r"(?=\s*,)", re.IGNORECASE)
# How long something has held up to now ("for six years", "since 2019", "lately"), not a purpose ("for my
# business"): with "have been ..." it makes a lasting state or habit.
DURATION_SPAN = (r"\b(?:since|for (?:(?:about|almost|nearly|over|around|like|more than|the (?:past|last))\s+)?"
                 r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|several|many|a few|some|ages|years|"
                 r"months|decades|a while|a long time|most of my life|my (?:whole|entire) life)\b)")
DURATION = re.compile(rf"\b(?:lately|recently)\b|{DURATION_SPAN}", re.IGNORECASE)
# A stay bounded by a short span or a purpose ("we moved to Leeds for a week", "I'm living in Paris for a few
# days", "in Porto on holiday", "in Berlin for a conference"): a visit, not a home, so no location. A span of
# months or years ("for a year", "for the summer") or a reason ("for work", "for good") still makes one.
SHORT_STAY = re.compile(
    r"\b(?:for (?:(?:just |only )?(?:a|an|one|two|three|four|five|six|seven|a few|a couple(?: of)?|several|some|\d+) "
    r"(?:more |short |long )?(?:nights?|days?|weeks?|weekends?)|(?:the|a|this|that) (?:long )?weekend|"
    r"the (?:night|day|week)|(?:a|an|the|my|our|some) (?:[\w-]+ ){0,2}?(?:conference|holiday|vacation|trip|"
    r"visit|wedding|festival|break|getaway|short stay|honeymoon))|"
    r"on (?:(?:a|an|my|our|the) )?(?:[\w-]+ )?(?:holiday|vacation|trip|break|getaway|honeymoon))\b",
    re.IGNORECASE,
)
# "I live in X for two weeks" is how "I've been living in X for two weeks" reads once put in the present
# (phrasings.py), and how some speakers say it: a span up to now, so a home all the same.
_LIVE_FOR = re.compile(r"^(?:i|we)(?: currently| now)? (?:live|reside)(?: together)? (?:in|at|on|near)\b.* for\b",
                       re.IGNORECASE)


def visiting(clause: str) -> bool:
    """Whether the clause places the user somewhere only for a short stay (``SHORT_STAY``), not as a home."""
    stay = SHORT_STAY.search(clause)
    return stay is not None and not (stay.group().lower().startswith("for ") and _LIVE_FOR.match(clause))


# Clauses about the present moment: a mood or a one-off plan, not a durable fact.
TRANSIENT = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|right now|this (?:morning|afternoon|evening|week|weekend)|"
    r"at the moment|for now|just now|later|next (?:week|month|year)|last (?:night|week))\b",
    re.IGNORECASE,
)
