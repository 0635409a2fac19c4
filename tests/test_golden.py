"""Golden files: input + config + key -> exact expected output of `pseudo apply`, byte for byte.

Each case is tests/golden/<group>/<case>.input.<ext> (any input format: .json, .mimic.txt, a
PhysioNet .text with its -phi.phrase beside it) with an optional <case>.config.yaml and <case>.key
(default key: "golden"), compared with <case>.expected.<ext> (and every other file the output
format writes beside it). After a deliberate
change (a rule, a rebuilt pack), regenerate with PSEUDO_REGENERATE_GOLDEN=1 and review the diff
before committing.
"""

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pseudo.cli import app

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p for p in GOLDEN.glob("*/*.input.*") if not p.name.endswith("-phi.phrase"))


def expected_path(case: Path) -> Path:
    return case.with_name(case.name.replace(".input.", ".expected.", 1))


def render(case: Path, tmp_path: Path) -> dict[str, str]:
    """Every file the output writes, by name (the golden file of the same name holds it)."""
    stem = case.name.split(".input.")[0]
    out = tmp_path / expected_path(case).name
    arguments = ["apply", str(case), "--out", str(out)]
    config, key = case.with_name(f"{stem}.config.yaml"), case.with_name(f"{stem}.key")
    arguments += ["--config", str(config)] if config.exists() else []
    environment = {"PSEUDO_KEY": "" if key.exists() else "golden"}
    arguments += ["--key-file", str(key)] if key.exists() else []
    result = CliRunner().invoke(app, arguments, env=environment)
    assert result.exit_code == 0, result.output
    return {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir() if p.is_file()}


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name.split('.input.')[0]}")
def test_golden(case, tmp_path):
    outputs = render(case, tmp_path)
    assert expected_path(case).name in outputs
    for name, output in outputs.items():
        expected = case.with_name(name)
        if os.environ.get("PSEUDO_REGENERATE_GOLDEN"):
            expected.write_text(output, encoding="utf-8")
        assert output == expected.read_text(encoding="utf-8"), name


def test_there_are_golden_cases():
    assert CASES
