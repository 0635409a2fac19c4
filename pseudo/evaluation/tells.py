"""The tell detector: an automatic reader looking for what gives a pseudonymised record away.

It applies the knowledge the rules use (locale lists, kinship and title genders, prepositions,
numbering plans, check digits, date cues) as a checker. Real records trip it too, so its counts
mean something only next to the same counts on the originals.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Callable, Container, Iterable, Mapping, Sequence

import regex
import yaml

from pseudo.evaluation.checkdigits import check_digit_valid
from pseudo.evaluation.corpus import Pair, misalignment
from pseudo.evaluation.dates import DATE_LIKE, day_first, parse_date
from pseudo.labels import LabelMapping
from pseudo.lists.pack import LocalePack
from pseudo.model import Document, Span
from pseudo.rules.contacts import fold
from pseudo.rules.phones import NumberingPlan, numbering_plan

TELLS = (
    "kinship_gender",  # a relative whose name has the wrong gender for the kinship word
    "shared_first_name",  # two different relatives with one first name
    "title_gender",  # a title or article that disagrees with the name's gender
    "date_order",  # a discharge before its admission, a date before the birth date, a range ending before it starts
    "unshifted_date",  # a date-like string left as in the original while the tagged dates moved
    "place_preposition",  # a place with a preposition its list does not give it
    "phone_prefix",  # a phone number whose prefix is neither an area code nor a mobile prefix
    "id_check_digit",  # an identifier of a known scheme with a wrong check digit
    "unlisted_surrogate",  # a name or place found in no list of the locale
)

HEADERS = ("kin-gender", "shared-name", "title-gender", "date-order", "unshifted", "preposition", "phone", "check-digit", "unlisted")
NAME_LABELS = ("FIRST_NAME", "PERSON", "KINSHIP")  # MEDDOCAN tags relatives' names as kinship
PLACE_LABELS = ("PLACE", "REGION", "COUNTRY")
DOMINANCE = 10  # a name counts as one gender when its share in that list is 10 times the other's
CUE_REACH = 40  # characters before a date searched for its cue, on the same line
CUE_WORDS = 3  # at most this many words between a date cue and its date
_TOKEN = regex.compile(r"\p{L}[\p{L}'’-]*")
_RANGE_DASH = regex.compile(r"\s*[-–—]\s*")
_WORD_BEFORE = regex.compile(r"(?<!\w)(\p{L}+)\s+$")


@dataclass(frozen=True)
class Tell:
    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class Cue:
    word: str  # the lemma: two cues with one lemma name one relative
    gender: str | None


def _phrases(phrases: Iterable[str]) -> str:
    unique = sorted({" ".join(p.split()) for p in phrases if p and p.strip()}, key=len, reverse=True)
    return "|".join(r"\s+".join(regex.escape(w) for w in p.split()) for p in unique)


def _before(cues: Mapping[str, Cue]) -> regex.Pattern | None:
    """A cue ending the text before a name, separated by nothing but spaces and punctuation."""
    body = _phrases(cues)
    return regex.compile(rf"(?<!\w)({body})[\s,:;(]*$", regex.IGNORECASE) if body else None


@cache
def _default_cues() -> dict[str, dict[str, list[str]]]:
    text = resources.files("pseudo.evaluation").joinpath("cues.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


class Knowledge:
    """What one locale pack lets the reader check; built once per pack and kept with it."""

    def __init__(self, pack: LocalePack | None):
        self.pack = pack
        self.language = pack.language if pack else None
        has = pack.has if pack else (lambda name: False)
        self.first: dict[str, dict[str, float]] | None = None  # folded name -> gender -> share of its list
        for gender in ("female", "male"):
            if has(f"first_names_{gender}"):
                self.first = self.first or {}
                names = pack.weighted(f"first_names_{gender}")
                for name, weight in zip(names.items, names.weights):
                    shares = self.first.setdefault(fold(name), {})
                    shares[gender] = shares.get(gender, 0) + max(1, weight) / names.cumulative[-1]
        self.last = {fold(name) for name in pack.weighted("last_names").items} if has("last_names") else None
        self.kinship = self._cues("kinship", "terms") if has("kinship") else {}
        self.titles = self._cues("titles", "titles") if has("titles") else {}
        self.kinship_pattern, self.title_pattern = _before(self.kinship), _before(self.titles)
        self.places: dict[str, set[str]] | None = None  # folded place name -> prepositions it takes
        if has("locations"):
            self.places = defaultdict(set)
            for place in pack.tree().places.values():
                taken = self.places[fold(place.name)]
                if place.extra.get("preposition"):
                    taken.add(place.extra["preposition"].casefold())
        self.prepositions = set().union(*self.places.values()) if self.places else set()
        phone = (pack.settings.get("phone") or {}) if pack else {}
        self.plan: NumberingPlan | None = (
            numbering_plan(pack) if pack and has("phone_area_codes") and "country_code" in phone else None
        )
        dates = (pack.settings.get("dates") or {}) if pack else {}
        self.dayfirst = day_first(dates.get("order"))
        defaults = _default_cues().get((self.language or "").split("-")[0], {})
        self.date_cues: dict[str, str] = {}
        for kind in ("admission", "discharge", "birth"):
            for phrase in dates.get(f"{kind}_cues") or defaults.get(kind, []):
                self.date_cues.setdefault(" ".join(str(phrase).split()).casefold(), kind)
        body = _phrases(self.date_cues)
        self.date_cue_pattern = regex.compile(rf"(?<!\w)(?:{body})(?!\w)", regex.IGNORECASE) if body else None

    def _cues(self, name: str, key: str) -> dict[str, Cue]:
        """kinship.yaml `terms` (word, forms, gender) or titles.yaml `titles` (word, gender), by folded form."""
        found: dict[str, Cue] = {}
        for entry in (self.pack.vocabulary(name) or {}).get(key) or []:
            word = str(entry["word"])
            gender = entry.get("gender") if entry.get("gender") in ("female", "male") else None
            for form in [word, *(entry.get("forms") or [])]:
                found.setdefault(" ".join(str(form).split()).casefold(), Cue(word.casefold(), gender))
        return found

    def gender(self, name: str) -> str | None:
        """female or male when the lists say so clearly; None for unisex or unknown names."""
        shares = (self.first or {}).get(fold(name), {})
        if len(shares) == 1:
            return next(iter(shares))
        if len(shares) == 2:
            female, male = shares["female"], shares["male"]
            if female >= DOMINANCE * male:
                return "female"
            if male >= DOMINANCE * female:
                return "male"
        return None

    def cue_before(self, pattern: regex.Pattern | None, cues: Mapping[str, Cue], text: str) -> Cue | None:
        match = pattern.search(text) if pattern else None
        return cues.get(" ".join(match.group(1).split()).casefold()) if match else None


def knowledge_for(pack: LocalePack | None) -> Knowledge:
    return pack.cached("evaluation:tells", lambda: Knowledge(pack)) if pack else Knowledge(None)


def _first_token(text: str) -> str | None:
    match = _TOKEN.search(text)
    return match.group() if match else None


def _names(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    """Kinship and title genders, and relatives sharing a first name."""
    tells: list[Tell] = []
    relatives: dict[str, list[tuple[str, Span]]] = defaultdict(list)
    for span, label in spans:
        if label not in NAME_LABELS:
            continue
        first = _first_token(document.span_text(span))
        if first is None or first.casefold() in k.kinship:
            continue
        before = document.text[max(0, span.start - 60) : span.start]
        gender = k.gender(first)
        kin = k.cue_before(k.kinship_pattern, k.kinship, before)
        if kin is not None:
            relatives[first.casefold()].append((kin.word, span))
            if kin.gender and gender and kin.gender != gender:
                tells.append(Tell("kinship_gender", span.start, span.end))
            continue
        title = k.cue_before(k.title_pattern, k.titles, before)
        if title is not None and title.gender and gender and title.gender != gender:
            tells.append(Tell("title_gender", span.start, span.end))
    for mentions in relatives.values():
        words: list[str] = []
        for word, span in mentions:
            if word not in words:
                if words:
                    tells.append(Tell("shared_first_name", span.start, span.end))
                words.append(word)
    return tells


def _date_cue(document: Document, span: Span, k: Knowledge) -> str | None:
    """admission, discharge or birth when a cue stands close before the date on its line."""
    if k.date_cue_pattern is None:
        return None
    line_start = document.text.rfind("\n", 0, span.start) + 1
    before = document.text[max(line_start, span.start - CUE_REACH) : span.start]
    for match in reversed(list(k.date_cue_pattern.finditer(before))):
        between = before[match.end() :]
        if len(_TOKEN.findall(between)) <= CUE_WORDS and not DATE_LIKE.search(between):
            return k.date_cues.get(" ".join(match.group().split()).casefold())
    return None


def _dates(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    dated = [(s, d) for s, label in spans if label == "DATE" and (d := parse_date(document.span_text(s), k.dayfirst))]
    tells: list[Tell] = []
    for (a, first), (b, second) in zip(dated, dated[1:]):
        if _RANGE_DASH.fullmatch(document.text[a.end : b.start]) and second < first:
            tells.append(Tell("date_order", b.start, b.end))
    cued = [(s, d, _date_cue(document, s, k)) for s, d in dated]
    births = [d for _, d, cue in cued if cue == "birth"]
    admissions = [(s, d) for s, d, cue in cued if cue == "admission"]
    for span, date, cue in cued:
        if births and cue != "birth" and date < min(births):
            tells.append(Tell("date_order", span.start, span.end))
        elif cue == "discharge" and admissions:
            _, admitted = min(admissions, key=lambda item: abs(item[0].start - span.start))
            if date < admitted:
                tells.append(Tell("date_order", span.start, span.end))
    return tells


def _unshifted(pair: Pair, labels: Mapping[str, LabelMapping]) -> list[Tell]:
    """Needs the original: once tagged dates moved, a date-like string that did not move stands out."""
    original, output = pair.original, pair.output
    dates = [
        (old, new) for old, new in zip(original.spans, output.spans)
        if old.label in labels and labels[old.label].label == "DATE"
    ]
    kept = [new for old, new in dates if output.span_text(new) == original.span_text(old)]
    if len(kept) == len(dates):
        return []
    tells = [Tell("unshifted_date", new.start, new.end) for new in kept]
    for match in DATE_LIKE.finditer(output.text):
        if not any(s.start < match.end() and match.start() < s.end for s in output.spans):
            tells.append(Tell("unshifted_date", match.start(), match.end()))
    return tells


def _places(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    if not k.prepositions:
        return []
    tells = []
    for span, label in spans:
        if label not in PLACE_LABELS:
            continue
        match = _WORD_BEFORE.search(document.text[max(0, span.start - 20) : span.start])
        written = match.group(1).casefold() if match else None
        if written not in k.prepositions:
            continue
        expected = k.places.get(fold(document.span_text(span).strip()), set())
        if expected and written not in expected:
            tells.append(Tell("place_preposition", span.start, span.end))
    return tells


def national_number(text: str, plan: NumberingPlan) -> str | None:
    """The national significant number, or None for a foreign or local (no area code) number."""
    digits = "".join(c for c in text if c.isdigit())
    cc, intl, trunk = plan.country_code, plan.international_prefix, plan.trunk_prefix
    if text.lstrip().startswith("+"):
        return digits[len(cc) :] if digits.startswith(cc) else None
    if intl and digits.startswith(intl):
        return digits[len(intl + cc) :] if digits.startswith(intl + cc) else None
    if trunk:
        return digits[len(trunk) :] if digits.startswith(trunk) else None
    return digits


def _phones(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    if k.plan is None:
        return []
    prefixes = k.plan.fixed + k.plan.mobile
    tells = []
    for span, label in spans:
        if label not in ("PHONE", "FAX"):
            continue
        number = national_number(document.span_text(span), k.plan)
        if number is None or len(number) < 6:
            continue
        mobile = k.plan.mobile_pattern is not None and k.plan.mobile_pattern.fullmatch(number)
        if not mobile and not any(number.startswith(p) for p in prefixes):
            tells.append(Tell("phone_prefix", span.start, span.end))
    return tells


def _ids(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    language = k.language.split("-")[0] if k.language else None
    return [
        Tell("id_check_digit", span.start, span.end)
        for span, label in spans
        if label == "ID" and check_digit_valid(document.span_text(span), language) is False
    ]


def _listed(token: str, pools: Sequence[Container[str]]) -> bool:
    """A token, or every part of a hyphenated one, in a list; accents and case aside."""
    return any(fold(token) in pool for pool in pools) or (
        "-" in token and all(any(fold(part) in pool for pool in pools) for part in token.split("-") if part)
    )


def _unlisted(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    """Names and places that no list of the locale holds; initials and lower-case particles pass."""
    first, last = [k.first] if k.first is not None else [], [k.last] if k.last is not None else []
    wanted = {"FIRST_NAME": first, "LAST_NAME": last, "PERSON": first + last if first and last else []}
    tells = []
    for span, label in spans:
        text = document.span_text(span).strip()
        if wanted.get(label):
            tokens = [t for t in _TOKEN.findall(text) if len(t) > 1 and t[0].isupper()]
            if not _listed(text, wanted[label]) and not all(_listed(t, wanted[label]) for t in tokens):
                tells.append(Tell("unlisted_surrogate", span.start, span.end))
        elif label in ("PLACE", "REGION") and k.places is not None and text and not any(c.isdigit() for c in text):
            if fold(text) not in k.places:
                tells.append(Tell("unlisted_surrogate", span.start, span.end))
    return tells


def read_document(
    document: Document, labels: Mapping[str, LabelMapping], k: Knowledge, original: Document | None = None
) -> list[Tell]:
    """Every tell in one document, in text order."""
    spans = [(s, labels[s.label].label) for s in document.spans if s.label in labels]
    tells = _names(document, spans, k) + _dates(document, spans, k) + _places(document, spans, k)
    tells += _phones(document, spans, k) + _ids(document, spans, k) + _unlisted(document, spans, k)
    if original is not None and len(original.spans) == len(document.spans):
        pair = Pair(original, document)
        if misalignment(pair) is None:
            tells += _unshifted(pair, labels)
    return sorted(tells, key=lambda t: (t.start, t.kind))


def read_corpus(
    documents: Sequence[Document],
    labels: Mapping[str, LabelMapping],
    pack_for: Callable[[Document], LocalePack | None],
    originals: Mapping[str, Document] | None = None,
) -> dict[str, Any]:
    """Counts per document and in total, with the offsets (never the text) of every tell."""
    per_document = []
    totals: Counter = Counter()
    without_locale = 0
    for document in documents:
        pack = pack_for(document)
        without_locale += pack is None
        original = originals.get(document.id) if originals is not None else None
        tells = read_document(document, labels, knowledge_for(pack), original)
        counts = Counter(t.kind for t in tells)
        totals.update(counts)
        per_document.append({
            "id": document.id,
            "counts": {kind: counts[kind] for kind in TELLS},
            "tells": [{"kind": t.kind, "start": t.start, "end": t.end} for t in tells],
        })
    return {
        "documents": len(documents),
        "documents_with_tells": sum(1 for d in per_document if d["tells"]),
        "documents_without_locale": without_locale,
        "compared_with_originals": originals is not None,
        "documents_without_original": sum(d.id not in originals for d in documents) if originals is not None else 0,
        "totals": {kind: totals[kind] for kind in TELLS},
        "per_document": per_document,
    }


def text_table(result: Mapping[str, Any]) -> str:
    """One row per document with a tell, then the totals; columns are the tells, abbreviated."""
    short = dict(zip(TELLS, HEADERS))
    rows = [("document", *short.values(), "all")]
    for doc in result["per_document"]:
        if doc["tells"]:
            rows.append((doc["id"], *(str(doc["counts"][k]) for k in TELLS), str(len(doc["tells"]))))
    rows.append(("TOTAL", *(str(result["totals"][k]) for k in TELLS), str(sum(result["totals"].values()))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    lines.append(f"{result['documents_with_tells']} of {result['documents']} document(s) show at least one tell")
    lines.append("columns: " + ", ".join(f"{s} = {k}" for k, s in short.items()))
    return "\n".join(lines)
