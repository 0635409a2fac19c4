"""The Person service: one surrogate identity per person of a scope.

Adjacent name spans (a first name next to a last name) are one person. Each word of a name is
read in its slot: a field labelled for given names ("Nombre:") or surnames ("Apellidos:") says
which, else the label (FIRST_NAME, LAST_NAME), else the word's lists and its neighbours. Gender
comes from a kinship word or title right before the person ("bror Madeleine", "la Dra."), for the
patient from the sex the record states ("Sexo: Mujer", "la paciente"), spread to the person's
other mentions, else from the census lists, else from the closest listed spelling
(the spell-checked fallback), else neutral. A given name keeps one surrogate of its gender and a
surname one surname wherever it stands in the scope: in a name span, inside a kinship span
("mamma Annas"), behind a genitive, as an initial, or in an e-mail address, since every rule asks
this service. Particles stay, and a surname after them comes from the surnames the census lists
after the same particles ("de la Fuente" -> "de la Torre"). Genitives and casing are carried over,
and a name written without the accents of its listed spelling gets a surrogate without accents.
Where the pack's lists give the mean age of each name's bearers and the output gives the
patient's age (the clock's), the patient's given names are drawn among the names common at that
age, so a girl of four is no "Carmen"; anyone of unknown age draws as before.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import regex
from rapidfuzz import fuzz

from pseudo.casing import casing_of, match_case
from pseudo.folds import ascii_fold, loose, normalise, strip_accents
from pseudo.keyed import KeyedStream
from pseudo.labels import NAME_LABELS
from pseudo.lists.fuzzy import closest
from pseudo.lists.names import (
    NameLists,
    cue_gender,
    field_is_ambiguous,
    field_sex_of,
    field_slot,
    gender_cues,
    kept_where,
    name_lists,
    record_sex,
    running_text_sex,
    title_words,
    written_without_accents,
)
from pseudo.lists.pack import LocalePack, remembered
from pseudo.lists.weighted import WeightedList
from pseudo.lists.words import common_words, kinship_terms, particles, surname_leads
from pseudo.model import Tagged, Target
from pseudo.scope import ScopeState
from pseudo.services.clock import Clock
from pseudo.services.address import AddressWorld

NAME_LISTS = ("first_names_female", "first_names_male", "last_names")  # the lists a name word is looked up in
NAMESPACE = "names"  # the keyed draws of names, as the names rule has always made them
CUE_WINDOW = 40  # characters before a person searched for a kinship word or title
EVERY_NAME = sys.maxsize  # a pool size no list reaches: the whole list, at its census weights
DOUBLED_POOL = 100  # the surnames a person bearing one twice ("García García") is drawn among
ABROAD_LABELS = ("PLACE", "REGION", "COUNTRY", "STREET", "POSTCODE")  # a record with none of them has no address abroad
NEAR_DRAWS = 16  # plain draws from the whole list before its free names are worked out (a capped pool run out)
TWIN_SIMILARITY = 75  # how near (0-100) an unlisted word of a name is to the listed word it misspells
SLIP_SIMILARITY = 85  # the same for one name word alone, against the names the scope tags elsewhere ("Vaseqez", "Vasquez")
_LAST_WORD = regex.compile(r"(\p{L}+)[^\S\n]*[:,]?[^\S\n]*$")  # the word right before a name ("husband ")
# a word of a name; "M.a" (María shortened: a capital, a dot, one small letter or ª) is one word, not two initials
_TOKEN = regex.compile(r"\p{Lu}\.[\p{Ll}ªº](?![\p{L}\p{M}.])|\p{L}[\p{L}\p{M}]*(?:['’]\p{L}[\p{L}\p{M}]*)*['’]?")
_LETTERS = regex.compile(r"\p{L}+")


@dataclass
class Person:
    """The name spans of one person in a document, and the gender its cues give."""

    targets: list[Target]
    cue: str | None
    gender: tuple[str, str | None] | None = None  # read once per person: a run of names stays linear
    age: float | None = None  # the patient's age as the output writes it, where the record states it


class PersonService:
    """Surrogate names of the people of one scope (see the module docstring)."""

    def __init__(
        self,
        scope: ScopeState,
        pack: LocalePack,
        options: Mapping[str, Any],
        clock: Callable[[], Clock] | None = None,
        address: Callable[[], AddressWorld] | None = None,
    ):
        self._scope = scope
        self._pack = pack
        self.options = options
        self._clock = clock  # asked for the patient's age only where the pack's names carry mean ages
        names = pack.settings.names
        self._abroad_pools = {"last": names.abroad_surname_pool, "given": names.abroad_given_pool}  # pack settings: caps abroad
        capped = any(self._abroad_pools.values())
        self._address = address if capped and pack.has("locations") else None  # asked whether a record's address lies abroad
        self._abroad = False  # the document read has its address abroad: names among the most common only
        self.lists: NameLists = name_lists(pack, float(options["neutral_ratio"]))
        self._document: str | None = None
        self._people: dict[int, Person] = {}
        self._names: dict[int, tuple[str, str | None]] = {}
        self._folded: list[tuple[list[str], list[str]]] | None = None  # folded_people of the document read
        self._given_families: dict[str, str] = {}  # a given name -> the gender it was first drawn with, no cue saying so
        self._sex: tuple[str | None, tuple[str, str] | None] = (None, None)  # (document id, its record_sex)
        self._coincident: tuple[str | None, frozenset[str]] = (None, frozenset())  # (document id, `_coincident_surnames`)
        self._name_word_index: tuple[int, dict[tuple[str, int], list[str]]] = (-1, {})  # the scope's name words by first letter and length

    # -- people of a document -------------------------------------------------------------
    def _read(self, document: Tagged) -> dict[int, Person]:
        """Every name span of the document by start offset, grouped into people, once per document."""
        if self._document == document.id:
            return self._people
        pattern = gender_cues(self._pack)
        by_start: dict[int, Person] = {}
        current: Person | None = None
        previous_end = -1
        for target in (t for t in document.targets if t.label in NAME_LABELS):
            span = target.span
            if current is not None and document.text[previous_end : span.start].strip(" \t-") == "":
                current.targets.append(target)
            else:
                current = Person([target], cue_gender(pattern, document.text[max(0, span.start - CUE_WINDOW) : span.start]))
            by_start[span.start] = current
            previous_end = span.end
        self._abroad = self._address is not None and any(t.label in ABROAD_LABELS for t in document.targets) and bool(self._address().address_countries(document))
        self._patient_sex(document, by_start)
        _spread_cues(by_start)
        self._patient_age(document, by_start)
        self._document, self._people, self._names, self._folded = document.id, by_start, {}, None
        return by_start

    def record_sex(self, document: Tagged) -> tuple[str, str] | None:
        """The patient's sex the record states and how ("field" or "text"; `record_sex`): the sex
        the patient's surrogate names take, and so the sex its SEX fields must say."""
        if self._sex[0] != document.id:
            self._sex = (document.id, record_sex(self._pack, [t.text for t in document.targets if t.label == "SEX"], document.text))
        return self._sex[1]

    def field_sex(self, document: Tagged) -> str | None:
        """The sex a SEX field must say where it contradicts its record: the running text's, when
        it outweighed the fields or they disagreed ("Sexo: H" beside "Mujer de 75 años" and "la
        paciente", `record_sex`) and every person of the patient took it (a title before the
        patient's name keeps the name's sex, and then the field's); the patient's names' where
        they held against a value written for either sex ("Arturo ... Sexo: M ... el paciente":
        "H", as readers read "M" for mujer); else None."""
        stated = self.record_sex(document)
        values = [t.text for t in document.targets if t.label == "SEX" and field_sex_of(self._pack, t.text)]
        if stated is None or not values:
            return None
        if stated[1] == "field" and not any(field_is_ambiguous(self._pack, v) for v in values):
            return None  # a field the record does not contradict
        people = list({id(p): p for p in self._read(document).values()}.values())
        patients, certain = self._patients(document, people)
        if not patients:
            return None
        if stated[1] != "text":  # the sex the patient's names took, the field's or their own ("M" beside "masculino": "H")
            if not certain:
                return None  # the only person named may be the doctor ("Dr. Gil ... Sexo: M")
            sexes = {self._gender(p, document)[0] for p in patients}
            return sexes.pop() if len(sexes) == 1 and sexes <= {"female", "male"} else None
        return None if any(p.cue != stated[0] for p in patients) else stated[0]

    def _patient_sex(self, document: Tagged, by_start: dict[int, Person]) -> None:
        """The patient takes the sex the record states ("Sexo: Mujer", "la paciente"), so an
        "Antonio" of a woman's record gets a woman's name. The patient: the people the tagset
        marks so, else the one named in a given-name field ("Nombre:"), else the only person.
        For a patient so marked or so placed a sex field outweighs a title before the name; the
        only person (who may be the doctor: "Dr. Gil") and running text only fill in a missing cue,
        and so does a field value written for either sex ("M"), unless the given name says the other."""
        stated = self.record_sex(document)
        if stated is None:
            return
        sex, source = stated
        patients, certain = self._patients(document, list({id(p): p for p in by_start.values()}.values()))
        named = {self._read_gender(p, document)[0] for p in patients if p.cue is None} - {"neutral"}  # the names' own sex
        if source == "ambiguous field":  # "Arturo ... Sexo: M ... el paciente": M for masculino, the name's sex holds
            sex = next(iter(named)) if len(named) == 1 else sex
        elif source == "field" and certain and len(named) == 1 and named != {sex}:
            # "Ricardo ... Sexo: F ... al paciente", "Candela ... Sexo: H ... una mujer de": the field is the slip where
            # the text sides with the name, even by a masculine generic ("Marta" beside "al paciente" gave a record
            # away, round 61); a text that says nothing leaves the field's sex
            written = running_text_sex(self._pack, document.text)
            sex = next(iter(named)) if written is not None and named == {written[0]} else sex
        elif source == "text" and len(named) == 1 and named != {sex}:
            # a masculine generic alone ("al paciente") says nothing against the patient's own name:
            # "Lucía ... histerectomía ... al paciente" keeps a woman's name (a review's finding)
            written = running_text_sex(self._pack, document.text)
            sex = next(iter(named)) if written is not None and written[1] == 0 else sex
        for person in patients:
            if (source == "field" and certain) or person.cue is None:
                person.cue = sex

    def _patient_age(self, document: Tagged, by_start: dict[int, Person]) -> None:
        """The patient's people take the age the output gives the patient, and so do the other
        mentions of the same name ("Ana refiere ..."); no one the tagset gives another role does
        (the only person named may be the doctor)."""
        if self._clock is None or (self.lists.age_concentration is None and not self.lists.adults):
            return  # no list tells names by age
        age = self._clock().patient_age(document, self._pack)
        if age is None:
            return
        people = list({id(p): p for p in by_start.values()}.values())
        eligible = {id(p) for p in people if all(t.role in (None, "patient") for t in p.targets)}
        names = {t.text.casefold() for p in self._patients(document, people)[0] if id(p) in eligible for t in p.targets}
        for person in people:
            if id(person) in eligible and any(t.text.casefold() in names for t in person.targets):
                person.age = age

    def _patients(self, document: Tagged, people: list[Person]) -> tuple[list[Person], bool]:
        """The patient's people, and whether the tagset or a given-name field says so."""
        marked = [p for p in people if any(t.role == "patient" for t in p.targets)]
        if marked:
            return marked, True
        text = document.text
        in_field = [
            p for p in people
            if any(field_slot(self._pack, text[max(0, t.span.start - CUE_WINDOW) : t.span.start]) == "first" for t in p.targets)
        ]  # fmt: skip
        if in_field:
            return in_field, True
        return (people if len({" ".join(t.text.casefold() for t in p.targets) for p in people}) == 1 else []), False

    def _coincident_surnames(self, document: Tagged) -> frozenset[str]:
        """Surnames (folded) a clinician and another person of the record both bear, as two people
        (neither one's surnames all the other's): drawn among the most common, as such a
        coincidence is only likely with common ones. A patient "Flores" seen by Dra. "Flores
        Copete" had become two "Lapeña", which a reader named; relatives share rare names too, and
        keep them."""
        if self._coincident[0] == document.id:
            return self._coincident[1]
        people = list({id(p): p for p in self._read(document).values()}.values())
        bearers: list[tuple[bool, frozenset[str]]] = []
        for person in people:
            words: set[str] = set()
            for target in person.targets:
                classes = self._classes(target, document)
                words |= {loose(m.group()) for m, kind in zip(_TOKEN.finditer(target.text), classes) if kind == "last"}
            if words:
                bearers.append((any(t.role == "clinician" for t in person.targets), frozenset(words)))
        shared: set[str] = set()
        for index, (clinician, words) in enumerate(bearers):
            for other_clinician, other in bearers[index + 1 :]:
                if clinician != other_clinician and not (words <= other or other <= words):
                    shared |= words & other
        self._coincident = (document.id, frozenset(shared))
        return self._coincident[1]

    def person_at(self, target: Target, document: Tagged) -> Person:
        return self._read(document).get(target.span.start) or Person([target], None)

    # -- names ------------------------------------------------------------------------------
    def name(self, target: Target, document: Tagged) -> tuple[str, str | None]:
        """The surrogate of a name span and the fallback taken, if any; the same for the same
        span however often it is asked (the names rule and the e-mail rule both ask)."""
        self._read(document)
        if target.span.start not in self._names:
            self._names[target.span.start] = self._name(target, document)
        return self._names[target.span.start]

    def _name(self, target: Target, document: Tagged) -> tuple[str, str | None]:
        if self.common_words_only(target.text):
            return target.text, f"{target.label} span of common words, kept"
        twin = self._written_right_elsewhere(target, document)
        if twin is not None:
            return self.name(twin, document)
        person = self.person_at(target, document)
        classes = self._classes(target, document)
        gender, fallback = self._gender(person, document)
        pieces: list[str] = []
        cursor = 0
        changed = False
        heads = {i for i in range(len(classes) - 1) if classes[i] == classes[i + 1] == "first"}  # "José Antonio": a census pair
        surnames = [loose(m.group()) for m, kind in zip(_TOKEN.finditer(target.text), classes) if kind == "last"]
        doubled = {name for name in surnames if surnames.count(name) > 1}  # "Martínez Martínez": a common name, as such pairs are
        doubled |= self._coincident_surnames(document)
        lead: list[str] = []  # the particles right before a word ("de la")
        lead_at, lead_from = 0, 0  # where the first of them stands in `pieces` and in the span
        previous = ""  # the class of the last word that was no particle
        last_given: str | None = None  # the surrogate of the given name right before
        given: list[str] = []  # the surrogates of the span's given names so far
        for index, (match, kind) in enumerate(zip(_TOKEN.finditer(target.text), classes)):
            pieces.append(target.text[cursor : match.start()])
            word = match.group()
            cursor = match.end()
            if kind in ("title", "particle"):
                if not lead:
                    lead_at, lead_from = len(pieces), match.start()
                pieces.append(word)
                lead = lead + [word.casefold()] if kind == "particle" else []
                continue
            base, marker = self._split(word)
            phrase = self._particle_name(lead, base, gender, given) if kind == previous == "first" and lead else None
            follows = last_given if kind == previous == "first" and not lead else None  # "María José": a pair the census lists
            previous = kind
            if phrase is not None:  # "María del Rosario": the particle and the name after it, as one
                pieces[lead_at:] = [phrase.upper() if target.text[lead_from : match.end()].isupper() else phrase]
                lead = []
                changed = True
                continue
            if kind == "initial":
                new = self._initial(base, target, document, gender, alone=not {"first", "last"} & set(classes))
            elif kind == "initials":  # "JB": each letter as an initial, so one person keeps one set
                new = "".join(self._initial(letter, target, document, gender, alone=True) for letter in base)
            else:
                family = "last" if kind == "last" else self._given_family(base, gender, person)
                drawn_as = self._tagged_right_elsewhere(base) or base
                new = self._draw(drawn_as, family, lead, person.age, common=loose(word) in doubled, after=follows, heads=index in heads, gender=gender)
                last_given = new if kind == "first" else None
                given += [new] if kind == "first" else []
            lead = []
            rest = target.text.replace(word, " ", 1)  # the span's other words ("ª" reads as lower case)
            model = word if base == word or marker else rest if casing_of(rest) == "upper" else base  # "M.a" cased as "María", "M.ª TERESA" in capitals
            pieces.append(match_case(model, self._inflect(new, marker)))
            changed = True
        pieces.append(target.text[cursor:])
        if not changed:
            return self._draw(target.text, "last", []), "no name token in span"
        return "".join(pieces), fallback

    def _written_right_elsewhere(self, target: Target, document: Tagged) -> Target | None:
        """The same name written without the writer's slip elsewhere in the document: every word
        the same but one, which no list holds here (or, among three words or more, is the other's
        word without its first letters, in lower case: ",aria Fernanda Muñoz Velásquez") and is
        a near spelling of the listed word there ("osé Ángel Tomás Amérigo" beside "José Ángel
        Tomás Amérigo"). It takes that name's
        surrogate: drawn apart, the slip had made two doctors of one ("miguel Andrés ..." and
        "Antonio Andrés ...", round 36)."""
        written = _TOKEN.findall(target.text)
        words = [w.casefold() for w in written]
        if len(words) < 2:
            return None
        for other in document.targets:
            if other.label not in NAME_LABELS or other.span == target.span:
                continue
            written_there = _TOKEN.findall(other.text)
            others = [w.casefold() for w in written_there]
            if len(others) != len(words):
                continue
            differ = [i for i, (a, b) in enumerate(zip(words, others)) if a != b]
            if len(differ) != 1:
                continue
            at = differ[0]
            mine, theirs = words[at], others[at]
            lost_start = len(words) >= 3 and written[at].islower() and written_there[at][:1].isupper() and theirs.endswith(mine)
            slip = not self.lists.weight(mine) or lost_start  # ",aria Fernanda Muñoz" of "Maria Fernanda Muñoz": "Aria" is a name too; not "antonio" beside "Antonia"
            if slip and self.lists.weight(theirs) and fuzz.ratio(mine, theirs) >= TWIN_SIMILARITY:
                return other
        return None

    def _tagged_right_elsewhere(self, word: str) -> str | None:
        """The listed name word the scope tags elsewhere that an unlisted one misspells by a letter
        or two ("Vaseqez", "vascuez" of a stay's "Vasquez": same first letter, length within one,
        similarity SLIP_SIMILARITY), the nearest, then the first in order; None for a listed word
        or where none is near. Both are tagged names, so no ordinary word is read as one (a matcher
        over untagged text had taken "stable" for a nurse Stabile). Drawn as the right spelling,
        the slip is the same person: apart, a patient's cardiologist became two doctors."""
        if len(word) < 5 or self.lists.weight(word):
            return None
        words = self._scope.name_words
        if self._name_word_index[0] != len(words):
            index: dict[tuple[str, int], list[str]] = {}
            for known in sorted(words):
                index.setdefault((known[:1], len(known)), []).append(known)
            self._name_word_index = (len(words), index)
        folded = normalise(word)
        near = [
            (fuzz.ratio(folded, known), known)
            for size in (len(folded) - 1, len(folded), len(folded) + 1)
            for known in self._name_word_index[1].get((folded[:1], size), ())
            if known != folded and self.lists.weight(known)
        ]
        near = [(score, known) for score, known in near if score >= SLIP_SIMILARITY]
        return max(near, key=lambda n: (n[0], [-ord(c) for c in n[1]]))[1] if near else None

    def common_words_only(self, text: str) -> bool:
        """Whether a name span holds only common words of the language that no name list holds
        ("Mujer" of "Mujer de 45 años" tagged as a name): kept as written, as an ID span of common
        words is; a name that is also a word ("Rosa", "Pilar") is listed, so it is a name."""
        words = _TOKEN.findall(text)
        common = common_words(self._pack)
        listed = [self._pack.weighted(name) for name in NAME_LISTS if self._pack.has(name)]
        return bool(words) and all(w.casefold() in common and not any(names.weight(w) for names in listed) for w in words)

    def _draw(
        self,
        base: str,
        family: str,
        lead: list[str],
        age: float | None = None,
        common: bool = False,
        after: str | None = None,
        heads: bool = False,
        gender: str | None = None,
    ) -> str:
        """The scope's surrogate of one name word of a family (a gender, or 'last'); a given name
        of a person of known age among the names of that age, where the lists tell them; a second
        given name among those the census lists after the first (`after`: "María" -> "Carmen",
        never "Trinidad Khadija"), and a first one of two among those the census pairs start with
        (`heads`), for a person of no stated age (the pairs carry no ages); a surname a person
        bears twice among the most common (two "Oblanca" are as unlikely as one is rare). The
        scope remembers the first draw of a name, so a later mention without an age keeps it."""
        lists = self.lists
        size = min(self._pool_size("surname_pool" if family == "last" else "pool"), DOUBLED_POOL if common else EVERY_NAME)
        cap = self._abroad_pools["last" if family == "last" else "given"] if self._abroad else None
        if cap:  # a record abroad: the home lists' regional names ("Roig", "Lleixa" in Mexico) read as out of place
            size = min(size, cap)
        new = self._scope.remembered(NAMESPACE, f"name:{family}", normalise(base))
        if new is None:
            pool = self._pool(family, size, lead, age, after, heads, gender)
            if size < EVERY_NAME:  # a capped pool runs out in a large scope: then the names past the cap
                draw = self._again_among_all(pool, lambda: self._pool(family, EVERY_NAME, lead, age, after, heads, gender), f"name:{family}")
            elif family in lists.adults:
                draw = self._again_among_all(pool, lambda: lists.pool(family, size), f"name:{family}")
            else:
                draw = pool.draw
            new = self._scope.consistent(NAMESPACE, f"name:{family}", normalise(base), draw, one_to_one=True)
        return strip_accents(new) if written_without_accents(base, lists) else new

    def _again_among_all(self, pool: WeightedList, every: Callable[[], WeightedList], family: str) -> Callable[[KeyedStream], str]:
        """A draw from `pool` that, meeting a name the scope has given already or one of its
        originals, draws again among the pool's free names, and once the pool has none among
        `every` name (made only then): a few plain draws, then its free names. The adults' names
        (1,120 men's) ran out in a corpus scope of a few hundred men, who then shared surrogates,
        and a draw among every name at the first meeting gave adults names of the 2000s again; a
        pool capped at the 300 most common names ran out likewise (reviews)."""

        left: dict[str, WeightedList] = {}  # free names, worked out once per value: its attempts share them (pools live through it)

        def free(name: str) -> bool:
            return not self._scope.is_taken(NAMESPACE, family, name) and normalise(name) not in self._scope.originals

        def free_of(which: str, names: WeightedList) -> WeightedList:
            if which not in left:
                given = self._scope.taken(NAMESPACE, family) | self._scope.originals
                kept = [(n, w) for n, w, f in zip(names.items, names.weights, names.normalised) if f not in given]
                left[which] = WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept))
            return left[which]

        def draw(stream: KeyedStream) -> str:
            name = pool.draw(stream)
            if free(name):
                return name
            if len(free_of("pool", pool)):
                return left["pool"].draw(stream)
            whole = every()
            for _ in range(NEAR_DRAWS):
                other = whole.draw(stream)
                if free(other):
                    return other
            if len(free_of("every", whole)):
                return free_of("every", whole).draw(stream)
            # no name is free: one the scope has given already, so the scope shares a surrogate before it gives a value another original
            given = self._scope.taken(NAMESPACE, family) - self._scope.originals
            shared = [n for n, f in zip(whole.items, whole.normalised) if f in given]
            return stream.choice(shared) if shared else name

        return draw

    def _pool(self, family: str, size: int, lead: list[str], age: float | None, after: str | None, heads: bool, gender: str | None) -> WeightedList:
        """The one pool `_draw` draws from, the others never made (an age's pool costs a pass over
        the list); a surname of the person's gender (`NameLists.surnames_for`)."""
        lists = self.lists
        if family == "last":
            particles = lists.after_particles(" ".join(lead), size) if lead else None
            return particles if particles is not None and len(particles) >= 2 else lists.surnames_for(gender, size)
        paired = self._pairs_after(family, after, age) if after else None
        if paired is not None:
            return paired
        if heads and (starts := self._pair_heads(family, age)):  # at the person's age where it shows ("María Carmen" at four read as wrong)
            return starts
        return lists.pool_by_age(family, size, age)

    def _given_family(self, base: str, gender: str, person: Person) -> str:
        """The gender a given name is drawn with: the person's where a title, kinship word or the
        record's sex says it (a mother and a brother both "Madeleine" get two names), else the
        gender the scope first drew the name with, so "Kim" read beside "Anna" keeps the surrogate
        "Kim" alone had: one surrogate per value."""
        if person.cue:
            return gender
        return self._given_families.setdefault(normalise(base), gender)

    def _particle_name(self, lead: list[str], base: str, gender: str, before: list[str]) -> str | None:
        """The scope's surrogate of a given name written after a particle inside a given name
        ("del Rosario" of "María del Rosario"): a phrase of the pack's names that take a particle
        ("de los Ángeles"), particle included; "Marta del Sandra" read as a machine's. Never one
        that repeats a given name drawn before it in the name (`before`: "María del Pilar" had
        become "Carmen del Carmen"): that person's draw leaves such phrases out. None where the
        pack lists no such names for the gender."""
        name = f"particle_names_{gender}"
        if not self._pack.has(name):
            return None
        pool = self._pack.weighted(name)
        written = " ".join([*lead, base])
        family = f"name:particle:{gender}"
        new = self._scope.consistent(NAMESPACE, family, normalise(written), pool.draw, one_to_one=True)
        if any(_repeats(new, given) for given in before):
            free = kept_where(pool, lambda phrase: not any(_repeats(phrase, given) for given in before))
            key = f"{normalise(written)} after {' '.join(normalise(given) for given in before)}"
            new = self._scope.consistent(NAMESPACE, family, key, free.draw, one_to_one=True)
        return strip_accents(new) if written_without_accents(base, self.lists) else new

    def _pairs(self, family: str, age: float | None) -> dict[str, int]:
        """The census pairs of a gender ("María José") by bearers, at an age where the person's
        shows and the pairs carry their bearers' mean age ("María Jesús" at eight had become
        "Charlotte Ainara", two names drawn one by one at that age); {} without pairs."""
        name = f"given_name_pairs_{family}"
        if not self._pack.has(name):
            return {}
        rows = self._pack.rows(name)
        if age is not None and rows and rows[0].get("mean_age") and self.lists.age_concentration is not None:
            counted = self._pack.cached(f"given-name-pairs-aged:{family}", lambda: tuple((r["name"], int(r["count"]), float(r["mean_age"])) for r in rows))
            return self._pack.cached(f"given-name-pairs:{family}:{round(age)}", lambda: self.lists.at_age(counted, age) or {})
        return self._pack.cached(f"given-name-pairs:{family}", lambda: {r["name"]: int(r["count"]) for r in rows})

    def _pair_groups(self, family: str) -> dict[str, tuple[str, tuple[tuple[str, str], ...]]]:
        """Folded first given name -> its spelling and the (pair, second name) of each census pair
        of a gender that starts with it ("María" -> ("María José", "José"), ...), in list order."""

        def make() -> dict[str, tuple[str, tuple[tuple[str, str], ...]]]:
            groups: dict[str, tuple[str, list[tuple[str, str]]]] = {}
            for pair in self._pairs(family, None):
                head, _, second = pair.partition(" ")
                groups.setdefault(loose(head), (head, []))[1].append((pair, second))
            return {key: (head, tuple(members)) for key, (head, members) in groups.items()}

        return self._pack.cached(f"given-name-pair-groups:{family}", make)

    def _pair_heads(self, family: str, age: float | None = None) -> WeightedList | None:
        """The first given names of the census pairs that have a second one to draw, by bearers."""
        pairs = self._pairs(family, age)

        def make() -> WeightedList | None:
            heads: dict[str, int] = {}
            for head, members in self._pair_groups(family).values():
                found = [pairs[pair] for pair, _ in members if pair in pairs]
                if len(found) >= 2:
                    heads[head] = sum(found)
            return WeightedList.heaviest_first(heads) if heads else None

        return self._pack.cached(f"given-name-heads:{family}:{None if age is None else round(age)}", make)

    def _pairs_after(self, family: str, first: str, age: float | None = None) -> WeightedList | None:
        """The second given names the pack's census pairs list after a first one, by bearers;
        None where it lists fewer than two (or no pairs at all)."""
        group = self._pair_groups(family).get(loose(first))
        if group is None:
            return None
        pairs = self._pairs(family, age)

        def make() -> WeightedList | None:
            seconds = {second: pairs[pair] for pair, second in group[1] if pair in pairs}
            return WeightedList.heaviest_first(seconds) if len(seconds) >= 2 else None

        return self._pack.cached(f"given-name-seconds:{family}:{None if age is None else round(age)}:{loose(first)}", make)

    def _pool_size(self, option: str) -> int:
        """How many of the most common names a draw may take: the option's, else every listed one."""
        return self.options[option] or EVERY_NAME

    def word(self, word: str, surname: bool, document: Tagged, given_only: bool = False) -> str | None:
        """The surrogate of a name written outside a name span (inside a kinship span) of the
        document: a word of the name lists, or a capitalised word right after a name (a surname);
        else None. A word in lower case counts only as a given name ("hija de maría"): too many
        common words ("tres", "mora") are also surnames. A genitive is read through ("mamma Annas")."""
        self._read(document)  # the record's people and whether its address lies abroad
        base, marker = self._split(word)
        lists = self.lists
        first, last = lists.first_share(base), lists.last.share(base) * (not given_only)
        if not (first or last or surname):
            return None
        family = "last" if last > first or not first else (lists.gender(base) or "neutral")
        return self._inflect(self._draw(base, family, []), marker)

    def _split(self, word: str) -> tuple[str, str]:
        """(the name a word writes, its inflection): a listed abbreviation is its name ("M.a": María)."""
        expanded = self._pack.settings.names.abbreviations.get(word)
        if expanded is not None:
            return expanded, ""
        split = getattr(self._pack.morphology, "split_inflection", None)
        return split(word, self.lists.weight) if split else (word, "")

    def _inflect(self, name: str, marker: str) -> str:
        if not marker:
            return name
        inflect = getattr(self._pack.morphology, "inflect", None)
        return inflect(name, marker) if inflect else name + marker

    def _classes(self, target: Target, document: Tagged) -> tuple[str, ...]:
        """title, particle, initial, initials, first or last for each word, read in its slot; one
        word right after a kinship word ("husband milovan", "daughter Veronica") is a given name."""
        before = document.text[max(0, target.span.start - CUE_WINDOW) : target.span.start]
        slot = field_slot(self._pack, before)
        if slot is None and len(_TOKEN.findall(target.text)) == 1 and self._after_kinship_word(before):
            slot = "first"
        key = (target.text, target.label, slot, target.kind)
        titles, known = title_words(self._pack), particles(self._pack)
        leads = surname_leads(self._pack)
        return remembered(
            self.lists.classified, key, lambda: tuple(_classify_words(target, slot, self.lists, titles, known, self._split, leads))
        )

    def _after_kinship_word(self, before: str) -> bool:
        found = _LAST_WORD.search(before)
        return found is not None and self._pack.has("kinship") and found.group(1).casefold() in kinship_terms(self._pack)

    def _gender(self, person: Person, document: Tagged) -> tuple[str, str | None]:
        if person.gender is None:
            person.gender = self._read_gender(person, document)
        return person.gender

    def _read_gender(self, person: Person, document: Tagged) -> tuple[str, str | None]:
        if person.cue:
            return person.cue, None
        lists = self.lists
        has_first = neutral = False
        for member in person.targets:
            for match, kind in zip(_TOKEN.finditer(member.text), self._classes(member, document)):
                if kind != "first":
                    continue
                has_first = True
                found = lists.gender(self._split(match.group().rstrip("'’"))[0])
                if found == "neutral":
                    neutral = True
                    continue  # "Jean-Pierre": the next given name may tell
                if found:
                    return found, None
                near = closest(match.group(), {"female": lists.female, "male": lists.male}, float(self.options["fuzzy_cutoff"]))
                if near:
                    return lists.gender(near[1]) or near[0], "gender from the closest listed spelling"
        if not has_first or neutral:  # surnames only, or a listed name of both sexes ("Kim"): no fallback taken
            return "neutral", None
        return "neutral", "gender unknown: neutral surrogate"

    def _initial(self, letter: str, target: Target, document: Tagged, gender: str, alone: bool) -> str:
        """An initial follows the surrogate of the full name it abbreviates elsewhere in the
        document, drawn with that person's gender; alone in its span, it never keeps its letter."""
        lists = self.lists
        wanted = letter.casefold()
        full_names = {
            (match.group(), other.span.start)
            for other in document.targets
            if other.label in ("FIRST_NAME", "PERSON") and other.span != target.span
            for match in _TOKEN.finditer(other.text)
            if len(match.group()) > 1 and match.group()[0].casefold() == wanted and lists.is_first(match.group())
        }
        if len({name for name, _ in full_names}) == 1:
            name, start = min(full_names, key=lambda item: item[1])
            person = self._read(document).get(start) or Person([target], None)
            family = self._gender(person, document)[0]
            initial = self._draw(name, family, [], person.age)[0]
            if not alone or initial.casefold() != wanted:
                return initial
        pool = lists.pool(gender, self._pool_size("pool"))
        return self._scope.consistent(NAMESPACE, "name:initial", wanted, lambda stream: pool.draw(stream)[0], one_to_one=True)

    def sex_near(self, position: int, document: Tagged) -> str | None:
        """The sex of the person named nearest to a position (the bearer of an identifier written
        beside the name): 'female' or 'male', None where no person or a neutral one stands near."""
        people = self._read(document)
        if not people:
            return None
        start = min(people, key=lambda s: (abs(s - position), s))
        gender = self._gender(people[start], document)[0]
        return gender if gender in ("female", "male") else None

    # -- e-mail -----------------------------------------------------------------------------
    def written_before(self, document: Tagged, position: int, reach: int) -> list[str]:
        """The surrogate words of the name written last before a position, at most `reach`
        characters before it ("Dra. Ana López. E-mail: ..."), folded as e-mail addresses write
        them; [] when none is that near. Whose address a local part no name explains is."""
        nearest: Target | None = None
        for person in self._read(document).values():
            for target in person.targets:
                if 0 <= position - target.span.end <= reach and (nearest is None or target.span.end > nearest.span.end):
                    nearest = target
        if nearest is None:
            return []
        skipped = title_words(self._pack) | particles(self._pack)  # "Dra.", "de la": no part of an address
        words = _LETTERS.findall(self.name(nearest, document)[0])
        return [ascii_fold(w) for w in words if w.casefold() not in skipped]

    def folded_people(self, document: Tagged) -> list[tuple[list[str], list[str]]]:
        """(original words, surrogate words) of every person of the document, folded as names
        are written in e-mail addresses: what an address's local part is rebuilt from. Made once
        per document, as every draw of every address asks."""
        self._read(document)
        if self._folded is not None:
            return self._folded
        people: list[tuple[list[str], list[str]]] = []
        seen: set[int] = set()
        for person in self._read(document).values():
            if id(person) in seen:
                continue
            seen.add(id(person))
            originals: list[str] = []
            surrogates: list[str] = []
            for target in person.targets:
                originals += [ascii_fold(w) for w in _LETTERS.findall(target.text)]
                surrogates += [ascii_fold(w) for w in _LETTERS.findall(self.name(target, document)[0])]
            people.append((originals, surrogates))
        self._folded = people
        return people


def _repeats(phrase: str, given: str) -> bool:
    """Whether a particle name repeats a given name ("del Carmen" after "Carmen")."""
    return loose(given) in {loose(word) for word in phrase.split()}


def _spread_cues(by_start: dict[int, Person]) -> None:
    """A name without a cue takes the one gender its cued mentions agree on ("Bror Madeleine ...
    Madeleine ringde"), so one person keeps one surrogate. Each person is visited once, so a run
    of adjacent names costs linear time."""
    people = list({id(p): p for p in by_start.values()}.values())
    cued: dict[str, set[str]] = {}
    for person in people:
        if person.cue:
            for target in person.targets:
                cued.setdefault(target.text.casefold(), set()).add(person.cue)
    for person in people:
        if person.cue is None:
            genders = set().union(*(cued.get(t.text.casefold(), set()) for t in person.targets))
            if len(genders) == 1:
                person.cue = genders.pop()


def _classify_words(
    target: Target,
    slot: str | None,
    lists: NameLists,
    titles: frozenset[str],
    known_particles: frozenset[str],
    split: Callable[[str], tuple[str, str]] = lambda word: (word, ""),
    leads: frozenset[str] = frozenset(),
) -> list[str]:
    """Each word's class; a word is looked up in the lists without its genitive ("Mary's" as Mary).
    A word that opens a surname of two words (`names.surname_leads`: "San" of "Paula San Miguel
    Fraile") is read as a particle and the word after it as a surname: "Miguel" had been read as a
    given name and the name had become "María Azpiroz Claudia Vilchez"."""
    matches = list(_TOKEN.finditer(target.text))
    words = [split(m.group())[0] for m in matches]
    hyphened = [target.text[m.end() : n.start()] == "-" for m, n in zip(matches, matches[1:])] + [False]  # "Mencía-Gutiérrez"
    classes: list[str] = []
    comma = target.text.find(",")
    for index, word in enumerate(words):
        folded = word.casefold()
        if not classes or all(c == "title" for c in classes):
            if folded.rstrip(".") in titles:
                classes.append("title")
                continue
        if folded in known_particles and index < len(words) - 1:  # "de la Fuente", "von Essen"
            classes.append("particle")
        elif leads and _opens_surname(index, words, target, slot, leads):
            classes.append("particle")
        elif index > 0 and classes[-1] == "particle" and words[index - 1].casefold() in leads and _opens_surname(index - 1, words, target, slot, leads):
            classes.append("last")
        elif len(word) == 1:
            classes.append("initial")
        elif _are_initials(word, target, lists):
            classes.append("initials")
        elif target.label == "FIRST_NAME" or (slot == "first" and target.label == "PERSON"):
            classes.append("first")
        elif target.label == "LAST_NAME" or (slot == "last" and target.label == "PERSON"):
            classes.append("last")
        elif comma < 0 and _in_double_surname(index, hyphened, classes):
            classes.append("last")
        elif comma < 0 and index > 0 and hyphened[index - 1] and set(classes) - {"title"} == {"first"}:
            classes.append("first")  # "Jean-Pierre": a given name hyphened to the given name it follows
        else:
            classes.append(_person_word_class(word, index, words, classes, comma, target.text, lists))
    return classes


def _opens_surname(index: int, words: list[str], target: Target, slot: str | None, leads: frozenset[str]) -> bool:
    """A lead word written with a capital before another capitalised word (no initial: "San J."),
    outside a given-name slot."""
    word = words[index]
    return (
        word.casefold() in leads and word[:1].isupper() and index < len(words) - 1 and words[index + 1][:1].isupper() and len(words[index + 1]) > 1
        and target.label != "FIRST_NAME" and slot != "first"
    )  # fmt: skip


def _in_double_surname(index: int, hyphened: list[bool], classes: list[str]) -> bool:
    """A word hyphened to the next after a name, or to a surname before it, is a surname: "Elena
    Mencía-Gutiérrez" had become "María José-Domínguez", "Mencía" being a given name too."""
    after_a_name = any(c in ("first", "last") for c in classes)
    return after_a_name and (hyphened[index] or (index > 0 and hyphened[index - 1] and classes[-1] == "last"))


def _are_initials(word: str, target: Target, lists: NameLists) -> bool:
    """Two or three letters that are a person's initials ("JB"): where the tagset's kind says the
    label holds initials, or written in capitals and no listed name ("JO" and "LEE" are names)."""
    if not 2 <= len(word) <= 3 or not word.isalpha():
        return False
    return target.kind == "initials" or (word.isupper() and not lists.first_share(word) and not lists.last.share(word))


def _person_word_class(
    word: str, index: int, words: list[str], classes: list[str], comma: int, text: str, lists: NameLists
) -> str:
    """Within a full name: 'Apellidos, Nombre' order after a comma, else lists and position decide;
    a word no list holds is a surname after another word (rare surnames far outnumber rare given
    names: "Khosravi" of "Parham Khosravi Shahi" had become the given name "Josep")."""
    if comma >= 0:
        position = _nth_word_start(text, index)
        return "first" if position > comma else "last"
    first, last = lists.first_share(word), lists.last.share(word)
    if index == 0 and len(words) > 1:
        return "last" if last > 10 * first else "first"
    if index == len(words) - 1:  # last word: a surname, unless only first names came before ("Carmen Inés")
        only_first = all(c == "first" for c in classes if c in ("first", "last"))
        return "first" if first > 10 * last and only_first else "last"
    if first or last:
        return "first" if first > last else "last"
    previous = [c for c in classes if c in ("first", "last")]
    return "last" if previous else "first"  # "Parham Khosravi Shahi": a word no list holds after a name is a surname


def _nth_word_start(text: str, index: int) -> int:
    for number, match in enumerate(_TOKEN.finditer(text)):
        if number == index:
            return match.start()
    return len(text)
