"""Passwords in the phrasings the detector missed, and keys pasted line by line, reach no file (issue 25, item 2).

Each scenario goes through the real `memory-agent chat` (scripted model, hash
embeddings), ends the session, and byte-searches every file of the data dir:
store, FAISS indexes, message log, checkpoints with their WAL. Each failed on
the code before the cue-and-shape detector and the multi-line chat input.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.agent_cli import MODELS, Cli, files_with

# (what is typed, the secret in it): the examples, its other languages,
# and the phrasings the brief names.
MISSED = [
    ("the password for the server is pa55-w0rd-Xq", "pa55-w0rd-Xq"),
    ("the admin password for everyone is Adm1n-4-All!", "Adm1n-4-All"),
    ("mein Passwort ist Geheim!2024", "Geheim!2024"),
    ("mi contraseña es Sol-y-Mar-77", "Sol-y-Mar-77"),
    ("mon mot de passe est Chat#Noir42", "Chat#Noir42"),
    ("la mia password è Roma-2024!x", "Roma-2024!x"),
    ("a minha senha é Praia#Sol9", "Praia#Sol9"),
    ("mijn wachtwoord is Fiets!123x", "Fiets!123x"),
    ("moje hasło to Zamek-77!q", "Zamek-77!q"),
    ("Carol's password is kT8#wq2Lx9", "kT8#wq2Lx9"),
    ("use Zr4!mnb7Q as the password for the NAS", "Zr4!mnb7Q"),
    ("I set the router password to Rt!882qazW yesterday", "Rt!882qazW"),
    ('the password for the vault is "Vlt 9921 Qz"', "Vlt 9921 Qz"),
    ("the door code of the shed is 55127", "door code of the shed is 55127"),
]

BEGIN, END = "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----"
BODY = [
    "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi9QnbNb4dKyTSZpMhPWWYvTw0r",
    "Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7Aa6Zz5Yy4Xx3Ww2Vv1Uu0Tt9Ss8R",
    "Qp7Oo6Nn5Mm4Ll3Kk2Jj1Ii0Hh9Gg8Ff7Ee6Dd5Cc4Bb3Aa2+/Zy1Xw0Vu9Ts8Rq",
    "k3N9vQ2xR7bT4mW8zP1cY6hL0fJ5dS/gA+uE3iK7oM2nB9qV4wX8yZ1tC6rF0pH",
    "Lm4Nb7Vc2Xz9Qw==",
]


def _no_trace(data: Path, needles: list[str]) -> dict[str, list[str]]:
    return {needle: found for needle in needles if (found := files_with(data, needle))}


def test_missed_phrasings_reach_no_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    out = Cli(data, MODELS["scripted"]).chat("alice", "t1", *(text for text, _ in MISSED), "/end")
    assert _no_trace(data, [secret for _, secret in MISSED]) == {}
    assert out.count("note: Removed from your message") == len(MISSED)


def test_ordinary_sentences_about_passwords_are_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    lines = ["I forgot my password yesterday.", "The password policy at work is strict.",
             "My key to success is patience."]
    out = Cli(data, MODELS["scripted"]).chat("alice", "t1", *lines, "/end")
    assert "note:" not in out
    assert files_with(data, "password policy at work is strict") != []


@pytest.mark.parametrize("form", ["line by line", "bracketed paste", "quoted block"])
def test_pasted_private_key_leaves_no_body_line(tmp_path: Path, form: str) -> None:
    data = tmp_path / "data"
    block = [BEGIN, *BODY, END]
    if form == "bracketed paste":  # what a terminal sends with bracketed paste mode on
        block = ["\x1b[200~" + BEGIN, *BODY, END + "\x1b[201~"]
    elif form == "quoted block":
        block = ['"""', *block, '"""']
    out = Cli(data, MODELS["scripted"]).chat("alice", "t1", "Here is my deploy key:", *block,
                                            "and I work on billing.", "/end")
    assert _no_trace(data, BODY) == {}
    assert out.count("agent> ") == 3, "the key is one message: one reply for it"
    assert "private key" in out
    assert files_with(data, "I work on billing") != []


def test_key_typed_in_without_its_end_line_is_still_redacted(tmp_path: Path) -> None:
    """A BEGIN line, then body lines, then an ordinary sentence: the sentence ends the block."""
    data = tmp_path / "data"
    out = Cli(data, MODELS["scripted"]).chat("alice", "t1", BEGIN, *BODY[:2], "Thanks, I live in Oslo.", "/end")
    assert _no_trace(data, BODY[:2]) == {}
    assert out.count("agent> ") == 2
    assert files_with(data, "I live in Oslo") != []


def test_quoted_block_is_one_message(tmp_path: Path) -> None:
    data = tmp_path / "data"
    out = Cli(data, MODELS["scripted"]).chat("alice", "t1", '"""', "I live in Oslo.", "", "I work as a baker.",
                                            '"""', "/end")
    assert out.count("agent> ") == 1
    assert files_with(data, "I live in Oslo.\\n\\nI work as a baker.") != []
