"""``langgraph dev`` as the server tests start it: a copy of langgraph.json, a free port, a clean stop.

The server runs from a temporary copy of langgraph.json (absolute paths, ``env``
pointing at a .env written here) so that a developer's own ``.env`` cannot
redirect it to their real data dir, and with ``--no-reload`` so that edits to
the tree during the test cannot restart it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGGRAPH = Path(sys.executable).parent / "langgraph"
START_TIMEOUT_S = 180
RUN_TIMEOUT_S = 60
STOP_TIMEOUT_S = 30
SERVER_ENV = {
    "MEMORY_CHAT_MODEL": "scripted",
    "MEMORY_EMBEDDING_MODEL": "hash:384",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "true",
    "LANGSMITH_TRACING": "false",
}

NEEDS_LANGGRAPH = pytest.mark.skipif(not LANGGRAPH.exists(), reason="langgraph-cli[inmem] is not installed in this venv")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def config_copy(work: Path, data_dir: Path) -> Path:
    """langgraph.json with absolute paths, and an .env of our own next to it."""
    env_file = work / ".env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in {**SERVER_ENV, "MEMORY_DATA_DIR": str(data_dir)}.items()))
    config = json.loads((ROOT / "langgraph.json").read_text())

    def absolute(ref: str) -> str:
        path, _, attr = ref.rpartition(":")
        return f"{(ROOT / path).resolve()}:{attr}"

    config["graphs"] = {name: absolute(ref) for name, ref in config["graphs"].items()}
    for key in ("store", "checkpointer", "auth"):
        config[key]["path"] = absolute(config[key]["path"])
    config["http"]["app"] = absolute(config["http"]["app"])
    config["dependencies"] = [str(ROOT)]
    config["env"] = str(env_file)
    path = work / "langgraph.json"
    path.write_text(json.dumps(config, indent=2))
    return path


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def log_tail(log: Path, n: int = 40) -> str:
    if not log.exists():
        return ""
    return "\n".join(line[:300] for line in ANSI.sub("", log.read_text(errors="replace")).splitlines()[-n:])


def wait_until_up(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"langgraph dev exited with {proc.returncode}:\n{log_tail(log)}")
        try:
            with urllib.request.urlopen(f"{url}/ok", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)  # polling for /ok: the server answers it as soon as it is up
    pytest.fail(f"langgraph dev did not answer within {START_TIMEOUT_S}s:\n{log_tail(log)}")


def stop(proc: subprocess.Popen[bytes]) -> int:
    """SIGTERM, then SIGKILL to the server's own process group if it hangs."""
    if proc.poll() is None:
        proc.terminate()
        try:
            return proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=STOP_TIMEOUT_S)
            return -9
    return int(proc.returncode)


@contextmanager
def dev_server(work: Path, data_dir: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """A running ``langgraph dev``; always stopped on the way out."""
    port = free_port()
    config = config_copy(work, data_dir)
    log = work / "server.log"
    env = {**os.environ, **SERVER_ENV, "MEMORY_DATA_DIR": str(data_dir)}
    cmd = [str(LANGGRAPH), "dev", "--no-browser", "--no-reload", "--port", str(port), "--config", str(config)]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_up(url, proc, log)
        yield url, proc, log
    finally:
        stop(proc)


def texts(items: list[dict[str, Any]]) -> list[str]:
    return [str(item["value"].get("text", "")) for item in items]


def mentions(value: dict[str, Any], word: str) -> bool:
    return word in json.dumps(value).lower()
