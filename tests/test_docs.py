"""The documentation names every rule and every option it can be configured with."""

import re
from pathlib import Path

import pytest

from pseudo.rules import RULES

RULES_DOC = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_rule_and_option_is_documented(name):
    assert re.search(rf"^\|[^|\n]*\b{name}\b[^|\n]*\|", RULES_DOC, re.MULTILINE), f"docs/rules.md lacks {name}"
    for option in RULES[name].options:
        assert f"`{option}`" in RULES_DOC, f"docs/rules.md does not describe {name}.{option}"
