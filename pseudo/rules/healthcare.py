"""Health care units and other institutions: a generic name of the same type.

The pack's vocabulary lists unit types, each with the words that recognise it (`cues`) and the
names a surrogate may take (`names`). A name may be a template: {type} is the type word exactly
as the original wrote it ("Hptal."), {place}, {surname}, {female_name} and {male_name} are
drawn from the pack's lists. So "bor permanent på" a geriatric home stays a geriatric home, and
a surrogate shares no word with its original except the type word. A unit of no recognisable
type becomes one of the vocabulary's `default` type where it names one. Generic names are
common nouns: a surrogate is capitalised only where the original starts a sentence.
"""

from __future__ import annotations

from typing import Any, ClassVar

import regex

from pseudo.casing import casing_of
from pseudo.keyed import KeyedStream
from pseudo.lists.pack import LocalePack
from pseudo.rules.base import Context, Rule, Surrogate, Target, normalise

_WORD = regex.compile(r"[\p{L}\p{N}]+")
_PLACEHOLDER = regex.compile(r"\{(\w+)\}")
_SENTENCE_END = regex.compile(r"(?:^|[.!?:\n])\s*$")
MAX_TRIES = 16


def _types(pack: LocalePack, vocabulary: str) -> list[dict[str, Any]]:
    return pack.vocabulary(vocabulary).get("types", [])


def _cue_pattern(pack: LocalePack, vocabulary: str) -> regex.Pattern | None:
    """Every cue of every type as one whole-word pattern, longest first, one group per type."""

    def make() -> regex.Pattern | None:
        alternatives = []
        for index, unit_type in enumerate(_types(pack, vocabulary)):
            cues = sorted(unit_type.get("cues", []), key=len, reverse=True)
            if cues:
                alternatives.append((max(map(len, cues)), f"(?P<t{index}>{'|'.join(map(regex.escape, cues))})"))
        if not alternatives:
            return None
        body = "|".join(group for _, group in sorted(alternatives, key=lambda a: -a[0]))
        return regex.compile(rf"(?i)(?<![\p{{L}}\p{{N}}])(?:{body})(?![\p{{L}}\p{{N}}])")

    return pack.cached(f"cues:{vocabulary}", make)


def recognise(text: str, pack: LocalePack, vocabulary: str) -> tuple[dict[str, Any] | None, str]:
    """(type, the cue as written) of the longest cue found as whole words; (None, '') if none."""
    pattern = _cue_pattern(pack, vocabulary)
    if pattern is None:
        return None, ""
    best: regex.Match | None = None
    for match in pattern.finditer(text, overlapped=True):
        if best is None or len(match.group()) > len(best.group()):
            best = match
    if best is None:
        return None, ""
    index = int(next(name for name, value in best.groupdict().items() if value is not None)[1:])
    return _types(pack, vocabulary)[index], best.group()


def _fill(template: str, type_word: str, pack: LocalePack, stream: KeyedStream) -> str:
    def value(match: regex.Match) -> str:
        slot = match.group(1)
        if slot == "type":
            return type_word
        if slot == "surname":
            return pack.weighted("last_names").top(500).draw(stream)
        if slot in ("female_name", "male_name"):
            return pack.weighted(f"first_names_{slot.split('_')[0]}").top(200).draw(stream)
        if slot == "place":
            kinds = ((pack.settings.get("places") or {}).get("kinds") or {}).get("PLACE") or []
            tree = pack.tree()
            places = pack.cached(
                "institution-places",
                lambda: sorted({p.name for p in tree.places.values() if p.kind == (kinds[0] if kinds else p.kind)}),
            )
            return stream.choice(places)
        raise ValueError(f"unknown placeholder {{{slot}}} in the pack's institution names")

    return _PLACEHOLDER.sub(value, template)


class HealthcareUnitRule(Rule):
    name = "healthcare"
    labels: ClassVar[tuple[str, ...]] = ("HEALTHCARE_UNIT",)
    needs: ClassVar[tuple[str, ...]] = ("healthcare_units",)
    vocabulary: ClassVar[str] = "healthcare_units"
    own_casing = True  # "IVA" must not turn its surrogate into capitals

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        types = _types(ctx.pack, self.vocabulary)
        unit_type, type_word = recognise(target.text, ctx.pack, self.vocabulary)
        fallback = None
        if unit_type is None:
            default = ctx.pack.vocabulary(self.vocabulary).get("default")
            unit_type = next((t for t in types if t["type"] == default), None)
            fallback = "no recognisable type: the default type" if unit_type else "no recognisable type: a random type"
        original_words = {w.casefold() for w in _WORD.findall(target.text)} - {w.casefold() for w in _WORD.findall(type_word)}

        def draw(stream: KeyedStream) -> str:
            chosen = unit_type or stream.choice(types)
            word = type_word or (chosen.get("cues") or [""])[0]
            candidate = ""
            for _ in range(MAX_TRIES):
                candidate = _fill(stream.choice(chosen["names"]), word, ctx.pack, stream)
                if not original_words & {w.casefold() for w in _WORD.findall(candidate)}:
                    break
            return candidate

        family = f"{self.name}:{unit_type['type'] if unit_type else '*'}"
        surrogate = ctx.consistent(family, normalise(target.text), draw)
        if casing_of(target.text) == "title" and surrogate[:1].islower() and _SENTENCE_END.search(ctx.text_before(target.span)):
            surrogate = surrogate[0].upper() + surrogate[1:]
        return Surrogate(surrogate, fallback=fallback)
