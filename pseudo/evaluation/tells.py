"""The tell detector: an automatic reader looking for what gives a pseudonymised record away.

It applies the knowledge the rules use (locale lists, kinship and title genders, prepositions,
numbering plans, check digits, date cues) as a checker. Real records trip it too, so its counts
mean something only next to the same counts on the originals.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources
from typing import Any, Callable, Container, Iterable, Mapping, Sequence

import regex
import yaml

from pseudo.datetext import DateText, date_words, find_dates, full_date, grammar
from pseudo.evaluation.corpus import Pair
from pseudo.labels import LabelMapping
from pseudo.lists.numbering import NumberingPlan, numbering_plan, split_number
from pseudo.lists.pack import LocalePack
from pseudo.lists.settings import DateSettings
from pseudo.lists.tree import Place
from pseudo.model import Document, Span
from pseudo.folds import ascii_fold as fold
from pseudo.lists.words import particles

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
    "reserved_email",  # an e-mail address at a domain reserved for examples (example.com, .test)
    "email_unrelated",  # an e-mail whose local part shares no run of letters with any name of its record
    "phone_fiction",  # a phone number in a range set aside for fiction, or a run of one digit
    "phone_area",  # a fixed number whose area code serves no place of its record
    "foreign_country",  # a foreign country in the country field of a patient living in the home country
    "random_letters",  # a word no list holds and the letters of the lists make improbable
    "doubled_word",  # one word twice in a row across or inside a span ("Universitario Universitario")
    "house_number",  # a house number beyond the real range
    "person_hospital",  # a health care unit named after a person
)

HEADERS = (
    "kin-gender", "shared-name", "title-gender", "date-order", "unshifted", "preposition", "phone", "check-digit", "unlisted",
    "example-mail", "mail-name", "fiction-tel", "area", "country", "random", "doubled", "house-no", "person-unit",
)  # fmt: skip
NAME_LABELS = ("FIRST_NAME", "PERSON", "KINSHIP")  # MEDDOCAN tags relatives' names as kinship
PLACE_LABELS = ("PLACE", "REGION", "COUNTRY")
DOMINANCE = 10  # a name counts as one gender when its share in that list is 10 times the other's
CUE_REACH = 40  # characters before a date searched for its cue, on the same line
CUE_WORDS = 3  # at most this many words between a date cue and its date
_TOKEN = regex.compile(r"\p{L}[\p{L}'’-]*")
_FIGURES_BEFORE = regex.compile(r"(?:[\w/]|\d[.,])\Z")
_FOUR_DIGITS = regex.compile(r"\d{4}")
_FIGURES_AFTER = regex.compile(r"[\w/]|[.,]\d")
_WORD_BEFORE = regex.compile(r"(?<!\w)(\p{L}+)\s+$")
_LETTERS = regex.compile(r"\p{L}+")
_VOWEL = regex.compile(r"[aeiouy]")
_DOUBLED = regex.compile(r"(?<!\w)(\p{L}{3,})\s+\1(?!\w)", regex.IGNORECASE)
_HOUSE_NUMBER = regex.compile(r"(?<![\w\-.,])(\d{1,4})(?![\d]|[.,]\d)")
_NOT_HOUSE = regex.compile(r"(?<!\w)(?:km|kilómetro|apartado|box|box\.)(?!\w)", regex.IGNORECASE)
RARE_PAIR = 2  # a letter pair seen fewer times than this in all the pack's words counts as unseen
UNSEEN_PAIRS = 2  # a word with this many unseen letter pairs is improbable
MODEL_WORDS = 1000  # fewer words leave too many real letter pairs unseen
RESERVED_DOMAINS = ("example.com", "example.net", "example.org", "example", "test", "invalid", "localhost")  # RFC 2606
HOUSE_NUMBERS = 300  # Spanish and Swedish streets rarely run past this
PLACE_FAMILY = ("PLACE", "REGION", "POSTCODE")


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
        self.particles = particles(pack) if pack else frozenset()
        self.tree = pack.tree() if has("locations") else None  # looked up as the place rule does: aliases, accents aside
        self.prepositions = {self.preposition(p) for p in self.tree.places.values()} - {""} if self.tree else set()
        morphology = pack.morphology if pack else None
        self.id_checks: tuple[Callable[[str], bool | None], ...] = tuple(getattr(morphology, "ID_CHECKS", ()))
        self.plan: NumberingPlan | None = numbering_plan(pack) if pack and has("phone_area_codes") else None
        dates = pack.settings.dates if pack else DateSettings()
        self.date_words = date_words(pack, None)
        self.range_joiner = grammar(self.date_words).range_joiner
        defaults = _default_cues().get((self.language or "").split("-")[0], {})
        self.date_cues: dict[str, str] = {}
        for kind in ("admission", "discharge", "birth"):
            for phrase in getattr(dates, f"{kind}_cues") or defaults.get(kind, []):
                self.date_cues.setdefault(" ".join(str(phrase).split()).casefold(), kind)
        body = _phrases(self.date_cues)
        self.date_cue_pattern = regex.compile(rf"(?<!\w)(?:{body})(?!\w)", regex.IGNORECASE) if body else None
        self.entries, self.words = _pack_words(pack) if pack else (frozenset(), frozenset())
        self.letters = Letters(self.words)
        self.saints = tuple(
            tuple(fold(w) for w in _TOKEN.findall(r["name"]) if w.casefold() not in self.particles) for r in pack.rows("saints")
        ) if has("saints") else ()  # fmt: skip
        self.home = _home_country(self.tree) if self.tree else None
        self.areas = _area_places(self.plan, self.tree) if self.plan and self.tree else {}
        body = _phrases(str(c) for c in defaults.get("country_field", []))
        self.country_field = regex.compile(rf"(?<!\w)(?:{body})\s*:\s*$", regex.IGNORECASE) if body else None

    def _cues(self, name: str, key: str) -> dict[str, Cue]:
        """kinship.yaml `terms` (word, forms, gender) or titles.yaml `titles` (word, gender), by folded form."""
        found: dict[str, Cue] = {}
        for entry in (self.pack.vocabulary(name) or {}).get(key) or []:
            word = str(entry["word"])
            gender = entry.get("gender") if entry.get("gender") in ("female", "male") else None
            if gender == "male" and entry.get("number") == "plural":
                gender = None  # a masculine plural names mixed groups too: "padres Ana y Luis"
            for form in [word, *(entry.get("forms") or [])]:
                found.setdefault(" ".join(str(form).split()).casefold(), Cue(word.casefold(), gender))
        return found

    @staticmethod
    def preposition(place: Place) -> str:
        return str(place.extra.get("preposition") or "").casefold()

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


class Letters:
    """A character-bigram model of the words of a pack's lists: how likely each letter is after
    the one before it in real names, places and words of the locale."""

    def __init__(self, words: Iterable[str]):
        self.pairs: Counter = Counter()
        self.size = 0
        for word in words:
            self.size += 1
            marked = f"^{word}$"
            self.pairs.update(marked[i : i + 2] for i in range(len(marked) - 1))

    def unseen(self, word: str) -> int:
        """How many letter pairs of the word (edges included) occur under RARE_PAIR times in the lists."""
        marked = f"^{fold(word).casefold()}$"
        return sum(self.pairs[marked[i : i + 2]] < RARE_PAIR for i in range(len(marked) - 1))

    def improbable(self, word: str) -> bool:
        """A word of at least five letters with no vowel, or with letter pairs the locale's words
        (almost) never have; the pairs are read only when the lists hold enough words to judge by."""
        folded = fold(word).casefold()
        if len(folded) < 5:
            return False
        return not _VOWEL.search(folded) or self.size >= MODEL_WORDS and self.unseen(word) >= UNSEEN_PAIRS


def _pack_words(pack: LocalePack) -> tuple[frozenset[str], frozenset[str]]:
    """Every entry of the pack's named lists (folded), and every word of them and of its vocabularies."""
    entries: set[str] = set()
    for name, entry in pack.lists.items():
        if str(entry.get("file", "")).endswith(".tsv"):
            entries.update(fold(row["name"]) for row in pack.rows(name) if row.get("name"))
        elif str(entry.get("file", "")).endswith((".yaml", ".yml")):
            entries.update(fold(text) for text in _strings(pack.vocabulary(name)))
    if pack.has("locations"):
        for place in pack.tree().places.values():
            entries.update(fold(n) for n in [place.name, *place.extra.get("aliases", "").split("|")] if n)
    words = {w.casefold() for entry in entries for w in _LETTERS.findall(regex.sub(r"\{\w+\}", " ", entry))}
    return frozenset(e.casefold() for e in entries), frozenset(words)


def _strings(data: Any) -> Iterable[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for item in data.values():
            yield from _strings(item)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)


def _home_country(tree: Any) -> Place | None:
    """The country most of the tree's municipalities lie in: the pack's own."""
    countries = Counter(c.id for c in (tree.ancestor(p, "country") for p in tree.of_kind("municipality")) if c is not None)
    return tree.places[countries.most_common(1)[0][0]] if countries else None


def _area_places(plan: NumberingPlan, tree: Any) -> dict[str, frozenset[str]]:
    """Area code -> the ids of the places it serves and every place above them."""
    areas: dict[str, set[str]] = defaultdict(set)
    for code, name in plan.regions:
        for place in tree.lookup(name):
            areas[code].update(p.id for p in _lineage(place, tree))
    return {code: frozenset(ids) for code, ids in areas.items()}


def _lineage(place: Place, tree: Any) -> list[Place]:
    found: list[Place] = []
    current: Place | None = place
    while current is not None and current not in found:
        found.append(current)
        current = tree.parent(current)
    return found


def knowledge_for(pack: LocalePack | None) -> Knowledge:
    return pack.cached("evaluation:tells", lambda: Knowledge(pack)) if pack else Knowledge(None)


def _first_name(document: Document, span: Span, label: str, k: Knowledge) -> regex.Match | None:
    """The first word of a name span; in a kinship span (MEDDOCAN tags "madre Ana López" as
    one) the first capitalised word that is no kinship word, the kinship word being its cue."""
    for match in _TOKEN.finditer(document.text, span.start, span.end):
        if label != "KINSHIP":
            return None if match.group().casefold() in k.kinship else match
        if match.group()[0].isupper() and match.group().casefold() not in k.kinship:
            return match
    return None


def _names(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    """Kinship and title genders, and relatives sharing a first name."""
    tells: list[Tell] = []
    relatives: dict[str, list[tuple[str, Span]]] = defaultdict(list)
    for span, label in spans:
        if label not in NAME_LABELS:
            continue
        found = _first_name(document, span, label, k)
        if found is None:
            continue
        first = found.group()
        before = document.text[max(0, found.start() - 60) : found.start()]
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


def _dated(document: Document, k: Knowledge) -> list[DateText]:
    """Every written date of the document as the date rule reads it, range ends linked."""
    return [part for expression in find_dates(document.text, k.date_words) for part in expression.parts]


def _date_cue(document: Document, start: int, parts: Sequence[DateText], k: Knowledge) -> str | None:
    """admission, discharge or birth when a cue stands close before the date on its line, with no
    other date in between."""
    if k.date_cue_pattern is None:
        return None
    line_start = document.text.rfind("\n", 0, start) + 1
    reach = max(line_start, start - CUE_REACH)
    for match in reversed(list(k.date_cue_pattern.finditer(document.text, reach, start))):
        between = document.text[match.end() : start]
        if len(_TOKEN.findall(between)) <= CUE_WORDS and not any(match.end() <= p.start and p.end <= start for p in parts):
            return k.date_cues.get(" ".join(match.group().split()).casefold())
    return None


def _dates(document: Document, spans: Sequence[tuple[Span, str]], parts: Sequence[DateText], k: Knowledge) -> list[Tell]:
    """Tagged full dates out of order: a range running backwards, a discharge before the nearest
    admission, a date before the birth date."""
    tagged = [s for s, label in spans if label == "DATE"]
    dated: list[tuple[Span, DateText, date]] = []
    for part in parts:
        span = next((s for s in tagged if s.start <= part.start and part.end <= s.end), None)
        day = full_date(part) if span else None
        if span and day:
            dated.append((span, part, day))
    tells: list[Tell] = []
    for (_, a, first), (span, b, second) in zip(dated, dated[1:]):
        if k.range_joiner.fullmatch(document.text, a.end, b.start) and second < first:
            tells.append(Tell("date_order", span.start, span.end))
    cued = [(span, day, _date_cue(document, part.start, parts, k)) for span, part, day in dated]
    births = [day for _, day, cue in cued if cue == "birth"]
    admissions = [(span, day) for span, day, cue in cued if cue == "admission"]
    for span, day, cue in cued:
        if births and cue != "birth" and day < min(births):
            tells.append(Tell("date_order", span.start, span.end))
        elif cue == "discharge" and admissions:
            _, admitted = min(admissions, key=lambda item: abs(item[0].start - span.start))
            if day < admitted:
                tells.append(Tell("date_order", span.start, span.end))
    return tells


def _unshifted(pair: Pair, labels: Mapping[str, LabelMapping], parts: Sequence[DateText]) -> list[Tell]:
    """Needs the original: once tagged dates moved, a date that did not move stands out, tagged
    (when it reads as a date) or written outside the spans (as a reader notices one: see `_noticeable`)."""
    original, output = pair.original, pair.output
    dates = [
        link for link in pair.alignment.links if link.original.label in labels and labels[link.original.label].label == "DATE"
    ]
    kept = [link.output for link in dates if output.span_text(link.output) == original.text[link.original.start : link.original.end]]
    if len(kept) == len(dates):
        return []
    written = [span for span in kept if any(p.start < span.end and span.start < p.end for p in parts)]  # "País: Colombia" tagged as a date is none
    tells = [Tell("unshifted_date", span.start, span.end) for span in written]
    for part in parts:
        if _noticeable(part, output.text) and not any(s.start < part.end and part.start < s.end for s in output.spans):
            tells.append(Tell("unshifted_date", part.start, part.end))
    return tells


def _noticeable(part: DateText, text: str) -> bool:
    """A date a reader takes for one in running text: a year of 1800-2099 written with its month
    (or day and month), in figures or with a month name, standing alone. Left out: a day and month
    without a year, a bare year, six digits, a month and two-digit year in figures (titres are
    written 1/80), and anything inside a longer run of figures, because clinical text writes
    scores, fractions, ranges and decimals the same way (4/5, 2-3, 1.16, 5/6/8/18) and the date
    rule reads them as dates only inside a date span."""
    if part.kind not in ("compact", "numeric", "named", "month-year") or not 1800 <= part.values.get("year", 0) < 2100:
        return False
    if part.kind == "month-year" and not _FOUR_DIGITS.search(text, part.start, part.end):
        return False
    if part.kind == "compact" and part.end - part.start != 8:
        return False
    return not (_FIGURES_BEFORE.search(text[max(0, part.start - 2) : part.start]) or _FIGURES_AFTER.match(text, part.end))


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
        expected = {k.preposition(p) for p in k.tree.lookup(document.span_text(span).strip())} - {""}
        if expected and written not in expected:
            tells.append(Tell("place_preposition", span.start, span.end))
    return tells


def national_number(text: str, plan: NumberingPlan) -> str | None:
    """The national significant number as the phone rule reads it, or None for a foreign number
    or a local one (no trunk prefix, so no area code to check)."""
    lead, number = split_number(text, plan)
    if not lead and (text.lstrip().startswith("+") or number.startswith(plan.international_prefix) or plan.trunk_prefix):
        return None
    return number


def _phones(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    """A number whose prefix is no area code and no mobile prefix in use. The mobile pattern
    stands in only for a pack that lists no mobile prefixes: it covers the whole mobile plan,
    ranges no operator has (Swedish 078, the number Dalianis's reader caught) included."""
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
        mobile = not k.plan.mobile and k.plan.mobile_pattern is not None and k.plan.mobile_pattern.fullmatch(number)
        if not mobile and not any(number.startswith(p) for p in prefixes):
            tells.append(Tell("phone_prefix", span.start, span.end))
    return tells


def _check_digit_valid(text: str, k: Knowledge) -> bool | None:
    """The verdict of the first of the language module's checks that knows the identifier."""
    for check in k.id_checks:
        verdict = check(text)
        if verdict is not None:
            return verdict
    return None


def _ids(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    return [
        Tell("id_check_digit", span.start, span.end)
        for span, label in spans
        if label == "ID" and _check_digit_valid(document.span_text(span).strip(), k) is False
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
            tokens = [t for t in _TOKEN.findall(text) if len(t) > 1 and t[0].isupper() and t.casefold() not in k.particles]
            if not _listed(text, wanted[label]) and not all(_listed(t, wanted[label]) for t in tokens):
                tells.append(Tell("unlisted_surrogate", span.start, span.end))
        elif label in ("PLACE", "REGION") and k.tree is not None and text and not any(c.isdigit() for c in text):
            if not k.tree.lookup(text):
                tells.append(Tell("unlisted_surrogate", span.start, span.end))
    return tells


def _emails(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    """E-mail addresses at reserved example domains, and local parts unrelated to every name of
    the record (real addresses are mostly built from their owner's name)."""
    names = {
        word.casefold()
        for span, label in spans
        if label in ("FIRST_NAME", "LAST_NAME", "PERSON")
        for word in _LETTERS.findall(fold(document.span_text(span)))
        if len(word) >= 3 and word.casefold() not in k.particles
    }
    tells = []
    for span, label in spans:
        text = document.span_text(span).strip()
        if label != "EMAIL" or "@" not in text:
            continue
        local, domain = text.rsplit("@", 1)
        domain = domain.casefold().rstrip(".")
        if any(domain == d or domain.endswith("." + d) for d in RESERVED_DOMAINS):
            tells.append(Tell("reserved_email", span.start, span.end))
        letters = "".join(_LETTERS.findall(fold(local))).casefold()
        if names and not any(name[i : i + 3] in letters for name in names for i in range(len(name) - 2)):
            tells.append(Tell("email_unrelated", span.start, span.end))
    return tells


def _record_places(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> set[str]:
    """Ids of the places a record names and of the places above them, short of countries."""
    found: set[str] = set()
    for span, label in spans:
        if label in ("PLACE", "REGION") and k.tree is not None:
            for place in k.tree.lookup(document.span_text(span).strip()):
                found.update(p.id for p in _lineage(place, k.tree) if p.kind not in ("country", "continent"))
    return found


def _fiction(number: str, plan: NumberingPlan) -> bool:
    """In a range the numbering plan sets aside for fiction, or five or more of one digit in a row."""
    written = plan.trunk_prefix + number
    in_range = any(len(first) == len(written) and first <= written <= last for first, last, _ in plan.fiction)
    return in_range or regex.search(r"(\d)\1{4}", number) is not None


def _phone_places(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    """Numbers in fiction ranges, and fixed numbers whose area code serves none of the record's places."""
    if k.plan is None:
        return []
    places = _record_places(document, spans, k)
    tells = []
    for span, label in spans:
        if label not in ("PHONE", "FAX"):
            continue
        number = national_number(document.span_text(span), k.plan)
        if number is None or len(number) < 6:
            continue
        if _fiction(number, k.plan):
            tells.append(Tell("phone_fiction", span.start, span.end))
        code = max((c for c in k.areas if number.startswith(c)), key=len, default=None)
        mobile = any(number.startswith(p) for p in k.plan.mobile) or bool(k.plan.mobile_pattern and k.plan.mobile_pattern.fullmatch(number))
        if code and places and not mobile:
            served = {i for i in k.areas[code] if k.tree.places[i].kind not in ("country", "continent")}
            if not served & places:
                tells.append(Tell("phone_area", span.start, span.end))
    return tells


def _countries(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    """A foreign country in a "País:" field of a record whose places lie in the home country."""
    if k.country_field is None or k.home is None or k.tree is None:
        return []
    local = any(
        label in ("PLACE", "REGION") and any(k.home in _lineage(p, k.tree)[1:] for p in k.tree.lookup(document.span_text(span).strip()))
        for span, label in spans
    )
    if not local:
        return []
    tells = []
    for span, label in spans:
        if label not in ("COUNTRY", "PLACE"):
            continue
        line = document.text[document.text.rfind("\n", 0, span.start) + 1 : span.start]
        if not k.country_field.search(line):
            continue
        countries = [p for p in k.tree.lookup(document.span_text(span).strip()) if p.kind == "country"]
        if countries and k.home not in countries:
            tells.append(Tell("foreign_country", span.start, span.end))
    return tells


def _letters(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    """Spans holding a word of five or more letters that no list has and the locale's letters make improbable."""
    return [
        Tell("random_letters", span.start, span.end)
        for span, label in spans
        if label not in ("EMAIL", "URL")  # local parts are initials and names run together: see email_unrelated
        and any(w.casefold() not in k.words and k.letters.improbable(w) for w in _LETTERS.findall(fold(document.span_text(span))))
    ]


def _doubled(document: Document, spans: Sequence[tuple[Span, str]]) -> list[Tell]:
    """One word of three or more letters twice in a row, inside a span or across its edges; inside a
    name it is a real double surname."""
    tells = []
    text = document.text
    for span, label in spans:
        before = regex.search(r"\p{L}*[^\S\n]*$", text[max(0, span.start - 40) : span.start])
        start = span.start - len(before.group()) if before else span.start
        after = regex.match(r"[^\S\n]*\p{L}*", text[span.end : span.end + 40])
        end = span.end + len(after.group()) if after else span.end
        inside_ok = label in ("FIRST_NAME", "LAST_NAME", "PERSON")  # "Martín Martín": both surnames may be one
        for match in _DOUBLED.finditer(text, start, end):
            inside = span.start <= match.start() and match.end() <= span.end
            if match.start() < span.end and span.start < match.end() and not (inside and inside_ok):
                tells.append(Tell("doubled_word", span.start, span.end))
                break
    return tells


def _house_numbers(document: Document, spans: Sequence[tuple[Span, str]]) -> list[Tell]:
    """A street's first number above HOUSE_NUMBERS; roads (kilometres) and post boxes are left out."""
    tells = []
    for span, label in spans:
        if label not in ("STREET", "ADDRESS"):
            continue
        text = document.span_text(span)
        match = None if _NOT_HOUSE.search(text) else _HOUSE_NUMBER.search(text)
        if match and HOUSE_NUMBERS < int(match.group(1)):
            tells.append(Tell("house_number", span.start, span.end))
    return tells


def _person_units(document: Document, spans: Sequence[tuple[Span, str]], k: Knowledge) -> list[Tell]:
    """A health care unit named after a person: a title before a capitalised word (Doctor Peset), or a
    listed first name followed by a listed surname (Gregorio Marañón). Saints are devotions, not persons."""
    titles = {fold(word.rstrip(".")) for word, cue in k.titles.items() if cue.gender and " " not in word}
    tells = []
    for span, label in spans:
        if label != "HEALTHCARE_UNIT":
            continue
        tokens = [w for w in _TOKEN.findall(document.span_text(span)) if w.casefold() not in k.particles]
        folded = [fold(w) for w in tokens]
        for saint in k.saints:
            size = len(saint)
            for i in range(len(folded) - size + 1):
                if tuple(folded[i : i + size]) == saint:
                    folded[i : i + size] = [""] * size
        words = [(w, f) for w, f in zip(tokens, folded) if f]
        for (word, first), (following, last) in zip(words, words[1:]):
            if not following[0].isupper():
                continue
            titled = first in titles
            named = k.first is not None and k.last is not None and first in k.first and last in k.last
            if titled or named:
                tells.append(Tell("person_hospital", span.start, span.end))
                break
    return tells


def read_document(
    document: Document, labels: Mapping[str, LabelMapping], k: Knowledge, original: Document | None = None
) -> list[Tell]:
    """Every tell in one document, in text order."""
    spans = [(s, labels[s.label].label) for s in document.spans if s.label in labels]
    parts = _dated(document, k)
    tells = _names(document, spans, k) + _dates(document, spans, parts, k) + _places(document, spans, k)
    tells += _phones(document, spans, k) + _ids(document, spans, k) + _unlisted(document, spans, k)
    tells += _emails(document, spans, k) + _phone_places(document, spans, k) + _countries(document, spans, k)
    tells += _letters(document, spans, k) + _doubled(document, spans) + _house_numbers(document, spans) + _person_units(document, spans, k)
    if original is not None:
        dated = frozenset(label for label, mapping in labels.items() if mapping.label == "DATE")
        pair = Pair(original, document, dated, k.date_words)  # dates that followed the clock align
        if pair.alignment.problem is None:
            tells += _unshifted(pair, labels, parts)
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
    on_originals: Counter = Counter()
    for document in documents:
        original = originals.get(document.id) if originals is not None else None
        if original is not None:
            on_originals.update(t.kind for t in read_document(original, labels, knowledge_for(pack_for(original))))
    return {
        "documents": len(documents),
        "documents_with_tells": sum(1 for d in per_document if d["tells"]),
        "documents_without_locale": without_locale,
        "compared_with_originals": originals is not None,
        "documents_without_original": sum(d.id not in originals for d in documents) if originals is not None else 0,
        "totals": {kind: totals[kind] for kind in TELLS},
        "totals_on_originals": {kind: on_originals[kind] for kind in TELLS} if originals is not None else None,
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
    if result.get("totals_on_originals") is not None:
        on_originals = result["totals_on_originals"]
        rows.append(("ORIGINALS", *(str(on_originals[k]) for k in TELLS), str(sum(on_originals.values()))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    lines.append(f"{result['documents_with_tells']} of {result['documents']} document(s) show at least one tell")
    if result.get("totals_on_originals") is not None:
        lines.append("ORIGINALS: the same checks on the originals of these documents; only a count above theirs says something")
    lines.append("columns: " + ", ".join(f"{s} = {k}" for k, s in short.items()))
    return "\n".join(lines)
