"""The words ``ending_parse.py`` reads endings by: cessation verbs by lemma, and the kinds of thing they end.

Kept apart from the reader so its rules fit on a page; each set says which verbs or objects it holds.
"""

from __future__ import annotations

import re

from memory.write_policy.ending_forms import ANYMORE as ANYMORE_WORDS

_I = re.IGNORECASE
# A pause or a moment, not an ending: "I quit Twitter for a week", "I closed my shop early today".
FOR_A_WHILE = re.compile(r"\b(?:for (?:a|an|one|two|three|\d+|the|a few|a couple of) (?:bit|while|second|minute|"
                          r"moment|day|days|week|weeks|month|months|weekend|night|evening|lent|now)|for lent|early|"
                          r"today|tonight|this (?:morning|afternoon|evening)|at \d|"
                          r"after (?:the first|chapter|page|episode|level|round)|"
                          r"for now|halfway|midway|by (?:mistake|accident)|until|till|for today|for the day)\b", _I)
# What says a state goes on, anywhere in the sentence: a fast kept for a season ("I gave up the biscuits
# for Lent and I'm dying"), or "still" after "used to" ("I used to live in Leeds and I still go back").
STILL_GOING = re.compile(r"\bfor (?:lent|ramadan|passover|navratri|dry january|sober october|stoptober|veganuary)\b|"
                         r"\bused to\b.*\bstill\b", _I)
ANYMORE = re.compile(rf"\b(?:{ANYMORE_WORDS}|no longer)\b", _I)
QUOTES = re.compile(r"[\"“”«»]")

HAVING = {"sell", "rehome", "trade", "scrap", "rid"}  # what was had: "I don't have X anymore"
ACCOUNTS = {"cancel", "delete", "deactivate", "close", "unsubscribe"}  # accounts and memberships only
QUITTING = {"quit", "stop", "bin", "discontinue", "ditch", "kick", "drop", "give", "come", "cut"}
LEAVING = {"leave", "resign", "retire", "drop", "graduate"}
PARTING = {"split", "break"}
MOVING = {"move", "relocate"}
PARTICLE = {"give": {"up", "away"}, "come": {"off"}, "cut": {"out"}, "trade": {"in"}, "break": {"up"}}
ACCOUNT_WORDS = {"account", "subscription", "membership", "profile", "contract", "package", "plan", "pass",
                  "policy", "card", "page", "channel", "shop", "store", "business", "company"}
# Lasting things one leaves: "I left the band", "quit the gym", "I've stopped the running club".
GROUPS = {"band", "choir", "club", "team", "gym", "church", "army", "navy", "union", "society", "course",
           "programme", "program", "job", "position", "post", "role", "firm", "company", "party", "league",
           "orchestra", "group", "university", "uni", "college", "school", "force", "service", "council",
           "academy", "practice", "congregation", "mosque", "temple", "synagogue", "cult", "faith"}
# Lasting things one has: "we sold the caravan", "gave away the dog".
HAD = {"car", "van", "motorbike", "motorcycle", "scooter", "bike", "boat", "caravan", "campervan", "house",
        "flat", "apartment", "allotment", "business", "shop", "restaurant", "cafe", "bakery", "salon", "studio",
        "farm", "piano", "horse", "dog", "cat", "puppy", "kitten", "rabbit", "hamster", "parrot", "pony",
        "cottage", "bungalow", "plot", "truck", "jeep", "moped", "yacht", "lorry", "land", "chickens", "hens"}
# Habits named by a gerund that may parse as a noun: "I kicked the vaping".
HABITS = {"smoking", "vaping", "drinking", "gambling", "snacking", "boozing", "betting", "partying", "clubbing",
          "dieting", "fasting", "jogging", "running", "doomscrolling", "scrolling", "overeating", "bingeing"}
MEDS = {"meds", "medication", "medicine", "pill", "pills", "antidepressant", "antidepressants", "tablets",
         "insulin", "steroids", "inhaler"}
# Things of a moment, whoever owns them: "I left my keys", "I cancelled my appointment".
MOMENTARY = {"key", "keys", "wallet", "purse", "bag", "phone", "umbrella", "jacket", "coat", "glasses",
              "meeting", "appointment", "order", "flight", "booking", "reservation", "trip", "call", "plan",
              "plans", "date", "session", "message", "comment", "post", "photo", "picture", "tweet", "email",
              "text", "ticket", "tickets", "timer", "alarm", "game", "match", "party", "room", "office", "window",
              "door", "tab", "video", "film", "movie", "show", "book", "books", "music", "song", "engine",
              "lesson", "class", "homework", "essay", "draft", "file", "bill", "fight", "argument", "bus",
              "train", "motorway", "road", "day", "night", "ending", "crossword", "puzzle", "search", "stuff",
              "things", "clothes", "food", "leftovers", "lights", "light", "tap", "oven", "chance",
              "textbook", "textbooks", "notes", "ball", "printer", "dishwasher", "laptop", "computer", "tv",
              "points", "soul", "heart", "life", "time", "self", "vote", "idea", "washing", "laundry"}
SPEAKER = {"i", "we"}
SAYING = {"say", "tell", "think", "believe", "claim", "hear", "mean", "write", "read", "reckon", "ask", "pretend",
           "imagine", "wish", "shout", "scream", "joke", "text", "post"}
# Where one comes off a road or a stage, not a medication.
OFF_PLACES = {"motorway", "road", "bus", "train", "plane", "ladder", "stage", "pitch", "field", "phone", "call",
               "bench", "bike", "horse", "boat", "roof", "wall", "track", "path", "list", "fence", "ramp", "hook"}
HEDGES = {"almost", "nearly", "never", "not", "n't", "nt", "hardly", "barely", "temporarily", "briefly"}
BARE_GROUPS = {"uni", "university", "college"}  # left with no article: "I left uni"
# Days, months and feasts: "I cancelled Christmas", "I gave up Sundays" end no state.
NOT_THINGS = {"christmas", "easter", "thanksgiving", "halloween", "diwali", "eid", "hanukkah", "ramadan", "lent",
              "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekend", "weekends",
              "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
              "november", "december", "year", "month", "week", "birthday", "holiday", "holidays", "vacation",
              "seat", "place", "spot", "turn", "chair", "table", "space", "slot", "lunch", "dinner", "breakfast",
              "materials", "it", "everything", "hope", "control", "trying", "work"}
# The prepositions whose object is the ended thing, by verb ("resigned from Aviva", "came off the pill").
PREPS = {"leave": ("of", "out"), "resign": ("from",), "graduate": ("from",), "retire": ("from",),
         "drop": ("of", "out"), "rid": ("of",), "come": ("off",), "trade": ("in",), "unsubscribe": ("from",),
         "cancel": ("of",), "give": ("of",)}
