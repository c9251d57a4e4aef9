"""One word file (memory/words.toml): the write policy and the answer check read the same diets."""

from __future__ import annotations

import pytest

from memory.words import diets, relatives, words
from nodes.check.lexicon import load_lexicon
from tests.support.extract_helpers import grounded_facts


@pytest.mark.parametrize("diet", sorted(load_lexicon().diets))
def test_every_diet_the_answer_check_checks_is_one_the_write_policy_stores(diet: str) -> None:
    facts = grounded_facts(f"I'm {diet.replace('-', ' ')}.")
    assert [f.key for f in facts] == ["diet"], facts


def test_the_file_is_read_once_and_lists_each_diet_and_relative_once() -> None:
    assert words() is words()
    assert len(diets()) == len(set(diets()))
    for use in ("rules", "parse"):
        assert len(relatives(use)) == len(set(relatives(use)))
