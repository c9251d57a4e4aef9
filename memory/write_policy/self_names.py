"""How people give their own name in chat: "I'm Marta.", "Hola! I'm Ines, …", "Callum here", "call me Jo".

"I'm X" is also how people say what they are ("I'm Spanish", "I'm Fine, thanks", "I'm Marta's
husband"), so the short form needs a capitalised word that is not a nationality, a faith, a
day, a mood or another word of state, standing alone or before a greeting's usual tail
("by the way", "from Texas", "nice to meet you"). A lower-case name is believed only straight
after a greeting ("heyy im bella lol"), from a writer who never capitalises.
The forms run after every other statement pattern, so a clause another pattern reads is never
taken for a name.
"""

from __future__ import annotations

import re

from memory.write_policy.patterns import Pattern, rule

_I = re.IGNORECASE
NOT_A_NAME = frozenset("""
not a an the so very really just here there back fine good great ok okay sorry new glad happy tired going looking
trying from in at on later anytime when if maybe crazy whatever anything it that secret private my your his her their
ready done home sure well busy free sick ill bored hungry thirsty starving exhausted stuck lost confused alone awake
asleep late early up out off down over still also only always never afraid scared nervous excited stressed sad angry
upset mad cold hot warm single married engaged divorced retired pregnant vegan vegetarian veggie keto halal kosher
english british scottish welsh irish american canadian mexican brazilian argentinian chilean colombian peruvian
spanish catalan portuguese french german austrian swiss dutch belgian danish swedish norwegian finnish icelandic
polish czech slovak hungarian romanian bulgarian greek turkish russian ukrainian italian maltese croatian serbian
bosnian slovenian albanian lithuanian latvian estonian israeli palestinian lebanese syrian iraqi iranian persian
egyptian moroccan algerian tunisian nigerian ghanaian kenyan ethiopian somali african south indian pakistani
bangladeshi nepali sri lankan chinese japanese korean vietnamese thai filipino indonesian malaysian singaporean
australian kiwi european asian latina latino hispanic arab jewish muslim christian catholic protestant hindu buddhist
sikh atheist agnostic mormon black white asian gay straight bi queer trans nonbinary monday tuesday wednesday
thursday friday saturday sunday january february march july august september october november
december christmas easter god jesus lord mr mrs ms miss dr doctor professor sir madam mum mom dad team everyone
""".split())
_WORD = r"[^\W\d_][^\W\d_'-]*"
_CAPITAL = r"(?-i:[A-ZÀ-ÖØ-Þ])"
_CAP_WORD = rf"{_CAPITAL}(?-i:[a-zß-öø-ÿ'-])+"
_TAIL = (r"(?:\s*[,(—–-]\s*.*|\s+(?:by the way|btw|here|from (?-i:[A-Z]).*|nice to meet you.*|with .*|and .*|"
         r"lol|haha|speaking))?")
GREETING = (r"(?:hi+|hello+|hey+|heya|hiya|howdy|yo|hola|ola|olá|salam|salaam|ciao|bonjour|hallo|g'day|gday|"
            r"namaste|konnichiwa|hej|hei|ahoj|merhaba|shalom|aloha|sup|greetings|good (?:morning|afternoon|evening)|"
            r"morning|evening|dzień dobry)")
_GREETING_NAME = re.compile(
    rf"^{GREETING}(?: there| all| everyone)?\W*\s*(?:(?:i'm|im|i am|this is|it's|its|my name's|my name is|"
    rf"the name's|the name is) (?P<v>{_WORD})|(?P<w>{_CAP_WORD}) here)"
    r"(?=\s*(?:$|[,.!:;)(—–-]|\s(?:lol|haha|here|btw|by the way|from|and|"
    r"nice to meet)\b|\s*[^\w\s]))\W*\s*",
    _I,
)
# "Allow me to introduce myself: Augustin Farrow, of Edinburgh." (a capitalised name only)
_INTRODUCED = re.compile(
    rf"^(?:(?:allow|let|permit) me (?:to )?introduce myself|to introduce myself|(?:a )?quick intro(?:duction)?)"
    rf"\s*[:,.;—–-]+\s*(?:(?:i'm|i am|my name is|my name's|the name's) )?(?P<v>{_CAP_WORD}(?: {_CAP_WORD})?)"
    r"(?=\s*(?:$|[,.!;)(—–-]|\s(?:of|from|and|here)\b))\W*\s*", _I)
_AFTER_NAME = re.compile(r"\s*(?:btw|by the way|fyi|lol|haha|here)\b\W*", _I)
# A greeting said alone before the name: "hiya. im niamh btw" reads as "hiya, im niamh btw".
BARE_GREETING = re.compile(rf"^{GREETING}(?: there| all| everyone)?\W*$", _I)
NAME_FORMS: tuple[Pattern, ...] = (
    rule(rf"^i'm (?P<v>{_CAP_WORD}(?: {_CAP_WORD})?)(?!'s)\b{_TAIL}\W*$", "identity", key="name",
         template="The user's name is {v}."),
    rule(rf"^(?:it's |this is )?(?P<v>{_CAP_WORD}) (?:here|speaking)\b{_TAIL}\W*$", "identity", key="name",
         template="The user's name is {v}."),
    rule(rf"^this is (?P<v>{_CAP_WORD})\W*$", "identity", key="name", template="The user's name is {v}."),
    rule(rf"^(?:my (?:friends|mates|family)|everyone|everybody|people|most people) calls? me (?P<v>{_CAP_WORD})\b",
         "identity", key="preferred_name", template="The user likes to be called {v}."),
)


def greeting_name(body: str) -> tuple[str, int] | None:
    """(name, where the rest starts) for "Hi, I'm X …", "hey, Callum here" or "Allow me to introduce myself: X".
    A lower-case name only from a writer who writes all in lower case.
    """
    m = _GREETING_NAME.match(body) or _INTRODUCED.match(body)
    if m is None:
        return None
    name = m["v"] or m.groupdict().get("w")
    if name.lower() in NOT_A_NAME or (name.islower() and (body != body.lower() or re.search(r"(?:ed|ing)$", name))):
        return None
    tail = _AFTER_NAME.match(body, m.end())  # "btw, 27, live in bristol": the rest starts after "btw"
    return name[:1].upper() + name[1:], tail.end() if tail else m.end()


def name_words(value: str) -> str:
    """The name at the start of a value: "Seun at work" -> "Seun", "Fatima :)" -> "Fatima"."""
    words = []
    for word in value.split():
        if words and (word.lower() in NOT_A_NAME or not re.fullmatch(_WORD, word)):
            break
        words.append(word)
    return re.sub(r"[\W_]+$", "", " ".join(words))


def is_name(value: str) -> bool:
    """One to three words of letters, none of them a word of state, place or time."""
    words = value.split()
    return 0 < len(words) <= 3 and all(re.fullmatch(_WORD, w) and w.lower() not in NOT_A_NAME for w in words)
