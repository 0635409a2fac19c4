"""Golden files: input + config + key -> exact expected output, byte for byte.

Each case is tests/golden/<group>/<case>.input.json with an optional <case>.config.yaml and
<case>.key (default key: "golden"), compared with <case>.expected.json. After a deliberate
change, regenerate with PSEUDO_REGENERATE_GOLDEN=1 and review the diff before committing.
"""

import io
import os
from pathlib import Path

import pytest

from pseudo.api import pseudonymise
from pseudo.config import load_config
from pseudo.engine import Settings
from pseudo.io import read_input
from pseudo.io.native import write_json
from pseudo.keyed import Keyring

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(GOLDEN.glob("*/*.input.json"))


def expected_path(case: Path) -> Path:
    return case.with_name(case.name.replace(".input.json", ".expected.json"))


def render(case: Path) -> str:
    stem = case.name.replace(".input.json", "")
    config_path = case.with_name(f"{stem}.config.yaml")
    key_path = case.with_name(f"{stem}.key")
    config = load_config(config_path) if config_path.exists() else None
    key = key_path.read_bytes().strip() if key_path.exists() else b"golden"
    batch = read_input(str(case))
    settings = Settings(config=config, keyring=Keyring(key)) if config else Settings(keyring=Keyring(key))
    run = pseudonymise(batch.documents, settings)
    handle = io.StringIO()
    write_json([r.document for r in run.results], handle, batch.single)
    return handle.getvalue()


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name.replace('.input.json', '')}")
def test_golden(case):
    output = render(case)
    expected = expected_path(case)
    if os.environ.get("PSEUDO_REGENERATE_GOLDEN"):
        expected.write_text(output, encoding="utf-8")
    assert output == expected.read_text(encoding="utf-8")


def test_there_are_golden_cases():
    assert CASES
