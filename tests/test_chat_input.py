"""How the chat cuts terminal lines into messages: pastes, quoted blocks, private-key blocks."""

from __future__ import annotations

import pytest

from app.chat_input import PASTE_END, PASTE_START, MessageReader

BEGIN, END = "-----BEGIN OPENSSH PRIVATE KEY-----", "-----END OPENSSH PRIVATE KEY-----"
BODY = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "QyNTUxOQ=="]


def messages(*lines: str) -> list[str]:
    feed = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    reader, out = MessageReader(ask), []
    while True:
        try:
            out.append(reader.read("you> "))
        except EOFError:
            return out


def test_plain_lines_are_one_message_each() -> None:
    assert messages("hello", "/end") == ["hello", "/end"]


def test_bracketed_paste_is_one_message() -> None:
    assert messages(f"{PASTE_START}line one", "line two", f"line three{PASTE_END}", "next") == [
        "line one\nline two\nline three", "next"]


def test_paste_end_marker_on_the_next_line_joins_what_is_typed_after() -> None:
    assert messages(f"{PASTE_START}a", "b", f"{PASTE_END} and more") == ["a\nb\n and more"]


def test_quoted_block_is_one_message_and_keeps_slash_lines() -> None:
    assert messages('"""', "first", "/not a command", "", "last", '"""', "/end") == [
        "first\n/not a command\n\nlast", "/end"]


def test_key_block_runs_to_its_end_line() -> None:
    assert messages(BEGIN, *BODY, END, "thanks") == ["\n".join([BEGIN, *BODY, END]), "thanks"]


def test_key_block_without_end_stops_at_prose_which_is_the_next_message() -> None:
    assert messages("my key: " + BEGIN, BODY[0], "I live in Oslo.", "/end") == [
        f"my key: {BEGIN}\n{BODY[0]}", "I live in Oslo.", "/end"]


@pytest.mark.parametrize("command", ["/end", "/quit", "/memories"])
def test_a_command_ends_a_key_block(command: str) -> None:
    assert messages(BEGIN, BODY[0], command) == [f"{BEGIN}\n{BODY[0]}", command]


def test_encrypted_pem_headers_and_their_blank_line_stay_in_the_block() -> None:
    lines = ["-----BEGIN RSA PRIVATE KEY-----", "Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,3F17F5316E2BAC89",
             "", *BODY, "-----END RSA PRIVATE KEY-----"]
    assert messages(*lines) == ["\n".join(lines)]


def test_a_whole_key_on_one_line_is_not_a_block() -> None:
    one = f"{BEGIN}\n{BODY[0]}\n{END}"
    assert messages(one, "next") == [one, "next"]
