"""The Ray backend of `sim batch`: the same games on a Ray cluster, through Ray's drop-in
`ray.util.multiprocessing.Pool` (Ray is an optional extra: pip install -e '.[cluster]')."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from sim.tools.batch import Plan, Pool, PoolError, PoolFactory, start_worker

INSTALL = "pip install -e '.[cluster]'"
REACH_SECONDS = 5.0  # how long to wait for a cluster's head to answer before giving up


class ClusterError(PoolError):
    """Ray is asked for and cannot be had; the message says why and what to do."""


def ray_pool(address: str) -> PoolFactory:
    """A pool factory whose workers are Ray actors: on the cluster at `address` ("host:port",
    "ray://host:10001" or "auto"), or "local" for a Ray instance started on this machine.
    Each actor receives the plan (the scenario included) once, as a pool initializer argument,
    so scenario files need not be on the cluster's machines."""
    if not address:
        raise ClusterError(
            "--ray needs the address of a Ray cluster (--ray HOST:PORT, or set RAY_ADDRESS), "
            "or --ray local to start Ray on this machine"
        )
    try:
        from ray.util.multiprocessing import Pool as RayPool
    except ImportError:
        raise ClusterError(
            f"--ray runs the games on Ray, which is not installed here: {INSTALL}"
        ) from None
    # Ray itself retries an address that does not answer for minutes before it gives up.
    head = head_of(address)
    if head is not None:
        reach(address, *head)

    @contextmanager
    def make(processes: int, plan: Plan) -> Iterator[Pool]:
        import ray

        started = not ray.is_initialized()
        try:
            pool: Any = RayPool(  # typed only where Ray is installed
                processes, initializer=start_worker, initargs=(plan,), ray_address=address
            )
        except (ConnectionError, ValueError, RuntimeError) as error:
            # Unreachable, or fewer CPUs in the cluster than --workers: Ray's words say which.
            raise ClusterError(f"--ray {address}: {error}") from None
        try:
            yield cast(Pool, pool)
        finally:
            pool.terminate()
            if started:  # a Ray this batch connected to or started: let it go again
                ray.shutdown()

    return make


def head_of(address: str) -> tuple[str, int] | None:
    """The host and port of a cluster's head in `address` ("host:port" or
    "ray://host:port"), or None for "local" and "auto", which name no machine to ask."""
    if address in ("local", "auto"):
        return None
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterError(
            f"--ray {address}: not a cluster address; give HOST:PORT (the head's GCS port, "
            "6379 by default), ray://HOST:PORT (Ray Client, 10001), auto or local"
        )
    return host.strip("[]"), int(port)


def reach(address: str, host: str, port: int, seconds: float = REACH_SECONDS) -> None:
    """Whether the head answers at host:port within `seconds`; a ClusterError says why not."""
    try:
        with socket.create_connection((host, port), timeout=seconds):
            return
    except TimeoutError:
        why = f"no answer within {seconds:g} s"
    except OSError as error:  # refused, no route, a host name that does not resolve
        why = error.strerror or str(error)
    raise ClusterError(
        f"--ray {address}: cannot reach a Ray cluster there ({why}); is its head running "
        "(ray start --head) and the port open to this machine?"
    )
