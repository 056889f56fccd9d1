"""Every test here runs twice: with the compiled CPU backend taking the launches it can
(engine 'auto') and with the NumPy executor alone (engine 'numpy'). Tests that compare a
launch with a one-block-at-a-time run (sequential=True, always the NumPy executor) thus
check compiled = executor = one block at a time."""
import pytest

from tilescope.backends.compiled.engine import ENV_ENGINE


@pytest.fixture(autouse=True, params=["compiled", "numpy"])
def engine(request, monkeypatch):
    monkeypatch.setenv(ENV_ENGINE, "auto" if request.param == "compiled" else "numpy")
    return request.param


def pytest_configure(config):
    config.addinivalue_line("markers", "numpy_executor: checks how the NumPy executor itself works "
                                       "(runs with engine 'numpy' only)")


@pytest.fixture(autouse=True)
def _numpy_only(request, engine):
    if engine == "compiled" and request.node.get_closest_marker("numpy_executor"):
        pytest.skip("checks the NumPy executor's own strategy")
