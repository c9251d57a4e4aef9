"""Scots spelling is read as standard English (``memory/write_policy/dialect.py``), only in a
message that is written in Scots, and what it says is still grounded in the words as written."""

from __future__ import annotations

import pytest

from bench.rule_classes_eval import stored_candidates
from memory.write_policy.dialect import plain_scots


def test_a_scots_message_is_read_in_standard_spelling() -> None:
    text = "moved oot ma da's, stayin wi ma gran noo. how long does it take tae get fae partick"
    assert plain_scots(text) == ("moved out my dad's, staying with my gran now. how long does it take to get "
                                 "from partick")


@pytest.mark.parametrize("text", [
    "My ma is visiting, she loves a wee dram.",
    "Aw, that's a shame. Ma and Da are fine.",
    "My cousin from Dublin is coming, bring the muffin tin.",
])
def test_a_message_not_in_scots_is_left_as_written(text: str) -> None:
    assert plain_scots(text) == text


def test_an_ending_in_scots_is_stored_and_grounded() -> None:
    facts = stored_candidates("sold ma xbox tae a boy in ma year for 120 quid, pc gang noo 😎")
    ended = [f for f in facts if f.negation_of is not None]
    assert any("xbox" in (f.value or "") for f in ended), facts
    assert all(f.sources for f in facts)  # grounded in the message as written


def test_words_that_end_in_in_keep_their_spelling() -> None:
    assert plain_scots("fae the cabin tae the violin lesson, then hame noo") == (
        "from the cabin to the violin lesson, then home now")
