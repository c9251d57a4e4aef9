"""Confining the model's ``/memories/...`` paths to one user's folder.

Every path comes from the model and is untrusted. It must start with
``/memories``; it maps onto ``<data_dir>/memories/<user_id>/``, and it is
refused, with a message the model can act on, when it holds ``..``, a NUL
byte, a control character, an overlong name, or resolves through a symbolic
link to somewhere outside that folder. Refusing ``..`` outright (rather than
normalising it away) keeps the rule simple enough to state in one sentence.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from stores.data_dir import MEMORY_FILES_SUBDIR
from stores.namespaces import UserScope

VIRTUAL_ROOT = "/memories"
MAX_PATH_CHARS = 1024
MAX_NAME_BYTES = 255


class MemoryFileError(ValueError):
    """A refused or failed file operation; the message is meant for the model."""


def user_memory_dir(data_dir: str | os.PathLike[str], scope: UserScope) -> Path:
    """Where ``scope``'s memory files live on disk."""
    return Path(data_dir) / MEMORY_FILES_SUBDIR / scope.label


def resolve_memory_path(root: Path, path: Any) -> Path:
    """Map a virtual path onto a real one inside ``root`` (already resolved), or refuse it."""
    if not isinstance(path, str):
        raise MemoryFileError(f"path must be a string, got {type(path).__name__}")
    if "\x00" in path:
        raise MemoryFileError("path contains a NUL byte")
    if len(path) > MAX_PATH_CHARS:
        raise MemoryFileError(f"path is {len(path)} characters long; the limit is {MAX_PATH_CHARS}")
    if "\\" in path:
        raise MemoryFileError("use '/' to separate path parts; backslashes are not allowed")
    if path != VIRTUAL_ROOT and not path.startswith(VIRTUAL_ROOT + "/"):
        raise MemoryFileError(f"path {path!r} is outside the memory directory; paths must start with {VIRTUAL_ROOT}/")
    parts = [p for p in path[len(VIRTUAL_ROOT):].split("/") if p not in ("", ".")]
    for part in parts:
        if part == "..":
            raise MemoryFileError(f"path {path!r} contains '..'; parent-directory steps are not allowed")
        if len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            raise MemoryFileError(f"a name in {path[:60]!r}... is longer than {MAX_NAME_BYTES} bytes")
        if part.startswith("."):
            raise MemoryFileError(f"names starting with '.' are reserved ({part!r})")
        if any(ord(c) < 32 or ord(c) == 127 for c in part):
            raise MemoryFileError(f"path {path!r} contains a control character")
    real = Path(os.path.realpath(root.joinpath(*parts)))
    if real != root and not real.is_relative_to(root):
        raise MemoryFileError(f"path {path!r} leads outside the memory directory through a symbolic link")
    return real
