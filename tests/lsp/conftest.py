import os
import tempfile

import pytest

from tests.lsp.rawclient import RawClient

# Short analysis limits keep the tests of hanging code short: killed after 0.6 + 2 s.
FAST_LIMITS = {"debounceMs": 20, "analysisTimeoutMs": 600}


@pytest.fixture(scope="session")
def server():
    pytest.importorskip("pygls")
    c = RawClient(FAST_LIMITS)
    yield c
    c.shutdown()


@pytest.fixture(scope="session")
def trusting():
    """A server with executeModules: compile-time Python runs as Python (in its workers)."""
    pytest.importorskip("pygls")
    c = RawClient(dict(FAST_LIMITS, executeModules=True))
    yield c
    c.shutdown()


@pytest.fixture
def workdir():
    with tempfile.TemporaryDirectory(prefix="tilescope-lsp-") as d:
        yield d


def uri_of(path: str) -> str:
    return "file://" + os.path.abspath(path)
