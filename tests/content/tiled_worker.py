"""The fuzz test's worker (tests/content/test_tiled_fuzz.py): imports maps as `sim import-tiled`
does, one a line of standard input, within a memory limit, and answers each with one JSON line.

It runs in a process of its own so that a case that eats memory or hangs can be stopped without
stopping the tests: after its imports it sets its address-space limit (RLIMIT_AS) to what it
already has plus `--megabytes`, so a case that needs more fails with MemoryError instead of
filling the machine; the test kills it when a case takes too long.
"""

from __future__ import annotations

import contextlib
import io
import json
import resource
import sys
import time
import traceback


def _address_space() -> int:
    """Bytes of address space the process has now (VmSize)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


def serve(megabytes: int) -> None:
    from sim.cli.main import main

    answer = sys.stdout
    limit = _address_space() + megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    answer.write(json.dumps({"ready": True}) + "\n")
    answer.flush()
    for line in sys.stdin:
        case = json.loads(line)
        out, err = io.StringIO(), io.StringIO()
        start = time.monotonic()
        crash = ""
        code = -1
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["import-tiled", case["map"], "--out", case["out"]])
        except MemoryError:
            crash = "MemoryError"
        except BaseException as error:  # every other escape is what the test looks for
            crash = "".join(traceback.format_exception_only(error)).strip()
            crash += "\n" + "".join(traceback.format_tb(error.__traceback__)[-3:])
        seconds = time.monotonic() - start
        record = {
            "code": code,
            "out": out.getvalue(),
            "err": err.getvalue(),
            "seconds": seconds,
            "crash": crash,
        }
        answer.write(json.dumps(record) + "\n")
        answer.flush()


if __name__ == "__main__":
    serve(int(sys.argv[1]))
