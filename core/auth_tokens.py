"""Token verifiers for ``graph/auth.py``: a bearer token in, a user id out (or None).

A verifier is any ``Callable[[str], str | None]``; swap it with
``use_verifier`` (also exported by ``graph.auth``) to plug in your own identity
provider. The active verifier lives here, in a module every part of the server
imports the ordinary way: ``langgraph dev`` loads ``graph/auth.py`` and the
HTTP app (``graph/server_app.py``) from their files, each as a module of its
own, and both must check tokens with the same verifier.

- ``StaticTokens``: ``MEMORY_AUTH_TOKENS="tok-a=alice,tok-b=bob"``. Simple,
  for a small team or local testing; rotate by editing the variable.
- ``JwtVerifier``: signed tokens from an identity provider (PyJWT). The user id
  is the ``sub`` claim (any string: ``auth0|abc123``, an e-mail; its namespace
  label is ``stores.namespaces.user_label``); signature, expiry and (when given) audience and issuer
  are checked. ``MEMORY_AUTH_JWT_KEY`` holds the HMAC secret or the PEM public
  key, ``MEMORY_AUTH_JWT_ALGORITHMS`` the allowed algorithms (default HS256).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import settings
from stores.namespaces import InvalidUserId, validate_user_id

Verifier = Callable[[str], "str | None"]


class AuthConfigError(ValueError):
    """The auth settings in the environment cannot be used."""


class Unauthenticated(PermissionError):
    """No valid bearer token; the message says which part was missing."""


@dataclass(frozen=True)
class StaticTokens:
    """A fixed table of tokens, compared in constant time."""

    users_by_token: Mapping[str, str]

    @classmethod
    def parse(cls, spec: str) -> StaticTokens:
        """``"tok-a=alice,tok-b=bob"`` -> a verifier; a malformed pair is an error, not skipped."""
        table: dict[str, str] = {}
        for pair in filter(None, (p.strip() for p in spec.split(","))):
            token, sep, user = (s.strip() for s in pair.partition("="))
            if not sep or not token or not user:
                raise AuthConfigError("MEMORY_AUTH_TOKENS: expected comma-separated token=user_id pairs")
            try:
                validate_user_id(user)
            except InvalidUserId as err:
                raise AuthConfigError(f"MEMORY_AUTH_TOKENS: {err}") from None
            if token in table:
                raise AuthConfigError("MEMORY_AUTH_TOKENS: a token appears twice")
            table[token] = user
        if not table:
            raise AuthConfigError("MEMORY_AUTH_TOKENS is set but holds no token=user_id pair")
        return cls(table)

    def holds_account(self, user: str) -> bool:
        """Whether ``user`` still has a token: removing a user's last token revokes their crons too."""
        return user in self.users_by_token.values()

    def __call__(self, token: str) -> str | None:
        found = None
        for known, user in self.users_by_token.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = user
        return found


@dataclass(frozen=True)
class JwtVerifier:
    """Signed tokens: the identity provider signs, the server only verifies."""

    key: str
    algorithms: tuple[str, ...] = ("HS256",)
    audience: str | None = None
    issuer: str | None = None

    def __call__(self, token: str) -> str | None:
        import jwt

        try:
            claims = jwt.decode(
                token,
                self.key,
                algorithms=list(self.algorithms),
                audience=self.audience,
                issuer=self.issuer,
                options={"require": ["sub", "exp"]},
            )
            return validate_user_id(str(claims["sub"]))
        except (jwt.PyJWTError, InvalidUserId):
            return None


def verifier_from_env(env: Mapping[str, str] | None = None) -> Verifier | None:
    """The verifier the environment asks for; None means no auth (local Studio)."""
    if key := settings.AUTH_JWT_KEY.read(env):
        algorithms = tuple(a.strip() for a in settings.AUTH_JWT_ALGORITHMS.read(env).split(",") if a.strip())
        return JwtVerifier(
            key.replace("\\n", "\n"),
            algorithms,
            audience=settings.AUTH_JWT_AUDIENCE.read(env) or None,
            issuer=settings.AUTH_JWT_ISSUER.read(env) or None,
        )
    if spec := settings.AUTH_TOKENS.read(env):
        return StaticTokens.parse(spec)
    return None


_active: Verifier | None = verifier_from_env()


def use_verifier(verifier: Verifier | None) -> None:
    """Swap the token verifier (``token -> user id or None``); None turns auth off."""
    global _active
    _active = verifier


def active_verifier() -> Verifier | None:
    """The verifier in force; None while the server runs open."""
    return _active


def account_active(user: str) -> bool:
    """Whether the verifier in force still knows ``user``, for runs the server starts with no token (crons).

    A verifier that can tell (``StaticTokens``; a fork's own one with ``holds_account``) is asked;
    one that cannot (a JWT provider revokes by issuing no token) is trusted.
    """
    holds = getattr(_active, "holds_account", None)
    return True if holds is None else bool(holds(user))


def operators() -> frozenset[str]:
    """The operator identities (``MEMORY_AUTH_OPERATORS``): they write the knowledge base, read server metrics."""
    return frozenset(u.strip() for u in settings.AUTH_OPERATORS.read().split(",") if u.strip())


def bearer_user(authorization: str | None) -> str:
    """The user of an ``Authorization: Bearer <token>`` header; ``Unauthenticated`` otherwise.

    Call only while a verifier is active (``active_verifier()`` is not None).
    """
    verifier = _active
    if verifier is None:
        raise RuntimeError("bearer_user needs an active verifier")
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("missing bearer token (Authorization: Bearer <token>)")
    user = verifier(token.strip())
    if not user:
        raise Unauthenticated("invalid or expired token")
    return user
