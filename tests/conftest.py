"""Hypothesis profiles, chosen by ``SNIFF_HYPOTHESIS_PROFILE``.

- ``fast`` (the default): enough examples to catch a broken rule while the
  whole test command stays within a few minutes on two cores.
- ``thorough``: ten times the examples and longer stateful runs, for a
  release or a nightly job:
  ``SNIFF_HYPOTHESIS_PROFILE=thorough python3 -m pytest``.

Both build on the profile Hypothesis itself picks (its ``ci`` profile when
``CI`` is set: derandomized, no deadline), so CI runs stay reproducible.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from postgres_support import PostgresServer, shared_server

_base = settings.get_profile("ci") if os.environ.get("CI") else settings.get_profile("default")
FAST_EXAMPLES = 60
settings.register_profile(
    "fast",
    parent=_base,
    max_examples=FAST_EXAMPLES,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    parent=_base,
    max_examples=FAST_EXAMPLES * 10,
    stateful_step_count=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("SNIFF_HYPOTHESIS_PROFILE", "fast"))

# --doctest-modules would import every file under tests/; the deliberately
# broken copies there are for crosshair alone (tests/test_contracts.py), and
# tests/protocol holds engine processes that read their fault from argv.
collect_ignore = ["crosshair_broken", "protocol"]


@pytest.fixture(scope="session")
def postgres_server() -> PostgresServer:
    """A real PostgreSQL server for the whole run, started on first use (tests/postgres_support.py)."""
    return shared_server()


@pytest.fixture
def postgres_dsn(postgres_server: PostgresServer) -> str:
    """The connection string of a fresh database on the tests' PostgreSQL server, one per test."""
    return postgres_server.new_database()
