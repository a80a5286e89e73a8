"""Files written whole or not at all: a temporary file beside the target, renamed over it."""

from __future__ import annotations

import os
import stat
import tempfile
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
