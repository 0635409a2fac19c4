"""The leak audit: a pseudonymised corpus checked mechanically against its original.

Findings name documents, labels and offsets, never the text of a span: the audit's output can
be shown to people who may not see the originals.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Mapping, Sequence

import regex

from pseudo.config import Config
from pseudo.engine import Engine, Settings
from pseudo.errors import LocaleError
from pseudo.evaluation.corpus import Pair, Pairing, label_map, misalignment
from pseudo.evaluation.dates import day_first, parse_date
from pseudo.labels import LabelMapping
from pseudo.lists.pack import load_pack
from pseudo.model import Document
from pseudo.rules.base import normalise

ERRORS = ("unpaired", "misaligned", "leak")  # any of these fails the audit
WARNINGS = ("inconsistent", "date_shift")


@dataclass(frozen=True)
class Finding:
    kind: str
    document: str
    detail: str = ""
    label: str | None = None
    start: int | None = None  # in the original
    end: int | None = None
    output_start: int | None = None  # where it was found in the output
    output_end: int | None = None

    def line(self) -> str:
        where = []
        if self.start is not None:
            where.append(f"original {self.start}-{self.end}")
        if self.output_start is not None:
            where.append(f"output {self.output_start}-{self.output_end}")
        parts = [self.document, self.kind, self.label or "", ", ".join(where), self.detail]
        return "\t".join(p for p in parts if p)


def _value_pattern(value: str) -> regex.Pattern:
    """The value as a whole word, any run of whitespace matching any other."""
    body = r"\s+".join(regex.escape(part) for part in value.split())
    return regex.compile(rf"(?<!\w){body}(?!\w)", regex.IGNORECASE)


@dataclass
class Audit:
    config: Config
    tagset: str | None = None
    min_length: int = 3
    dayfirst: bool = True

    def run(self, pairing: Pairing) -> list[Finding]:
        findings = [Finding("unpaired", d, "only in the originals") for d in pairing.only_original]
        findings += [Finding("unpaired", d, "only in the output") for d in pairing.only_output]
        aligned = []
        for pair in pairing.pairs:
            problem = misalignment(pair)
            if problem:
                findings.append(Finding("misaligned", pair.id, problem))
            else:
                aligned.append(pair)
        if not aligned:
            return findings
        labels = label_map([p.original for p in aligned], self.config, self.tagset)
        engine = Engine(Settings(config=self.config, tagset=self.tagset))
        checked = [
            (pair, engine.scope_id(pair.original), list(self._surrogate_spans(pair, labels)))
            for pair in aligned
        ]
        for pair, _, spans in checked:
            findings += self._leaks(pair, spans)
        findings += self._consistency(checked)
        findings += self._date_shifts(checked)
        return findings

    def _surrogate_spans(self, pair: Pair, labels: Mapping[str, LabelMapping]) -> Iterable[tuple[int, str]]:
        """(span index, canonical label) of the spans the configuration sends to a surrogate."""
        for index, span in enumerate(pair.original.spans):
            mapping = labels.get(span.label)
            if mapping is not None and self.config.strategy(span.label, mapping).name == "surrogate":
                yield index, mapping.label

    def _kept_on_purpose(self, label: str, value: str) -> bool:
        """The sex rule keeps every value and the age rule children's ages: not leaks, by design."""
        if label == "SEX":
            return True
        if label != "AGE":
            return False
        number = regex.search(r"\d+", value)
        return number is not None and int(number.group()) < self.config.rule_options("ages")["keep_under"]

    def _leaks(self, pair: Pair, spans: Sequence[tuple[int, str]]) -> list[Finding]:
        found: list[Finding] = []
        output = pair.output.text
        for index, label in spans:
            old, new = pair.original.spans[index], pair.output.spans[index]
            value = pair.original.span_text(old)
            if not value.strip() or self._kept_on_purpose(label, value):
                continue
            if len(value.strip()) >= self.min_length:
                places = [(m.start(), m.end(), m.group()) for m in _value_pattern(value).finditer(output)]
            elif normalise(pair.output.span_text(new)) == normalise(value):
                places = [(new.start, new.end, pair.output.span_text(new))]
            else:
                places = []
            for start, end, text in places:
                how = "exact" if text.split() == value.split() else "case-insensitive"
                found.append(Finding("leak", pair.id, how, label, old.start, old.end, start, end))
        return found

    def _consistency(self, checked: Sequence[tuple[Pair, str, list[tuple[int, str]]]]) -> list[Finding]:
        """One value of one label keeps one surrogate in its scope."""
        groups: dict[tuple[str, str, str], list[tuple[Pair, int, str]]] = defaultdict(list)
        for pair, scope, spans in checked:
            for index, label in spans:
                value = normalise(pair.original.span_text(pair.original.spans[index]))
                surrogate = normalise(pair.output.span_text(pair.output.spans[index]))
                groups[(scope, label, value)].append((pair, index, surrogate))
        found = []
        for (_, label, _), members in groups.items():
            surrogates = Counter(s for _, _, s in members)
            if len(surrogates) < 2:
                continue
            usual = surrogates.most_common(1)[0][0]
            detail = f"one value has {len(surrogates)} different surrogates in its scope"
            for pair, index, surrogate in members:
                if surrogate != usual:
                    old, new = pair.original.spans[index], pair.output.spans[index]
                    found.append(Finding("inconsistent", pair.id, detail, label, old.start, old.end, new.start, new.end))
        return found

    def _date_shifts(self, checked: Sequence[tuple[Pair, str, list[tuple[int, str]]]]) -> list[Finding]:
        """Every full numeric date of a scope moves by the scope's one offset."""
        shifts: dict[str, list[tuple[Pair, int, int]]] = defaultdict(list)
        for pair, scope, spans in checked:
            for index, label in spans:
                if label != "DATE":
                    continue
                before = parse_date(pair.original.span_text(pair.original.spans[index]), self.dayfirst)
                after = parse_date(pair.output.span_text(pair.output.spans[index]), self.dayfirst)
                if before and after:
                    shifts[scope].append((pair, index, (after - before).days))
        found = []
        for members in shifts.values():
            offsets = Counter(days for _, _, days in members)
            if len(offsets) < 2:
                continue
            usual = offsets.most_common(1)[0][0]
            for pair, index, days in members:
                if days != usual:
                    old, new = pair.original.spans[index], pair.output.spans[index]
                    detail = f"shifted {days:+d} days where the scope's other dates moved {usual:+d}"
                    found.append(Finding("date_shift", pair.id, detail, "DATE", old.start, old.end, new.start, new.end))
        return found


def summary(findings: Sequence[Finding], pairs: int) -> dict[str, Any]:
    counts = Counter(f.kind for f in findings)
    return {
        "documents_paired": pairs,
        "passed": not any(counts[k] for k in ERRORS),
        "counts": {kind: counts[kind] for kind in ERRORS + WARNINGS},
        "findings": [{k: v for k, v in asdict(f).items() if v is not None and v != ""} for f in findings],
    }


def order_from(documents: Sequence[Document], locale: str | None) -> bool:
    """Day-first unless the locale pack (named by --locale or the first document) says month-first."""
    code = locale or next((d.meta.get("locale") for d in documents if d.meta.get("locale")), None)
    if not code:
        return True
    try:
        pack = load_pack(str(code))
    except LocaleError:
        return True
    return day_first((pack.settings.get("dates") or {}).get("order"))
