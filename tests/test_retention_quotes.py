"""What the retention sweep cuts out of kept text: whole expired messages, their sentences,
and the identifiers lifted out of them (the end-to-end check is tests/test_retention.py).
"""

from __future__ import annotations

from memory.privacy.retention_quotes import EXPIRED_MARK, Quotes

OLD = "The parcel for the new flat came with tracking code zorbal00b, finally."
EPISODE = "User: My cat sleeps in a box.\nDetails kept verbatim:\n- zorbal00b\n- 4 March 2026"


def test_an_identifier_from_an_expired_message_is_cut_where_a_recent_episode_kept_it() -> None:
    quotes = Quotes([OLD])
    cut = quotes.cut(EPISODE)
    assert "zorbal00b" not in cut and f"- {EXPIRED_MARK}" in cut
    assert "My cat sleeps in a box." in cut and "4 March 2026" in cut  # what was not said then stays


def test_the_whole_message_and_its_sentences_are_cut_too() -> None:
    quotes = Quotes([OLD])
    assert quotes.cut(f"You said: {OLD}") == f"You said: {EXPIRED_MARK}"


def test_an_identifier_said_again_inside_the_limit_is_kept() -> None:
    quotes = Quotes([OLD], said_since=["My new code is zorbal00b, same as before."])
    assert "zorbal00b" in quotes.cut(EPISODE)


def test_short_tokens_are_not_cut() -> None:
    quotes = Quotes(["I paid $40 for item A12 in shop 7."])
    assert quotes.cut("Bought A12 again for $40.") == "Bought A12 again for $40."
