"""The SDK's own MCP client against a real `memory-agent mcp` process, over stdio or HTTP."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ROOT = Path(__file__).resolve().parents[2]
MODELS = ["--embedding-model", "hash:384", "--chat-model", "scripted"]
SECRET = "sk-proj-Zq8hT3xK9vLm2Np7Rw4Ys6Bd1Fg5Hj0Ka"  # an OpenAI-shaped key, as other tests use


def server_env(**extra: str) -> dict[str, str]:
    """The test process's environment (PYTHONPATH, offline flags) plus ``extra``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MEMORY_CONSOLIDATION_DELAY_S": "0", **extra}
    for key in ("MEMORY_AUTH_TOKENS", "MEMORY_AUTH_JWT_KEY", "MEMORY_USER_ID"):
        if key not in extra:
            env.pop(key, None)
    return env


def cli(data_dir: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "app.cli", "--data-dir", str(data_dir), *MODELS, *args]


@contextlib.asynccontextmanager
async def stdio_session(data_dir: Path, user: str, **env: str) -> AsyncIterator[ClientSession]:
    """A Claude-Desktop-style client: it starts the server as a subprocess and speaks on its stdio."""
    argv = cli(data_dir, "mcp", "--user", user)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=server_env(**env), cwd=str(ROOT))
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def http_server(data_dir: Path, tokens: str, *extra: str, **env: str) -> Iterator[str]:
    """`memory-agent mcp --http` on a free port with ``MEMORY_AUTH_TOKENS=tokens`` (none when empty) and
    ``env``; yields its /mcp URL.
    """
    port = free_port()
    auth = {"MEMORY_AUTH_TOKENS": tokens} if tokens else {}
    proc = subprocess.Popen(cli(data_dir, "mcp", "--http", "--port", str(port), *extra), cwd=ROOT,
                            env=server_env(**auth, **env), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@contextlib.asynccontextmanager
async def http_session(url: str, token: str) -> AsyncIterator[ClientSession]:
    """An HTTP client that sends ``Authorization: Bearer <token>``."""
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, **args: Any) -> Any:
    """A tool's structured answer; an ``AssertionError`` when the tool failed."""
    result = await session.call_tool(tool, args)
    assert not result.is_error, result.content
    out = result.structured_content
    if out is None:
        return _text(result)
    return out["result"] if set(out) == {"result"} else out  # a str-returning tool's answer is wrapped


async def fails(session: ClientSession, tool: str, **args: Any) -> str:
    """The error text of a call that must fail as a tool error."""
    result = await session.call_tool(tool, args)
    assert result.is_error, result.content
    return _text(result)


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def resource_json(result: Any) -> Any:
    return json.loads(result.contents[0].text)


def files_holding(data_dir: Path, needle: bytes) -> list[str]:
    """Every file under the data dir whose bytes hold ``needle`` (any case)."""
    return [str(p) for p in data_dir.rglob("*") if p.is_file() and needle.lower() in p.read_bytes().lower()]
