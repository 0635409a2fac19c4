"""The YAML configuration, validated with messages that say where and what is wrong."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Callable, Mapping

import yaml

from pseudo.errors import ConfigError
from pseudo.labels import CANONICAL_LABELS, STRATEGIES, LabelMapping, tagsets
from pseudo.registry import RULES, rule_for_label
from pseudo.rules.base import Option

SCOPES = ("document", "subject", "corpus")
DEFAULT_REDACTION = "[REDACTED]"
SUPPRESSION = "***"
# Labels whose untagged repetitions are replaced too (--propagate, the default): names (and each
# word of a full name), places, and e-mail local parts written alone; DATE: untagged dates follow
# the scope's clock (pseudo.sweep).
PROPAGATED_LABELS = ("FIRST_NAME", "LAST_NAME", "PERSON", "PLACE", "REGION", "COUNTRY", "EMAIL", "DATE")


@dataclass(frozen=True, slots=True)
class Strategy:
    """How spans of one label are treated."""

    name: str = "surrogate"
    text: str | None = None  # redact: the fixed string
    indexed: bool = False  # tag: [PERSON-2] per distinct value rather than [PERSON]

    @classmethod
    def parse(cls, raw: object, where: str) -> "Strategy":
        if isinstance(raw, str):
            raw = {"strategy": raw}
        if not isinstance(raw, Mapping):
            raise ConfigError(f"{where}: expected a strategy name or a mapping with 'strategy'")
        _reject_unknown(raw, {"strategy", "text", "indexed"}, where)
        name = raw.get("strategy")
        if name not in STRATEGIES:
            raise ConfigError(f"{where}: strategy {name!r} is not one of {', '.join(STRATEGIES)}")
        text = raw.get("text")
        if text is not None and (name != "redact" or not isinstance(text, str)):
            raise ConfigError(f"{where}: 'text' is a string, and only for the redact strategy")
        indexed = raw.get("indexed", False)
        if not isinstance(indexed, bool) or (indexed and name != "tag"):
            raise ConfigError(f"{where}: 'indexed' is true or false, and only for the tag strategy")
        return cls(name, text, indexed)


@dataclass(frozen=True)
class Config:
    locale: str | None = None
    tagset: str | None = None
    scope: str = "document"
    labels: Mapping[str, LabelMapping] = field(default_factory=dict)
    strategies: Mapping[str, Strategy] = field(default_factory=dict)
    rules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    propagate: tuple[str, ...] = PROPAGATED_LABELS  # canonical labels propagated

    def rule_options(self, rule_name: str, pack_defaults: Mapping[str, Mapping[str, Any]] = {}) -> Mapping[str, Any]:
        """The rule's declared defaults, under the locale pack's defaults, under this config."""
        declared = {name: option.default for name, option in RULES[rule_name].options.items()}
        return {**declared, **pack_defaults.get(rule_name, {}), **self.rules.get(rule_name, {})}

    def strategy(self, input_label: str, mapping: LabelMapping) -> Strategy:
        """The input label's own setting wins over the canonical label's, then the tagset's default."""
        for name in (input_label, mapping.label):
            if name in self.strategies:
                return self.strategies[name]
        if mapping.strategy:
            return _named_strategy(mapping.strategy)
        return _named_strategy(rule_for_label(mapping.label).default_strategy)


@cache
def _named_strategy(name: str) -> Strategy:
    """One Strategy per name: asked for every span, and a strategy is immutable."""
    return Strategy(name)


def _reject_unknown(raw: Mapping, allowed: set[str], where: str) -> None:
    unknown = sorted(str(k) for k in raw if k not in allowed)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})")


def _check_option(value: Any, option: Option, where: str) -> Any:
    if option.choices and value not in option.choices:
        raise ConfigError(f"{where}: {value!r} is not one of {', '.join(map(str, option.choices))}")
    if value is None and option.default is None:
        return value
    if isinstance(value, bool) and bool not in (option.kind if isinstance(option.kind, tuple) else (option.kind,)):
        raise ConfigError(f"{where}: expected {_kind_name(option.kind)}, got {value!r}")
    if not isinstance(value, option.kind):
        raise ConfigError(f"{where}: expected {_kind_name(option.kind)}, got {value!r}")
    if option.minimum is not None and isinstance(value, (int, float)) and value < option.minimum:
        raise ConfigError(f"{where}: must be at least {option.minimum}, got {value!r}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "a whole number", float: "a number", str: "a string", bool: "true or false", list: "a list"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def parse_config(raw: Any, source: str = "config") -> Config:
    if raw is None:
        return Config()
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{source}: the top level must be a mapping")
    _reject_unknown(raw, {"locale", "tagset", "scope", "labels", "strategies", "rules", "propagate"}, source)
    scope = raw.get("scope", "document")
    if scope not in SCOPES:
        raise ConfigError(f"{source}: scope: {scope!r} is not one of {', '.join(SCOPES)}")
    for key in ("locale", "tagset"):
        if key in raw and not isinstance(raw[key], str):
            raise ConfigError(f"{source}: {key}: expected a string")

    labels_raw = raw.get("labels") or {}
    if not isinstance(labels_raw, Mapping):
        raise ConfigError(f"{source}: labels: expected a mapping of input label to canonical label")
    labels = {str(k): LabelMapping.parse(v, f"{source}: labels.{k}") for k, v in labels_raw.items()}

    strategies_raw = raw.get("strategies") or {}
    if not isinstance(strategies_raw, Mapping):
        raise ConfigError(f"{source}: strategies: expected a mapping of label to strategy")
    strategies = {str(k): Strategy.parse(v, f"{source}: strategies.{k}") for k, v in strategies_raw.items()}
    known_labels = set(CANONICAL_LABELS) | set(labels) | {name for t in tagsets().values() for name in t.labels}
    for name in strategies:
        if name not in known_labels:
            raise ConfigError(
                f"{source}: strategies.{name}: no such label (a canonical label, a tagset label or one under 'labels:')"
            )

    rules = parse_rule_options(raw.get("rules"), f"{source}: rules")
    propagate = _propagated_labels(raw.get("propagate"), f"{source}: propagate")
    config = Config(raw.get("locale"), raw.get("tagset"), scope, labels, strategies, rules, propagate)
    check_rule_options(config.rule_options, f"{source}: rules")
    return config


def _propagated_labels(raw: Any, where: str) -> tuple[str, ...]:
    """`propagate: {labels: [PERSON, ...]}`: the canonical labels whose untagged repetitions
    are replaced when propagation is on; left out, names, places and e-mail local parts."""
    if raw is None:
        return PROPAGATED_LABELS
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: expected a mapping with 'labels'")
    _reject_unknown(raw, {"labels"}, where)
    labels = raw.get("labels")
    if labels is None:
        return PROPAGATED_LABELS
    if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
        raise ConfigError(f"{where}.labels: expected a list of canonical labels")
    unknown = [label for label in labels if label not in CANONICAL_LABELS]
    if unknown:
        raise ConfigError(f"{where}.labels: {', '.join(unknown)}: not a canonical label ({', '.join(CANONICAL_LABELS)})")
    return tuple(labels)


def parse_rule_options(raw: Any, where: str) -> dict[str, dict[str, Any]]:
    """Rule name -> options, each checked against what the rule declares."""
    raw = raw or {}
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: expected a mapping of rule name to options")
    rules: dict[str, dict[str, Any]] = {}
    for rule_name, options in raw.items():
        if rule_name not in RULES:
            raise ConfigError(f"{where}.{rule_name}: no such rule (rules: {', '.join(RULES)})")
        declared = RULES[rule_name].options
        if not isinstance(options, Mapping):
            raise ConfigError(f"{where}.{rule_name}: expected a mapping of options")
        _reject_unknown(options, set(declared), f"{where}.{rule_name}")
        rules[rule_name] = {
            key: _check_option(value, declared[key], f"{where}.{rule_name}.{key}") for key, value in options.items()
        }
    return rules


def check_rule_options(options_of: Callable[[str], Mapping[str, Any]], where: str) -> None:
    """The checks that look at several options of a rule at once (dates: min <= max)."""
    for rule_name in RULES:
        validate = getattr(RULES[rule_name], "validate_options", None)
        problem = validate(options_of(rule_name)) if validate is not None else None
        if problem:
            raise ConfigError(f"{where}.{rule_name}: {problem}")


def load_config(path: str | Path) -> Config:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the configuration ({error.strerror})") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not valid UTF-8 (byte {error.start}); save it as UTF-8") from None
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{path}: not valid YAML{where}") from None
    except RecursionError:  # the YAML composer recurses once per level
        raise ConfigError(f"{path}: not valid YAML (nested too deeply)") from None
    return parse_config(raw, str(path))


__all__ = ["Config", "Strategy", "SCOPES", "CANONICAL_LABELS", "load_config", "parse_config"]
