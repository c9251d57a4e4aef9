"""The words that name a person's or a pet's place in the user's life, and the relation each means.

One table for the rules that read mentions (``people.py``) and ended states (``endings.py``),
the read path that recalls a person by the word the user calls them ("my girlfriend" recalls
the current partner) and the prompt line that says who someone is. A relation is one of
``RELATIONS``; a pet word also gives the species ("puppy" is a dog). ``NOT_NAMES`` are the words
the rules never take for a name.
"""

from __future__ import annotations

import re

RELATIONS = ("partner", "ex_partner", "child", "parent", "sibling", "grandparent", "grandchild", "friend",
             "colleague", "pet", "other")

# Capitalised words that are never a person's or a pet's name where the rules look for one
# ("my mom Tuesday", "my wife Totally loves it" from a writer who capitalises nothing).
NOT_NAMES = frozenset(
    "i i'm im the a an and but or so my me he she it we they his her their our this that there here who what "
    "when where why how yes no not just also too very really today tomorrow yesterday tonight monday tuesday "
    "wednesday thursday friday saturday sunday january february march april may june july august september "
    "october november december christmas easter mom mum dad god lol ok okay hi hello hey thanks please him them "
    "us you always never often usually still even now then again already recently halloween thanksgiving "
    "netflix google facebook instagram whatsapp tiktok youtube amazon uber english french spanish german italian "
    "chinese japanese covid name names totally actually literally honestly seriously finally basically definitely "
    "probably absolutely apparently secretly sometimes mostly barely hardly rarely constantly clearly obviously "
    "suddenly only kinda lowkey work".split())

# What a lower-case writer owns after "my sister" with no "'s" ("my dad car broke down"): no name.
OWNED_THINGS = frozenset(
    "phone car house room job work school homework birthday bday wedding team class teacher boss hair laptop "
    "computer bike bed food dinner lunch party game stuff clothes money flight visa health surgery appointment "
    "graduation funeral place apartment flat new old friend friends ex dog cat kids baby".split())

_WORDS: dict[str, tuple[str, ...]] = {
    "partner": ("wife", "husband", "hubby", "partner", "spouse", "girlfriend", "boyfriend", "gf", "bf",
                "fiance", "fiancé", "fiancee", "fiancée", "other half", "better half", "missus", "wifey",
                "hubs", "bae", "husbend", "hubbie", "boyfreind", "girlfreind"),
    "ex_partner": ("ex", "ex-wife", "ex-husband", "ex-girlfriend", "ex-boyfriend", "ex-partner", "ex-fiance",
                   "ex-fiancé", "ex-fiancee", "ex-fiancée"),
    "child": ("son", "daughter", "kid", "child", "baby", "toddler", "stepson", "stepdaughter", "sons", "daughters",
              "kids", "children", "twins", "twin girls", "twin boys", "eldest", "youngest", "oldest", "little one",
              "baby girl", "baby boy",
              "stepkids", "stepchildren", "daugther", "doughter", "daugter"),
    "parent": ("mom", "mum", "mother", "dad", "father", "mam", "stepmom", "stepmum", "stepdad", "stepfather",
               "stepmother", "parents", "mummy", "mommy", "daddy", "mama"),
    "sibling": ("brother", "sister", "sibling", "twin", "brothers", "sisters", "siblings", "stepbrother",
                "stepsister", "half-brother", "half-sister", "sis", "bro"),
    "grandparent": ("grandma", "grandmother", "grandpa", "grandfather", "gran", "granny", "nan", "nana",
                    "grandad", "granddad", "grandparents", "nani", "dadi"),
    "grandchild": ("grandson", "granddaughter", "grandaughter", "grandkid", "grandchild", "grandkids", "grandchildren",
                   "grandsons", "granddaughters"),
    "friend": ("friend", "best friend", "bestie", "bff", "buddy", "pal", "friends", "mate", "best mate", "mates",
               "freind"),
    "colleague": ("colleague", "coworker", "co-worker", "boss", "manager", "teammate", "colleagues",
                  "coworkers", "co-workers"),
    "other": ("aunt", "uncle", "cousin", "niece", "nephew", "neighbour", "neighbor", "roommate", "flatmate",
              "mother-in-law", "father-in-law", "son-in-law",
              "daughter-in-law", "sister-in-law", "brother-in-law", "godmother", "godfather",
              "godson", "goddaughter", "mentor", "cousins", "neice", "in-laws", "mil", "fil", "sil", "bil"),
}

# Pet words and the species each names ("pet" names none).
SPECIES: dict[str, str | None] = {
    **dict.fromkeys(("dog", "dogs", "puppy", "puppies", "pup", "pups", "doggo", "labrador", "lab", "retriever",
                     "golden retriever", "terrier", "spaniel", "poodle", "beagle", "collie", "border collie",
                     "husky", "dachshund", "pug", "bulldog", "corgi", "greyhound", "german shepherd", "chihuahua",
                     "dalmatian", "rottweiler", "schnauzer", "whippet", "labradoodle", "cockapoo", "boxer", "shepherd",
                     "golden"),
                    "dog"),
    **dict.fromkeys(("cat", "cats", "kitten", "kittens", "kitty", "tabby", "siamese", "maine coon"), "cat"),
    **dict.fromkeys(("rabbit", "rabbits", "bunny", "bunnies"), "rabbit"),
    **dict.fromkeys(("hamster", "hamsters"), "hamster"),
    **dict.fromkeys(("guinea pig", "guinea pigs"), "guinea pig"),
    **dict.fromkeys(("parrot", "parrots", "budgie", "cockatiel", "parakeet", "cockatoo", "canary"), "bird"),
    **dict.fromkeys(("tortoise", "turtle"), "tortoise"),
    **dict.fromkeys(("horse", "horses", "pony"), "horse"),
    **dict.fromkeys(("goat", "goats"), "goat"), **dict.fromkeys(("donkey", "donkeys"), "donkey"),
    **dict.fromkeys(("alpaca", "alpacas"), "alpaca"),
    **dict.fromkeys(("goldfish",), "fish"),
    **dict.fromkeys(("hen", "hens"), "chicken"),
    **dict.fromkeys(("snake", "lizard", "gecko", "ferret", "hedgehog", "chinchilla", "iguana", "axolotl"), None),
    **dict.fromkeys(("bearded dragon", "tarantula", "gerbil", "gerbils"), None),
    "pet": None, "pets": None, "fur baby": None, "furbaby": None, "fur babies": None,
}
_REPTILES = {"snake": "snake", "lizard": "lizard", "gecko": "gecko", "ferret": "ferret", "hedgehog": "hedgehog",
             "chinchilla": "chinchilla", "iguana": "iguana", "axolotl": "axolotl",
             "bearded dragon": "bearded dragon", "tarantula": "tarantula", "gerbil": "gerbil", "gerbils": "gerbil"}

WORD_RELATION: dict[str, str] = {w: rel for rel, words in _WORDS.items() for w in words} | dict.fromkeys(SPECIES, "pet")
PLURALS = frozenset({"sons", "daughters", "kids", "children", "twins", "parents", "brothers", "sisters", "siblings",
                     "grandparents", "grandkids", "grandchildren", "grandsons", "granddaughters", "friends",
                     "colleagues", "coworkers", "co-workers", "cousins", "mates", "dogs", "puppies", "pups", "cats",
                     "kittens", "rabbits", "bunnies", "hamsters", "guinea pigs", "pets", "parrots", "horses"})


def _alternation(words: list[str]) -> str:
    return "|".join(re.sub(r"^step(?=\w)", "step[- ]?", re.escape(w)).replace(r"\ ", r"\s+").replace(r"\-", "[- ]?")
                    for w in sorted(words, key=len, reverse=True))  # "stepson", "step-son", "step son"


RELATION_WORD = _alternation(list(WORD_RELATION))  # every word above, longest first
# A dictated run-on names the relative just said with no comma: "i have one daughter her name is Aisha"
RUN_ON_NAMING = re.compile(rf"\b(?P<w>{RELATION_WORD})(?= (?:his|her|their|its) name\b| (?:he|she|they)(?:'s| is| are) "
                           r"(?:called|named)\b)", re.IGNORECASE)
PET_WORD = _alternation(list(SPECIES))
# How a couple's ending is said, after "we", "X and I" or before "with my partner".
BREAK_UP = (r"(?:broke up|broken up|split up|split|separated|got divorced|divorced|called it quits|ended things|"
            r"parted ways)")


def relation_of(word: str) -> str | None:
    """The relation a word names ("girlfriend" -> partner), None for any other word."""
    return next((WORD_RELATION[w] for w in _forms(word) if w in WORD_RELATION), None)


def species_of(word: str) -> str | None:
    """The species a pet word names ("puppy" -> dog), None when it names none."""
    return next((SPECIES.get(w) or _REPTILES.get(w) for w in _forms(word) if w in SPECIES), None)


def words_for(relation: str, species: str | None = None) -> frozenset[str]:
    """Every word that names ``relation`` (a pet's: its species' words and "pet")."""
    if relation == "pet":
        return frozenset(w for w, s in SPECIES.items() if s == species or s is None or _REPTILES.get(w) == species)
    family = ("partner", "ex_partner") if relation in ("partner", "ex_partner") else (relation,)
    return frozenset(w for rel in family for w in _WORDS.get(rel, ()))


def _forms(word: str) -> tuple[str, ...]:
    """The ways a word may be written in the table: "ex wife", "ex-wife", "exwife", "collies"."""
    plain = re.sub(r"\s+", " ", word.strip().lower())
    return plain, plain.replace(" ", "-"), plain.replace("-", " "), plain.replace("-", ""), plain.removesuffix("s")
