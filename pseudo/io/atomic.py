"""Atomic output: write beside the target, then rename, so a failure leaves no partial file.

Inside a `transaction()` the renames wait until the whole block succeeded, so several outputs
(a corpus and its audit file) appear together or not at all.

A symbolic link is followed: the file it names is replaced, the link stays. A device, FIFO or
socket cannot be renamed over (that would put a regular file in its place): it is written
directly, like stdout, once every regular output is in place.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import sys
import tempfile
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Iterator

from pseudo.errors import PseudoError


def output_error(path: str | Path, error: OSError) -> PseudoError:
    """One line naming the path and the system's reason; never a traceback."""
    return PseudoError(f"{path}: cannot write ({error.strerror or type(error).__name__})")


def _make_parent(target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file where a folder of the path should be
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@dataclass
class _Staged:
    commit: Callable[[], None]
    abort: Callable[[], None]  # before commit: remove the temporary
    undo: Callable[[], None]  # after commit, when a later commit fails: remove what appeared
    last: bool = False  # cannot be undone (stdout): committed after everything else


_staged: ContextVar[list[_Staged] | None] = ContextVar("pseudo_io_transaction", default=None)


def _stage(item: _Staged) -> None:
    pending = _staged.get()
    if pending is not None:
        pending.append(item)
        return
    try:
        item.commit()
    except BaseException:
        item.abort()
        raise


@contextmanager
def transaction() -> Iterator[None]:
    """Outputs written in the block appear only when all of them were written; nested blocks join the outer one."""
    if _staged.get() is not None:
        yield
        return
    pending: list[_Staged] = []
    token = _staged.set(pending)
    try:
        yield
    except BaseException:
        for item in pending:
            item.abort()
        raise
    finally:
        _staged.reset(token)
    ordered = sorted(pending, key=lambda item: item.last)
    for number, item in enumerate(ordered):
        try:
            item.commit()
        except BaseException:
            for later in ordered[number:]:
                later.abort()
            for earlier in reversed(ordered[:number]):
                earlier.undo()
            raise


def _remove(path: Path) -> None:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except FileNotFoundError:
        pass


def _replace(temporary: Path, target: Path) -> None:
    try:
        os.replace(temporary, target)
    except OSError as error:
        raise output_error(target, error) from None


def _undo(target: Path, existed: bool) -> Callable[[], None]:
    """A new output can be taken back; one that replaced an older file cannot."""
    return (lambda: None) if existed else (lambda: _remove(target))


def _kind(target: Path) -> int | None:
    """The file type bits of what `target` names, through links; None when nothing is there."""
    try:
        return stat.S_IFMT(target.stat().st_mode)
    except FileNotFoundError:
        return None
    except OSError as error:  # a link loop, a path through a file
        raise output_error(target, error) from None


def _followed(target: Path) -> Path:
    """The path a link leads to, so that the rename replaces that file and keeps the link."""
    return Path(os.path.realpath(target)) if target.is_symlink() else target


@contextmanager
def atomic_writer(path: str | Path, mode: int | None = None, newline: str | None = "\n") -> Iterator[IO[str]]:
    """A text file that appears at `path` only if the block completes; mode 0o666 less the umask,
    as for any new file, unless given (0o600 for files that re-identify). A special file is
    written in place instead (see the module's docstring)."""
    target = Path(path)
    kind = _kind(target)
    if kind == stat.S_IFDIR:
        raise output_error(target, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)))
    if kind not in (None, stat.S_IFREG):
        with _written_in_place(target, newline) as handle:
            yield handle
        return
    target = _followed(target)
    try:
        _make_parent(target)
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise output_error(target, error) from None
    temporary = Path(name)
    with _discarded_on_failure(temporary, target):
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as handle:
            os.fchmod(handle.fileno(), mode if mode is not None else 0o666 & ~_umask())
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        existed = target.exists()  # staged inside: a signal until it is staged still removes it
        _stage(_Staged(lambda: _replace(temporary, target), lambda: _remove(temporary), _undo(target, existed)))


def _written_in_place(target: Path, newline: str | None) -> AbstractContextManager[IO[str]]:
    """Kept aside, written into the special file last: there is nothing to take back."""

    def write(spool: IO[str]) -> None:
        try:
            with open(target, "w", encoding="utf-8", newline=newline) as handle:
                shutil.copyfileobj(spool, handle, SPOOL_CHUNK)
        except OSError as error:
            raise output_error(target, error) from None

    return _spooled(write)


SPOOL_CHUNK = 1 << 20


@contextmanager
def _spooled(write: Callable[[IO[str]], None]) -> Iterator[IO[str]]:
    """Text kept in an unnamed temporary file as it is written (mode 0600, gone when closed or
    when the process ends, however it ends; memory does not grow with it), given to `write` once
    the block completes, or inside a transaction once every file of it is in place: what cannot
    be renamed into place cannot be taken back either."""
    spool = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")
    try:
        yield spool
    except BaseException:
        spool.close()
        raise

    def commit() -> None:
        try:
            spool.seek(0)
            write(spool)
        finally:
            spool.close()

    _stage(_Staged(commit, spool.close, lambda: None, last=True))


@contextmanager
def _discarded_on_failure(temporary: Path, target: Path) -> Iterator[None]:
    """Remove a half-written temporary file or folder; an OSError becomes one line naming `target`."""
    try:
        yield
    except BaseException as error:
        _remove(temporary)
        if isinstance(error, OSError):
            raise output_error(target, error) from None
        raise


@contextmanager
def atomic_folder(path: str | Path) -> Iterator[Path]:
    """A folder filled in a temporary sibling and moved to `path` only if the block completes.

    An existing empty folder is replaced; an existing non-empty one is refused, never merged into.
    A link to a folder is followed: the folder it names is replaced, the link stays."""
    target = _followed(Path(path))
    check_folder(target)
    try:
        _make_parent(target)
        temporary = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    except OSError as error:
        raise output_error(target, error) from None
    with _discarded_on_failure(temporary, target):
        os.chmod(temporary, 0o777 & ~_umask())
        yield temporary
        existed = target.exists()

        def commit() -> None:
            check_folder(target)  # nothing may have appeared in it meanwhile
            _replace(temporary, target)

        def undo() -> None:
            _remove(target)
            if existed:
                target.mkdir()

        _stage(_Staged(commit, lambda: _remove(temporary), undo))


def swap_folder(new: Path, old: Path) -> None:
    """Put a finished folder in place of an existing one: the old one moves aside, the new one
    in, then the old one goes; if the move fails, the old one is put back whole."""
    aside = old.parent / f".{old.name}.{secrets.token_hex(6)}.old"
    os.replace(old, aside)
    try:
        os.replace(new, old)
    except BaseException:
        os.replace(aside, old)
        raise
    shutil.rmtree(aside)


def check_folder(target: Path) -> None:
    """An output folder must be new or empty: merging into older output would mix two runs."""
    if target.is_dir():
        if any(target.iterdir()):
            raise PseudoError(f"{target}: the output folder exists and is not empty; choose a new or empty one")
    elif target.exists():
        raise PseudoError(f"{target}: exists and is not a folder")


def write_stdout(text: str) -> None:
    """Printed at once, or inside a transaction only once every file of it is in place."""
    def commit() -> None:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as error:
            _discard_stdout()
            raise output_error("stdout", error) from None

    _stage(_Staged(commit, lambda: None, lambda: None, last=True))


def stdout_spool() -> AbstractContextManager[IO[str]]:
    """Text for stdout written as it comes and printed as `write_stdout` prints, in memory that
    does not grow with it."""

    def write(spool: IO[str]) -> None:
        try:
            shutil.copyfileobj(spool, sys.stdout, SPOOL_CHUNK)
            sys.stdout.flush()
        except OSError as error:
            _discard_stdout()
            raise output_error("stdout", error) from None

    return _spooled(write)


def _discard_stdout() -> None:
    """What stdout still buffers would fail again as the interpreter exits, with a traceback:
    it goes to the null device instead."""
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError):  # not a file (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)
