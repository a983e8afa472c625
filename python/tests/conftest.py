import os

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")  # plots render without a display


@pytest.fixture(scope="session")
def gputco():
    import gputco as module

    return module


@pytest.fixture(scope="session")
def catalog(gputco):
    return gputco.catalog()
