"""Every command that walks or names users works for any user id an identity provider issues (issue 43, item 5).

``expire`` used to build each user from the namespace label itself, so
``first.last@example.com`` (label ``first~2Elast@example.com``) kept expired
episodes, and an id whose label runs past 256 characters (a long CJK id) made
it exit 2 for everyone: the retention sweep after it never ran. The property
below runs the real CLI in this process on a real data dir for odd ids next
to an ordinary user, and byte-searches the data dir after ``expire``.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app import cli
from app.ui.operator import operator_view
from stores.namespaces import EPISODES, MAX_USER_ID_CHARS, UserScope, user_label
from stores.open import open_store
from stores.redaction.secrets import contains_secret

FAST = ["--chat-model", "scripted", "--embedding-model", "hash:64"]
THEN, LATER = "2025-01-06T18:00:00+00:00", "2025-03-10T09:00:00+00:00"  # 63 days apart
CJK = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=MAX_USER_ID_CHARS)
IDS = st.one_of(
    st.emails(),
    st.text(st.characters(codec="utf-8"), min_size=1, max_size=40).map(lambda s: f"auth0|{s}"),
    CJK,
    st.text(min_size=1, max_size=MAX_USER_ID_CHARS).filter(lambda s: s.strip() and s != "bob"),
).filter(lambda s: not contains_secret(s))  # a credential-shaped id is refused (tests/test_user_labels.py)


def _cli(data: Path, *args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    # mock.patch.dict: the CLI's --now sets MEMORY_NOW for its process, which here is the test's
    with mock.patch("sys.stdin", io.StringIO(stdin)), mock.patch.dict(os.environ), redirect_stdout(out), \
            redirect_stderr(err):
        code = cli.main(["--data-dir", str(data), *FAST, *args])
    return code, out.getvalue(), err.getvalue()


def _ok(data: Path, *args: str, stdin: str = "") -> str:
    code, out, err = _cli(data, *args, stdin=stdin)
    assert code == 0, (args[:3], err[-1500:])
    return out


def _on_disk(data: Path, needle: str) -> list[str]:
    return [str(p) for p in data.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def _session(data: Path, user: str, word: str) -> None:
    """One session 63 days ago whose episode expired after a day."""
    _ok(data, "--now", THEN, "--set", "episode_ttl_days=1", "chat", f"--user={user}", "--thread", "t1",
        stdin=f"We watched a documentary about {word} tonight.\n/end\n")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(user="first.last@example.com")
@example(user="auth0|5f7c8ec7c33c6c004bbafe82")
@example(user="山" * MAX_USER_ID_CHARS)
@example(user="-:")  # its label is 2304 characters
@given(user=IDS)
def test_every_user_walk_reaches_odd_user_ids(user: str) -> None:
    data = Path(tempfile.mkdtemp()) / "data"
    try:
        _session(data, user, "zorbodd")
        _session(data, "bob", "zorbbob")  # an ordinary user the walk reaches after (or before) the odd one
        out = _ok(data, "--now", LATER, "--set", "retention_days=30", "expire")
        assert out.startswith("2 expired item(s) removed"), out
        assert _on_disk(data, "zorbodd") == [] and _on_disk(data, "zorbbob") == []
        _ok(data, "chat", f"--user={user}", "--thread", "t2", stdin="My sister is called Ilse.\n")
        store = open_store(str(data), "hash:64")
        try:
            assert user in operator_view(store)["users"]  # the operator's page counts the odd user's memories
        finally:
            store.close()
        assert json.loads(_ok(data, "memories", f"--user={user}", "--json"))["user_id"] == user
        for args in (["upkeep"], ["retention", "--days", "10"], ["forget", "Ilse"]):
            _ok(data, *args, f"--user={user}")  # the = form: an id may start with "-"
        _ok(data, "delete-user", "--", user)
        assert _on_disk(data, "Ilse") == []
        if len(user_label(user)) >= 8:  # a shorter label ("0") is in any file's bytes by chance
            assert _on_disk(data, user_label(user)) == []
    finally:
        shutil.rmtree(data.parent, ignore_errors=True)


def test_expire_reaches_every_user_past_the_stores_first_page(tmp_path: Path) -> None:
    """A store lists 100 namespaces unless told more: users past the first 100 kept their expired episodes."""
    data = tmp_path / "data"
    store = open_store(str(data), "hash:64")
    try:
        for n in range(130):
            store.put(UserScope(f"user{n:03d}").ns(EPISODES), "e1",
                      {"text": f"zorbpage{n:03d}", "expires_at": THEN}, index=False)
    finally:
        store.close()
    assert _ok(data, "--now", LATER, "expire").startswith("130 expired item(s) removed")
    assert _on_disk(data, "zorbpage") == []
