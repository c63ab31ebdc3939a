"""The simulation's matches as Ray tasks: the optional ``[ray]`` extra.

Ray is imported here alone, when ``simulate --ray`` asks for it, never by
``import sniff_rules``. This very package is shipped to the cluster with
the job (``runtime_env={"py_modules": [sniff_rules]}``), so the workers
play the driver's code, whatever version the cluster's nodes have
installed; results stay identical to a local run.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from sniff_rules.errors import SniffError

T = TypeVar("T")
R = TypeVar("R")

RAY_MISSING: str = "simulate --ray needs Ray: pip install 'sniff-rules[ray]'"
"""What the command says when Ray is not installed."""


class RayError(RuntimeError):
    """Ray cannot run the matches: it is not installed, or the cluster cannot be started or reached."""


class RayMissingError(RayError):
    """Ray is not installed; the message names the extra that installs it."""


REACH_SECONDS: float = 10.0
"""How long a cluster's ``HOST:PORT`` may take to answer before ``--ray`` gives up."""


def _check_reachable(address: str) -> None:
    """Refuse at once a ``HOST:PORT`` (or ``ray://HOST:PORT``) that nothing answers on: Ray itself
    would go on retrying the connection for minutes."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if address in ("auto", "local") or not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_SECONDS).close()
    except (OSError, ValueError) as err:
        raise RayError(f"simulate --ray {address}: nothing answers there ({err})") from None


def ray_chunks(work: Callable[[T], R], tasks: list[T], address: str, workers: int) -> Iterator[R]:
    """``work`` of each task, run as Ray tasks and yielded in the tasks' order.

    ``address`` is a cluster's address, ``auto`` (the cluster this machine
    belongs to) or ``local``: a Ray instance started for this run alone,
    with ``workers`` CPUs (every CPU when ``workers`` is 1 or less).
    """
    try:
        import ray
    except ImportError:
        raise RayMissingError(RAY_MISSING) from None
    import sniff_rules

    _check_reachable(address)
    runtime_env: dict[str, Any] = {"py_modules": [sniff_rules]}
    options: dict[str, Any] = {"runtime_env": runtime_env, "log_to_driver": False, "configure_logging": False}
    try:
        if address == "local":
            ray.init(num_cpus=workers if workers > 1 else None, include_dashboard=False, **options)
        else:
            ray.init(address=address, **options)
    except Exception as err:  # Ray raises ConnectionError, RuntimeError, ValueError... by cause
        raise RayError(f"simulate --ray {address}: Ray could not start or connect: {err}") from None
    try:
        remote = ray.remote(work)
        # Submitted all at once, so the cluster runs them in parallel; collected in order.
        pending = [remote.remote(task) for task in tasks]
        for ref in pending:
            try:
                yield ray.get(ref)
            except ray.exceptions.RayTaskError as failed:
                # A task's own error (a cmd: bot that failed, say) stops the run by its rule, as a local worker's
                # does; Ray wraps it, and rebuilding an error of its own arguments can lose its type on the way.
                cause = getattr(failed, "cause", None)
                if isinstance(cause, SniffError):
                    raise cause from None
                raise
    finally:
        ray.shutdown()
