"""Writing files so that a reader never sees half of one: each written under a temporary name
(``.<name>.<pid>.<random>.tmp``, the pid telling a killed writer's leftovers apart) and renamed
into place; a set of files written into a folder of its own and switched in whole."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import secrets
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

# Temporary names from before the process id was part of them are removed once this old.
LEGACY_TEMPORARY_AGE_S = 3600.0
_TEMPORARY = re.compile(r"^\..+\.(?P<pid>\d+)\.[0-9a-f]{12}\.tmp$")
_LEGACY_TEMPORARY = re.compile(r"^\..+\.tmp$")
# The temporary names this process is writing now: a leftover with our pid not among them is an
# earlier process's of the same pid (a container's pid 1). A name leaves when its write ends.
_OURS: set[str] = set()


def _read_umask() -> int:
    # Read once at import: os.umask can only be read by setting it, which races with other threads.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _read_umask()


class NameTakenError(FileExistsError):
    """A file of that name exists already: the one failure that may try another name."""


def temporary_name(target: str | Path) -> Path:
    """A fresh temporary path beside ``target`` that names this process (see the module doc)."""
    target = Path(target)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(6)}.tmp")
    _OURS.add(tmp.name)
    return tmp


def _done_with(tmp: Path) -> None:
    _OURS.discard(tmp.name)


@contextmanager
def atomic_path(path: str | Path, *, replace: bool = True) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` that becomes ``path`` in one rename on success (on an
    exception, ``path`` is left as it was). With ``replace=False`` an existing ``path`` is never
    overwritten: NameTakenError (an atomic claim: two writers cannot both win)."""
    target = Path(path)
    make_folder(target.parent)
    tmp = temporary_name(target)
    fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    os.close(fd)
    try:
        yield tmp
        # The file was created private; give it the permissions a plain open() would.
        os.chmod(tmp, 0o666 & ~_UMASK)
        if replace:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)
            except FileExistsError:
                raise NameTakenError(f"{target} exists") from None
    finally:
        tmp.unlink(missing_ok=True)
        _done_with(tmp)


@contextmanager
def atomic_open(path: str | Path, mode: str = "w", *, replace: bool = True, **kwargs) -> Iterator[IO]:
    """Open a temporary file beside ``path`` for writing; rename it to ``path`` on success
    (``replace=False``: never over an existing file, see ``atomic_path``)."""
    with atomic_path(path, replace=replace) as tmp, open(tmp, mode, **kwargs) as handle:
        yield handle
        handle.flush()
        os.fsync(handle.fileno())


def make_folder(folder: str | Path) -> None:
    """Create ``folder`` and its parents; NotADirectoryError (not "name taken") naming one that is not."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise NotADirectoryError(folder_problem(folder) or f"{folder} is not a folder") from None


def folder_problem(folder: str | Path) -> str | None:
    """Why files cannot be written into ``folder`` (it, or a folder above it, is a file), or None."""
    for part in (Path(folder), *Path(folder).parents):
        if part.exists() or part.is_symlink():
            return None if part.is_dir() else f"{part} is not a folder"
    return None


# Free space a run needs where it writes (a few MB and Dagster's events): less is a full disk.
MIN_FREE_BYTES = 32 * 1024 * 1024


def storage_problem(folder: str | Path) -> str | None:
    """Why a run could not write into ``folder``: the nearest existing folder refuses a probe file
    (read-only, not ours) or its disk has less than MIN_FREE_BYTES free; else None."""
    existing = Path(folder).absolute()
    while not existing.is_dir() and existing != existing.parent:
        existing = existing.parent
    probe = temporary_name(existing / ".nabahan-probe")
    try:
        fd = os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        try:
            os.write(fd, b"probe")
        finally:
            os.close(fd)
            probe.unlink(missing_ok=True)
        status = os.statvfs(existing)
    except OSError as exc:
        return f"cannot write in {existing}: {exc.strerror or exc}"
    finally:
        _done_with(probe)
    free = status.f_bavail * status.f_frsize
    if free < MIN_FREE_BYTES:
        return f"the disk of {existing} is full: {free:,} bytes free, a run needs {MIN_FREE_BYTES:,} at least"
    return None


def linked_folder_problem(link: str | Path) -> str | None:
    """Why ``atomic_folder(link)`` cannot switch a folder in at ``link`` (the user's is there), or None."""
    link = Path(link)
    runs = link.with_name(f".{link.name}_runs")
    if (runs.exists() or runs.is_symlink()) and not runs.is_dir():
        return f"{runs} is not a folder"
    if link.is_symlink() or not link.exists():
        return None
    if not link.is_dir():
        return f"{link} is a file, where the charts' folder goes"
    if _other_files(link):
        return f"{link} is a folder of other files, where the charts' folder goes; move it or choose another --output-dir"
    return None


@dataclass(frozen=True)
class StagedFolder:
    """A folder being written (``path``) and where its files are once it is switched in (``final``)."""

    path: Path
    final: Path


@contextmanager
def atomic_folder(link: str | Path, *, keep: int = 10) -> Iterator[StagedFolder]:
    """Yield a new empty folder to write; on success it takes its final name in ``.<link>_runs``
    and the symbolic link ``link`` is switched to it in one rename (on an exception, left as it
    was). The newest ``keep`` are kept: a reader that resolved ``link`` a moment ago finds its files."""
    link = Path(link)
    runs = link.with_name(f".{link.name}_runs")
    runs.mkdir(parents=True, exist_ok=True)
    if link.is_dir() and not link.is_symlink():
        _adopt_folder(link, runs)
    final = runs / f"{_stamp()}-{os.getpid()}-{secrets.token_hex(3)}"
    work = temporary_name(final)
    work.mkdir()
    try:
        yield StagedFolder(work, final)
        os.replace(work, final)
        pointer = temporary_name(link)
        os.symlink(os.path.relpath(final, link.parent), pointer, target_is_directory=True)
        try:
            os.replace(pointer, link)
        finally:
            pointer.unlink(missing_ok=True)
            _done_with(pointer)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
        _done_with(work)
    _prune_folders(runs, keep=keep, current=final)


def _adopt_folder(folder: Path, runs: Path) -> None:
    # A real folder where the link goes (from before links): moved in among the runs when its files
    # are all of one kind, as ours are; else refused.
    if _other_files(folder):
        raise FileExistsError(f"{folder} is a folder of other files; it cannot become a link to a run's folder")
    os.replace(folder, runs / f"{_stamp()}-before")


def _other_files(folder: Path) -> bool:
    kinds = {entry.suffix for entry in folder.iterdir() if not entry.name.endswith(".tmp")}
    return any(entry.is_dir() for entry in folder.iterdir()) or len(kinds) > 1


def _stamp() -> str:
    return time.strftime("%Y%m%d_%H%M%S")


def _prune_folders(runs: Path, *, keep: int, current: Path) -> None:
    folders = [p for p in runs.iterdir() if p.is_dir() and not _TEMPORARY.match(p.name) and p != current]
    folders.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in folders[max(0, keep - 1):]:
        shutil.rmtree(old, ignore_errors=True)


def remove_stale_temporaries(folder: str | Path, *, recursive: bool = False) -> list[Path]:
    """Remove (and return) the temporaries killed writers left in ``folder``: those whose writer's
    process (its id in the name) is gone, and, without one, older than ``LEGACY_TEMPORARY_AGE_S``."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    removed = []
    entries = folder.rglob(".*.tmp") if recursive else folder.glob(".*.tmp")
    for entry in list(entries):
        if _is_stale(entry):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
            removed.append(entry)
    return removed


def _is_stale(entry: Path) -> bool:
    match = _TEMPORARY.match(entry.name)
    if match:
        pid = int(match["pid"])
        return entry.name not in _OURS if pid == os.getpid() else not process_alive(pid)
    if _LEGACY_TEMPORARY.match(entry.name):
        try:
            return time.time() - entry.lstat().st_mtime > LEGACY_TEMPORARY_AGE_S
        except FileNotFoundError:
            return False
    return False


def process_alive(pid: int) -> bool:
    """Whether the process ``pid`` exists on this host (another user's too)."""
    try:
        os.kill(pid, 0)  # signal 0: nothing is sent, only whether the process exists is checked
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        pass
    return True


def fsync_file(path: str | Path) -> None:
    """Flush a written file's content to disk, so that a rename after it never exposes an empty one."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_folder(folder: str | Path) -> None:
    """Flush a folder's entries to disk (a rename into it survives a crash), where the system can."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def file_lock(path: str | Path) -> Iterator[None]:
    """An exclusive lock on the file ``path`` for the block (released by the system if we die)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def file_sha256(path: str | Path) -> str:
    """sha256 hex digest of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
