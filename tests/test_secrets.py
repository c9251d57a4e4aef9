"""The secret detector: corpus precision/recall, checksums, and redaction."""

from __future__ import annotations

import pytest

from bench.secrets_eval import DEFAULT_CORPUS, evaluate, load
from nodes.privacy.secrets import contains_secret, find_secrets, redact


def test_corpus_is_big_enough_and_well_formed() -> None:
    rows = load(DEFAULT_CORPUS)
    assert sum(1 for r in rows if r["secrets"]) >= 40
    assert sum(1 for r in rows if not r["secrets"]) >= 40
    for row in rows:
        for sec in row["secrets"]:
            assert sec["value"] in row["text"]


def test_corpus_precision_and_recall() -> None:
    scores = evaluate(load(DEFAULT_CORPUS))
    assert scores.precision >= 0.95, scores.errors
    assert scores.recall >= 0.9, scores.errors


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("key sk-proj-Q7vX2mLp9RtY4wZa8BcD3eFgH6jK1nP0 ok", "openai_key", "sk-proj-Q7vX2mLp9RtY4wZa8BcD3eFgH6jK1nP0"),
        ("ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "github_token", "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
        ("id AKIAZ7Q4W2LMN8RT5XYB.", "aws_access_key", "AKIAZ7Q4W2LMN8RT5XYB"),
        ("my password is hunter2.", "password", "hunter2"),
        ("pwd=Gx7#kq2Lz", "password", "Gx7#kq2Lz"),
        ("card 4111-1111-1111-1111 please", "card_number", "4111-1111-1111-1111"),
        ("IBAN GB82 WEST 1234 5698 7654 32", "iban", "GB82 WEST 1234 5698 7654 32"),
        ("SSN 536-22-1847", "ssn", "536-22-1847"),
        ("NI AB 12 34 56 C", "uk_nino", "AB 12 34 56 C"),
    ],
)
def test_span_covers_exactly_the_value(text: str, kind: str, value: str) -> None:
    start = text.index(value)
    assert find_secrets(text) == [(start, start + len(value), kind)]


@pytest.mark.parametrize(
    "text",
    [
        "4111 1111 1111 1112",  # fails Luhn
        "1234567812345670",  # passes Luhn, but no card network starts with 1
        "4111 1111-1111 1111",  # mixed separators
        "DE89 3704 0044 0532 0130 01",  # IBAN checksum off by one
        "666-12-3456",  # SSN area 666 is never issued
        "123-00-4567",  # SSN group 00 is never issued
        "I forgot my password",
        "the password is required",
        "password: ********",
        "3f786850e387550fdab836ed7e6dc881de23001b",  # git SHA
        "eyJhbGciOi.eyJzdWIiOiIx.notajwtsignaturehere",  # header is not JSON
    ],
)
def test_tricky_negatives(text: str) -> None:
    assert find_secrets(text) == []
    assert not contains_secret(text)


def test_redact_keeps_the_sentence_and_names_the_kind() -> None:
    text = "my password is hunter2 and my card is 4111 1111 1111 1111."
    assert redact(text) == "my password is [REDACTED:password] and my card is [REDACTED:card_number]."


def test_specific_detector_wins_over_generic_assignment() -> None:
    assert [k for *_, k in find_secrets('OPENAI_API_KEY="sk-4fGh7Jk2Lm9Np3Qr6St8Uv1Wx5Y"')] == ["openai_key"]


def test_private_key_block_is_redacted_whole() -> None:
    pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"
    assert redact(f"here:\n{pem}\nthanks") == "here:\n[REDACTED:private_key]\nthanks"


def test_empty_and_plain_text() -> None:
    assert find_secrets("") == []
    assert redact("nothing to see here") == "nothing to see here"


@pytest.mark.parametrize(("text", "kinds"), [
    ("ab-" * 20000, []), ("x" * 60000, []), ("a_" * 30000, []),
    ("-----BEGIN PRIVATE KEY-----" + "y" * 60000, ["private_key"]),
])
def test_long_adversarial_input_is_scanned(text: str, kinds: list[str]) -> None:
    """Speed on such input belongs in bench/, not in a wall-clock assert here."""
    assert [kind for _, _, kind in find_secrets(text)] == kinds
