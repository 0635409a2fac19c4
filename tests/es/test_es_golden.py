"""Golden files: MEDDOCAN documents through `pseudo apply` with a fixed key, compared byte for byte.

tests/golden/es/<case>.input.json + <case>.config.yaml + <case>.key -> <case>.expected.json, the
layout of tests/golden/<group>/ everywhere. After an intended
change (a rule, a rebuilt pack), regenerate with PSEUDO_REGENERATE_GOLDEN=1 and review the diff.
"""

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pseudo.cli import app

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "es"
CASES = sorted(p.name.removesuffix(".input.json") for p in GOLDEN.glob("*.input.json"))


@pytest.mark.parametrize("case", CASES)
def test_golden(case, tmp_path):
    out = tmp_path / "out.json"
    arguments = ["apply", str(GOLDEN / f"{case}.input.json"), "--out", str(out)]
    arguments += ["--config", str(GOLDEN / f"{case}.config.yaml"), "--key-file", str(GOLDEN / f"{case}.key")]
    result = CliRunner().invoke(app, arguments, env={"PSEUDO_KEY": ""})
    assert result.exit_code == 0, result.output
    expected = GOLDEN / f"{case}.expected.json"
    if os.environ.get("PSEUDO_REGENERATE_GOLDEN"):
        expected.write_bytes(out.read_bytes())
    assert out.read_bytes() == expected.read_bytes()


def test_there_are_golden_cases():
    assert len(CASES) >= 3
