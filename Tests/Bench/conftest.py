"""The bench program's tests read recorded samples; none starts a server, so `scripts/test` runs them in seconds."""

import pathlib

import pytest

SAMPLES = pathlib.Path(__file__).parent / "samples"


@pytest.fixture
def sample():
    def read(name: str) -> str:
        return (SAMPLES / name).read_text()
    return read
