"""A batch worker's game that kills its own process for game 1, as a crash in compiled code
would: the batch must lose no other game (tests/tools/test_batch.py)."""

from __future__ import annotations

import os
import signal

from sim.tools import batch
from sim.tools.batch import GameRecord

DOOMED = 1


def game(index: int) -> GameRecord:
    if index == DOOMED:
        os.kill(os.getpid(), signal.SIGKILL)
    return batch._worker_game(index)
