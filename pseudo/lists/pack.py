"""Locale packs: a folder of data lists and a manifest, read lazily from the installed package."""

from __future__ import annotations

import csv
import io
import os
from functools import cache, cached_property
from importlib import import_module, resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Hashable, TypeVar

import yaml

from pseudo.errors import LocaleError
from pseudo.lists.settings import PackSettings, SettingsError, read_settings
from pseudo.lists.tree import LocationTree, Place
from pseudo.lists.weighted import WeightedList

MANIFEST = "pack.yaml"
REMEMBERED = 1 << 15  # answers a cache of span lookups holds before it starts over
LOCALE_PATH = "PSEUDO_LOCALE_PATH"
T = TypeVar("T")  # extra folders of packs, searched before the installed ones
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, ten times faster, where PyYAML was built with it


def remembered(store: dict, key: Hashable, make: Callable[[], T]) -> T:
    """The answer for `key` from a cache of lookups that depend on a span's text and the pack
    only (made on a miss); a full cache starts over rather than grow with the corpus."""
    if key not in store:
        if len(store) >= REMEMBERED:
            store.clear()
        store[key] = make()
    return store[key]


def locales_root() -> Traversable:
    """Installed wheels carry the packs as pseudo/locales; a source checkout keeps them at the top."""
    installed = resources.files("pseudo") / "locales"
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parents[2] / "locales"


@cache
def available_packs() -> dict[str, Traversable]:
    """Pack folders by code: those on $PSEUDO_LOCALE_PATH first, then the installed ones."""
    roots: list[Traversable] = [Path(p) for p in os.environ.get(LOCALE_PATH, "").split(os.pathsep) if p]
    roots.append(locales_root())
    packs: dict[str, Traversable] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for entry in sorted(root.iterdir(), key=lambda e: e.name):
            if entry.is_dir() and not entry.name.startswith(".") and (entry / MANIFEST).is_file():  # not a build under way
                packs.setdefault(entry.name, entry)
    return packs


@cache
def load_pack(code: str) -> "LocalePack":
    packs = available_packs()
    if code not in packs:
        known = ", ".join(packs) or "none installed"
        raise LocaleError(f"no locale pack {code!r} (available: {known})")
    return LocalePack(code, packs[code])


class LocalePack:
    """One locale's lists. Each list is read on first use and kept, immutable, for the process."""

    def __init__(self, code: str, root: Traversable):
        self.code = code
        self.root = root
        self.manifest: dict[str, Any] = yaml.load((root / MANIFEST).read_text(encoding="utf-8"), Loader=YAML_LOADER) or {}
        self.lists: dict[str, dict[str, Any]] = self.manifest.get("lists") or {}
        self._cache: dict[str, Any] = {}
        try:
            self.settings: PackSettings = read_settings(self.manifest.get("settings"))
        except SettingsError as error:
            raise LocaleError(f"locale {code!r}: {MANIFEST}: {error}") from None
        if self.settings.phone is None and self.has("phone_area_codes"):
            raise LocaleError(f"locale {code!r}: {MANIFEST}: settings.phone: required with the list phone_area_codes")

    def __repr__(self) -> str:
        return f"LocalePack({self.code!r})"

    @property
    def language(self) -> str:
        return str(self.manifest.get("language", self.code))

    @cached_property
    def morphology(self) -> ModuleType | None:
        """The pack's language module in pseudo.lang, for what data cannot say (inflection)."""
        name = self.manifest.get("morphology")
        return import_module(f"pseudo.lang.{name}") if name else None

    def has(self, name: str) -> bool:
        return name in self.lists

    def _entry(self, name: str) -> dict[str, Any]:
        if name not in self.lists:
            raise LocaleError(f"locale {self.code!r} has no list {name!r}")
        return self.lists[name]

    def _read(self, name: str) -> str:
        return (self.root / self._entry(name)["file"]).read_text(encoding="utf-8")

    def cached(self, name: str, make: Callable[[], Any]) -> Any:
        """Derived data (a top-N list, an index) built once per pack."""
        if name not in self._cache:
            self._cache[name] = make()
        return self._cache[name]

    def rows(self, name: str) -> tuple[dict[str, str], ...]:
        """A TSV list as dicts keyed by its header."""
        return self.cached(f"rows:{name}", lambda: _dict_rows(self._read(name)))

    def weighted(self, name: str) -> WeightedList:
        """A TSV of `name<TAB>count`, in descending count."""

        def make() -> WeightedList:
            columns = None if f"rows:{name}" in self._cache else _name_counts(self._read(name))
            if columns is not None:
                return WeightedList(*columns)
            rows = self.rows(name)
            return WeightedList(tuple(r["name"] for r in rows), tuple(int(r.get("count") or 1) for r in rows))

        return self.cached(f"weighted:{name}", make)

    def vocabulary(self, name: str) -> Any:
        """A YAML list (closed-class words: kinship terms, titles, unit types)."""
        return self.cached(f"yaml:{name}", lambda: yaml.load(self._read(name), Loader=YAML_LOADER))

    def tree(self, name: str = "locations") -> LocationTree:
        def make() -> LocationTree:
            places = []
            for row in self.rows(name):
                extra = {k: v for k, v in row.items() if k not in ("id", "parent_id", "kind", "name") and v}
                places.append(Place(row["id"], row["parent_id"] or None, row["kind"], row["name"], extra))
            return LocationTree(places)

        return self.cached(f"tree:{name}", make)

    def size(self, name: str) -> int:
        """Rows in a list, without parsing it."""
        text = self._read(name)
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        return lines - 1 if self._entry(name)["file"].endswith(".tsv") else lines


def _dict_rows(text: str) -> tuple[dict[str, str], ...]:
    """The rows csv.DictReader gives for a TSV (a short row's missing fields None, a long row's
    extra fields under None), a third as fast: the dicts are zipped in C."""
    reader = csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader, None)
    if header is None:
        return ()
    width = len(header)
    rows = []
    for row in reader:
        if len(row) == width:
            rows.append(dict(zip(header, row)))
        elif row:
            rows.append({**dict.fromkeys(header), **dict(zip(header, row)), **({None: row[width:]} if len(row) > width else {})})
    return tuple(rows)


def _name_counts(text: str) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
    """The name and count columns of a TSV whose rows are all whole, read without a dict per row
    (the census lists are long); None for any other table, which `rows` reads."""
    reader = csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader, None) or []
    table = [row for row in reader if row]
    if "name" not in header or len(set(header)) < len(header) or any(len(row) != len(header) for row in table):
        return None
    at = header.index("name")
    if "count" not in header:
        return tuple(row[at] for row in table), (1,) * len(table)
    count = header.index("count")
    return tuple(row[at] for row in table), tuple(int(row[count] or 1) for row in table)
