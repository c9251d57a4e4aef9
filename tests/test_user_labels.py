"""User ids from any identity provider, and the one encoding that turns them into namespace labels.

``stores.namespaces.user_label`` must be injective (two ids, two namespaces),
leave every id accepted before unchanged (existing data stays where it is), and
never produce a character that means something to a namespace ('.'), a path
('/', '\\'), a LIKE pattern ('%', '_' is kept but never created) or a glob.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stores.namespaces import MAX_USER_ID_CHARS, InvalidUserId, UserScope, user_label, user_of_label

LABEL_CHARS = set(string.ascii_letters + string.digits + "_-@+~")
ids = st.text(min_size=1, max_size=40).filter(lambda s: s.strip())


@given(ids, ids)
def test_two_ids_never_share_a_label(a: str, b: str) -> None:
    if a != b:
        assert user_label(a) != user_label(b)


@given(ids)
def test_a_label_is_safe_and_names_its_id_again(user: str) -> None:
    label = user_label(user)
    assert set(label) <= LABEL_CHARS and (label[0].isalnum() or label[0] == "~"), label
    assert user_of_label(label) == user
    assert UserScope(user).ns("facts") == ("users", label, "facts")


@given(st.from_regex(r"\A[A-Za-z0-9][A-Za-z0-9_\-@+]{0,127}\Z"))
def test_ids_accepted_before_keep_their_namespace(user: str) -> None:
    assert user_label(user) == user


def test_look_alike_provider_ids_stay_apart() -> None:
    pairs = [("auth0|abc123", "auth0~7Cabc123"), ("alice.smith@example.com", "alice~2Esmith@example~2Ecom"),
             ("a.b", "a_b"), ("_x", "~5Fx"), ("Ünal", "~C3~9Cnal"), ("a b", "a+b")]
    for one, other in pairs:
        assert user_label(one) != user_label(other), (one, other)
    assert user_label("alice.smith@example.com") == "alice~2Esmith@example~2Ecom"
    assert user_label("auth0|abc123") == "auth0~7Cabc123"


def test_what_is_not_a_user_id_is_refused() -> None:
    for bad in ("", "   ", "x" * (MAX_USER_ID_CHARS + 1)):
        with pytest.raises(InvalidUserId):
            UserScope(bad)
    for not_a_label in ("a~2", "a~2e", "~41bc", "a.b", "~FF"):  # not what user_label makes
        with pytest.raises(InvalidUserId):
            user_of_label(not_a_label)


def test_a_credential_is_never_a_user_id() -> None:
    """A user id becomes a namespace label, a directory name and log text, so a pasted key is refused."""
    for key in ("sk-proj-abcdefghijklmnopqrstuvwxyz123456", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"):
        with pytest.raises(InvalidUserId, match="credential"):
            UserScope(key)
    for fine in ("alice@example.com", "auth0|abc123", "google-oauth2|1234567890123456789",
                 "550e8400-e29b-41d4-a716-446655440000"):
        assert UserScope(fine)
