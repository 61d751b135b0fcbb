"""The page's server for the tests that ask its API in this process."""

from __future__ import annotations

import warnings
from typing import Any, Iterator

import pytest


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """The page's application in this process (engines inline, 1 s a request), one for a test module; the
    module is skipped without httpx (Starlette's test client needs it)."""
    pytest.importorskip("httpx")
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient

    from zerosum.ui.server import create_app

    with TestClient(create_app(mode="inline", engine_time=1.0)) as c:
        yield c
