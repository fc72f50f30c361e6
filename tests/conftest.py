from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"
REFERENCE = ROOT.parent / "shared" / "reference"


@pytest.fixture
def root() -> Path:
    return ROOT
