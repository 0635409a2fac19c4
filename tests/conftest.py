"""Shared fixtures: the tiny frozen pack, a one-call way to pseudonymise a document, and the
`shared` marker of tests that need the shared material folder (tests/shared_data.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pseudo import api as api_module
from pseudo.api import pseudonymise
from pseudo.config import parse_config
from pseudo.engine import Settings
from pseudo.io.native import document_from_dict, document_to_dict
from pseudo.keyed import Keyring
from pseudo.lists import pack as pack_module
from shared_data import SHARED, SHARED_ENVIRONMENT, shared_required

TESTS = Path(__file__).parent
PACKS = TESTS / "packs"


def pytest_configure(config):
    config.addinivalue_line("markers", "shared(path): needs this path inside the shared folder (tests/shared_data.py)")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before any fixture runs: a test whose shared data is missing is skipped, or fails where it must run."""
    for marker in item.iter_markers("shared"):
        needed = SHARED / marker.args[0]
        if not needed.exists():
            reason = f"{needed} not found: place the shared folder beside the checkout or set {SHARED_ENVIRONMENT}"
            if shared_required():
                pytest.fail(f"{reason} (required: CI=true or PSEUDO_REQUIRE_SHARED=1)", pytrace=False)
            pytest.skip(reason)


def _clear_pack_caches() -> None:
    pack_module.available_packs.cache_clear()
    pack_module.load_pack.cache_clear()


@pytest.fixture(autouse=True, scope="session")
def test_packs():
    """Every test sees the frozen test packs beside the installed ones; packs load once."""
    saved = os.environ.get(pack_module.LOCALE_PATH)
    os.environ[pack_module.LOCALE_PATH] = str(PACKS)
    _clear_pack_caches()
    yield
    if saved is None:
        del os.environ[pack_module.LOCALE_PATH]
    else:
        os.environ[pack_module.LOCALE_PATH] = saved
    _clear_pack_caches()


@pytest.fixture(autouse=True)
def two_cpus_at_least(monkeypatch):
    """--jobs 2 runs two processes even on a one-CPU machine, so tests of several processes run
    the same everywhere; test_hostile_input sets its own count to test the cap."""
    real = api_module.available_cpus()
    monkeypatch.setattr(api_module, "available_cpus", lambda: max(real, 2))


def make_doc(text: str, spans: list[tuple[int, int, str]] | list[tuple[str, str]], doc_id: str = "d1", **meta: Any) -> dict:
    """A native document; spans given as (start, end, label) or as (surface, label) found in order."""
    out = []
    cursor = 0
    for span in spans:
        if len(span) == 3:
            out.append({"start": span[0], "end": span[1], "label": span[2]})
        else:
            surface, label = span
            start = text.index(surface, cursor)
            cursor = start + len(surface)
            out.append({"start": start, "end": cursor, "label": label})
    doc: dict[str, Any] = {"id": doc_id, "text": text, "spans": out}
    if meta:
        doc["meta"] = meta
    return doc


def run(docs: dict | list[dict], config: dict | None = None, key: bytes = b"test-key", **settings: Any) -> list[dict]:
    """Pseudonymise native documents in-process; returns the output documents."""
    items = docs if isinstance(docs, list) else [docs]
    documents = [document_from_dict(d, "test", f"#{i}") for i, d in enumerate(items)]
    keyring = Keyring(key, settings.pop("reroll", None))
    result = pseudonymise(documents, Settings(config=parse_config(config), keyring=keyring, **settings))
    return [document_to_dict(r.document) for r in result.results]


def surrogate_texts(doc: dict) -> list[str]:
    return [doc["text"][s["start"] : s["end"]] for s in doc["spans"]]
