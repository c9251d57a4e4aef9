"""The install must run on any CPU: a native llama.cpp build, or a crash that kills the suite, fails here by name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from models.llamacpp_chat import nonportable_features
from models.smoke import CHECKS, run_child

ROOT = Path(__file__).resolve().parents[1]

SYSTEM_INFO = r"""
import llama_cpp
print(llama_cpp.llama_print_system_info().decode())
"""


def test_nonportable_features_reads_llama_cpps_system_info() -> None:
    native = "CPU : SSE3 = 1 | AVX2 = 1 | F16C = 1 | AVX512 = 1 | AVX512_VNNI = 1 | AVX512_BF16 = 1 | AMX_INT8 = 1 |"
    assert nonportable_features(native) == ["AMX_INT8", "AVX512", "AVX512_BF16", "AVX512_VNNI"]
    portable = "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | AVX512 = 0 | OPENMP = 1 |"
    assert nonportable_features(portable) == []


def test_the_installed_llama_cpp_build_runs_on_any_cpu() -> None:
    """`make test` builds llama.cpp with `make llamacpp`: it must list no CPU feature beyond AVX2/FMA/F16C."""
    out = subprocess.run([sys.executable, "-c", SYSTEM_INFO], capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, f"llama_cpp did not import: {out.stderr[-500:]} (run `make llamacpp`)"
    assert nonportable_features(out.stdout) == [], f"llama.cpp was built for this CPU only: {out.stdout.strip()}"


def test_a_model_that_crashes_is_reported_in_one_line_with_its_fix() -> None:
    crash = [sys.executable, "-c", "import ctypes; ctypes.string_at(0)"]  # a real segfault in native code
    line = run_child(crash, CHECKS["llamacpp"])
    assert line is not None and "\n" not in line
    assert line.startswith("smoke check: the llama.cpp build crashed on this CPU (SIGSEGV).")
    assert "Fix: .venv/bin/pip uninstall -y llama-cpp-python && make llamacpp" in line
    failed = run_child([sys.executable, "-c", "raise SystemExit('the embedding is malformed (3 dims)')"], CHECKS["embeddings"])
    assert failed is not None and "failed: the embedding is malformed (3 dims)" in failed
    assert run_child([sys.executable, "-c", "pass"], CHECKS["chat"]) is None


CRASHING_TESTS = '''
import ctypes

def test_one_that_segfaults():
    ctypes.string_at(0)

def test_one_after_it():
    assert True
'''


def test_a_native_crash_fails_one_named_test_and_the_suite_goes_on(tmp_path: Path) -> None:
    """The suite runs under the project's pytest options (a worker process), so a crash is a failure, not an end."""
    (tmp_path / "test_crashing.py").write_text(CRASHING_TESTS)
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
         "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
    )
    text = out.stdout + out.stderr
    assert out.returncode == 1, text[-3000:]
    assert "FAILED" in text and "test_one_that_segfaults" in text and "crashed" in text, text[-3000:]
    assert "1 failed, 1 passed" in text, text[-3000:]
