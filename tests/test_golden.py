"""Golden files: input + config + key -> exact expected output of `pseudo apply`, byte for byte.

Each case is tests/golden/<group>/<case>.input.json with an optional <case>.config.yaml and
<case>.key (default key: "golden"), compared with <case>.expected.json. After a deliberate
change (a rule, a rebuilt pack), regenerate with PSEUDO_REGENERATE_GOLDEN=1 and review the diff
before committing.
"""

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pseudo.cli import app

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(GOLDEN.glob("*/*.input.json"))


def expected_path(case: Path) -> Path:
    return case.with_name(case.name.replace(".input.json", ".expected.json"))


def render(case: Path, tmp_path: Path) -> str:
    stem = case.name.replace(".input.json", "")
    out = tmp_path / "out.json"
    arguments = ["apply", str(case), "--out", str(out)]
    config, key = case.with_name(f"{stem}.config.yaml"), case.with_name(f"{stem}.key")
    arguments += ["--config", str(config)] if config.exists() else []
    environment = {"PSEUDO_KEY": "" if key.exists() else "golden"}
    arguments += ["--key-file", str(key)] if key.exists() else []
    result = CliRunner().invoke(app, arguments, env=environment)
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name.replace('.input.json', '')}")
def test_golden(case, tmp_path):
    output = render(case, tmp_path)
    expected = expected_path(case)
    if os.environ.get("PSEUDO_REGENERATE_GOLDEN"):
        expected.write_text(output, encoding="utf-8")
    assert output == expected.read_text(encoding="utf-8")


def test_there_are_golden_cases():
    assert CASES
