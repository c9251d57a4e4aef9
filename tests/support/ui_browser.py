"""Helpers for the memory page's browser tests: Debian's chromium driven by Selenium, and the page's server.

The browser is the system one (``chromium`` + ``chromium-driver``), started with
an explicit driver path, so Selenium Manager never downloads anything. Without
it a test FAILS with one line (``.ci/run`` installs it); it is never skipped.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_run import FAST, ROOT, cli_env

ARTIFACTS = Path(os.environ.get("PYTEST_ARTIFACTS") or ROOT / "tests" / "artifacts")
MISSING = ("the browser tests need Debian's chromium and chromium-driver "
           "(apt-get install -y chromium chromium-driver); not found on PATH")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def chromium(downloads: Path) -> Iterator[Any]:
    """One headless chromium for a test module; downloads land in ``downloads``."""
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not browser or not driver:
        pytest.fail(MISSING, pytrace=False)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1000",
                "--disable-gpu", "--no-first-run"):
        opts.add_argument(arg)
    opts.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                           "download.prompt_for_download": False})
    web = webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    try:
        yield web
    finally:
        web.quit()


@contextmanager
def ui_server(data: Path, user: str, *extra: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``memory-agent ui --user USER`` on a free loopback port; yields its base URL."""
    port = free_port()
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", str(data), *FAST, "ui", "--user", user,
           "--port", str(port), *extra]
    log = data.parent / f"ui-{port}.log"
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=data.parent,
                                env=env if env is not None else cli_env())
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"memory-agent ui exited: {log.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise AssertionError(f"memory-agent ui did not listen: {log.read_text()[-2000:]}")
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def shot(web: Any, name: str) -> Path:
    """Save a screenshot of the page as a test artefact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    web.save_screenshot(str(path))
    return path
