"""The ``/memories`` file tool: a per-user folder of notes the model edits itself.

The model chooses every path and every byte it writes, so each argument is
untrusted. Paths are confined to ``<data_dir>/memories/<user_id>/`` by
``memory_paths`` (the user id comes from config, never from the model). Files
are UTF-8 text under a size limit (and the folder under a total quota), and
every write goes to a temporary file that is renamed over the old one, so an
error never leaves a half-written or emptied file behind. With the user's
``MemoryGate`` (the ``memory`` tool always has it) writes follow the store's
rules: consent, redaction, size. Export, forget and delete-user only read or remove.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from memory import clock
from memory.tools.memory_file_args import check_view_range, checked_args, need_str
from memory.tools.memory_paths import VIRTUAL_ROOT, MemoryFileError, resolve_memory_path, user_memory_dir
from memory.write_policy.gate import MemoryGate, WriteRefused
from stores.namespaces import UserScope
from stores.redaction.names import identifier_secret


def _new_name(path: Any) -> Any:
    """``path`` for a file about to be named; a name is kept as it is, so one holding a secret is refused."""
    if isinstance(path, str) and any(identifier_secret(part) for part in path.split("/")):
        raise MemoryFileError("a name in that path holds what looks like a secret; choose another name; "
                              "nothing was stored")
    return path

DEFAULT_MAX_FILE_BYTES = 64 * 1024
DEFAULT_MAX_TOTAL_BYTES = 1024 * 1024


class MemoryFiles:
    """File operations confined to one user's memory folder.

    Holds no state besides the folder, so a new instance (a new session or
    process) sees exactly what earlier ones wrote.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        scope: UserScope,
        *,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        max_total_bytes: int = DEFAULT_MAX_TOTAL_BYTES,
        gate: MemoryGate | None = None,
    ) -> None:
        if gate is not None and gate.scope != scope:
            raise ValueError(f"the gate is for user {gate.scope.user_id!r}, not {scope.user_id!r}")
        self.gate = gate
        self.root = user_memory_dir(data_dir, scope)
        self.max_file_bytes = max_file_bytes
        self.max_total_bytes = max_total_bytes

    # ---- dispatch -------------------------------------------------------
    def execute(self, command: str, **args: Any) -> str:
        """Run one tool call; raises ``MemoryFileError`` with a readable message."""
        given = checked_args(command, args)
        try:
            return getattr(self, command)(**given)
        except OSError as err:
            raise MemoryFileError(f"{command} failed: {err.strerror or err}") from None

    # ---- commands -------------------------------------------------------
    def view(self, path: str, view_range: list[int] | None = None) -> str:
        """A directory listing, or a file with 1-based line numbers."""
        target = self._resolve(path)
        if target.is_dir() or target == self._real_root():
            if view_range is not None:
                raise MemoryFileError("view_range applies to files, not directories")
            return self._listing(target)
        lines = self._read(target, path).splitlines()
        first, last = 1, len(lines)
        if view_range is not None:
            first, last = check_view_range(view_range, len(lines))
        return "\n".join(f"{n:6d}\t{lines[n - 1]}" for n in range(first, last + 1)) or f"({path} is empty)"

    def create(self, path: str, file_text: str) -> str:
        """Create a file, or overwrite an existing one, with ``file_text``."""
        target = self._resolve(_new_name(path))
        if target == self._real_root() or target.is_dir():
            raise MemoryFileError(f"{path} is a directory; give a file path such as {VIRTUAL_ROOT}/notes.md")
        existed = target.exists()
        self._write(target, file_text, path)
        return f"{'Overwrote' if existed else 'Created'} {path} ({len(file_text.splitlines())} lines)"

    def str_replace(self, path: str, old_str: str, new_str: str = "") -> str:
        """Replace the one occurrence of ``old_str``; refuse when it is missing or ambiguous."""
        need_str("old_str", old_str)
        need_str("new_str", new_str)
        if old_str == "":
            raise MemoryFileError("old_str must not be empty")
        target = self._resolve(path)
        text = self._read(target, path)
        count = text.count(old_str)
        if count == 0:
            raise MemoryFileError(
                f"old_str was not found in {path}; nothing changed (view the file to copy it exactly)"
            )
        if count > 1:
            starts, pos = [], text.find(old_str)
            while pos != -1:
                starts.append(pos)
                pos = text.find(old_str, pos + 1)
            lines = sorted({text.count("\n", 0, p) + 1 for p in starts})
            raise MemoryFileError(
                f"old_str occurs {count} times in {path} (lines {', '.join(map(str, lines))}); "
                "include more surrounding text so it is unique; nothing changed"
            )
        self._write(target, text.replace(old_str, new_str, 1), path)
        return f"Edited {path}: replaced 1 occurrence"

    def insert(self, path: str, insert_line: int, insert_text: str) -> str:
        """Insert ``insert_text`` after line ``insert_line`` (0 inserts at the top)."""
        need_str("insert_text", insert_text)
        if not isinstance(insert_line, int) or isinstance(insert_line, bool):
            raise MemoryFileError(f"insert_line must be an integer, got {insert_line!r}")
        target = self._resolve(path)
        lines = self._read(target, path).splitlines(keepends=True)
        if not 0 <= insert_line <= len(lines):
            raise MemoryFileError(f"insert_line must be between 0 and {len(lines)} for {path}, got {insert_line}")
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        block = insert_text if insert_text.endswith("\n") else insert_text + "\n"
        lines.insert(insert_line, block)
        self._write(target, "".join(lines), path)
        return f"Inserted {len(block.splitlines())} line(s) into {path} after line {insert_line}"

    def delete(self, path: str) -> str:
        """Delete a file, or a directory with everything in it."""
        target = self._resolve(path)
        if target == self._real_root():
            raise MemoryFileError(f"refusing to delete {VIRTUAL_ROOT} itself; delete the files in it instead")
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
        else:
            raise MemoryFileError(f"{path} does not exist; nothing deleted")
        return f"Deleted {path}"

    def rename(self, old_path: str, new_path: str) -> str:
        """Move a file or directory; the destination must not exist yet."""
        source, dest = self._resolve(old_path), self._resolve(_new_name(new_path))
        root = self._real_root()
        if root in (source, dest):
            raise MemoryFileError(f"{VIRTUAL_ROOT} itself cannot be renamed")
        if not source.exists():
            raise MemoryFileError(f"{old_path} does not exist")
        if dest.exists():
            raise MemoryFileError(f"{new_path} already exists; delete it first or choose another name")
        self._admit("")
        if source.is_dir() and dest.is_relative_to(source):
            raise MemoryFileError(f"cannot move {old_path} into itself")
        self._mkdirs(dest.parent, new_path)
        os.rename(source, dest)
        return f"Renamed {old_path} to {new_path}"

    # ---- whole-folder operations (export, forget, delete-user) ----------
    def iter_files(self) -> Iterator[tuple[str, Path]]:
        """(virtual path, real path) of every regular file, symbolic links skipped."""
        if not self.root.is_dir():
            return
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(
                d for d in dirnames if not d.startswith(".") and not os.path.islink(os.path.join(dirpath, d))
            )
            for name in sorted(filenames):
                real = Path(dirpath) / name
                if name.startswith(".") or real.is_symlink() or not real.is_file():
                    continue
                yield f"{VIRTUAL_ROOT}/{real.relative_to(self.root).as_posix()}", real

    def remove_lines(self, matches: Callable[[str], bool]) -> dict[str, int]:
        """Drop every line ``matches`` accepts; delete files left with no text.

        Returns {virtual path: lines removed}; a deleted file counts as -1 so the
        caller can tell "edited" from "removed". Undecodable bytes are kept as
        they were (surrogateescape), so cleaning one line never corrupts the rest.
        """
        changed: dict[str, int] = {}
        for vpath, real in list(self.iter_files()):
            lines = real.read_bytes().decode("utf-8", "surrogateescape").splitlines(keepends=True)
            kept = [line for line in lines if not matches(line)]
            if len(kept) == len(lines):
                continue
            if "".join(kept).strip():
                self._replace_bytes(real, "".join(kept).encode("utf-8", "surrogateescape"))
                changed[vpath] = len(lines) - len(kept)
            else:
                real.unlink()
                changed[vpath] = -1
        return changed

    def delete_all(self) -> bool:
        """Remove the user's whole folder; True when there was one."""
        if not self.root.exists():
            return False
        shutil.rmtree(self.root)
        return True

    # ---- helpers --------------------------------------------------------
    def _real_root(self) -> Path:
        return Path(os.path.realpath(self.root))

    def _resolve(self, path: Any) -> Path:
        return resolve_memory_path(self._real_root(), path)

    def _read(self, target: Path, path: str) -> str:
        if target.is_dir():
            raise MemoryFileError(f"{path} is a directory; use view to list it")
        if not target.is_file():
            raise MemoryFileError(f"{path} does not exist (view {VIRTUAL_ROOT} to list the files)")
        size = target.stat().st_size
        if size > self.max_file_bytes:
            raise MemoryFileError(f"{path} is {size} bytes; files over {self.max_file_bytes} bytes are not read")
        try:
            return target.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            raise MemoryFileError(f"{path} is not UTF-8 text; only text files can be read or edited") from None

    def _admit(self, text: str) -> str:
        """``text`` after the write gate (consent, size, redaction), when there is one."""
        try:
            return self.gate.admit_text(text) if self.gate is not None else text
        except WriteRefused as err:
            raise MemoryFileError(str(err)) from None

    def _write(self, target: Path, text: str, path: str) -> None:
        need_str("file content", text)
        text = self._admit(text)
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise MemoryFileError("content is not valid UTF-8 text (it holds an unpaired surrogate)") from None
        if "\x00" in text:
            raise MemoryFileError("content contains NUL bytes; only text can be stored")
        if len(data) > self.max_file_bytes:
            raise MemoryFileError(
                f"content is {len(data)} bytes; the limit per file is {self.max_file_bytes} bytes; nothing written"
            )
        old = target.stat().st_size if target.is_file() else 0
        total = sum(real.stat().st_size for _, real in self.iter_files()) - old + len(data)
        if total > self.max_total_bytes:
            raise MemoryFileError(
                f"this would bring the memory directory to {total} bytes; the limit is {self.max_total_bytes}. "
                "Delete or shorten files first; nothing written"
            )
        self._mkdirs(target.parent, path)
        self._replace_bytes(target, data, clock.now().timestamp())

    def _replace_bytes(self, target: Path, data: bytes, mtime: float | None = None) -> None:
        """Write ``data`` to a temporary file beside ``target``, then rename it over.

        The file's time is ``mtime`` (a write: the clock every layer reads, so a
        retention limit dates it even under ``--now``), else the old file's (lines removed).
        """
        mtime = target.stat().st_mtime if mtime is None and target.exists() else mtime
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if mtime is not None:
                os.utime(tmp, (mtime, mtime))
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _mkdirs(self, directory: Path, path: str) -> None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise MemoryFileError(f"cannot create {path}: a file stands where a directory is needed") from None

    def _listing(self, target: Path) -> str:
        if not target.exists():
            return f"{VIRTUAL_ROOT} is empty"
        root, rows = self._real_root(), []
        for vpath, real in self.iter_files():
            if real.is_relative_to(target):
                rows.append(f"{real.stat().st_size:>8}  {vpath}")
        shown = VIRTUAL_ROOT + ("" if target == root else "/" + target.relative_to(root).as_posix())
        return f"{shown}: {len(rows)} file(s)\n" + "\n".join(rows) if rows else f"{shown} is empty"
