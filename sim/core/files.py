"""Files read within a limit and written whole: every loader reads through `read_bytes`, so
no file can make one read without end, and writes go to a temporary file renamed over the
target, so a crash never leaves half a file."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def mode_for(target: Path) -> int:
    """The permissions a written file should have: those of the file it replaces, else what
    a new file gets under the umask (mkstemp's own 0600 would hide a file shared on purpose)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mask = os.umask(0)  # the only way to read the umask: set it and put it back
        os.umask(mask)
        return 0o666 & ~mask


def write_atomically(path: str | Path, text: str, suffix: str = "") -> None:
    """Write `text` to a temporary file beside `path`, flushed to disk, then rename it over
    `path`: a crash never leaves half a file. OSError says what went wrong."""
    import tempfile  # here: most commands write nothing, and its import costs their start

    target = Path(path)
    fd, temporary = tempfile.mkstemp(
        dir=target.parent or Path("."), prefix=f".{target.name}.", suffix=suffix
    )
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            os.fchmod(out.fileno(), mode_for(target))
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Unreadable(Exception):
    """A file refused before or while it was read. The message says why in a few words and
    leaves the path out: each loader names the file in its own way (`file:line: ...`)."""


def read_bytes(path: str | Path, limit: int, what: str = "a file") -> bytes:
    """The bytes of the regular file at `path`, refused (Unreadable) when it is not a regular
    file (a device such as /dev/zero would be read without end, a pipe could wait forever) or
    has more than `limit` bytes: its size is checked before it is read, and the reading stops
    one byte past the limit should the file grow meanwhile. `what` names the kind of file in
    the refusal: "a scenario file may have at most 16,777,216"."""
    try:
        # O_NONBLOCK: opening a pipe with no writer would otherwise wait; a regular file
        # ignores it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise Unreadable(f"cannot read the file: {error.strerror or error}") from None
    except ValueError as error:  # a NUL in the name
        raise Unreadable(f"cannot read the file: {error}") from None
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise Unreadable("a folder, not a file")
        if not stat.S_ISREG(status.st_mode):
            raise Unreadable("not a regular file but a device or a pipe; name a file")
        if status.st_size > limit:
            raise Unreadable(too_large(status.st_size, limit, what))
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise Unreadable(too_large(got, limit, what, grew=True))
        return b"".join(chunks)
    except OSError as error:
        raise Unreadable(f"cannot read the file: {error.strerror or error}") from None
    finally:
        os.close(fd)


def read_text(path: str | Path, limit: int, what: str = "a file") -> str:
    """`read_bytes`, decoded as UTF-8 (Unreadable when it is not)."""
    data = read_bytes(path, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Unreadable(f"not UTF-8 text ({error.reason})") from None


def too_large(size: int, limit: int, what: str, grew: bool = False) -> str:
    """The words of a file refused for its size: `20,000,000 bytes; a scenario file may have
    at most 16,777,216` (`grew`: it was read up to the limit, its size unknown)."""
    told = f"more than {limit:,}" if grew else f"{size:,}"
    return f"{told} bytes; {what} may have at most {limit:,}"
