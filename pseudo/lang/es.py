"""Spanish: identity numbers with their check characters, and numbers written in words.

The DNI's letter is the number modulo 23 looked up in a fixed table; an NIE reads its leading X, Y
or Z as 0, 1 or 2 first (Ministerio del Interior, Real Decreto 1553/2005). A social security number
(NSS/NASS/NUSS) is a two-digit province code, eight digits and two control digits, the rest of the
number modulo 97 (each surrogate's check is right where the original's was, wrong where it was
wrong: invented numbers fail it). A collegiate number (NºCol) is nine digits whose first two are the INE code of
the province of the doctor's college ("28 28 12345" in Madrid). A surrogate of each is valid in the
same way, so software that checks them accepts it, keeps the original's layout, and takes its
province code from the surrogate of the place nearest to it, so a number agrees with the surrogate
town. `ID_CHECKS` answers whether a number's check characters are right (for `pseudo tells`).
Ages are often written in words ("sesenta y tres años"); `read_numbers` and `write_number` let the
age rule shift them like digits.
"""

from __future__ import annotations

import regex

from pseudo.folds import loose
from pseudo.keyed import KeyedStream
from pseudo.lists.tree import Place
from pseudo.model import Target
from pseudo.rules.base import Context
from pseudo.digits import digits_of, replace_digits
from pseudo.rules.ids import check_like, redraw_digits

DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
NIE_PREFIXES = "XYZ"
PROVINCES = range(1, 53)  # INE province codes 01-52, drawn when the pack lists no provinces
_DNI = regex.compile(r"(?P<number>\d{8}|\d{1,2}\.\d{3}\.\d{3})(?P<gap>[\s-]?)(?P<letter>\p{L})")
_NIE = regex.compile(r"(?P<prefix>[XYZxyz])(?P<gap1>[\s-]?)(?P<number>\d{7}|\d\.\d{3}\.\d{3})(?P<gap2>[\s-]?)(?P<letter>\p{L})")
_NSS_SHAPE = regex.compile(r"\d[\d\s/.-]*\d")
_NSS_GROUPED = regex.compile(r"\d\d[\s/.-]\d{8}[\s/.-]\d\d")
PROVINCE_CODES = 52  # INE province codes run from 01 to 52
_COLEGIADO = regex.compile(r"(?P<college>\d\d)(?P<gap1>[\s./-]{0,2})(?P<second>\d\d)(?:(?P<gap2>[\s./-]{0,2})(?P<serial>\d{3,6}))?")
_COLEGIADO_SHORT = regex.compile(r"(?P<college>\d\d)[\s./-](?P<serial>\d{5})")  # '29 29585': province and serial


def _letter(value: int, like: str) -> str:
    letter = DNI_LETTERS[value % 23]
    return letter if like.isupper() else letter.lower()


def _nie_value(prefix: str, number: str) -> int:
    return int(str(NIE_PREFIXES.index(prefix.upper())) + digits_of(number))


def surrogate_province(target: Target, ctx: Context, stream: KeyedStream, place: Place | None = None) -> str:
    """The INE code of the province of the surrogate of `place`, else of the place nearest to the
    span (the address world's answer, as a phone number takes its area code), else of a province
    drawn from the pack."""
    pack = ctx.pack
    if pack is None or not pack.has("locations"):
        return f"{stream.choice(PROVINCES):02d}"
    tree = pack.tree()
    world = ctx.services.address
    place = place or world.nearest(ctx.document, target.span.start)
    code = _province_code(world.surrogate(place), ctx) if place is not None else None
    if code is not None:
        return code
    coded = [p.extra["code"] for p in tree.of_kind("province") if p.extra.get("code")]
    return stream.choice(coded) if coded else f"{stream.choice(PROVINCES):02d}"


def _province_code(place: Place, ctx: Context) -> str | None:
    """The INE code of the province a place is or lies in, or None."""
    province = place if place.kind == "province" else ctx.pack.tree().ancestor(place, "province")  # type: ignore[union-attr]
    return (province.extra.get("code") or None) if province is not None else None


def dni(text: str, target: Target, ctx: Context, stream: KeyedStream, labelled: bool = False) -> str | None:
    """12345678Z, 12.345.678-Z: new digits in the same layout, and the letter they call for."""
    match = _DNI.fullmatch(text)
    if match is None:
        return None
    number = redraw_digits(match["number"], stream)
    letter = check_like(_letter(int(digits_of(number)), match["letter"]), dni_valid(text), stream, DNI_LETTERS)
    return f"{number}{match['gap']}{letter if match['letter'].isupper() else letter.lower()}"


def nie(text: str, target: Target, ctx: Context, stream: KeyedStream, labelled: bool = False) -> str | None:
    """X1234567L: the prefix letter kept, new digits, the letter computed with the prefix as a digit."""
    match = _NIE.fullmatch(text)
    if match is None:
        return None
    number = redraw_digits(match["number"], stream)
    value = _nie_value(match["prefix"], number)
    letter = check_like(_letter(value, match["letter"]), nie_valid(text), stream, DNI_LETTERS)
    return f"{match['prefix']}{match['gap1']}{number}{match['gap2']}{letter if match['letter'].isupper() else letter.lower()}"


def nss_control(province: int, number: int) -> int:
    """The two control digits of a social security number: province and number, modulo 97."""
    whole = number + province * 10_000_000 if number < 10_000_000 else province * 100_000_000 + number
    return whole % 97


def nss(text: str, target: Target, ctx: Context, stream: KeyedStream, labelled: bool = False) -> str | None:
    """A social security number: written 2-8-2 ('28 12345678 40'), or 12 digits with a right
    control, or any number after a NASS label. The surrogate has the surrogate place's province
    code; with 12 digits, 8 new ones and the control they call for; otherwise new digits after
    the province code ('26 63514095', written without its control)."""
    digits = digits_of(text)
    twelve = len(digits) == 12 and (_NSS_GROUPED.fullmatch(text) or nss_valid(text) or labelled)
    if not (twelve or (labelled and len(digits) > 2 and _NSS_SHAPE.fullmatch(text))):
        return None
    province = surrogate_province(target, ctx, stream)
    if _of_another_province(digits[:2], target, ctx):  # the original's code is not its record's province: neither is ours
        province = next(code for code in iter(lambda: f"{stream.between(1, PROVINCE_CODES):02d}", None) if code != province)
    if twelve:
        number = stream.between(10_000_000, 99_999_999)
        control = nss_control(int(province), number)
        if nss_valid(text) is False:  # an invented original's wrong control: a wrong one too
            control = (control + stream.between(1, 96)) % 97
        return replace_digits(text, f"{province}{number:08d}{control:02d}")
    return replace_digits(text, province + digits_of(redraw_digits(digits[2:], stream)))


def colegiado(text: str, target: Target, ctx: Context, stream: KeyedStream, labelled: bool = False) -> str | None:
    """A collegiate number ('28 28 12345', '08-08-25574'; nine digits in one piece, a serial of
    other than five or six digits, or a province pair and serial alone, '29 29585', only after a
    NºCol label; its two pairs alone, '28 28', only after the label): the college's province code
    is the surrogate place's, the second pair repeats it when the original's did, stays as written
    where the college's province stayed or its own province is kept (a kept province: "31 28" had
    become "31 51", Ceuta, which readers took for made up), and is another province's code
    otherwise (never '74': readers know there are 52); the serial is redrawn."""
    short = _COLEGIADO_SHORT.fullmatch(text) if labelled else None
    if short is not None:
        return replace_digits(text, surrogate_province(target, ctx, stream) + redraw_digits(short["serial"], stream))
    match = _COLEGIADO.fullmatch(text)
    if match is None:
        return None
    serial = match["serial"]
    usual = serial is not None and len(serial) in (5, 6) and match["gap1"] and match["gap2"]
    if not (usual or labelled and (serial or match["gap1"])):
        return None
    college = surrogate_province(target, ctx, stream, _signed_place(target, ctx))
    if match["second"] == match["college"]:
        second = college
    elif college == match["college"] or _kept_province(match["second"], ctx):  # "31 28", not "31 51"
        second = match["second"]
    else:
        second = f"{stream.between(1, PROVINCE_CODES):02d}"
    return replace_digits(text, college + second + (redraw_digits(serial, stream) if serial else ""))


def _of_another_province(code: str, target: Target, ctx: Context) -> bool:
    """Whether a number's province code is not that of the province of the place nearest to it in
    the original record: the surrogate's then is not its record's either. Every surrogate NASS had
    carried its record's province, and an original left untagged with another stood out at once
    (leftover round 22: "NASS 90 ..." in an Albacete record)."""
    if ctx.pack is None or not ctx.pack.has("locations"):
        return False
    place = ctx.services.address.nearest(ctx.document, target.span.start)
    own = _province_code(place, ctx) if place is not None else None
    return own is not None and own != code


SIGNATURE_REACH = 200  # characters after a doctor's name in which the address they sign with is read


def _signed_place(target: Target, ctx: Context) -> Place | None:
    """The place of the address the doctor whose NºCol this is signs with further on ("Remitido
    por: Dra. María Moreno López C/. Dalí, 14 19171 Cabanillas del Campo (Guadalajara)"): the
    college is that province's, not the patient's ("NºCol 19 19" had become "28 28" after a Madrid
    header while the doctor signed from Guadalajara). None without such an address."""
    if ctx.pack is None or not ctx.pack.has("locations"):
        return None
    document = ctx.document
    line = document.text.rfind("\n", 0, target.span.start) + 1
    named = [t for t in document.labelled("PERSON") if t.span.start >= line and t.span.end <= target.span.start]
    if not named:
        return None
    world = ctx.services.address
    country = world.settings.default_kind.get("COUNTRY")
    doctor = loose(named[-1].text)
    for mention in document.labelled("PERSON"):
        if mention.span.start <= target.span.end or loose(mention.text) != doctor:
            continue
        for place_target in document.labelled("PLACE", "REGION"):
            if mention.span.end <= place_target.span.start <= mention.span.end + SIGNATURE_REACH:
                place = world.read(document, place_target)
                if place is not None and place.kind != country:
                    return place
    return None


def _kept_province(code: str, ctx: Context) -> bool:
    """Whether the province of an INE code is one the pack keeps (Spanish provinces are): a NºCol's
    second pair then stays, as the province's name does ("31-20-25896" in a record of Gipuzkoa
    had become "20-21-...": the record's province, then a random one)."""
    pack = ctx.pack
    if pack is None or not pack.has("locations"):
        return False
    coded = pack.cached("es:provinces-by-code", lambda: {p.extra["code"]: p for p in pack.tree().of_kind("province") if p.extra.get("code")})
    province = coded.get(code)
    return province is not None and ctx.services.address.is_kept(province)


def dni_valid(text: str) -> bool | None:
    """Whether a DNI's letter is right; None for any other text."""
    match = _DNI.fullmatch(text)
    return None if match is None else DNI_LETTERS[int(digits_of(match["number"])) % 23] == match["letter"].upper()


def nie_valid(text: str) -> bool | None:
    """Whether an NIE's letter is right; None for any other text."""
    match = _NIE.fullmatch(text)
    return None if match is None else DNI_LETTERS[_nie_value(match["prefix"], match["number"]) % 23] == match["letter"].upper()


def nss_valid(text: str) -> bool | None:
    """Whether a 12-digit social security number's control digits are right; None for any other text."""
    digits = digits_of(text)
    if len(digits) != 12 or not _NSS_SHAPE.fullmatch(text):
        return None
    return nss_control(int(digits[:2]), int(digits[2:10])) == int(digits[10:])


ID_SCHEMES = (nie, dni, nss, colegiado)
ID_CHECKS = (nie_valid, dni_valid, nss_valid)  # text -> True, False (wrong check), None (not this kind)

# -- numbers in words ------------------------------------------------------------------------------

_UNITS = ("cero", "un", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve")
_TEENS = ("diez", "once", "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve")
_TWENTIES = (
    "veinte", "veintiún", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete",
    "veintiocho", "veintinueve",
)  # fmt: skip
_TENS = {3: "treinta", 4: "cuarenta", 5: "cincuenta", 6: "sesenta", 7: "setenta", 8: "ochenta", 9: "noventa"}
_VALUES: dict[str, int] = {
    **{word: value for value, word in enumerate(_UNITS)},
    **{word: value + 10 for value, word in enumerate(_TEENS)},
    **{word: value + 20 for value, word in enumerate(_TWENTIES)},
    **{word: value * 10 for value, word in _TENS.items()},
    "uno": 1, "una": 1, "dieciseis": 16, "veintiun": 21, "veintiuno": 21, "veintiuna": 21, "veintidos": 22,
    "veintitres": 23, "veintiseis": 26, "cien": 100, "ciento": 100,
}  # fmt: skip
_WORD = regex.compile(r"\p{L}+")


def read_numbers(text: str) -> list[tuple[int, int, int]]:
    """(start, end, value) of each number written in words: 'sesenta y tres', 'ciento dos', 'un'."""
    words = [(m.start(), m.end(), m.group().casefold()) for m in _WORD.finditer(text)]
    found: list[tuple[int, int, int]] = []
    index = 0
    while index < len(words):
        start, end, word = words[index]
        if word not in _VALUES:
            index += 1
            continue
        value = _VALUES[word]
        index += 1
        if value == 100 and word == "ciento" and index < len(words) and words[index][2] in _VALUES:
            value += _VALUES[words[index][2]]
            end = words[index][1]
            index += 1
        tens = value % 100
        if tens in (30, 40, 50, 60, 70, 80, 90) and index + 1 < len(words) and words[index][2] == "y":
            unit = _VALUES.get(words[index + 1][2], 0)
            if 0 < unit < 10:
                value += unit
                end = words[index + 1][1]
                index += 2
        found.append((start, end, value))
    return found


def write_number(value: int) -> str:
    """The cardinal in words, in the form used before a noun ('veintiún años', 'treinta y un días')."""
    if not 0 <= value < 200:
        return str(value)
    if value >= 100:
        return "cien" if value == 100 else f"ciento {write_number(value - 100)}"
    if value < 10:
        return _UNITS[value]
    if value < 20:
        return _TEENS[value - 10]
    if value < 30:
        return _TWENTIES[value - 20]
    tens, unit = divmod(value, 10)
    return _TENS[tens] if unit == 0 else f"{_TENS[tens]} y {_UNITS[unit]}"


# Plurals of nouns and their adjectives (RAE, Nueva gramática, 3): a vowel takes -s, a consonant
# -es, a final z becomes -ces, and an acute accent on the last syllable goes once the word grows
# one ("peón" -> "peones", "francés" -> "franceses").
_LOSES_ACCENT = str.maketrans("áéíóúÁÉÍÓÚ", "aeiouAEIOU")
_PHRASE_LINKS = frozenset({"de", "del", "en", "a", "para", "con", "y", "e"})  # the words after one of these stay singular


def singular_phrases(phrase: str) -> list[str]:
    """The singulars a (folded) plural phrase may have, each word up to the first link word
    undone ("agentes judiciales de ..." -> "agente judicial de ..."), most likely first."""
    words = phrase.split(" ")
    cut = next((i for i, w in enumerate(words) if w in _PHRASE_LINKS), len(words))
    found = [""]
    for word in words[:cut]:
        found = [f"{head} {option}".strip() for head in found for option in singulars(word) or [word]]
    rest = " ".join(words[cut:])
    return [f"{head} {rest}".strip() for head in found]


def singulars(word: str) -> list[str]:
    """The singulars a (folded) plural may have, most likely first: "bomberos" -> "bombero",
    "profesores" -> "profesor", "jueces" -> "juez"; [] for a word that is no plural."""
    found = []
    if word.endswith("ces"):
        found.append(word[:-3] + "z")
    if word.endswith("es"):
        found.append(word[:-2])
    if word.endswith("s"):
        found.append(word[:-1])
    return found


def plural(phrase: str) -> str:
    """A profession's plural: each word up to the first link word ("auxiliares de cocina",
    "técnicos superiores")."""
    words = phrase.split(" ")
    out = []
    for index, word in enumerate(words):
        if word.casefold() in _PHRASE_LINKS:
            return " ".join(out + words[index:])
        out.append(_plural_word(word))
    return " ".join(out)


def _plural_word(word: str) -> str:
    if "-" in word:  # "bombero-conductor": each part
        return "-".join(_plural_word(part) for part in word.split("-"))
    if not word or not word.isalpha():
        return word  # "3D", "TIC": no plural of their own
    upper = word.isupper() and len(word) > 1
    last = word[-1].casefold()
    if last in "aeiouáéó":
        return word + ("S" if upper else "s")
    if last == "z":
        return word[:-1] + ("CES" if upper else "ces")
    if last == "s" and not regex.search(r"[áéíóú][^aeiouáéíóú]*s$", word.casefold()):
        return word  # "análisis": a word ending in an unstressed -s has no other plural
    stem = word[:-2] + word[-2:].translate(_LOSES_ACCENT)  # "peón" -> "peon" + "es"
    return stem + ("ES" if upper else "es")
