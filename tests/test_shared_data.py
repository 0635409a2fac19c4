"""Tests that need the shared folder find it the same way everywhere, and CI cannot skip them."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import regex

REPOSITORY = Path(__file__).resolve().parents[1]
NEEDS_SHARED = "tests/test_sv_synthetic.py"  # one test, marked shared


def pytest_run(tmp_path: Path, **environment: str) -> subprocess.CompletedProcess:
    """pytest on a test that needs the shared folder, with that folder missing."""
    keep = {k: v for k, v in os.environ.items() if k not in ("CI", "PSEUDO_REQUIRE_SHARED", "PSEUDO_SHARED")}
    env = {**keep, "PSEUDO_SHARED": str(tmp_path / "no-shared"), **environment}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", NEEDS_SHARED]
    return subprocess.run(command, cwd=REPOSITORY, env=env, capture_output=True, text=True)


def test_without_the_shared_folder_its_tests_are_skipped(tmp_path):
    result = pytest_run(tmp_path)
    assert result.returncode == 0 and "1 skipped" in result.stdout
    assert "PSEUDO_SHARED" in result.stdout


def test_under_ci_a_missing_shared_folder_fails_its_tests(tmp_path):
    for environment in ({"CI": "true"}, {"PSEUDO_REQUIRE_SHARED": "1"}):
        result = pytest_run(tmp_path, **environment)
        assert result.returncode != 0 and "skipped" not in result.stdout
        assert str(tmp_path / "no-shared") in result.stdout


def test_no_test_or_tool_falls_back_to_one_machine_s_absolute_path():
    absolute = regex.compile(r"""Path\(\s*["']/""")
    sources = [*REPOSITORY.glob("tests/**/*.py"), *REPOSITORY.glob("tools/*.py"), *REPOSITORY.glob("bench/*.py")]
    assert [str(p.relative_to(REPOSITORY)) for p in sources if absolute.search(p.read_text(encoding="utf-8"))] == []


def test_the_locale_builder_finds_the_shared_data_as_the_tests_do(monkeypatch, tmp_path):
    spec = importlib.util.spec_from_file_location("build_locales_under_test", REPOSITORY / "tools" / "build_locales.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    monkeypatch.delenv("PSEUDO_SHARED", raising=False)
    assert builder.default_data() == REPOSITORY.parent / "shared" / "data"
    monkeypatch.setenv("PSEUDO_SHARED", str(tmp_path))
    assert builder.default_data() == tmp_path / "data"
