import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"
# The published boards' facts (not part of the repository): TTR_REFERENCE_DIR, else ../shared/reference.
REFERENCE = Path(os.environ.get("TTR_REFERENCE_DIR") or ROOT.parent / "shared" / "reference")


@pytest.fixture
def root() -> Path:
    return ROOT
