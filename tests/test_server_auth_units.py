"""The parts of server auth that need no server: verifiers, handlers, identity, RunContext.

The end-to-end checks against a real ``langgraph dev`` are in test_server_auth.py.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import jwt
import pytest
from langchain_core.messages import HumanMessage
from langgraph_sdk import Auth

from app.runtime import MemoryAgent
from core.auth_tokens import (
    AuthConfigError,
    JwtVerifier,
    StaticTokens,
    active_verifier,
    verifier_from_env,
)
from core.context import SERVER_SETTINGS
from core.identity import AUTHENTICATED, IdentityMismatch
from core.run_context import RunContext
from graph import auth as server_auth
from graph.auth import SYSTEM
from stores.namespaces import UserScope
from tests.support import ROOT

SECRET = "s3cret-key-for-tests-only-32bytes!"


@pytest.fixture
def tokens() -> Iterator[None]:
    """Auth on with alice's and bob's tokens, for the length of one test."""
    before = active_verifier()
    server_auth.use_verifier(StaticTokens.parse("tok-a=alice, tok-b=bob"))
    yield
    server_auth.use_verifier(before)


def _ctx(user: str, resource: str, action: str, permissions: tuple[str, ...] = (AUTHENTICATED,)) -> Any:
    return Auth.types.AuthContext(
        user=SimpleNamespace(identity=user), permissions=list(permissions), resource=resource, action=action  # type: ignore[arg-type]
    )


def _status(call: Any) -> int:
    try:
        asyncio.run(call)
    except Auth.exceptions.HTTPException as err:
        return err.status_code
    return 200


def test_static_tokens_map_tokens_to_users_and_refuse_bad_specs() -> None:
    verify = StaticTokens.parse("tok-a=alice,tok-b=bob")
    assert (verify("tok-a"), verify("tok-b"), verify("tok-c"), verify("")) == ("alice", "bob", None, None)
    for bad in ("tok-a", "tok-a=", "=alice", "tok-a=" + "x" * 300, "t=a,t=b", " , "):
        with pytest.raises(AuthConfigError):
            StaticTokens.parse(bad)


def test_jwt_verifier_checks_signature_expiry_and_audience() -> None:
    verify = JwtVerifier(SECRET, audience="memory-agent")
    now = int(time.time())

    def token(key: str = SECRET, **claims: Any) -> str:
        return jwt.encode({"sub": "alice", "aud": "memory-agent", "exp": now + 60, **claims}, key, algorithm="HS256")

    assert verify(token()) == "alice"
    assert verify(token(exp=now - 60)) is None
    assert verify(token(key="another-key-that-is-also-32-bytes!")) is None
    assert verify(token(aud="someone-else")) is None
    # identity providers' ids are accepted as they are; their namespace label is made safe
    for sub in ("auth0|abc123", "alice.smith@example.com", "google-oauth2|1098", "../bob"):
        assert verify(token(sub=sub)) == sub
        assert UserScope(sub).root[1].isascii() and not set(UserScope(sub).root[1]) & set("./|\\%*?")
    assert verify(token(sub="")) is None and verify(token(sub="x" * 300)) is None  # not a user id
    assert verify(jwt.encode({"sub": "alice", "aud": "memory-agent"}, SECRET, algorithm="HS256")) is None  # no expiry
    assert verify("not-a-jwt") is None


def test_environment_picks_the_verifier() -> None:
    assert verifier_from_env({}) is None
    assert isinstance(verifier_from_env({"MEMORY_AUTH_TOKENS": "t=alice"}), StaticTokens)
    chosen = verifier_from_env({"MEMORY_AUTH_TOKENS": "t=alice", "MEMORY_AUTH_JWT_KEY": SECRET, "MEMORY_AUTH_JWT_ALGORITHMS": "HS256,HS384"})
    assert isinstance(chosen, JwtVerifier) and chosen.algorithms == ("HS256", "HS384")


def test_authenticate_needs_a_valid_bearer_token(tokens: None) -> None:
    user = asyncio.run(server_auth.authenticate("Bearer tok-b"))
    assert user["identity"] == "bob" and AUTHENTICATED in user["permissions"]
    for header in (None, "", "tok-a", "Basic tok-a", "Bearer ", "Bearer tok-zzz"):
        assert _status(server_auth.authenticate(header)) == 401, header


def test_without_a_verifier_the_server_is_open_and_handlers_allow() -> None:
    before = active_verifier()
    server_auth.use_verifier(None)
    try:
        assert asyncio.run(server_auth.authenticate(None)) == server_auth.OPEN_USER
        value: dict[str, Any] = {"namespace": ("users", "A", "facts")}
        assert asyncio.run(server_auth.own_namespaces(_ctx("anonymous", "store", "get", ()), value)) is None
    finally:
        server_auth.use_verifier(before)


def test_store_handler_allows_only_the_callers_namespaces(tokens: None) -> None:
    own = server_auth.own_namespaces
    assert _status(own(_ctx("bob", "store", "get"), {"namespace": ("users", "bob", "facts"), "key": "k"})) == 200
    for action in ("get", "put", "delete", "search"):
        for ns in (("users", "alice", "facts"), ("users", "alice"), ("users",), (), ("other", "bob")):
            assert _status(own(_ctx("bob", "store", action), {"namespace": ns, "key": "k"})) == 403, (action, ns)
    listing: dict[str, Any] = {"namespace": None}
    assert _status(own(_ctx("bob", "store", "list_namespaces"), listing)) == 200
    assert listing["namespace"] == ("users", "bob")
    assert _status(own(_ctx("bob", "store", "list_namespaces"), {"namespace": ("users", "alice")})) == 403
    # a user the server's own auth did not verify (e.g. a LangSmith Studio user) gets nothing
    assert _status(own(_ctx("langgraph-studio-user", "store", "get", ()), {"namespace": ("users", "x")})) == 403


def test_thread_and_run_handlers_stamp_the_owner_and_refuse_other_users(tokens: None) -> None:
    thread: dict[str, Any] = {"metadata": {"owner": "alice", "topic": "x"}}
    assert asyncio.run(server_auth.on_thread_create(_ctx("bob", "threads", "create"), thread)) == {"owner": "bob"}
    assert thread["metadata"] == {"owner": "bob", "topic": "x"}
    run = {"metadata": {}, "kwargs": {"context": {"user_id": "alice"}}}
    assert _status(server_auth.on_run_create(_ctx("bob", "threads", "create_run"), run)) == 403
    run = {"metadata": {}, "kwargs": {"config": {"configurable": {"user_id": "alice"}}}}
    assert _status(server_auth.on_run_create(_ctx("bob", "threads", "create_run"), run)) == 403
    run = {"metadata": {}, "kwargs": {"context": {"user_id": "bob"}}}
    assert asyncio.run(server_auth.on_run_create(_ctx("bob", "threads", "create_run"), run)) == {"owner": "bob"}
    cron = {"payload": {"context": {"user_id": "alice"}}, "metadata": {}}
    assert _status(server_auth.on_cron_create(_ctx("bob", "crons", "create"), cron)) == 403
    assert asyncio.run(server_auth.owner_only(_ctx("bob", "threads", "read"), {})) == {"owner": "bob"}
    assert _status(server_auth.refuse_the_rest(_ctx("bob", "webhooks", "create"), {})) == 403


def test_a_cron_runs_as_its_owner_until_the_owners_token_is_removed(tokens: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scheduler's user (no token, no permissions) acts for the cron's owner while they hold a token.

    ``langgraph_api.auth.custom`` reads the server's settings on import, so its ``SimpleUser``
    (a user with an identity) stands in here; tests/test_server_crons.py runs the real scheduler.
    """
    class SimpleUser:
        def __init__(self, identity: str) -> None:
            self.identity = identity

    monkeypatch.setitem(sys.modules, "langgraph_api.auth.custom", SimpleNamespace(SimpleUser=SimpleUser))

    def scheduled(owner: str) -> Any:
        return Auth.types.AuthContext(user=SimpleUser(owner), permissions=[], resource="threads",  # type: ignore[arg-type]
                                      action="create_run")

    run: dict[str, Any] = {"metadata": {}, "kwargs": {"config": {"configurable": {}}}}
    assert asyncio.run(server_auth.on_run_create(scheduled("alice"), run)) == {"owner": "alice"}
    server_auth.use_verifier(StaticTokens.parse("tok-b=bob"))  # alice's token removed: her access revoked
    run = {"metadata": {}, "kwargs": {"config": {"configurable": {}}}}
    assert _status(server_auth.on_run_create(scheduled("alice"), run)) == 403
    assert run["kwargs"]["config"]["configurable"] == {}  # not stamped as alice's
    assert asyncio.run(server_auth.on_run_create(scheduled("bob"), run)) == {"owner": "bob"}


def test_a_webhook_carrying_a_credential_is_refused_before_anything_is_stored(tokens: None) -> None:
    key = "sk-proj-" + "abcdefghijklmnopqrstuvwxyz123456"
    for hook in ("https://ops:hunter2@hooks.example.com/done", f"https://hooks.example.com/done?key={key}"):
        run = {"metadata": {}, "kwargs": {"context": {"user_id": "bob"}, "webhook": hook}}
        assert _status(server_auth.on_run_create(_ctx("bob", "threads", "create_run"), run)) == 422, hook
        cron = {"payload": {"webhook": hook}, "metadata": {}}
        assert _status(server_auth.on_cron_create(_ctx("bob", "crons", "create"), cron)) == 422, hook
    run = {"metadata": {}, "kwargs": {"webhook": "https://hooks.example.com/done?run=42"}}
    assert asyncio.run(server_auth.on_run_create(_ctx("bob", "threads", "create_run"), run)) == {"owner": "bob"}


def test_updates_never_hand_a_thread_or_assistant_over(tokens: None) -> None:
    update = server_auth.on_update
    assert asyncio.run(update(_ctx("bob", "threads", "update"), {"metadata": {"topic": "x"}})) == {"owner": "bob"}
    assert asyncio.run(update(_ctx("bob", "threads", "update"), {"metadata": {"owner": "bob"}})) == {"owner": "bob"}
    for metadata in ({"owner": "alice"}, {"owner": None}, {"created_by": "system"}):
        assert _status(update(_ctx("bob", "threads", "update"), {"metadata": metadata})) == 403, metadata
        assert _status(server_auth.own_assistant(_ctx("bob", "assistants", "update"), {"metadata": metadata})) == 403
    assert _status(server_auth.on_assistant_create(_ctx("bob", "assistants", "create"), {"metadata": SYSTEM})) == 403
    seen = asyncio.run(server_auth.mine_or_system(_ctx("bob", "assistants", "search"), {}))
    assert seen == {"$or": [{"owner": "bob"}, SYSTEM]}


def test_a_run_over_the_servers_limits_is_refused_and_its_secrets_never_recorded(tokens: None) -> None:
    create = server_auth.on_run_create
    big = {"metadata": {}, "kwargs": {"input": {"messages": [{"role": "user", "content": "x" * 9000}]},
                                      "context": {"max_message_chars": 10**7}}}
    assert _status(create(_ctx("bob", "threads", "create_run"), big)) == 413
    many = {"metadata": {}, "kwargs": {"input": {"messages": [{"role": "user", "content": "x" * 7000}] * 5}}}
    assert _status(create(_ctx("bob", "threads", "create_run"), many)) == 413
    run = {"metadata": {}, "kwargs": {"input": {"messages": [{"role": "user", "content": "my password is hunter2-Xq9"}]}}}
    asyncio.run(create(_ctx("bob", "threads", "create_run"), run))
    assert run["kwargs"]["input"]["messages"][0]["content"] == "my password is [REDACTED:password]"


def test_run_context_has_no_server_settings_and_drops_them_loudly(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DATA_DIR", "/srv/memory")
    shown = set(RunContext.model_json_schema()["properties"])
    assert {"user_id", "persona", "top_k", "review_rules", "chat_model"} <= shown
    assert not shown & SERVER_SETTINGS
    assert not shown & {"max_message_chars", "max_new_tokens", "check_retries"}  # limits are the server's
    with caplog.at_level(logging.WARNING, logger="memory.context"):
        run = RunContext.model_validate({"user_id": "alice", "data_dir": "elsewhere/memory", "embedding_model": "hash:8"})
    assert "data_dir" in caplog.text and "embedding_model" in caplog.text
    full = run.to_context()
    assert (full.user_id, full.data_dir) == ("alice", "/srv/memory")


def _authed(user: str, thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread, "langgraph_auth_user_id": user, "langgraph_auth_permissions": [AUTHENTICATED]}}


def test_the_graph_takes_the_user_from_auth_and_refuses_another(ctx) -> None:
    with MemoryAgent(ctx) as agent:
        say = {"messages": [HumanMessage(content="I'm vegetarian.")], "end_session": False}
        with pytest.raises(IdentityMismatch, match="'alice' is not the authenticated user 'bob'"):
            agent.graph.invoke(say, _authed("bob", "t1"), context=RunContext(user_id="alice", chat_model="scripted"))
        assert agent.store.search(("users",), limit=10) == []  # nothing stored for anyone
        # no user id in the context: the authenticated caller's is used
        agent.graph.invoke(say, _authed("bob", "t2"), context=RunContext(chat_model="scripted", review_rules=False))
        owners = {tuple(i.namespace[:2]) for i in agent.store.search(("users",), limit=100)}
        assert owners == {("users", "bob")}, owners


def test_an_open_server_warns_once_and_an_authenticated_one_not_at_all() -> None:
    def import_auth(**env: str) -> str:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_AUTH_")}
        out = subprocess.run(
            [sys.executable, "-c", "import graph.auth, graph.auth"], cwd=ROOT, env={**clean, "PYTHONPATH": str(ROOT), **env},
            capture_output=True, text=True, check=True,
        )
        return out.stderr

    assert import_auth().count("runs WITHOUT auth") == 1
    assert "WITHOUT auth" not in import_auth(MEMORY_AUTH_TOKENS="t=alice")
