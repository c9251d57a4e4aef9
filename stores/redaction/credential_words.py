"""The words around a stated credential, per language: what names it, what joins it to its value.

``stores/redaction/credentials.py`` finds a password, PIN or secret by a cue word
followed (or preceded) within a short window by a value shaped like a
credential. This module is only the lexicon, so adding a language is adding
words here. Languages: en, de, fr, es, it, pt, nl, pl, sv, da, no, fi, tr, cs,
ru, hu.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# What a cue names, which decides the shapes its value may take and the kind reported.
PASSWORD, PIN, SECRET = "password", "pin", "secret"


@dataclass(frozen=True)
class Cue:
    """One cue word (a regex fragment) with the class of value it names and its languages."""

    pattern: str
    cls: str
    langs: tuple[str, ...]


def _cues(cls: str, langs: str, *patterns: str) -> list[Cue]:
    return [Cue(p, cls, tuple(langs.split())) for p in patterns]


_CODE_NOUNS = r"(?:door|gate|alarm|access|security|entry|keypad|lock|lockbox|locker|unlock|verification|one[\s-]time" \
    r"|wi-?fi|safe|garage|building|login|otp|2fa|sms|secret)"

CUES: tuple[Cue, ...] = (
    *_cues(PASSWORD, "en it", r"password", r"passwd", r"passphrase", r"pass\ phrase", r"pwd", r"pw"),
    *_cues(PASSWORD, "de", r"passwort", r"kennwort"),
    *_cues(PASSWORD, "fr", r"mot\ de\ passe", r"mdp"),
    *_cues(PASSWORD, "es", r"contrase[ñn]a", r"clave"),
    *_cues(PASSWORD, "it", r"parola\ d['’]ordine"),
    *_cues(PASSWORD, "pt", r"senha", r"palavra[\s-]passe"),
    *_cues(PASSWORD, "nl", r"wachtwoord"),
    *_cues(PASSWORD, "pl", r"has[łl]o"),
    *_cues(PASSWORD, "sv", r"l[öo]senord(?:et)?"),
    *_cues(PASSWORD, "da", r"adgangskode(?:n)?", r"kodeord(?:et)?"),
    *_cues(PASSWORD, "no", r"passord(?:et)?"),
    *_cues(PASSWORD, "fi", r"salasana(?:ni)?"),
    *_cues(PASSWORD, "tr", r"[şs]ifre(?:m|si|miz)?", r"parola(?:m)?"),
    *_cues(PASSWORD, "cs", r"heslo"),
    *_cues(PASSWORD, "ru", r"пароль"),
    *_cues(PASSWORD, "hu", r"jelsz[óo]", r"jelszavam"),
    *_cues(PIN, "en de fr es it pt nl pl", r"pin(?:\ code|\ number)?"),
    *_cues(SECRET, "en de es it pt nl pl", r"token"),
    *_cues(PIN, "en", r"passcode", r"combination", rf"{_CODE_NOUNS}\ code",
           r"code\ (?:to|for)\ (?:unlock|open|disarm|the\ (?:door|gate|alarm|safe|lock|garage))",
           r"(?:opens|unlocks|open|unlock)\ with\ (?:the\ )?code"),
    *_cues(PIN, "de", r"pin-?code", r"pin-?nummer", r"geheimzahl", r"zugangscode", r"t[üu]rcode", r"sicherheitscode"),
    *_cues(PIN, "fr", r"code\ (?:pin|secret|wi-?fi|d['’]acc[èe]s|de\ la\ porte)"),
    *_cues(PIN, "es", r"c[óo]digo\ (?:pin|de\ acceso|de\ seguridad|secreto)"),
    *_cues(PIN, "it", r"codice\ (?:pin|di\ accesso|segreto)"),
    *_cues(PIN, "pt", r"c[óo]digo\ (?:pin|de\ acesso|secreto)"),
    *_cues(PIN, "nl", r"pincode", r"toegangscode", r"deurcode", r"beveiligingscode"),
    *_cues(PIN, "pl", r"kod\ (?:pin|dost[ęe]pu|do\ drzwi)"),
    *_cues(SECRET, "en", r"secret", r"client\ secret", r"(?:api|access|auth|bearer|bot|refresh|secret|session)\ token",
           r"(?:api|secret|license|licence|product|activation|recovery|encryption|wi-?fi|wpa|network)\ key",
           r"key"),
    *_cues(SECRET, "de", r"schl[üu]ssel"),
    *_cues(SECRET, "fr", r"cl[ée]", r"jeton"),
    *_cues(SECRET, "es", r"llave"),
    *_cues(SECRET, "it", r"chiave"),
    *_cues(SECRET, "pt", r"chave"),
    *_cues(SECRET, "nl", r"sleutel"),
    *_cues(SECRET, "pl", r"klucz"),
)

# A substring of every cue spelling, lowercased: a text holding none of them names no credential,
# so the cue search (the slow part) is skipped. tests/test_secrets.py checks each cue has one.
STEMS = ("pass", "pw", "wort", "mdp", "contras", "clave", "parola", "senha", "wachtw", "hasło", "haslo",
         "senord", "kode", "salasan", "ifre", "heslo", "пароль", "jelsz", "pin", "combination", "cod", "kod",
         "geheimz", "digo", "secret", "token", "key", "schlüssel", "schlussel", "clé", "cle", "jeton", "llave",
         "chiave", "chave", "sleutel", "klucz")

# Words that join a cue to its value ("the password for X *is* Y"), per language; ":" "=" join in all.
LINKS: dict[str, tuple[str, ...]] = {
    "en": ("is", "was", "are", "were", "'s", "’s", "will be", "would be", "should be", "becomes", "to",
           "it's", "it’s", "it is"),
    "de": ("ist", "lautet", "lautete", "war", "heißt", "heisst", "wäre", "sei", "wird"),
    "fr": ("est", "était", "sera", "c'est", "c’est", "reste"),
    "es": ("es", "era", "será", "sería"),
    "it": ("è", "é", "e'", "era", "sarà", "sarebbe"),
    "pt": ("é", "era", "será", "seria"),
    "nl": ("is", "was", "wordt", "luidt"),
    "pl": ("to", "jest", "był", "była", "było", "brzmi"),
    "sv": ("är", "var", "blir"),
    "da": ("er", "var", "bliver"),
    "no": ("er", "var", "blir"),
    "fi": ("on", "oli"),
    "tr": (),
    "cs": ("je", "bylo", "zní"),
    "ru": ("это", "—"),
    "hu": ("az",),
}
SEPARATORS = (":", "=", "=>", "->")

# Words skipped between a link and the value ("is *now set to* Y").
FILLERS = frozenset("""now still just simply currently actually set changed updated temporarily
    jetzt nun noch immer maintenant désormais toujours ahora todavía ora adesso ancora agora ainda nu
    teraz nadal nyt fortfarande""".split())

# A cue followed by one of these is a modifier of another noun ("the password *policy* is strict").
COMPOUNDS = frozenset("""manager managers policy policies reset resets field fields rule rules requirement
    requirements strength length generator generators hint hints change changes prompt box protection
    protected expiry expiration vault app dialog screen page form recovery hash hashes hashing fatigue sharing
    spraying list lists attempts attempt complexity history rotation leak leaks breach check checker validation
    storage security habits hygiene format minimum maximum points point findings finding takeaway takeaways
    factor factors player players role figure figures issue issues question questions part element elements
    moment moments ingredient ingredients date dates card fob ring chain holder lime signature stakeholder
    stakeholders skill skills feature features area areas aspect aspects component components difference
    differences insight insights lesson lessons message milestone milestones metric metrics detail details
    step steps thing things idea ideas reason reasons goal goals trait traits santa agent agents service garden
    recipe life weapon sauce bucket economy gesture count counts limit limits budget usage parser parsing
    expiry lifetime endpoint type types length-limit""".split())

# Determiners and possessives between a reverse connector and the cue ("use Y as *your temporary* password").
DETERMINERS = frozenset("""the my your our his her their a an new temporary default current initial
    das mein meine dein deine unser unsere ein eine neues neue le la mon ma notre votre nouveau nouvelle
    el mi tu su nueva nuevo il mia mio nuova o minha meu nova het de mijn je nieuw nieuwe moje mój nowe
    mitt min mit""".split())

# What precedes the cue in "use Y *as* the password", "Y *is* my password".
REVERSE_AS = ("as", "als", "comme", "como", "come", "jako", "som")
REVERSE_IS = ("is", "was", "ist", "est", "es", "è", "é", "to", "jest", "är", "er", "je")

# Words that follow "password is" in English sentences that state no password.
NOT_A_PASSWORD = frozenset(
    """a an the my your his her our their this that it is was be been being not no none
    too very so quite really still also just now already required needed mandatory optional
    incorrect correct wrong right invalid valid weak strong secure insecure safe unsafe long
    short expired expiring empty blank missing set unset changed reset updated saved stored
    hidden encrypted hashed same different case sensitive protected locked visible shown
    easy hard simple complex good bad fine ok okay great terrible secret private known
    unknown forgotten lost new old temporary default generated random there here what
    which who how why where when in on at of for to from with by as and or but if then
    written stolen taken chosen broken given leaked compromised printed shared sent ready
    useless pointless something anything nothing everything always never somewhere""".split()
)


@lru_cache(maxsize=256)
def link_pattern(langs: tuple[str, ...]) -> re.Pattern[str]:
    """A token (or two) that is a link in any of ``langs``, or a separator."""
    words = sorted({w for lang in langs for w in LINKS.get(lang, ())} | set(SEPARATORS), key=len, reverse=True)
    return re.compile("|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words), re.IGNORECASE)
