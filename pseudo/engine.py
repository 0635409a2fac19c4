"""The engine: resolve labels, run the rules in order, rebuild text and offsets in one pass."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, Sequence

import regex

from pseudo.casing import match_case
from pseudo.config import (
    DEFAULT_REDACTION,
    SUPPRESSION,
    Config,
    Strategy,
    check_rule_options,
    parse_rule_options,
)
from pseudo.datetext import DateWords, date_words, find_dates
from pseudo.errors import ConfigError, InputError, LocaleError, PseudoError
from pseudo.keyed import Keyring
from pseudo.labels import NAME_LABELS, LabelMapping, Tagset, detect_tagset, tagset
from pseudo.lists.pack import LocalePack, load_pack
from pseudo.folds import ascii_fold, normalise
from pseudo.model import Document, Replacement, Result, Span, Tagged, Target
from pseudo.registry import RULES, rule_for_label
from pseudo.rules.base import CUED, LISTED, Context, Rule, Surrogate
from pseudo.lists.names import title_words
from pseudo.lists.words import common_words, kinship_terms, particles
from pseudo.scope import ScopeState
from pseudo.services import SERVICES, Services
from pseudo.sweep import DateProfile, followed_dates, named_addresses

FOLLOWING_CHARS = 40  # text after a span searched for a cue of what it is ("CALVERT HOSPITAL")
# A value a subject's notes tag at least once in this many mentions is the name they tag: a stay's
# clinician missed in a few notes is tagged in most, a word that is also a name ("Foley") is not.
TAGGED_SHARE = 4
LOWER_CASE_SHARE = 2  # the same for a form tagged in lower case, which may be an ordinary word ("rose")
OverrideKey = tuple[str, str, str]  # scope id, canonical label, normalised original
# What was chosen for a target: its text, rule, strategy, fallback note, whether propagated, what it was kept as.
Chosen = tuple[Target, str, str, str, str | None, bool, str | None]


@dataclass(frozen=True)
class Settings:
    config: Config = field(default_factory=Config)
    keyring: Keyring = field(default_factory=Keyring.fresh)
    locale: str | None = None
    tagset: str | None = None
    overrides: Mapping[OverrideKey, str] = field(default_factory=dict)
    propagate: bool = False  # the CLI turns it on unless --no-propagate; config `propagate:` picks the labels


@dataclass(frozen=True)
class Failure:
    """A document that could not be processed, with a message safe to print."""

    document_id: str
    error: PseudoError


@dataclass
class Summary:
    documents: int = 0
    spans: Counter = field(default_factory=Counter)
    fallbacks: Counter = field(default_factory=Counter)
    propagated: int = 0
    followed: int = 0  # untagged dates moved by their scope's offset (pseudo.sweep)
    routed: Counter = field(default_factory=Counter)
    kept: Counter = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)

    def add(self, result: Result) -> None:
        self.documents += 1
        for replacement in result.replacements:
            self.spans[replacement.label] += 1
            if replacement.fallback:
                self.fallbacks[replacement.rule] += 1
            if replacement.propagated and replacement.label == "DATE":
                self.followed += 1
            else:
                self.propagated += replacement.propagated
            if replacement.routed_from:
                self.routed[f"{replacement.routed_from} as {replacement.label}"] += 1
            if replacement.kept_as:
                self.kept[f"{replacement.label} as {replacement.kept_as}"] += 1

    def line(self) -> str:
        labels = ", ".join(f"{label} {n}" for label, n in sorted(self.spans.items())) or "none"
        parts = [f"{self.documents} document(s)", f"{sum(self.spans.values())} span(s) ({labels})"]
        if self.fallbacks:
            parts.append("fallbacks: " + ", ".join(f"{rule} {n}" for rule, n in sorted(self.fallbacks.items())))
        if self.propagated:
            parts.append(f"{self.propagated} propagated")
        if self.followed:
            parts.append(f"{self.followed} untagged date(s) followed the clock")
        if self.routed:
            parts.append("read as what they look like: " + ", ".join(f"{k} {n}" for k, n in sorted(self.routed.items())))
        if self.kept:
            parts.append("kept as written: " + ", ".join(f"{k} {n}" for k, n in sorted(self.kept.items())))
        parts.append(f"{len(self.failures)} error(s)")
        return "; ".join(parts)


def check_order(rules: Mapping[str, type[Rule]], services: Sequence[str] = SERVICES) -> None:
    """Every rule's `requires` is a service or the `provides` of an earlier rule: a rule that
    needs what nothing before it makes is a configuration error at start-up, not a wrong output."""
    available = set(services)
    for name, rule in rules.items():
        missing = [need for need in rule.requires if need not in available]
        if missing:
            raise PseudoError(
                f"rule {name} requires {', '.join(missing)}, which no service and no earlier rule provides "
                f"(services: {', '.join(services)})"
            )
        available.update(rule.provides)


class Engine:
    def __init__(self, settings: Settings):
        check_order(RULES)
        self.settings = settings
        self.config = settings.config
        self._scopes: dict[str, ScopeState] = {}
        self._options_by_pack: dict[str | None, dict[str, Mapping[str, Any]]] = {}
        self._cued: dict[str, dict[tuple[str, str], int]] = {}  # scope -> (input label, value) -> may_be index a cue chose
        self._dated: dict[str, DateProfile] = {}  # scope -> what its tagged dates say, for untagged dates to follow
        self._named: dict[str, dict[str, str]] = {}  # subject -> name or place as tagged in its notes -> input label (until `_spread_named`)
        self._tagged: dict[str, Counter[str]] = {}  # subject -> times each of them is tagged, in lower case
        self._elsewhere: dict[str, dict[str, list[tuple[Target, Strategy]]]] = {}  # subject -> those that spread to its other notes, by first word
        self._elsewhere_upper: dict[str, dict[str, str]] = {}  # subject -> those first words in capitals -> as written

    # -- labels -----------------------------------------------------------------------------
    def tagset_for(self, documents: Sequence[Document]) -> Tagset:
        return self.tagset_for_labels({span.label for doc in documents for span in doc.spans})

    def tagset_for_labels(self, labels: set[str]) -> Tagset:
        """The tagset named in the settings, else the one the input's labels fit."""
        name = self.settings.tagset or self.config.tagset
        if name:
            return tagset(name)
        return detect_tagset(labels, self.config.labels) if labels else tagset("native")

    def label_map(self, documents: Sequence[Document]) -> dict[str, LabelMapping]:
        return {**self.tagset_for(documents).labels, **self.config.labels}

    # -- scopes -----------------------------------------------------------------------------
    def scope_id(self, document: Document) -> str:
        if self.config.scope == "corpus":
            return "corpus"
        if self.config.scope == "subject":
            subject = document.meta.get("subject")
            if subject in (None, ""):
                raise InputError("scope is 'subject' but meta.subject is missing", document_id=document.id)
            return f"subject:{subject}"
        return f"document:{document.id}"

    def _scope(self, scope_id: str) -> ScopeState:
        if scope_id not in self._scopes:
            self._scopes[scope_id] = ScopeState(scope_id, self.settings.keyring)
        return self._scopes[scope_id]

    # -- running ----------------------------------------------------------------------------
    def run(self, documents: Sequence[Document], skip_errors: bool = False) -> Iterator[Result | Failure]:
        """Pseudonymise documents in order. Originals of a whole scope are gathered first, so no
        surrogate can equal another original of its patient or corpus."""
        labels = self.label_map(documents)
        scope_ids: list[str | Failure] = []
        for document in documents:
            try:
                scope_id = self.scope_id(document)
            except PseudoError as error:
                if not skip_errors:
                    raise
                scope_ids.append(Failure(document.id, error))
                continue
            scope_ids.append(scope_id)
            self._mark_cued(document, labels, scope_id)
            self._mark_dated(document, labels, scope_id)
            self._mark_named(document, labels, scope_id)
            self._scope(scope_id).add_originals((document.span_text(s) for s in document.spans), _closed_class(self, document))
            cued = self._cued.get(scope_id, {})
            self._scope(scope_id).add_names(  # not a name span a cue sends to another rule ("Hospital General ..." tagged as a doctor)
                document.span_text(s)
                for s in document.spans
                if s.label in labels and labels[s.label].label in NAME_LABELS and (s.label, normalise(document.span_text(s))) not in cued
            )
        self._spread_named(documents, scope_ids, labels)
        remaining = Counter(scope_id for scope_id in scope_ids if isinstance(scope_id, str))
        for document, scope_id in zip(documents, scope_ids):
            if isinstance(scope_id, Failure):
                yield scope_id
                continue
            try:
                outcome: Result | Failure = self.pseudonymise(document, labels, self._scope(scope_id))
            except PseudoError as error:
                if not skip_errors:
                    raise
                outcome = Failure(document.id, error)
            remaining[scope_id] -= 1
            if not remaining[scope_id]:  # the scope's last document: its memory is no longer needed
                del self._scopes[scope_id]
                self._cued.pop(scope_id, None)
                self._dated.pop(scope_id, None)
                self._elsewhere.pop(scope_id, None)
                self._elsewhere_upper.pop(scope_id, None)
            yield outcome

    # -- values that do not look like their label --------------------------------------------
    def _mark_cued(self, document: Document, labels: Mapping[str, LabelMapping], scope_id: str) -> None:
        """Values of a label that `may_be` something else which a cue marks as one of those
        anywhere in the scope ("CALVERT" before "HOSPITAL"): read so in every document of the
        scope, "AT CALVERT" too, so one value is one thing per patient."""
        spans = [s for s in document.spans if s.label in labels and labels[s.label].may_be]
        try:
            pack = self.pack_for(document) if spans else None
        except PseudoError:  # reported when the document is processed
            return
        if pack is None:
            return
        cued = self._cued.setdefault(scope_id, {})
        for span in spans:
            text, after = document.span_text(span), document.text[span.end : span.end + FOLLOWING_CHARS]
            if labels[span.label].label in NAME_LABELS:  # a doctor's name signs before the hospital: only a cue inside it counts
                after = ""
            for index, alternative in enumerate(labels[span.label].may_be):
                if _rule_instance(rule_for_label(alternative.label)).recognises(text, after, alternative.label, pack) >= CUED:
                    key = (span.label, normalise(text))
                    cued[key] = min(index, cued.get(key, index))
                    break

    def _mark_named(self, document: Document, labels: Mapping[str, LabelMapping], scope_id: str) -> None:
        """Names and places tagged in a subject's notes, as written, and how often each is tagged:
        their untagged repetitions in the subject's other notes are the same clinician or town (a
        stay's "Vasquez", tagged in most notes, was the leftover readers found first where a note
        missed it). Each written form spreads as written ("vasquez" tagged in lower case too)."""
        if not (self.settings.propagate and self.config.scope == "subject"):
            return
        try:
            pack = self.pack_for(document)
        except PseudoError:  # reported when the document is processed
            return
        common = common_words(pack) if pack else frozenset()
        closed = _closed_words(pack) if pack else frozenset()
        named = self._named.setdefault(scope_id, {})
        tagged = self._tagged.setdefault(scope_id, Counter())
        for span in document.spans:
            mapping = labels.get(span.label)
            if mapping is None or mapping.label not in self.config.propagate or mapping.label not in (*NAME_LABELS, *_PLACE_LABELS):
                continue
            if self.config.strategy(span.label, mapping).name == "keep":
                continue
            value = document.span_text(span).strip()
            words = _NAME_WORD.findall(value) if mapping.label in NAME_LABELS else []
            for form in dict.fromkeys([value, *(w for w in words if w[0].isupper())] if len(words) > 1 else [value]):  # "Foley" of "Bernard Foley"
                tagged[form.lower()] += 1
                if form not in named and _spreads_elsewhere(mapping.label, form, common, closed):
                    named[form] = span.label

    def _spread_named(self, documents: Sequence[Document], scope_ids: Sequence[str | Failure], labels: Mapping[str, LabelMapping]) -> None:
        """Of a subject's tagged names and places, those its notes tag at least once in TAGGED_SHARE
        times they write them in any case (LOWER_CASE_SHARE for a form tagged in lower case): a
        nurse "Foley" tagged once among seventeen Foley catheters is a word there, not the nurse.
        Made into targets once per subject, by first word."""
        if not self._named:
            return
        lowered: dict[str, list[str]] = {}
        for document, scope_id in zip(documents, scope_ids):
            if isinstance(scope_id, str) and scope_id in self._named:
                lowered.setdefault(scope_id, []).append(document.text.lower())
        for scope_id, named in self._named.items():
            whole = "\n".join(lowered.get(scope_id, []))
            tokens = Counter(_LETTERS.findall(whole))
            tagged = self._tagged.get(scope_id, Counter())
            kept: dict[str, list[tuple[Target, Strategy]]] = {}  # by the form's first word, which a note must hold
            for form, label in named.items():
                key = form.lower()  # as the notes are searched
                first = _LETTERS.search(form)  # as a note's words are looked up: "Vasquez" of "Vasquez's" too
                if first is None:
                    continue
                written = tokens[first.group().lower()]  # a bound for a value of several words, searched only where it fails
                share = TAGGED_SHARE if form[:1].isupper() else LOWER_CASE_SHARE
                if first.group() != form and written > share * tagged[key]:
                    written = len(_whole_word_occurrences(whole, key, True))
                if written <= share * tagged[key]:
                    mapping = labels[label]
                    target = Target(Span(0, 0, label), form, mapping.label, mapping.role, mapping.kind)
                    kept.setdefault(first.group(), []).append((target, self.config.strategy(label, mapping)))
            self._elsewhere[scope_id] = kept
            self._elsewhere_upper[scope_id] = {word.upper(): word for word in kept}
        self._named.clear()
        self._tagged.clear()

    def _follows_dates(self) -> bool:
        return self.settings.propagate and "DATE" in self.config.propagate

    def _date_words(self, pack: LocalePack | None) -> DateWords:
        return date_words(pack, self._options_for(pack)["dates"]["order"])

    def _mark_dated(self, document: Document, labels: Mapping[str, LabelMapping], scope_id: str) -> None:
        """Gather the layouts and times of the scope's tagged dates sent to a surrogate: what an
        untagged date must match to follow the clock (pseudo.sweep)."""
        if not self._follows_dates():
            return
        spans = [s for s in document.spans if s.label in labels and labels[s.label].label == "DATE"]
        spans = [s for s in spans if self.config.strategy(s.label, labels[s.label]).name == "surrogate"]
        if not spans:
            return
        try:
            words = self._date_words(self.pack_for(document))
        except PseudoError:  # reported when the document is processed
            return
        profile = self._dated.setdefault(scope_id, DateProfile())
        for span in spans:
            profile.add(span.label, find_dates(document.text, words, span.start, span.end))
            profile.add_year(document.text[max(0, span.start - 1) : span.end])  # PhysioNet tags the "95" of "'95"

    def _named_addresses(
        self, document: Document, targets: list[tuple[Target, Strategy, bool]], pack: LocalePack | None, labels: Mapping[str, LabelMapping]
    ) -> list[tuple[Target, Strategy, bool]]:
        """Untagged e-mail addresses whose local part holds a word of a tagged name ("tcaveroescribano@"
        beside a tagged "Teresa Cavero Escribano"), added as spans of the tagset's e-mail label and
        marked propagated: left standing among addresses rebuilt from the surrogate names, they were
        the first leftovers readers found (leftover round 21)."""
        native = next((name for name, mapping in labels.items() if mapping.label == "EMAIL"), None)
        if native is None:
            return targets
        words = _name_words(targets, pack)
        taken = [(t.span.start, t.span.end) for t, _, _ in targets]
        mapping = labels[native]
        strategy = self.config.strategy(native, mapping)
        added = [
            (Target(Span(start, end, native), document.text[start:end], mapping.label, mapping.role, mapping.kind), strategy, True)
            for start, end in named_addresses(document.text, words, taken)
        ]
        return sorted(targets + added, key=lambda item: item[0].span.start) if added else targets

    def _followed(
        self,
        document: Document,
        targets: list[tuple[Target, Strategy, bool]],
        pack: LocalePack | None,
        labels: Mapping[str, LabelMapping],
        scope_id: str,
    ) -> list[tuple[Target, Strategy, bool]]:
        """Untagged dates that follow the scope's clock, added as spans of its tagged dates'
        label and marked propagated, as untagged repetitions of names are (the summary counts
        them apart, as dates followed)."""
        profile = self._dated.get(scope_id)
        if profile is None or profile.label is None:
            return targets
        mapping = labels[profile.label]
        scores = pack.cached("score-words", lambda: frozenset(w.casefold() for w in pack.settings.dates.score_words)) if pack else frozenset()
        strategy = self.config.strategy(profile.label, mapping)
        taken = [(t.span.start, t.span.end) for t, _, _ in targets]
        added = [
            (Target(Span(start, end, profile.label), document.text[start:end], mapping.label, mapping.role, mapping.kind), strategy, True)
            for start, end in followed_dates(document.text, self._date_words(pack), profile, taken, scores)
        ]
        return sorted(targets + added, key=lambda item: item[0].span.start) if added else targets

    def _routed(
        self, targets: list[tuple[Target, Strategy, bool]], labels: Mapping[str, LabelMapping], pack: LocalePack | None, scope_id: str
    ) -> list[tuple[Target, Strategy, bool]]:
        """Each value of a label that `may_be` something else goes to the rule of what it looks
        like: the alternative a cue marks in its scope, else its own label where its rule finds it
        listed (a town) or reads it (a date), else the first alternative whose rule lists it (a
        country tagged as a date), else the first alternative (a name no list holds, in a place
        label, is an institution's) or, where the mapping says `unrecognised: own`, its own label
        (a date the grammar cannot read and no list holds stays a date)."""
        if pack is None:
            return targets
        cued = self._cued.get(scope_id, {})
        options = self._options_for(pack)
        out = []
        for target, strategy, propagated in targets:
            mapping = labels.get(target.span.label)
            if mapping is None or not mapping.may_be or target.label != mapping.label:
                out.append((target, strategy, propagated))
                continue
            index = cued.get((target.span.label, normalise(target.text)))
            if index is None and _recognised(mapping.label, target.text, pack, options) < LISTED:
                listed = (i for i, alternative in enumerate(mapping.may_be) if _recognised(alternative.label, target.text, pack, options) >= LISTED)
                index = next(listed, 0 if mapping.unrecognised == "first" else None)
            if index is None:
                out.append((target, strategy, propagated))
                continue
            chosen = mapping.may_be[index]
            role = chosen.role or mapping.role
            routed = Target(target.span, target.text, chosen.label, role, chosen.kind, routed_from=mapping.label)
            out.append((routed, self.config.strategy(target.span.label, chosen), propagated))
        return out

    def _options_for(self, pack: LocalePack | None) -> dict[str, Mapping[str, Any]]:
        """Every rule's options: declared defaults, then the pack's `defaults:`, then the config."""
        code = pack.code if pack else None
        if code not in self._options_by_pack:
            where = f"locale {code!r}: pack.yaml: defaults"
            defaults = parse_rule_options(pack.manifest.get("defaults"), where) if pack else {}
            options = {name: self.config.rule_options(name, defaults) for name in RULES}
            check_rule_options(options.__getitem__, where)
            self._options_by_pack[code] = options
        return self._options_by_pack[code]

    def pack_for(self, document: Document) -> LocalePack | None:
        code = document.meta.get("locale") or self.settings.locale or self.config.locale
        if not code:
            return None
        try:
            return load_pack(str(code))
        except LocaleError as error:
            raise InputError(str(error), document_id=document.id) from None

    def pseudonymise(self, document: Document, labels: Mapping[str, LabelMapping], scope: ScopeState) -> Result:
        pack = self.pack_for(document)
        targets: list[tuple[Target, Strategy, bool]] = []
        for span in document.spans:
            mapping = labels.get(span.label)
            if mapping is None:
                raise InputError(
                    f"span {span.start}-{span.end}: label {span.label!r} is not in the tagset; map it in the config",
                    document_id=document.id,
                )
            target = Target(span, document.span_text(span), mapping.label, mapping.role, mapping.kind)
            targets.append((target, self.config.strategy(span.label, mapping), False))
        if self.settings.propagate:
            targets = _propagate(document, targets, pack, self.config.propagate, self._elsewhere.get(scope.id), self._elsewhere_upper.get(scope.id))
            if "EMAIL" in self.config.propagate:
                targets = self._named_addresses(document, targets, pack, labels)
        if self._follows_dates():
            targets = self._followed(document, targets, pack, labels, scope.id)
        targets = self._routed(targets, labels, pack, scope.id)
        chosen = self._choose(document, pack, scope, targets)
        return _rebuild(document, _local_parts(chosen), scope.id)

    def _choose(
        self,
        document: Document,
        pack: LocalePack | None,
        scope: ScopeState,
        targets: list[tuple[Target, Strategy, bool]],
    ) -> list[Chosen]:
        """Surrogates for every target, rule by rule in registry order."""
        outcome: dict[int, Chosen] = {}
        by_rule: dict[str, list[tuple[Target, bool]]] = {}
        for target, strategy, propagated in targets:
            rule = rule_for_label(target.label)
            if strategy.name == "surrogate":
                by_rule.setdefault(rule.name, []).append((target, propagated))
                continue
            text = _fixed(target, strategy, scope)
            outcome[target.span.start] = (target, text, rule.name, strategy.name, None, propagated, None)
        options = self._options_for(pack)
        replaced = frozenset(t.span.start for t, strategy, _ in targets if strategy.name == "surrogate")
        tagged = Tagged(document, tuple(t for t, _, _ in targets), replaced)
        services = Services(scope, pack, {name: options[name] for name in SERVICE_OPTIONS})
        for rule_name, rule_class in RULES.items():
            if rule_name not in by_rule:
                continue
            missing = [need for need in rule_class.needs if pack is None or not pack.has(need)]
            if missing:
                where = f"locale {pack.code!r}" if pack else "no locale (pass --locale or set meta.locale)"
                raise InputError(
                    f"label(s) {', '.join(sorted({t.label for t, _ in by_rule[rule_name]}))} need the list(s) "
                    f"{', '.join(missing)}: {where}; choose another strategy for them in the config",
                    document_id=document.id,
                )
            rule = _rule_instance(rule_class)
            ctx = Context(tagged, pack, options[rule_name], rule_name, scope, services)
            ordered = sorted(by_rule[rule_name], key=lambda item: (_priority(rule, item[0], ctx, document), item[0].span.start))
            for target, propagated in ordered:
                override = self.settings.overrides.get((scope.id, target.label, normalise(target.text))) if self.settings.overrides else None
                scope.notes.clear()
                if override is not None:
                    answer: Surrogate | str = Surrogate(override, kept=override == target.text)
                else:
                    answer = _replace(rule, target, ctx, document)
                if isinstance(answer, str):
                    answer = Surrogate(answer)
                if answer.kept:
                    scope.keep(target.text)
                verbatim = answer.kept or rule.own_casing or (answer.text.startswith("[") and answer.text.endswith("]"))
                text = answer.text if verbatim else match_case(target.text, answer.text)
                fallback = answer.fallback or (scope.notes[0] if scope.notes else None)
                if text == target.text and not answer.kept:
                    raise PseudoError(
                        f"document {document.id!r}: span {target.span.start}-{target.span.end}: "
                        f"rule {rule_name} returned the original value"
                    )
                outcome[target.span.start] = (target, text, rule_name, "surrogate", fallback, propagated, answer.kept_as)
        return [outcome[start] for start in sorted(outcome)]


# The options each service is configured with: the rule family whose options describe it.
SERVICE_OPTIONS = ("dates", "ages", "names", "places", "organisations")


def _closed_class(engine: "Engine", document: Document) -> frozenset[str]:
    """Words that identify nobody (the pack's kinship terms): no original value to avoid."""
    try:
        pack = engine.pack_for(document)
    except PseudoError:
        return frozenset()
    if pack is None or not pack.has("kinship"):
        return frozenset()
    return pack.cached("closed-class-words", lambda: frozenset(normalise(w) for w in kinship_terms(pack)))


def _priority(rule: Rule, target: Target, ctx: Context, document: Document) -> int:
    try:
        return rule.priority(target, ctx)
    except ConfigError:
        raise  # an option the pack cannot serve (a place kind it lacks): no span is at fault
    except PseudoError as error:
        raise InputError(f"span {target.span.start}-{target.span.end}: rule {rule.name}: {error}", document_id=document.id) from None


def _replace(rule: Rule, target: Target, ctx: Context, document: Document) -> Surrogate | str:
    """A rule's answer; its failure names the document and the span's offsets. Messages of our
    own errors are safe to print; any other exception is named by its type only, since its
    message may quote the span."""
    where = f"span {target.span.start}-{target.span.end}: rule {rule.name}"
    try:
        return rule.replace(target, ctx)
    except (InputError, ConfigError):
        raise
    except PseudoError as error:
        raise InputError(f"{where}: {error}", document_id=document.id) from None
    except Exception as error:  # noqa: BLE001 - reported without its message, which may carry text
        raise InputError(f"{where} failed ({type(error).__name__})", document_id=document.id) from error


_INSTANCES: dict[type, object] = {}


def _rule_instance(rule_class: type) -> object:
    if rule_class not in _INSTANCES:
        _INSTANCES[rule_class] = rule_class()
    return _INSTANCES[rule_class]


def _recognised(label: str, text: str, pack: LocalePack, options: Mapping[str, Mapping[str, Any]]) -> int:
    """How surely the rule of a canonical label recognises a value as one of its own (Rule.recognises),
    under its configured options (every rule's, by name)."""
    rule = _rule_instance(rule_for_label(label))
    return rule.recognises(text, "", label, pack, options.get(rule.name))


def _fixed(target: Target, strategy: Strategy, scope: ScopeState) -> str:
    if strategy.name == "keep":
        return target.text
    if strategy.name == "suppress":
        return SUPPRESSION
    if strategy.name == "redact":
        return strategy.text if strategy.text is not None else DEFAULT_REDACTION
    if strategy.indexed:
        return f"[{target.label}-{scope.tag_index(target.label, normalise(target.text))}]"
    return f"[{target.label}]"


def _rebuild(document: Document, chosen: Iterable[Chosen], scope_id: str) -> Result:
    """Slice every original from the original text, left to right, recording new offsets."""
    pieces: list[str] = []
    replacements: list[Replacement] = []
    cursor = 0
    length = 0
    for target, text, rule, strategy, fallback, propagated, kept_as in chosen:
        span = target.span
        between = document.text[cursor : span.start]
        pieces.append(between)
        length += len(between)
        pieces.append(text)
        replacements.append(
            Replacement(
                span, length, length + len(text), text, target.label, rule, strategy, scope_id, fallback, propagated, target.routed_from,
                kept_as,
            )
        )
        length += len(text)
        cursor = span.end
    pieces.append(document.text[cursor:])
    new_spans = tuple(Span(r.new_start, r.new_end, r.span.label, r.span.attrs) for r in replacements)
    output = Document(document.id, "".join(pieces), new_spans, document.meta)
    return Result(document, output, tuple(replacements))


# Where a repeated value may stand: a whole word ("Uppsala-bo" holds one), not part of an address
# or a handle ("lena.pettersson" holds no "Pettersson").
_BEFORE = r"(?<![\w@.+])"
_AFTER = r"(?![\w@+]|\.\w)"
_NAME_WORD = regex.compile(r"[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*")
_PLACE_LABELS = ("PLACE", "REGION", "COUNTRY")


MIN_NAME_IN_ADDRESS = 4  # letters of a name word that, found in a local part, make it that person's
_LETTERS = regex.compile(r"\p{L}+")


def _name_words(targets: list[tuple[Target, Strategy, bool]], pack: LocalePack | None) -> frozenset[str]:
    """The words of the tagged names, folded as local parts write them, long and uncommon enough
    to tell whose an address is."""
    common = common_words(pack) if pack else frozenset()
    return frozenset(
        folded
        for target, strategy, _ in targets
        if target.label in NAME_LABELS and strategy.name != "keep"
        for word in _LETTERS.findall(target.text)
        if len(folded := ascii_fold(word).casefold()) >= MIN_NAME_IN_ADDRESS and word.casefold() not in common
    )


def _propagate(
    document: Document,
    targets: list[tuple[Target, Strategy, bool]],
    pack: LocalePack | None,
    labels: Sequence[str],
    elsewhere: Mapping[str, Sequence[tuple[Target, Strategy]]] | None = None,
    elsewhere_upper: Mapping[str, str] | None = None,
) -> list[tuple[Target, Strategy, bool]]:
    """Add untagged whole-word occurrences of tagged values as spans of the same label: whole
    values of the labels asked for, each name word of a full name ("Lena" of "Lena Pettersson")
    and e-mail local parts written alone; then the values and name words tagged in the subject's
    other notes (`elsewhere`, `Engine._mark_named`), each as the annotators wrote it there (a
    "vasquez" tagged in lower case spreads in lower case), and in capitals in a note written in
    capitals ("VERONICA" of a "Veronica" tagged elsewhere was a leftover readers found): there a
    name of one word only in a mention a title or kinship word of one person stands right before in
    its sentence ("DAUGHTER VERONICA"), since case no longer tells a name from a word ("BROWN STOOL"
    beside a Dr. Brown). Names and places match case-sensitively;
    a value under three letters, a kinship word, title or particle never spreads, nor a name or
    handle that is a common word of the language."""
    common = common_words(pack) if pack else frozenset()
    closed = _closed_words(pack) if pack else frozenset()
    values: dict[str, tuple[Target, Strategy]] = {}
    words: dict[str, tuple[Target, Strategy]] = {}
    for target, strategy, _ in targets:
        if strategy.name == "keep" or target.label not in labels or target.label == "DATE":  # dates follow the clock instead
            continue
        value = target.text.strip()
        if target.label == "EMAIL":
            value = value.split("@")[0] if value.count("@") == 1 else ""
        elif target.label in NAME_LABELS:
            found = _NAME_WORD.findall(value)
            for word in found if len(found) > 1 else ():
                if word[0].isupper() and _spreads(word, common, closed):
                    words.setdefault(word, (target, strategy))
        if _value_spreads(target.label, value, common, closed):
            values.setdefault(value, (target, strategy))
    by_upper = elsewhere_upper if elsewhere and elsewhere_upper and _in_capitals(document.text) else {}
    cued: set[str] = set()  # names of one word spread in capitals: only after a title or kinship word
    for word in dict.fromkeys(_LETTERS.findall(document.text)) if elsewhere else ():  # in text order; checked once per subject (`Engine._spread_named`)
        for target, strategy in elsewhere.get(word, ()):
            if target.text in document.text:
                values.setdefault(target.text, (target, strategy))
        for target, strategy in elsewhere.get(by_upper.get(word, ""), ()) if word not in elsewhere else ():  # "VERONICA" of a tagged "Veronica"
            upper = target.text.upper()
            if upper in document.text and upper not in values:
                values[upper] = (target, strategy)
                if len(_NAME_WORD.findall(upper)) == 1:
                    cued.add(upper)
    titles, cues = (title_words(pack), _cue_words(pack)) if cued and pack else (frozenset(), frozenset())
    taken = [(t.span.start, t.span.end) for t, _, _ in targets]
    added: list[tuple[Target, Strategy, bool]] = []
    lowered: str | None = None  # the text in lower case, made once for the values matched case-blind
    for value, (target, strategy) in [*sorted(values.items(), key=lambda item: (-len(item[0]), item[0])), *words.items()]:
        sensitive = target.label in NAME_LABELS or target.label in _PLACE_LABELS
        if not sensitive and lowered is None:
            lowered = document.text.lower()
        for start, end in _whole_word_occurrences(document.text, value, sensitive, lowered):
            if any(start < e and s < end for s, e in taken):
                continue
            if value in cued and not _after_a_cue(document.text, start, titles, cues):
                continue  # each mention on its own: "DR BROWN AWARE" beside "BROWN STOOL"
            taken.append((start, end))
            span = Span(start, end, target.span.label)  # not the tagged span's attrs: its id, its text
            added.append((Target(span, document.text[start:end], target.label, target.role, target.kind), strategy, True))
    return sorted(targets + added, key=lambda item: item[0].span.start)


CAPITALS_SHARE = 0.85  # of a note's letters in upper case: a note written in capitals
CUE_REACH = 80  # characters before a name searched for the title or kinship word right before it, on its line
_CUE_TOKEN = regex.compile(r"[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*\.?|[.;:!?]")
_POSSESSIVE = regex.compile(r"['’]s$")


def _after_a_cue(text: str, start: int, titles: frozenset[str], cues: frozenset[str]) -> bool:
    """Whether the word before a position, in its sentence and on its line, is a title or a
    kinship word of one person ("DAUGHTER VERONICA", "DAUGHTER'S VERONICA", "DR. J. BROWN"; not
    "UPDATED FAMILY. BROWN STOOL", nor "FAMILY MAY VISIT")."""
    line = text[max(0, start - CUE_REACH) : start].rsplit("\n", 1)[-1]
    initial = False
    for token in reversed(_CUE_TOKEN.findall(line)):
        word = _POSSESSIVE.sub("", token.rstrip(".").casefold())
        if token.endswith(".") and len(word) == 1 and not initial:
            initial = True  # one initial between the title and the name
            continue
        if token.endswith(".") and word not in titles or not word:
            return False  # a sentence ends before the name
        return word in cues
    return False


def _in_capitals(text: str) -> bool:
    """Whether a note is written in capitals ("LIVES W/ DAUGHTER VERONICA"): there a name the
    subject's other notes tag is written in capitals too, and spreads so (`_propagate`)."""
    letters = _LETTERS.findall(text)
    total = sum(len(word) for word in letters)
    return total > 0 and sum(1 for word in letters for c in word if c.isupper()) >= CAPITALS_SHARE * total


_BOUNDED = regex.compile(rf"{_BEFORE}.{{0}}")  # a position where a value may start
_ENDS = regex.compile(_AFTER)  # a position where a value may end


def _whole_word_occurrences(text: str, value: str, sensitive: bool, lowered: str | None = None) -> list[tuple[int, int]]:
    """Offsets of a value as a whole word (the _BEFORE/_AFTER boundaries), case-blind unless
    `sensitive`: found by plain string search and checked at its two ends, since compiling one
    pattern per value and document cost more than the rest of the run. `lowered` is text.lower()
    when the caller has it."""
    haystack, needle = (text, value) if sensitive else (lowered if lowered is not None else text.lower(), value.lower())
    if len(haystack) != len(text) or len(needle) != len(value):  # a case mapping changed lengths: use the pattern
        pattern = rf"{_BEFORE}{regex.escape(value)}{_AFTER}"
        return [m.span() for m in regex.finditer(pattern, text, 0 if sensitive else regex.IGNORECASE)]
    found, start = [], haystack.find(needle)
    while start >= 0:
        end = start + len(needle)
        if _BOUNDED.match(text, start) and _ENDS.match(text, end):
            found.append((start, end))
            start = haystack.find(needle, end)
        else:
            start = haystack.find(needle, start + 1)
    return found


def _local_parts(chosen: list[Chosen]) -> list[Chosen]:
    """An e-mail local part written alone takes the local part of its address's surrogate, so
    the handle and the address still agree."""
    surrogates = {
        target.text.split("@")[0].casefold(): text.split("@")[0]
        for target, text, _, strategy, _, propagated, _ in chosen
        if target.label == "EMAIL" and not propagated and strategy == "surrogate" and target.text.count("@") == 1 == text.count("@")
    }
    fixed = []
    for target, text, rule, strategy, fallback, propagated, kept_as in chosen:
        local = surrogates.get(target.text.casefold()) if propagated and target.label == "EMAIL" else None
        if local and local.casefold() != target.text.casefold():
            text, fallback = local, None
        fixed.append((target, text, rule, strategy, fallback, propagated, kept_as))
    return fixed


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


def _value_spreads(label: str, value: str, common: frozenset[str], closed: frozenset[str]) -> bool:
    """A whole value may be propagated: a full name, or a name word, an e-mail local part or a
    place that passes `_spreads` (a place may be a common word: "Madrid" is one, and only its
    capitalised spelling is matched); a value of another label asked for at three characters."""
    if label in _PLACE_LABELS:
        return _spreads(value, frozenset(), closed)
    if label in NAME_LABELS:
        return value[:1].isupper() and (" " in value or _spreads(value, common, closed))
    if label == "EMAIL":
        return _spreads(value, common, closed)
    return len(value) >= 3


def _spreads_elsewhere(label: str, form: str, common: frozenset[str], closed: frozenset[str]) -> bool:
    """A form tagged in a subject's note may spread to its other notes: a value of several words
    ("Holy Cross", "Bernard Foley"), or a name word that passes `_spreads`; a place of one word
    stays in its note: PhysioNet tags "holy", "cross", "General" word by word, and spread over a
    stay they had made "Type and cross sent" a surrogate (a review's finding). A form in lower case
    spreads only where the notes tag it at least once in LOWER_CASE_SHARE mentions (a nurse "rose"
    beside "BP rose" twice does not; a clinician "healey" tagged in most notes does)."""
    if " " in form:
        return True
    return label not in _PLACE_LABELS and _spreads(form, common, closed)


def _spreads(word: str, common: frozenset[str], closed: frozenset[str]) -> bool:
    """A single word may be propagated: three letters or more, and neither an ordinary word of
    the language ("Rosa" may be pink) nor a kinship word, title or particle."""
    folded = word.casefold()
    return _letters(word) >= 3 and folded not in common and folded.rstrip(".") not in closed


def _cue_words(pack: LocalePack) -> frozenset[str]:
    """The pack's titles and kinship words of one person, case-folded: a name follows them (a
    collective or plural word, "family", "children", stands before verbs: "FAMILY MAY VISIT")."""

    def make() -> frozenset[str]:
        kinship = kinship_terms(pack) if pack.has("kinship") else {}
        one = {word for word, term in kinship.items() if term.get("number", "singular") == "singular" and not term.get("keep")}
        return frozenset(one) | title_words(pack)

    return pack.cached("propagation-cue-words", make)


def _closed_words(pack: LocalePack) -> frozenset[str]:
    """The pack's kinship words, titles and name particles, case-folded."""
    kinship = kinship_terms(pack) if pack.has("kinship") else {}
    return pack.cached("propagation-closed-words", lambda: frozenset(kinship) | title_words(pack) | particles(pack))


def rule_context(
    document: Document, pack: LocalePack | None, rule: str, options: Mapping[str, Any], keyring: Keyring, scope_id: str = "document:d"
) -> Context:
    """A context for running one rule outside a run (tests, docs/adding-a-rule.md): every span
    of the document is taken as already canonical and replaced; services get the declared
    defaults, with `options` laid over those of `rule` when it is one of theirs."""
    targets = tuple(Target(s, document.span_text(s), s.label) for s in document.spans)
    tagged = Tagged(document, targets, frozenset(s.start for s in document.spans))
    scope = ScopeState(scope_id, keyring)
    settings = {name: {n: o.default for n, o in RULES[name].options.items()} for name in SERVICE_OPTIONS}
    if rule in settings:
        settings[rule] = {**settings[rule], **options}
    return Context(tagged, pack, options, rule, scope, Services(scope, pack, settings))
