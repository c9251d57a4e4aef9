"""The secret classes of issue 43 (item 3): passphrases of plain words, logins, CVVs, backup codes,
security answers and key halves are redacted; prose that only talks about them is kept.

Values here differ from the tuning lines of ``bench/datasets/secrets_round2.jsonl``.
"""

from __future__ import annotations

import pytest

from stores.redaction.phrasings import high_entropy
from stores.redaction.secrets import find_secrets, redact

FOUND = [
    ("my password is staple battery horse correct", "staple battery horse correct"),
    ("Password: river stone ancient oak", "river stone ancient oak"),
    ("my netflix password is pizza lover club", "pizza lover club"),
    ("pw is blue whale song", "blue whale song"),
    ("my password’s tulip garden fence", "tulip garden fence"),
    ("my passcode is moonlight", "moonlight"),
    ("My passcode: 4471", "4471"),
    ("the wifi pass is tulip garden fence", "tulip garden fence"),
    ("login: alice / Pa55word!", "Pa55word"),
    ("login = eve | qwerty123", "qwerty123"),
    ("user alice pass Qwerty!7", "Qwerty!7"),
    ("user: root pwd: toor1234", "toor1234"),
    ("curl --user 'ops:Zx9!pq' https://h.example", "Zx9!pq"),
    ("2FA backup codes: 1234-5678 2345-6789", "2345-6789"),
    ("my recovery codes are 99812233, 77126644", "99812233"),
    ("the CVV on my visa is 913", "913"),
    ("cvc2 = 118", "118"),
    ("security question answer: Mrs Pickles", "Mrs Pickles"),
    ("the answer to the security question was Rex.", "Rex"),
    ("the rest of the key is aB3dE5fG7h", "aB3dE5fG7h"),
    ("my key begins sk-Xa81bb", "sk-Xa81bb"),
    ("the second half of my token is Qm7TzX91aa", "Qm7TzX91aa"),
]

KEPT = [
    "I need to pass my driving test next week.",
    "My password is not working on the new laptop.",
    "The password is easy to guess, I should change it.",
    "My boarding pass is on my phone.",
    "My ski pass is expensive this year.",
    "User Melanie passed the test on Friday.",
    "user feedback was great this sprint",
    "the rest is 5 dollars",
    "The rest is just details.",
    "my passcode is my birthday",
    "My passcode is four digits long.",
    "the cvv is on the back",
    "I lost my backup codes last year.",
    "my security question is my favorite teacher",
    "The second half was amazing, 3-1 in the end!",
    "Let's meet at 4 pm at Joe's Diner on 5th Avenue.",
    "Caroline ran 10 km in 52 minutes with her sister Anna.",
    "I hate username/password forms.",
    "Login: Monday / Tuesday works for me",
    "The user John / Jane split the bill.",
    "He said the secret answer is love.",
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_each_class_is_redacted(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize("text", KEPT)
def test_prose_about_them_is_kept(text: str) -> None:
    assert find_secrets(text) == []


def test_a_passphrase_keeps_its_sentence() -> None:
    assert redact("my password is staple battery horse correct. See you at 5!") == (
        "my password is [REDACTED:password]. See you at 5!")


def test_high_entropy_fragments() -> None:
    assert high_entropy("Qm7TzX91aa") and high_entropy("8f7e6d5c4b3a")
    assert not high_entropy("history") and not high_entropy("2024") and not high_entropy("Tuesday")
