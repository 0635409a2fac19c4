"""Canonical labels and the corpus tagsets that map onto them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Iterable, Mapping

import yaml

from pseudo.errors import ConfigError, InputError

CANONICAL_LABELS = (
    "FIRST_NAME", "LAST_NAME", "PERSON", "AGE", "DATE", "PHONE", "FAX", "EMAIL", "URL", "IP", "ID",
    "ADDRESS", "STREET", "POSTCODE", "PLACE", "REGION", "COUNTRY", "HEALTHCARE_UNIT", "ORGANISATION",
    "PROFESSION", "KINSHIP", "SEX", "OTHER",
)  # fmt: skip

NAME_LABELS = ("FIRST_NAME", "LAST_NAME", "PERSON")
ROLES = ("patient", "clinician", "relative", "other")
STRATEGIES = ("surrogate", "tag", "redact", "suppress", "keep")
UNRECOGNISED = ("first", "own")  # what a value no rule recognises is read as: the first `may_be` label, or its own


@dataclass(frozen=True, slots=True)
class LabelMapping:
    """Where an input label goes: a canonical label, plus what the corpus tells about it."""

    label: str
    role: str | None = None
    kind: str | None = None
    strategy: str | None = None
    may_be: tuple["LabelMapping", ...] = ()  # what a value that does not look like `label` may be instead
    unrecognised: str = "first"  # a value that neither its own rule nor a `may_be` rule recognises: `first` may_be, or `own` label

    @classmethod
    def parse(cls, raw: object, where: str) -> "LabelMapping":
        if isinstance(raw, str):
            raw = {"label": raw}
        if not isinstance(raw, Mapping):
            raise ConfigError(f"{where}: expected a canonical label or a mapping with 'label'")
        unknown = set(raw) - {"label", "role", "kind", "strategy", "may_be", "unrecognised"}
        if unknown:
            raise ConfigError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
        label = raw.get("label")
        if label not in CANONICAL_LABELS:
            raise ConfigError(f"{where}: {label!r} is not a canonical label ({', '.join(CANONICAL_LABELS)})")
        role = raw.get("role")
        if role is not None and role not in ROLES:
            raise ConfigError(f"{where}: role {role!r} is not one of {', '.join(ROLES)}")
        strategy = raw.get("strategy")
        if strategy is not None and strategy not in STRATEGIES:
            raise ConfigError(f"{where}: strategy {strategy!r} is not one of {', '.join(STRATEGIES)}")
        kind = raw.get("kind")
        alternatives = raw.get("may_be") or []
        if not isinstance(alternatives, list) or any(isinstance(a, Mapping) and "may_be" in a for a in alternatives):
            raise ConfigError(f"{where}: may_be: expected a list of canonical labels or mappings without may_be")
        may_be = tuple(cls.parse(a, f"{where}: may_be") for a in alternatives)
        unrecognised = raw.get("unrecognised", "first")
        if unrecognised not in UNRECOGNISED:
            raise ConfigError(f"{where}: unrecognised {unrecognised!r} is not one of {', '.join(UNRECOGNISED)}")
        return cls(label, role, None if kind is None else str(kind), strategy, may_be, unrecognised)


@dataclass(frozen=True, slots=True)
class Tagset:
    name: str
    description: str
    labels: Mapping[str, LabelMapping]


@cache
def tagsets() -> dict[str, Tagset]:
    """Every tagset shipped with the package, by name."""
    found: dict[str, Tagset] = {}
    for entry in sorted(resources.files("pseudo.tagsets").iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".yaml"):
            continue
        raw = yaml.load(entry.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml: faster
        labels = {
            str(name): LabelMapping.parse(value, f"tagset {raw['name']}: {name}")
            for name, value in raw["labels"].items()
        }
        found[raw["name"]] = Tagset(raw["name"], " ".join(raw.get("description", "").split()), labels)
    return found


def tagset(name: str) -> Tagset:
    known = tagsets()
    if name not in known:
        raise ConfigError(f"unknown tagset {name!r} (known: {', '.join(known)})")
    return known[name]


def detect_tagset(labels: Iterable[str], extra: Mapping[str, LabelMapping] = {}) -> Tagset:
    """The one tagset that holds every label (labels the config maps aside); native wins a tie."""
    wanted = set(labels) - set(extra)
    candidates = [t for t in tagsets().values() if wanted <= set(t.labels)]
    if not candidates:
        unknown = sorted(wanted - set().union(*(t.labels for t in tagsets().values())))
        if unknown:
            raise InputError(
                f"label(s) {', '.join(unknown)} belong to no tagset; map them under 'labels:' in the config"
            )
        raise InputError("the labels mix several tagsets; choose one with --tagset")
    if len(candidates) == 1:
        return candidates[0]
    for candidate in candidates:
        if candidate.name == "native":
            return candidate
    first = candidates[0]
    if all(c.labels[label] == first.labels[label] for c in candidates for label in wanted):
        return first
    names = ", ".join(c.name for c in candidates)
    raise InputError(f"the labels fit several tagsets ({names}); choose one with --tagset")
