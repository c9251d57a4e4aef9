"""`memory-agent` called in this process: ``app.cli.main(argv)`` with its stdin, stdout, stderr, env and cwd.

Each call opens the agent on the data dir and closes it before returning, as a process
would, so a later call is a restart on the same data dir; what it does not pay is a new
interpreter (~3 s of imports, spaCy and the models loaded again). ``run`` takes the
arguments ``subprocess.run`` took (the command line ``[python, "-m", "app.cli", ...]``)
and returns a ``CompletedProcess``, so a test swaps one call for the other. Tests whose
subject is the process boundary itself (restart across processes, kill -9, a native
crash) keep ``subprocess``.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
import traceback
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

MODULE = ("-m", "app.cli")


def _forget_remote_chat_models(argv: Sequence[str], env: Mapping[str, str] | None) -> None:
    """Drop cached ``provider:model`` chat clients: each holds the endpoint and key of the env it was made in.

    The embedded models (``local``, ``llamacpp``, ``scripted``) read no env and stay loaded: once per worker.
    """
    specs = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--chat-model"]
    specs += [a.split("=", 1)[1] for a in argv if a.startswith("--chat-model=")]
    specs.append((os.environ if env is None else env).get("MEMORY_CHAT_MODEL", ""))
    if any(":" in spec for spec in specs):
        from models import loader

        cached = getattr(loader, "_load_chat", None)
        if cached is not None and hasattr(cached, "cache_clear"):
            cached.cache_clear()


@contextlib.contextmanager
def _process_like(env: Mapping[str, str] | None, cwd: str | Path | None, stdin: TextIO,
                  out: TextIO, err: TextIO) -> Iterator[None]:
    """This process made to look like a fresh ``memory-agent`` one for the duration, then put back."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin, sys.stdout, sys.stderr = stdin, out, err
        with warnings.catch_warnings():
            # A new interpreter's filters, shown on its stderr (pytest would otherwise record them).
            warnings.resetwarnings()
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", category)
            warnings.simplefilter("default", append=True)
            warnings.showwarning = lambda msg, cat, filename, lineno, file=None, line=None: err.write(
                warnings.formatwarning(msg, cat, filename, lineno, line))
            yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def _fresh_process_state() -> None:
    """What a new process would not remember: which directories' ``.env`` it has read."""
    from core import context

    loaded = getattr(context, "_load_env_file", None)
    if loaded is not None and hasattr(loaded, "cache_clear"):
        loaded.cache_clear()


@contextlib.contextmanager
def _deadline(argv: Sequence[str], timeout: float | None) -> Iterator[None]:
    """``subprocess.TimeoutExpired`` after ``timeout`` seconds, as ``subprocess.run`` raises (main thread only)."""
    if not timeout or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise subprocess.TimeoutExpired(list(argv), timeout)

    before = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def main(argv: Sequence[str], *, stdin: str | None = None, env: Mapping[str, str] | None = None,
         cwd: str | Path | None = None, timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """``memory-agent ARGV`` in process: its exit code and what it printed (an uncaught error: its traceback, 1).

    Past ``timeout`` seconds it raises ``subprocess.TimeoutExpired``, as ``subprocess.run`` does.
    """
    out, err = io.StringIO(), io.StringIO()
    code = main_on(argv, io.StringIO(stdin or ""), out, err, env=env, cwd=cwd, timeout=timeout)
    return subprocess.CompletedProcess(list(argv), code, out.getvalue(), err.getvalue())


def main_on(argv: Sequence[str], stdin: TextIO, out: TextIO, err: TextIO, *, env: Mapping[str, str] | None = None,
            cwd: str | Path | None = None, timeout: float | None = None) -> int:
    """``main`` on streams of the caller's (a stdin fed line by line, say); returns the exit code."""
    from app.cli import main as cli_main

    _forget_remote_chat_models(argv, env)
    _fresh_process_state()
    with _deadline(argv, timeout), _process_like(env, cwd, stdin, out, err):
        try:
            code: Any = cli_main(list(argv))
        except subprocess.TimeoutExpired:
            raise
        except SystemExit as exit_:  # argparse's errors and --help
            code = exit_.code
            if code is not None and not isinstance(code, int):
                print(code, file=sys.stderr)
                code = 1
        except Exception:  # noqa: BLE001 - a process would print it and exit 1
            traceback.print_exc(file=err)
            code = 1
    _forget_remote_chat_models(argv, env)
    return int(code or 0)


def run(cmd: Sequence[str], *, input: str | None = None, env: Mapping[str, str] | None = None,  # noqa: A002
        cwd: str | Path | None = None, timeout: float | None = None,
        **_subprocess_kwargs: object) -> subprocess.CompletedProcess[str]:
    """What ``subprocess.run(cmd, capture_output=True, text=True, ...)`` of ``[python, -m, app.cli, ...]`` gave."""
    cmd = list(cmd)
    if cmd[1:3] != list(MODULE):
        raise ValueError(f"not a memory-agent command line: {cmd[:3]}")
    done = main(cmd[3:], stdin=input, env=env, cwd=cwd, timeout=timeout)
    return subprocess.CompletedProcess(cmd, done.returncode, done.stdout, done.stderr)


SCRIPTED = ("--chat-model", "scripted", "--embedding-model", "hash:384")


def scripted_cli(data: Path, *args: str, stdin: str = "") -> str:
    """One `memory-agent` call on ``data`` with the scripted model, hash embeddings and rule review off;
    its stdout, after asserting it exited 0."""
    from tests.support import ROOT

    env = {**os.environ, "MEMORY_REVIEW_RULES": "false", "HF_HUB_OFFLINE": "1"}
    done = run([sys.executable, *MODULE, "--data-dir", str(data), *SCRIPTED, *args],
               input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return str(done.stdout)
