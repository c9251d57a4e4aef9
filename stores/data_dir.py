"""The data dir: one folder per deployment holding every file memory writes.

Checked before anything is opened, so a wrong path fails with a message that
says what to do, and nothing half-written is left behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

STORE_SUBDIR = "store"
MEMORY_FILES_SUBDIR = "memories"


class DataDirError(RuntimeError):
    """The data dir cannot be used; the message says why and what to do."""


def prepare_data_dir(path: str | os.PathLike[str]) -> Path:
    """Create ``path`` if needed and prove it is a writable directory."""
    root = Path(path).expanduser()
    if root.exists() and not root.is_dir():
        raise DataDirError(
            f"data dir {str(root)!r} exists but is not a directory; set MEMORY_DATA_DIR or --data-dir to a folder"
        )
    try:
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=root, prefix=".write-probe-"):
            pass
    except OSError as err:
        raise DataDirError(
            f"data dir {str(root)!r} is not writable ({err.strerror or err}); "
            "choose another with --data-dir or MEMORY_DATA_DIR"
        ) from None
    return root.resolve()


EMBEDDINGS_FILE = "embeddings.json"


def check_embedding_model(root: Path, spec: str) -> None:
    """Refuse to mix vectors of two embedding models in one data dir.

    Vectors from different models are not comparable, and the store's cache keys
    them by text, so a silent switch would corrupt search. The first open records
    the model; a later open with another one fails before anything is written.
    """
    marker = root / EMBEDDINGS_FILE
    if marker.exists():
        try:
            recorded = json.loads(marker.read_text()).get("embedding_model")
        except (OSError, ValueError) as err:
            raise DataDirError(
                f"{marker} is unreadable ({err}); restore it or remove it to re-record the model"
            ) from None
        if recorded != spec:
            raise DataDirError(
                f"data dir {str(root)!r} holds vectors from embedding model {recorded!r}, not {spec!r}; "
                "use the same MEMORY_EMBEDDING_MODEL, or a new --data-dir (and import there)"
            )
        return
    marker.write_text(json.dumps({"embedding_model": spec}) + "\n")
