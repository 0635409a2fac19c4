"""E-mail addresses, URLs and IP addresses, as real records hold them.

An e-mail address whose local part visibly derives from a person named in the same document is
rebuilt from that person's surrogate; any other gets a local part made of surrogate names. A
mail provider's domain becomes a provider the pack lists (`email_domains`, by weight); any other
domain is an institution's and becomes an institution-style domain of the same shape built from
the surrogate town ("hospitalgetafe.es" -> "hospitalleganes.es"), or one of the surrogate
region's institution domains, or, in a document naming no place, any listed domain in proportion
(a customer's "company.se" had become a health region's in every record); a regional service's listed domain stays when its
region is kept and the record's surrogate town lies in it; an e-mail of a record whose address lies
abroad, in a kept country, is at a provider of a generic domain (gmail.com). URLs keep their shape on such a domain. IPv4
addresses are drawn from the private ranges hospital networks use (10/8, 172.16/12,
192.168/16), IPv6 from unique local addresses (fc00::/7). Recognisable surrogates would make a
real leftover stand out among them.

With the option `contacts: fictional` (and without a pack's `email_domains`), domains come from
RFC 2606 (example.com, .org, .net), IPv4 from the RFC 5737 documentation blocks and IPv6 from
RFC 3849's 2001:db8::/32.
"""

from __future__ import annotations

import ipaddress
import string
from bisect import bisect_right
from functools import cache, lru_cache
from typing import Any, Mapping, Sequence

import regex
from rapidfuzz import fuzz

from pseudo.folds import ascii_fold, loose, normalise
from pseudo.keyed import KeyedStream
from pseudo.labels import NAME_LABELS
from pseudo.lists.pack import LocalePack
from pseudo.lists.weighted import WeightedList
from pseudo.lists.words import common_words
from pseudo.model import Target
from pseudo.rules.base import LISTED, NOT_RECOGNISED, Context, Rule, Surrogate
from pseudo.rules.ids import shape_surrogate
from pseudo.rules.phones import contacts_option
from pseudo.services.address import unit_type_words
from pseudo.services.person import NAME_LISTS

RESERVED_DOMAINS = ("example.com", "example.org", "example.net")
IPV4_BLOCKS = ("192.0.2.", "198.51.100.", "203.0.113.")
PRIVATE_V4 = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))
UNIQUE_LOCAL_V6 = ipaddress.ip_network("fd00::/8")  # the locally assigned half of fc00::/7
_SEPARATOR_RUN = regex.compile(r"[._-]{2,}")
MIN_DOMAIN_WORD = 4  # letters of a type word kept in a rebuilt domain ("hospital", "sjukhus")
ID_LIKE_DIGITS = 5  # digits from which a local part with at most two letters is a number (a student's, an employee's)
COMMON_NAMES = 200  # names of a list common enough that an address of that name alone is long taken
EMAIL_OWNER_REACH = 200  # characters between a name and the address it signs ("Dra. Ana López. Servicio de ... E-mail:")
GENERIC_TLDS = ("com", "org", "net", "edu")  # kept as written; a regional one (.cat, .eus) is not
_NOT_ALPHANUMERIC = regex.compile(r"[^a-z0-9]+")
_NOT_LETTER = regex.compile(r"[^a-z]")
AN_ADDRESS = regex.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")  # an e-mail address, as this rule and the sweep read one
_LOCAL_WORD = regex.compile(r"\p{L}+")  # the first word of a local part ("anna" of "anna.ek")


def _has_names(ctx: Context) -> bool:
    return ctx.pack is not None and all(ctx.pack.has(n) for n in ("first_names_female", "first_names_male", "last_names"))


def _reserved_domain(original_domain: str, stream: KeyedStream) -> str:
    tld = original_domain.rsplit(".", 1)[-1].casefold()
    for domain in RESERVED_DOMAINS:
        if domain.endswith("." + tld):
            return domain
    return stream.choice(RESERVED_DOMAINS)


def _fictional(ctx: Context) -> bool:
    return ctx.options["contacts"] == "fictional" or ctx.pack is None or not ctx.pack.has("email_domains")


def _listed_domains(pack: LocalePack, year: int | None = None) -> dict[str, WeightedList]:
    """The pack's e-mail domains by kind (provider, institution), heaviest first, and all of them
    ("any") in proportion; with a `year`, only those in use by then (their `since` column)."""

    def make() -> dict[str, WeightedList]:
        by_kind: dict[str, list[dict[str, str]]] = {}
        for row in pack.rows("email_domains"):
            if year is None or not row.get("since") or int(row["since"]) <= year:
                by_kind.setdefault(row["kind"], []).append(row)
        lists = {kind: WeightedList(tuple(r["name"] for r in rows), tuple(int(r["count"]) for r in rows)) for kind, rows in by_kind.items()}
        if by_kind:
            lists["any"] = WeightedList.heaviest_first({r["name"]: int(r["count"]) for rows in by_kind.values() for r in rows})
        return lists

    return pack.cached(f"email-domains:{year}", make)


def _compact(text: str, separator: str) -> str:
    """A name as a domain label writes it: ascii letters and digits, words joined by the separator."""
    return separator.join(w for w in _NOT_ALPHANUMERIC.split(ascii_fold(text).casefold()) if w)


def _country_tld(pack: LocalePack) -> str | None:
    """The country's top-level domain: the heaviest non-generic one among the listed institutions."""

    def make() -> str | None:
        weights: dict[str, int] = {}
        institutions = _listed_domains(pack).get("institution")
        for domain in institutions.items if institutions else ():
            tld = domain.rsplit(".", 1)[-1]
            if tld not in GENERIC_TLDS:
                weights[tld] = weights.get(tld, 0) + institutions.weight(domain)
        return max(sorted(weights), key=weights.__getitem__) if weights else None

    return pack.cached("country-tld", make)


def _domain_words(pack: LocalePack) -> tuple[str, ...]:
    """Type words an institution's domain may keep ("hospital", "salud", "sjukhus"): the words of
    the pack's unit and organisation cues, folded, longest first."""

    def make() -> tuple[str, ...]:
        words = set()
        for vocabulary in ("healthcare_units", "organisations"):
            if pack.has(vocabulary):
                for entry in pack.vocabulary(vocabulary).get("types") or []:
                    for cue in entry.get("cues") or []:
                        words.update(w for w in _compact(cue, " ").split() if len(w) >= MIN_DOMAIN_WORD and w.isalpha())
        return tuple(sorted(words, key=lambda w: (-len(w), w)))

    return pack.cached("domain-words", make)


def _institution_domain(original: str, ctx: Context) -> str | None:
    """An institution-style domain of the original's shape, built from the surrogate of a place
    the domain names ("hospital-getafe.es"); kept type words and the top-level domain stay. None
    where the domain names no place of the document: a town's name glued onto an institution that
    never named one ("sergas.es" -> "teruel.es") reads as a town hall's, which readers noticed."""
    if ctx.pack is None or not ctx.pack.has("locations"):
        return None
    labels = original.casefold().split(".")
    if len(labels) < 2 or not labels[-2]:
        return None
    name, separator = labels[-2], "-" if "-" in labels[-2] else ""
    bare = name.replace("-", "")
    world = ctx.services.address
    places = [t for t in ctx.document.labelled("PLACE", "REGION") if any(c.isalpha() for c in t.text)]
    named = [t for t in places if len(_compact(t.text, "")) >= 3 and _compact(t.text, "") in bare]
    town = None
    for place in named:
        found = world.surrogate_of_text(place.text, place.label)
        if found is not None:
            town = _compact(found.name, separator)
            break
    if not town:
        return None
    words = _domain_words(ctx.pack)
    kept = [label for label in labels[:-2] if label in words]
    word = next((w for w in words if bare.startswith(w)), "")
    tld = labels[-1] if labels[-1] in GENERIC_TLDS else _country_tld(ctx.pack) or labels[-1]
    return ".".join([*kept, separator.join(filter(None, (word, town))), tld])


def surrogate_domain(original: str, ctx: Context, position: int, mail: bool = False) -> str:
    """A domain as real records hold: a listed provider for a provider, an institution-style one
    (or a listed institution's) for any other; a reserved one under `contacts: fictional`. An
    e-mail (`mail`) of a record whose address lies abroad, in a kept country, is at a provider: a
    home institution's domain (a Spanish health service) read wrong in a Mexican record."""
    key = original.casefold()
    if _fictional(ctx):
        return ctx.consistent("domain", key, lambda stream: _reserved_domain(original, stream), one_to_one=False)
    every = _listed_domains(ctx.pack)  # what kind of domain the original is
    year = ctx.services.clock.record_year(ctx.document, ctx.pack)
    lists = _listed_domains(ctx.pack, year)  # what it may become: none launched after the record
    family = "domain" if year is None else f"domain:{year}"  # a scope's record of 2003 never takes a draw made for one of 2015
    providers = lists.get("provider") or every.get("provider")
    abroad = mail and providers is not None and ctx.pack.has("locations") and ctx.services.address.address_abroad(ctx.document)
    if providers is not None and (key in (every.get("provider") or ()) or abroad):
        return ctx.consistent(family, key, (_worldwide(providers, ctx.pack) if abroad else providers).draw, one_to_one=False)
    if _kept_regions_service(key, ctx, position):
        return original
    built = _institution_domain(original, ctx)
    if built and built != key:
        return built
    pool = _regional_pool(ctx, providers, lists.get("institution"), key, position) or lists.get("any") or providers  # no place: as people's domains fall
    return ctx.consistent(family, key, pool.draw, one_to_one=False)


def _worldwide(providers: WeightedList, pack: LocalePack) -> WeightedList:
    """The providers under a generic top-level domain that serve no one country (gmail.com, not
    hotmail.es nor ya.com, a Spanish provider an Argentine record's address had been at), when any."""
    national = pack.cached("national-providers", lambda: frozenset(r["name"] for r in pack.rows("email_domains") if r["kind"] == "provider" and r.get("region")))
    kept = [(d, providers.weight(d)) for d in providers.items if d.rsplit(".", 1)[-1] in GENERIC_TLDS and d not in national]
    return WeightedList(tuple(d for d, _ in kept), tuple(w for _, w in kept)) if kept else providers


def _kept_regions_service(original: str, ctx: Context, position: int) -> bool:
    """Whether the domain is the listed service of a region kept on purpose that the record's
    surrogate place lies in ("sespa.es" beside a town of Asturias, kept): it says no more than
    the region, and a provider's domain in its place would make the record read wrong."""
    if ctx.pack is None or not ctx.pack.has("locations") or not ctx.pack.has("email_domains"):
        return False
    region = next((r.get("region") for r in ctx.pack.rows("email_domains") if r["name"] == original and r["kind"] == "institution"), None)
    world = ctx.services.address
    place = world.nearest(ctx.document, position) if region else None
    if place is None:
        return False
    kept = world.find(region, "REGION")[0]
    return kept is not None and world.is_kept(kept) and loose(kept.name) in world.names_around(world.surrogate(place))


def _regional_pool(ctx: Context, providers: WeightedList | None, institutions: WeightedList | None, original: str, position: int) -> WeightedList | None:
    """The listed institution domains of the region the record's surrogate place lies in, other
    than the original's, else the providers (a Galician health service's domain for a doctor in
    Palma gave records away); None where the record names no listed place. The place is the one
    written nearest to the address."""
    if ctx.pack is None or not ctx.pack.has("locations"):
        return None
    world = ctx.services.address
    place = world.nearest(ctx.document, position)
    if place is not None:
        around = world.names_around(world.surrogate(place))
        rows = [
            r for r in ctx.pack.rows("email_domains")
            if r["kind"] == "institution" and loose(r.get("region") or "") in around and r["name"] != original
            and institutions is not None and r["name"] in institutions  # in use by the record's year
        ]
        if rows:
            return WeightedList(tuple(r["name"] for r in rows), tuple(int(r["count"]) for r in rows))
        regional = any(r.get("region") for r in ctx.pack.rows("email_domains"))
        return providers if regional else None  # a pack that ties no domain to a region draws as before
    return None


@lru_cache(maxsize=1 << 12)
def _align(letters: str, tokens: tuple[str, ...]) -> tuple[tuple[int, int, int | None], ...]:
    """Split letters into pieces, each a prefix of a distinct name token, skipping as few
    letters as possible. Returns (start, end, token index or None for a skipped letter).

    Exhaustive over (position, tokens used): names have a handful of tokens, and a token whose
    first letter is nowhere in the letters can never be used, so it is left out of the search."""
    usable = tuple(index for index, token in enumerate(tokens) if token and token[0] in letters)
    if len(usable) < len(tokens):
        found = _align(letters, tuple(tokens[index] for index in usable))
        return tuple((start, end, None if index is None else usable[index]) for start, end, index in found)

    @cache
    def best(i: int, used: int) -> tuple[int, int, int, tuple[tuple[int, int, int | None], ...]]:
        """The best split of letters[i:] with the tokens whose bits are not set in `used`: fewest
        letters skipped, then fewest pieces, then skipped letters kept together ("sspa", not "s.a")."""
        if i == len(letters):
            return 0, 0, 0, ()
        skipped, pieces, runs, path = best(i + 1, used)
        joined = bool(path) and path[0][2] is None
        choice = (skipped + 1, pieces + 1, runs + (not joined), ((i, i + 1, None),) + path)
        for index, token in enumerate(tokens):
            if used >> index & 1:
                continue
            length = 0
            while i + length < len(letters) and length < len(token) and letters[i + length] == token[length]:
                length += 1
                skipped, pieces, runs, path = best(i + length, used | 1 << index)
                if (skipped, pieces + 1, runs) < choice[:3]:  # the first of equals stays
                    choice = (skipped, pieces + 1, runs, ((i, i + length, index),) + path)
        return choice

    return best(0, 0)[3]


def _most_aligned(letters: str, tokens: list[str]) -> int:
    """At most this many letters align with the tokens (see `_align`): a piece is a prefix of a
    distinct token written in the letters, so each token gives at most its longest such prefix."""
    total = 0
    for token in tokens:
        length = len(token)
        while length and token[:length] not in letters:
            length -= 1
        total += length
    return min(total, len(letters))


_LETTER_RUN = regex.compile(r"[^\W\d_]+")
SLIP_SIMILARITY = 88  # rapidfuzz ratio at which letters of a local part are a name word written with one slip
SLIP_LETTERS = 5  # a name word this long or longer: a shorter one sits too near other words


def _written_with_a_slip(local: str, people: Sequence[tuple[list[str], list[str]]]) -> str | None:
    """The local part with a name word of the record written right where it stands with one slip
    ("m_trassierra@" for Magdalena Tassierra: "m_tassierra"), or None where none is: the address is
    that person's, and had been drawn as a stranger's ("valeria_valenzuela@", rounds 42 and 43)."""
    best: tuple[float, int, int, str] | None = None  # (ratio, size, start in local, word): the nearest, the longest
    for match in _LETTER_RUN.finditer(local):
        run = ascii_fold(match.group()).casefold()
        for originals, _ in people:
            for word in originals:
                if len(word) < SLIP_LETTERS or word in run:
                    continue
                for size in (len(word) - 1, len(word), len(word) + 1):
                    for start in range(len(run) - size + 1):
                        piece = run[start : start + size]
                        ratio = fuzz.ratio(piece, word)
                        if piece[0] == word[0] and ratio >= SLIP_SIMILARITY and (best is None or (ratio, size) > best[:2]):
                            best = (ratio, size, match.start() + start, word)
    if best is None:
        return None
    _, size, at, word = best
    return local[:at] + word + local[at + size :]


def derived_local_part(local: str, ctx: Context, stream: KeyedStream, owner: Sequence[str] = (), slipped: bool = False) -> str | None:
    """The local part rebuilt from a surrogate name, when it visibly derives from a name: the
    name signed right before the address (`owner`, its surrogate words) when it explains the
    letters well enough, else the person's name that explains most of them ("maje1946@" after
    "Dr. Manuel Javier ..." is his, though the patient "Maria Jesús" explains one letter more).

    Each piece that stood for a whole name ("marta" in "marta.sobas") becomes the whole surrogate
    name, a shortened one ("nav" of Navarro) the surrogate shortened alike; separators stay put.
    """
    letters = "".join(ascii_fold(c)[:1] for c in local if c.isalpha())
    best = None
    people = ctx.services.person.folded_people(ctx.document) if _has_names(ctx) else []
    signed = [person for person in people if owner and set(owner) <= set(person[1])]
    for originals, surrogates in signed + [person for person in people if person not in signed]:
        most = _most_aligned(letters, originals)
        if most < 3 or most * 3 < len(letters) * 2 or (best is not None and most <= best[0]):
            continue  # this person cannot win: no alignment to search
        pieces = _align(letters, tuple(originals))
        matched = sum(end - start for start, end, index in pieces if index is not None)
        if matched >= 3 and matched * 3 >= len(letters) * 2 and (best is None or matched > best[0]):
            best = (matched, pieces, originals, surrogates)
            if signed and (originals, surrogates) == signed[0]:
                break  # the signer explains the address: it is theirs
    if best is None:
        fixed = None if slipped else _written_with_a_slip(local, people)
        return derived_local_part(fixed, ctx, stream, owner, slipped=True) if fixed is not None else None
    _, pieces, originals, surrogates = best
    pieces = _without_stray_letters(pieces)
    skipped = _skipped_runs(pieces)
    used = {index for _, _, index in pieces}
    initials = [name[:1] for index, name in enumerate(surrogates) if index not in used and name]
    rebuilt = []
    nickname = bool(pieces) and pieces[0][2] is None and skipped.get(pieces[0][0], 0) > 1 and 0 not in used and bool(surrogates)
    for start, end, index in pieces:
        if nickname and start == pieces[0][0]:
            rebuilt.append(surrogates[0])  # "pepebarquero" of José Barquero: a given name's nickname, the surrogate's given name
        elif index is None and skipped[start] > 1:
            rebuilt.append("")  # "sspa" in "josea.contreras.sspa": no name explains it, random letters would show
        elif index is None or index >= len(surrogates):
            rebuilt.append(initials.pop(0) if initials else "")  # a letter no name explains: an initial the surrogate has
        elif end - start >= len(originals[index]):  # the whole name, not an abbreviation of it
            rebuilt.append(surrogates[index])
        else:
            rebuilt.append(surrogates[index][: end - start] or stream.choice(string.ascii_lowercase))
    starts = {start: text for (start, _, _), text in zip(pieces, rebuilt)}
    out, letter = [], 0
    for char in local:
        if char.isalpha():
            out.append(starts.get(letter, ""))
            letter += 1
        elif char.isdigit():
            out.append(stream.digit())
        else:
            out.append(char)
    return _tidy_separators("".join(out))


STRANGER_LETTERS = 3  # an address explained by fewer letters of any name of the record is no one's of it
STRANGER_NAME = 4  # letters of a listed name that make a local part someone's
STRANGER_INSIDE = 6  # letters of a listed name found inside a local part that make it someone's


def _a_strangers(local: str, ctx: Context) -> bool:
    """Whether a local part is another person's name, one of the record's people hold nothing of
    ("garcia_martor" signed by Elena Salgado Gómez): built from the signer's surrogate name, such
    addresses had made every address of the records match a name, and a leftover original that
    does not stood out at once (leftover round 22). A mailbox of no name ("hdoc.urg") is still
    made from the signer's name, as readers expect of an address after a signature."""
    letters = "".join(ascii_fold(c)[:1] for c in local if c.isalpha())
    people = ctx.services.person.folded_people(ctx.document) if _has_names(ctx) else []
    if not letters or any(_most_aligned(letters, originals) >= STRANGER_LETTERS for originals, _ in people):
        return False
    listed = _listed_folded(ctx.pack) if ctx.pack is not None else frozenset()
    words = [w for w in _NOT_LETTER.split(ascii_fold(local).casefold()) if len(w) >= STRANGER_NAME]
    if any({w, w[1:], w[:-1], w[1:-1]} & listed for w in words):  # "garcia", or with initials: "jgraus", "emoralesr"
        return True
    return any(
        w[i:j] in listed for w in words for i in range(len(w)) for j in range(i + STRANGER_INSIDE, len(w) + 1)
    )  # a longer name inside it: "bacamorilla" (Morilla)


def _listed_folded(pack: LocalePack) -> frozenset[str]:
    """Every listed given name and surname of at least STRANGER_NAME letters that is no common word,
    folded as e-mail addresses write them."""

    def make() -> frozenset[str]:
        lists = [n for n in ("first_names_female", "first_names_male", "last_names") if pack.has(n)]
        common = {ascii_fold(word).casefold() for word in common_words(pack)}  # "hospital", "salud" are surnames too
        folded = (ascii_fold(name).casefold().replace(" ", "") for n in lists for name in pack.weighted(n).items)
        return frozenset(f for f in folded if len(f) >= STRANGER_NAME and f not in common)

    return pack.cached("email:listed-names", make)


def _without_stray_letters(pieces: tuple[tuple[int, int, int | None], ...]) -> tuple[tuple[int, int, int | None], ...]:
    """A one-letter piece between letters no name explains is one of them: the "r" of "nefro" in
    "nefropolaina@" is no initial of Rusillo ("sxramon@" read as a machine's, round 40)."""
    out = list(pieces)
    for i in range(1, len(out) - 1):
        start, end, index = out[i]
        if index is not None and end - start == 1 and out[i - 1][2] is None and out[i + 1][2] is None:
            out[i] = (start, end, None)
    return tuple(out)


def _skipped_runs(pieces: tuple[tuple[int, int, int | None], ...]) -> dict[int, int]:
    """For each letter no name explains, how many such letters stand together with it."""
    runs: dict[int, int] = {}
    group: list[int] = []
    for start, _, index in (*pieces, (-1, -1, 0)):
        if index is None and (not group or start == group[-1] + 1):
            group.append(start)
            continue
        runs.update((letter, len(group)) for letter in group)
        group = [start] if index is None else []
    return runs


def _tidy_separators(local: str) -> str:
    """A dropped part leaves no doubled, leading or trailing separator."""
    local = _SEPARATOR_RUN.sub(lambda m: m.group(0)[0], local)
    return local.strip("._-") or local


def _drawn_local_part(local: str, ctx: Context, stream: KeyedStream, owner: list[str]) -> str:
    """A local part made of a first and last name in a shape people use (first.last, flast,
    firstlast), separators and digits kept in kind (a number with a letter or two stays one); the surrogate name written just before the
    address when there is one (its owner, as readers expect), else a drawn one, of the sex of the
    original's first name where it starts with one of one list ("anna.ek" -> a woman's name)."""
    digits, letters = sum(c.isdigit() for c in local), sum(c.isalpha() for c in local)
    if digits >= ID_LIKE_DIGITS and letters <= 2:  # "a00799839@itesm.com": a number, not a name; "ramontorres07567562" read as a machine's
        return shape_surrogate(local, stream).lower()
    if len(owner) < 2 and (ctx.pack is None or not (ctx.pack.has("first_names_female") and ctx.pack.has("last_names"))):
        return shape_surrogate(local, stream).lower()
    if len(owner) >= 2:
        first, last = owner[0], owner[1 if len(owner) < 3 else -2]  # "Ana López García": the first surname
    else:
        lists = [ctx.pack.weighted(n) for n in ("first_names_female", "first_names_male") if ctx.pack.has(n)]  # type: ignore[union-attr]
        head = _LOCAL_WORD.match(local)
        word = head.group().capitalize() if head else ""
        own = [names for names in lists if word in names]  # "anna.ek": a woman's address stays a woman's
        first = ascii_fold(stream.choice(own if len(own) == 1 else lists).top(200).uniform(stream))
        last = ascii_fold(ctx.pack.weighted("last_names").top(500).uniform(stream))  # type: ignore[union-attr]
    separator = next((c for c in local if c in "._-"), "")
    digits = "".join(stream.digit() for c in local if c.isdigit())
    first, last = (_NOT_LETTER.sub("", part.casefold()) for part in (first, last))
    if not separator and stream.below(2):
        first = first[:1]  # "mlopez", as often as "marialopez"
    return f"{first}{separator}{last}{digits}"


_LOCAL_PIECE = regex.compile(r"[^._-]+|[._-]")  # "urología.saneloy" -> "urología", ".", "saneloy"


def _service_local_part(local: str, ctx: Context) -> str | None:
    """A department's address ("urología.saneloy" of "Servicio de Urología, Hospital San Eloy"): its
    pieces are words the record writes untagged that are no name (kept) and a tagged unit's naming
    words written together (the surrogate unit's, "basurto"); None where a piece is anything else
    (a person's address). Drawn as a person's, "blas.real@" named no one of the record."""
    if ctx.pack is None or not ctx.pack.has("locations"):
        return None
    units = ctx.services.address.units_written(ctx.document)
    pieces = _LOCAL_PIECE.findall(local)
    named = {i: new for i, piece in enumerate(pieces) for unit, new in units[::-1] if _joins_words_of(ascii_fold(piece).casefold(), unit.text)}
    if not named:
        return None  # a person's address, as nearly all are: the record's words are not read
    starts = sorted(t.span.start for t in ctx.document.targets)
    ends = {t.span.start: t.span.end for t in ctx.document.targets}
    names = {ascii_fold(w).casefold() for t in ctx.document.targets if t.label in NAME_LABELS for w in _LOCAL_WORD.findall(t.text)}
    untagged = set()
    for m in _LOCAL_WORD.finditer(ctx.document.text):
        at = bisect_right(starts, m.start()) - 1
        inside = at >= 0 and m.start() < ends[starts[at]]
        word = ascii_fold(m.group()).casefold()
        if len(word) >= 4 and not inside and word not in names and not ctx.services.person.lists.weight(m.group().capitalize()):
            untagged.add(word)  # never a name's word: "dolores" of "dolores lumbares" beside Dra. Dolores
    common, typed = common_words(ctx.pack), unit_type_words(ctx.pack)
    out = []
    for index, piece in enumerate(pieces):
        if index in named:
            words = _LOCAL_WORD.findall(named[index])
            naming = [w for w in words if w.casefold() not in common and loose(w) not in typed and len(w) > 2] or words[-1:]
            out.append(_NOT_LETTER.sub("", ascii_fold("".join(naming)).casefold()))
        elif piece in "._-" or ascii_fold(piece).casefold() in untagged:
            out.append(piece)
        else:
            return None
    return "".join(out)


def _joins_words_of(folded: str, text: str) -> bool:
    """Whether letters are a run of two or more of a text's words written together ("saneloy" of
    "Hospital San Eloy")."""
    words = [ascii_fold(w).casefold() for w in _LOCAL_WORD.findall(text)]
    return any("".join(words[i:j]) == folded for i in range(len(words)) for j in range(i + 2, len(words) + 1))


def _common_name_alone(local: str, ctx: Context) -> bool:
    """A local part that is one common name and nothing else ("garcia", "maria"): at a provider
    long taken by someone, so no real address; readers called "garcia@gmail.com" generic."""
    if ctx.pack is None or not local.isalpha():
        return False
    return any(local in _common_folded(ctx.pack, name) for name in NAME_LISTS if ctx.pack.has(name))


def _common_folded(pack: LocalePack, name: str) -> frozenset[str]:
    """The most common names of a list, folded as e-mail addresses write them."""
    return pack.cached(f"email:common:{name}", lambda: frozenset(ascii_fold(n).replace(" ", "") for n in pack.weighted(name).top(COMMON_NAMES).items))


def _distinguished(local: str, domain: str, owner: list[str], ctx: Context, stream: KeyedStream, retry: bool = False) -> str:
    """A local part made one's own as people do: two digits at a provider ("garcia74"), the
    owner's first initial before it at an institution ("agarcia"), digits where no owner is known
    or where a refused draw must differ from the last."""
    providers = _listed_domains(ctx.pack).get("provider") if ctx.pack is not None else None
    initial = ascii_fold(owner[0])[:1] if owner else ""
    if retry or providers is not None and domain in providers.items or not initial or local.startswith(initial):
        return f"{local}{stream.digit()}{stream.digit()}"
    return f"{initial}{local}"


class EmailRule(Rule):
    name = "emails"
    labels = ("EMAIL",)
    requires = ("person", "address", "clock")  # the local part follows a surrogate name, the domain a surrogate town and the record's year
    options = {"contacts": contacts_option("domains")}

    def recognises(self, text: str, after: str, label: str, pack: LocalePack, options: Mapping[str, Any] | None = None) -> int:
        """LISTED for a value that is an e-mail address, whatever it was tagged as (MEDDOCAN tags
        two as streets: drawn as streets, "E-mail: fray luis de león" gave a record away)."""
        return LISTED if label in self.labels and AN_ADDRESS.fullmatch(text.strip()) else NOT_RECOGNISED

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        text = target.text
        if text.count("@") != 1:
            return Surrogate(
                ctx.consistent("email", normalise(text), lambda s: shape_surrogate(text, s)),
                fallback="not an e-mail address",
            )
        local, domain = text.split("@")
        new_domain = surrogate_domain(domain, ctx, target.span.start, mail=True)

        attempts = [0]  # the scope's consistent draw calls this once per attempt

        def draw(stream: KeyedStream) -> str:
            attempts[0] += 1
            owner = ctx.services.person.written_before(ctx.document, target.span.start, EMAIL_OWNER_REACH) if _has_names(ctx) else []
            if owner and _a_strangers(local, ctx):
                owner = []  # "garcia_martor@" signed by Elena Salgado Gómez: a stranger's address stays a stranger's
            new_local = _service_local_part(local, ctx) or derived_local_part(local, ctx, stream, owner) or _drawn_local_part(local, ctx, stream, owner)
            retry = attempts[0] > 1  # refused: another address of the scope (or an original) has it
            if retry or _common_name_alone(new_local, ctx):
                new_local = _distinguished(new_local, new_domain, owner, ctx, stream, retry)
            return f"{new_local}@{new_domain}"

        return ctx.consistent("email", normalise(text), draw)


class UrlRule(Rule):
    name = "urls"
    labels = ("URL",)
    requires = ("address", "clock")  # the host follows a surrogate town; no provider launched after the record
    options = {"contacts": contacts_option("domains")}

    def replace(self, target: Target, ctx: Context) -> str:
        match = regex.match(r"(?i)^(\w+://)?(www\d?\.)?([^/?#\s]+)(.*)$", target.text, regex.DOTALL)
        assert match is not None  # the pattern accepts any text
        scheme, www, host, rest = (g or "" for g in match.groups())
        domain = surrogate_domain(host, ctx, target.span.start)

        def draw(stream: KeyedStream) -> str:
            return f"{scheme}{www}{domain}{shape_surrogate(rest, stream)}"

        return ctx.consistent("url", normalise(target.text), draw)


def _private_v4(address: ipaddress.IPv4Address, stream: KeyedStream) -> str:
    """An address in the private range the original is in, else in 10/8 or 192.168/16."""
    network = next((n for n in PRIVATE_V4 if address in n), None) or stream.choice((PRIVATE_V4[0], PRIVATE_V4[2]))
    host = 1 + stream.below(network.num_addresses - 2)
    drawn = network[host]
    return str(drawn if str(drawn).rsplit(".", 1)[-1] not in ("0", "255") else network[1])


class IpRule(Rule):
    name = "ips"
    labels = ("IP",)
    options = {"contacts": contacts_option("private network addresses")}

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        text = target.text.strip()
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return Surrogate(
                ctx.consistent("ip", normalise(target.text), lambda s: shape_surrogate(target.text, s)),
                fallback="not an IP address",
            )
        fictional = ctx.options["contacts"] == "fictional"

        def draw(stream: KeyedStream) -> str:
            if address.version == 4:
                if not fictional:
                    return _private_v4(address, stream)
                return stream.choice(IPV4_BLOCKS) + str(stream.between(1, 254))
            groups = ":".join(f"{stream.below(0x10000):x}" for _ in range(6))
            if not fictional:
                return str(ipaddress.ip_address(f"fd{stream.below(0x100):02x}:{groups}:{stream.below(0x10000):x}"))
            return str(ipaddress.ip_address(f"2001:db8:{groups}"))

        surrogate = ctx.consistent("ip", str(address), draw)
        return target.text.replace(text, surrogate)
