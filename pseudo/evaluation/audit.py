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
from pseudo.datetext import date_words, find_dates, full_date, is_birth_date
from pseudo.engine import Engine, Settings
from pseudo.errors import PseudoError
from pseudo.evaluation.corpus import Link, Pair, Pairing, label_map, with_dates
from pseudo.keyed import Keyring
from pseudo.labels import LabelMapping
from pseudo.lists.pack import LocalePack
from pseudo.lists.words import kinship_terms
from pseudo.model import Document, Result
from pseudo.scope import carries, words_of
from pseudo.folds import normalise

# Labels moved by one shift per scope: a value may land on another value of the same record (a
# patient aged 34 and 36 whose ages move by +2); the shift, not the value, hides it.
SHIFTED = ("DATE", "AGE")
AGE_LIKE = ("AGE", "KINSHIP")  # corpora tag a relative's age as kinship ("padre de 60 años"): it moves as ages do
ERRORS = ("unpaired", "misaligned", "leak")  # any of these fails the audit
WARNINGS = ("collision", "inconsistent", "date_shift", "not_rerun")
# Two fixed keys for re-running the rules: a value they keep under both is kept on purpose.
PROBE_KEYS = (b"pseudo-audit-probe-1", b"pseudo-audit-probe-2")
_WORD = regex.compile(r"\p{L}[\p{L}\p{M}]*")


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


@dataclass(frozen=True)
class Checked:
    """An aligned pair with its scope, its pack and the links the configuration sends to a surrogate."""

    pair: Pair
    scope: str
    pack: LocalePack | None
    links: tuple[tuple[Link, str], ...]  # (link, canonical label)


@dataclass(frozen=True)
class Candidate:
    """An original value found in the output outside the spans, or inside the surrogate of a span
    whose original holds it (`holder`, the value itself when found in its own place)."""

    checked: Checked
    link: Link
    label: str
    value: str
    holder: str
    start: int
    end: int


@dataclass
class Audit:
    config: Config
    tagset: str | None = None
    min_length: int = 3
    locale: str | None = None

    def run(self, pairing: Pairing) -> list[Finding]:
        findings = [Finding("unpaired", d, "only in the originals") for d in pairing.only_original]
        findings += [Finding("unpaired", d, "only in the output") for d in pairing.only_output]
        aligned = []
        for pair in with_dates(pairing.pairs, self.config, self.tagset, self.locale):
            problem = pair.alignment.problem
            if problem:
                findings.append(Finding("misaligned", pair.id, problem))
            else:
                aligned.append(pair)
        if not aligned:
            return findings
        labels = label_map([p.original for p in aligned], self.config, self.tagset)
        engine = Engine(Settings(config=self.config, tagset=self.tagset, locale=self.locale))
        checked = [
            Checked(pair, engine.scope_id(pair.original), _pack(engine, pair.original), tuple(self._surrogate_links(pair, labels)))
            for pair in aligned
        ]
        candidates: list[Candidate] = []
        collisions: list[tuple[Candidate, Finding]] = []
        for item in checked:
            found, collided = self._search(item)
            candidates += found
            collisions += collided
        findings += self._leaks(candidates, collisions)
        findings += self._consistency(checked)
        findings += self._date_shifts(checked)
        return findings

    def _surrogate_links(self, pair: Pair, labels: Mapping[str, LabelMapping]) -> Iterable[tuple[Link, str]]:
        """The links whose label the configuration sends to a surrogate, with the canonical label."""
        for link in pair.alignment.links:
            mapping = labels.get(link.original.label)
            if mapping is not None and self.config.strategy(link.original.label, mapping).name == "surrogate":
                yield link, mapping.label

    def _search(self, item: Checked) -> tuple[list[Candidate], list[tuple[Candidate, Finding]]]:
        """Every place of the output where an original value of a surrogate span stands.

        A value inside the surrogate of a span whose original did not hold it is a chance draw
        (a `collision`); anywhere else it came through the text or through its own rule.
        """
        pair = item.pair
        output, original = pair.output, pair.original
        candidates: list[Candidate] = []
        collisions: list[tuple[Candidate, Finding]] = []
        closed = _closed_class_words(item.pack)
        for link, label in item.links:
            if link.added:
                continue  # its value is a tagged span's, searched there
            value = original.text[link.original.start : link.original.end]
            if not value.strip():
                continue
            words = [w.casefold() for w in _WORD.findall(value)]
            in_place_only = len(value.strip()) < self.min_length or (bool(words) and all(w in closed for w in words))
            if in_place_only:
                if normalise(output.span_text(link.output)) == normalise(value):
                    candidates.append(Candidate(item, link, label, value, value, link.output.start, link.output.end))
                continue
            pattern = _value_pattern(value)
            for match in pattern.finditer(output.text):
                holder, holder_label = next(
                    ((other, kind) for other, kind in item.links if other.output.start <= match.start() and match.end() <= other.output.end),
                    (None, None),
                )
                if holder is not None and holder is not link and _shifted_alike(label, holder_label, value):
                    continue  # a year inside another date, an age on another age: both move by the scope's one shift
                held = holder is not None and holder is not link and carries(
                    words_of(output.text[holder.output.start : holder.output.end]),
                    {words_of(value)},
                    words_of(original.text[holder.original.start : holder.original.end]),
                )  # the engine's own definition (pseudo.scope.carries), so the two never disagree
                if held:
                    collisions.append((Candidate(item, link, label, value, value, match.start(), match.end()), Finding(
                        "collision", pair.id, "an original value stands inside the surrogate of other original text",
                        label, link.original.start, link.original.end, match.start(), match.end(),
                    )))  # fmt: skip
                else:
                    holder_value = original.text[holder.original.start : holder.original.end] if holder else value
                    candidates.append(Candidate(item, link, label, value, holder_value, match.start(), match.end()))
        return candidates, collisions

    def _leaks(self, candidates: Sequence[Candidate], collisions: Sequence[tuple[Candidate, Finding]] = ()) -> list[Finding]:
        """Candidates are leaks unless the rules keep their value on purpose (a child's age, a
        county, a collective kinship word, the type words of a unit's name): the documents
        concerned are pseudonymised again with other keys, and a value kept by every run is.
        A collision of a value kept on purpose (a kept province inside a real hospital's name)
        tells nothing its own place does not: it is no finding."""
        documents = {id(c.checked): c.checked for c in [*candidates, *(c for c, _ in collisions)]}
        kept, failed = self._kept_on_purpose(list(documents.values()))
        found = [
            Finding("not_rerun", item.pair.id, "the rules could not be run again: every value found counts as a leak")
            for item in documents.values() if item.pair.id in failed
        ]  # fmt: skip
        found += [f for c, f in collisions if normalise(c.value) not in kept.get(c.checked.pair.id, set())]
        for c in candidates:
            if {normalise(c.value), normalise(c.holder)} & kept.get(c.checked.pair.id, set()):
                continue
            how = "exact" if c.checked.pair.output.text[c.start : c.end].split() == c.value.split() else "case-insensitive"
            found.append(Finding("leak", c.checked.pair.id, how, c.label, c.link.original.start, c.link.original.end, c.start, c.end))
        return found

    def _kept_on_purpose(self, documents: Sequence[Checked]) -> tuple[dict[str, set[str]], set[str]]:
        """Per document, the normalised original values every probe run keeps inside their own
        surrogate; and the documents a probe could not pseudonymise."""
        if not documents:
            return {}, set()
        originals = [item.pair.original for item in documents]
        kept: dict[str, set[str]] | None = None
        failed: set[str] = set()
        for key in PROBE_KEYS:
            settings = Settings(config=self.config, keyring=Keyring(key), locale=self.locale, tagset=self.tagset)
            this_run: dict[str, set[str]] = defaultdict(set)
            for outcome in Engine(settings).run(originals, skip_errors=True):
                if isinstance(outcome, Result):
                    this_run[outcome.source.id] |= _kept_values(outcome)
                else:
                    failed.add(outcome.document_id)
            kept = dict(this_run) if kept is None else {d: v & this_run.get(d, set()) for d, v in kept.items()}
        return kept or {}, failed

    def _consistency(self, checked: Sequence[Checked]) -> list[Finding]:
        """One value of one label keeps one surrogate in its scope. Dates are left to
        `_date_shifts`: a birth date written like another date rightly moves further."""
        groups: dict[tuple[str, str, str], list[tuple[Pair, Link, str]]] = defaultdict(list)
        for item in checked:
            for link, label in item.links:
                if label == "DATE":
                    continue
                value = normalise(item.pair.original.text[link.original.start : link.original.end])
                surrogate = normalise(item.pair.output.span_text(link.output))
                groups[(item.scope, label, value)].append((item.pair, link, surrogate))
        found = []
        for (_, label, _), members in groups.items():
            surrogates = Counter(s for _, _, s in members)
            if len(surrogates) < 2:
                continue
            usual = surrogates.most_common(1)[0][0]
            detail = f"one value has {len(surrogates)} different surrogates in its scope"
            for pair, link, surrogate in members:
                if surrogate != usual:
                    old, new = link.original, link.output
                    found.append(Finding("inconsistent", pair.id, detail, label, old.start, old.end, new.start, new.end))
        return found

    def _date_shifts(self, checked: Sequence[Checked]) -> list[Finding]:
        """Every full date of a scope moves by the scope's one offset: in days, or in months when
        the date rule's unit is months or years. Birth dates, which also move back by the age
        shift, are left out."""
        options = self.config.rule_options("dates")
        in_months = options["unit"] in ("months", "years")
        shifts: dict[str, list[tuple[Pair, Link, int]]] = defaultdict(list)
        for item in checked:
            words = date_words(item.pack, options["order"])
            for link, label in item.links:
                if label != "DATE":
                    continue
                old = [p for e in find_dates(item.pair.original.text, words, link.original.start, link.original.end) for p in e.parts]
                new = [p for e in find_dates(item.pair.output.text, words, link.output.start, link.output.end) for p in e.parts]
                if not old or len(old) != len(new) or is_birth_date(item.pair.original.text, link.original.start, old[0].start, item.pack):
                    continue
                for before, after in zip(map(full_date, old), map(full_date, new)):
                    if before and after:
                        moved = (after.year - before.year) * 12 + after.month - before.month if in_months else (after - before).days
                        shifts[item.scope].append((item.pair, link, moved))
        unit = "months" if in_months else "days"
        found = []
        for members in shifts.values():
            offsets = Counter(moved for _, _, moved in members)
            if len(offsets) < 2:
                continue
            usual = offsets.most_common(1)[0][0]
            for pair, link, moved in members:
                if moved != usual:
                    old, new = link.original, link.output
                    detail = f"shifted {moved:+d} {unit} where the scope's other dates moved {usual:+d}"
                    found.append(Finding("date_shift", pair.id, detail, "DATE", old.start, old.end, new.start, new.end))
        return found


def _shifted_alike(label: str, holder_label: str | None, value: str) -> bool:
    """A value and the surrogate it stands in both moved by the scope's one shift: dates inside
    dates, and ages (a relative's age tagged as kinship among them) on ages."""
    if label == holder_label and label in SHIFTED:
        return True
    return label in AGE_LIKE and holder_label in AGE_LIKE and any(c.isdigit() for c in value)


def _pack(engine: Engine, document: Document) -> LocalePack | None:
    try:
        return engine.pack_for(document)
    except PseudoError:
        return None


def _closed_class_words(pack: LocalePack | None) -> frozenset[str]:
    """Kinship words and the words of unit types ("Hospital General"): common words that identify
    nobody, so checked only in their own place."""
    if pack is None:
        return frozenset()

    def make() -> frozenset[str]:
        words = set(kinship_terms(pack)) if pack.has("kinship") else set()
        for vocabulary in ("healthcare_units", "organisations"):
            if pack.has(vocabulary):
                for unit_type in pack.vocabulary(vocabulary).get("types") or []:
                    words.update(w.casefold() for cue in unit_type.get("cues") or [] for w in _WORD.findall(cue))
        return frozenset(words)

    return pack.cached("evaluation:closed-class-words", make)


def _kept_values(result: Result) -> set[str]:
    """Normalised original values that stand, as whole words, inside their own surrogate."""
    kept = set()
    for replacement in result.replacements:
        value = result.source.text[replacement.span.start : replacement.span.end]
        if value.strip() and _value_pattern(value).search(replacement.surrogate):
            kept.add(normalise(value))
    return kept


def summary(findings: Sequence[Finding], pairs: int) -> dict[str, Any]:
    counts = Counter(f.kind for f in findings)
    return {
        "documents_paired": pairs,
        "passed": not any(counts[k] for k in ERRORS),
        "counts": {kind: counts[kind] for kind in ERRORS + WARNINGS},
        "findings": [{k: v for k, v in asdict(f).items() if v is not None and v != ""} for f in findings],
    }
