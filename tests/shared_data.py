"""Where tests find the project's shared material folder (corpora and source data too large or
too restricted for the repository): $PSEUDO_SHARED, else shared/ beside the checkout.

Tests that need it carry `@pytest.mark.shared("corpora/meddocan/train")`: conftest skips them
when that path is missing, or fails them when CI=true or PSEUDO_REQUIRE_SHARED=1, so that CI
cannot pass without running them."""

from __future__ import annotations

import os
from pathlib import Path

SHARED_ENVIRONMENT = "PSEUDO_SHARED"
REPOSITORY = Path(__file__).resolve().parents[1]


def shared_folder() -> Path:
    given = os.environ.get(SHARED_ENVIRONMENT)
    return Path(given) if given else REPOSITORY.parent / "shared"


def shared_required() -> bool:
    """CI sets CI=true; a contributor can ask for the same with PSEUDO_REQUIRE_SHARED=1."""
    return os.environ.get("CI", "").lower() == "true" or os.environ.get("PSEUDO_REQUIRE_SHARED") == "1"


SHARED = shared_folder()
