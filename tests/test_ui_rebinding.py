"""The memory page against other websites: DNS rebinding, foreign origins and planted CSRF cookies, over real HTTP.

A real ``memory-agent ui --user alice`` on loopback (with ``--allowed-host
memory.lan``), on a data dir a real chat filled. A page on another site can
make the browser send ``Host: evil.example:PORT`` (rebinding), an ``Origin`` of
its own, and, where it can set cookies, a cookie of its choosing; none of them
may read alice's memory or change it. After each attack the export (read with
an allowed Host) still holds her fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.support.cli_run import FAST, run_cli
from tests.support.ui_browser import ui_server

pytestmark = pytest.mark.slow  # starts `memory-agent ui`


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("rebind") / "data"
    done = run_cli(data, *FAST, "chat", "--user", "alice", stdin="I am vegetarian.\n/end\n")
    assert done.returncode == 0, done.stderr[-2000:]
    with ui_server(data, "alice", "--allowed-host", "memory.lan") as base:
        yield base


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def _kept(url: str) -> bool:
    """Whether alice's fact is still in her export (read the ordinary way)."""
    resp = httpx.get(url + "/export", timeout=30)
    assert resp.status_code == 200, resp.text[:300]
    return "vegetarian" in resp.text


@contextmanager
def _session(url: str) -> Iterator[tuple[httpx.Client, str]]:
    """A client that opened the page as alice's browser does: its session cookie and the form token."""
    with httpx.Client(base_url=url, timeout=30) as client:
        home = client.get("/")
        assert home.status_code == 200
        yield client, re.findall(r'name="csrf" value="([^"]+)"', home.text)[0]


def test_a_foreign_host_reads_and_deletes_nothing(url: str) -> None:
    port = _port(url)
    with _session(url) as (client, token):
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}", f"localhost:{port + 1}",
                     f"memory.lan.evil.example:{port}", f"127.0.0.1:{port}@evil.example"):
            for path in ("/", "/export", "/list/facts", "/why?q=food"):
                resp = client.get(path, headers={"Host": host})
                assert resp.status_code == 421, (host, path, resp.status_code)
                assert "vegetarian" not in resp.text and "csrf" not in resp.text
            gone = client.post("/delete-all", headers={"Host": host}, data={"csrf": token, "confirm": "alice"})
            assert gone.status_code == 421, (host, gone.status_code)
    assert _kept(url)


def test_the_pages_own_names_and_configured_ones_are_served(url: str) -> None:
    port = _port(url)
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"memory.lan:{port}", "memory.lan"):
        resp = httpx.get(url + "/export", headers={"Host": host}, timeout=30)
        assert resp.status_code == 200 and "vegetarian" in resp.text, (host, resp.status_code)


def test_a_foreign_origin_changes_nothing(url: str) -> None:
    with _session(url) as (client, token):
        for origin in ("http://evil.example", f"http://evil.example:{_port(url)}", "null",
                       f"http://localhost:{_port(url) + 1}"):
            for path, form in (("/delete-all", {"confirm": "alice"}), ("/forget", {"text": "vegetarian"}),
                               ("/consent", {"memory": "off"})):
                resp = client.post(path, headers={"Origin": origin}, data={"csrf": token, **form})
                assert resp.status_code == 403, (origin, path, resp.status_code)
            assert client.get("/export", headers={"Origin": origin}).status_code == 403
    assert _kept(url)
    assert '<strong id="memory-state">on</strong>' in httpx.get(url + "/", timeout=30).text


def test_planted_cookie_and_form_pairs_are_refused(url: str) -> None:
    planted = "A" * 43  # the shape of a real session id
    with _session(url) as (_other, other_token):
        pass
    for cookie, sent in ((f"memory_session={planted}", planted), ("memory_csrf=same", "same"),
                         (f"memory_session={planted}", other_token), ("", other_token)):
        resp = httpx.post(url + "/delete-all", headers={"Cookie": cookie} if cookie else {},
                          data={"csrf": sent, "confirm": "alice"}, timeout=30)
        assert resp.status_code == 403 and "CSRF" in resp.text, (cookie, resp.status_code)
    assert _kept(url)


def test_the_pages_own_form_still_works(url: str) -> None:
    with _session(url) as (client, token):
        origin = {"Origin": url}
        preview = client.post("/forget/preview", headers=origin, data={"csrf": token, "text": "vegetarian"})
        assert preview.status_code == 200 and "item(s) match" in preview.text
        done = client.post("/delete-all", headers=origin, data={"csrf": token, "confirm": "alice"})
        assert done.status_code == 200, done.text[-500:]
    assert not _kept(url)
