"""Shared fixtures: the reference corpora, Hypothesis profiles, and the session's one headless
Chromium and one throwaway PostgreSQL server (registered here once: a fixture imported into two
modules or conftests is two fixtures, and two session Playwright instances in one worker fail)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.browser import browser  # noqa: F401
from tests.postgres import postgres_server, postgres_url  # noqa: F401

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile(
    "ci",
    max_examples=200,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("nightly", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The installation's secret (players' check-in codes) for every command and server the tests
# start: none of them makes one in the user's ~/.config (pipelines/process/secret.py).
os.environ.setdefault("ARBITER_SECRET", "tests-only-secret")

REPO = Path(__file__).resolve().parent.parent
TESTDATA = REPO.parent / "shared" / "testdata"


def require_testdata(*parts: str) -> Path:
    """The path of a reference corpus; skip when absent, fail when CI requires it."""
    path = TESTDATA.joinpath(*parts)
    if path.exists():
        return path
    message = f"reference data not found: {path}"
    if os.environ.get("ARBITER_REQUIRE_TESTDATA") == "1":
        pytest.fail(message + " (ARBITER_REQUIRE_TESTDATA=1)")
    pytest.skip(message)


@pytest.fixture
def testdata() -> Path:
    """Root of ../shared/testdata (skips or fails as require_testdata does)."""
    return require_testdata()
