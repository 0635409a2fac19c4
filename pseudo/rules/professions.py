"""Professions: another profession of the same grammatical gender ("enfermera" -> "abogada"), of
the same kind where the pack says which kind each one is, so the record's story and ages still fit.

The gender is the listed one of the whole span, else of the first listed word in it ("ex
profesora de instituto"), else of the closest listed spelling; a profession found nowhere takes
the neutral pool. Where the list gives each profession its occupation group (`group`, ISCO-08 in
the Spanish pack), the surrogate comes from the original's group, else the nearest wider group
with a few choices: a soldier stays in the armed forces, a fisherman among farm and fishery
workers. What records write in that slot that is no profession (the pack's `situations`:
"jubilado", "tareas del hogar") becomes another of its life stage. A shorter mention of a
profession of the record ("la auxiliar" after "auxiliar de enfermería") is the same person's: it
takes that profession's surrogate. A field of work ("trabajaba en el mantenimiento de ...") becomes
another field, an activity ("colocando paneles de pladur") another activity, and a word that names
a whole occupation group ("militar") is kept. A form of address of the pack's titles tagged as a profession
(Presidio's TITLE: "Dr.", "Mrs.") is kept: it names no one, and the name after it agrees with it.
"""

from __future__ import annotations

from pseudo.folds import normalise
from pseudo.lists.fuzzy import closest
from pseudo.lists.names import title_words
from pseudo.lists.pack import LocalePack
from pseudo.lists.weighted import WeightedList
from pseudo.model import Target
from pseudo.rules.base import Context, Rule, Surrogate

MIN_CHOICES = 4  # a group with fewer other professions of the gender gives way to its wider group


def professions(pack: LocalePack) -> tuple[dict[str, str], dict[str, WeightedList]]:
    """name -> gender, and gender -> every profession of that gender."""

    def make() -> tuple[dict[str, str], dict[str, WeightedList]]:
        gender_of: dict[str, str] = {}
        by_gender: dict[str, list[str]] = {}
        for row in pack.rows("professions"):
            gender = row.get("gender") or "neutral"
            gender_of.setdefault(normalise(row["name"]), gender)  # looked up by the same key as a span
            by_gender.setdefault(gender, []).append(row["name"])
        pools = {g: WeightedList(tuple(sorted(set(n))), (1,) * len(set(n))) for g, n in by_gender.items()}
        return gender_of, pools

    return pack.cached("professions", make)


def _groups(pack: LocalePack) -> dict[str, str]:
    """name (as a span is looked up) -> its occupation group; empty where the list gives none."""
    return pack.cached("profession-groups", lambda: {normalise(r["name"]): r["group"] for r in pack.rows("professions") if r.get("group")})


def _of_kind(pack: LocalePack, gender: str, group: str) -> WeightedList | None:
    """The professions of a gender in the group, else in the nearest wider group (fewer code
    digits) that offers more than MIN_CHOICES (one may be the original); None where none does."""
    groups = _groups(pack)

    def make() -> WeightedList | None:
        names = [r["name"] for r in pack.rows("professions") if (r.get("gender") or "neutral") == gender]
        for digits in range(len(group), 0, -1):
            kin = sorted({n for n in names if groups.get(normalise(n), "")[:digits] == group[:digits]})
            if len(kin) > MIN_CHOICES:
                return WeightedList(tuple(kin), (1,) * len(kin))
        return None

    return pack.cached(f"professions:{gender}:{group}", make)


def _situation(target: Target, ctx: Context) -> Surrogate | None:
    """A listed situation ("jubilado") as another of its group and gender; None for a profession."""
    if not ctx.pack.has("situations"):
        return None
    words = ctx.pack.vocabulary("situations").get("words") or []
    key = normalise(target.text)
    entry = next((w for w in words if normalise(w["word"]) == key), None)
    if entry is None:
        return None
    fits = ("neutral",) if entry["gender"] == "neutral" else (entry["gender"], "neutral")
    others = sorted(w["word"] for w in words if w["group"] == entry["group"] and w["gender"] in fits and normalise(w["word"]) != key)
    if not others:
        return Surrogate(target.text, kept=True)
    pool = WeightedList(tuple(others), (1,) * len(others))
    return Surrogate(ctx.consistent(f"situation:{entry['group']}", key, pool.uniform, one_to_one=False))


def _group_words(pack: LocalePack) -> frozenset[str]:
    """The words of the pack's major and sub-major occupation groups' labels, folded ("militares",
    "trabajadores", "vendedores"): a profession span that is one of them names a whole group."""
    if not pack.has("occupation_groups"):
        return frozenset()
    return pack.cached("occupation-group-words", lambda: frozenset(w for r in pack.rows("occupation_groups") for w in normalise(r["label"]).replace(",", " ").split()))


def _names_a_group(key: str, pack: LocalePack) -> bool:
    """One word whose plural is a word of an occupation group's label: "militar" of
    "Ocupaciones militares". Kept: it says no more than the group of thousands, and it is often an
    adjective ("en uniforme militar", "arma de uso militar"), where a drawn profession had read "en
    uniforme marionetista"."""
    if " " in key or not key.isalpha():
        return False
    morphology = pack.morphology
    return hasattr(morphology, "plural") and morphology.plural(key) in _group_words(pack)  # people, as labels name them: "construcción" is none


def _after_a_slot(target: Target, ctx: Context, cues: dict[str, dict]) -> dict | None:
    """The cue (a preposition and article of the pack's `field_after`) written right before the
    span, longest first, or None."""
    before = ctx.document.text[max(0, target.span.start - 12) : target.span.start]
    if not before.endswith((" ", "\n")):
        return None
    words = before.split()
    for size in (2, 1):
        cue = " ".join(words[-size:]).casefold() if len(words) >= size else ""
        if cue in cues:
            return cues[cue]
    return None


def _field_or_activity(target: Target, key: str, ctx: Context) -> Surrogate | None:
    """A field of work ("en el mantenimiento de instalaciones eléctricas") becomes another field
    that agrees with the article before it, of the original's section where it is listed; an
    activity led by a gerund ("colocando paneles de pladur") another activity. None for anything
    else (the pack's `situations` list says both, with the cues that mark them)."""
    if not ctx.pack.has("situations"):
        return None
    vocabulary = ctx.pack.vocabulary("situations")
    first = key.split(" ")[0]
    if first.endswith(tuple(vocabulary.get("activity_endings") or ())) and vocabulary.get("activities"):
        others = sorted(a for a in vocabulary["activities"] if normalise(a) != key)
        pool = WeightedList(tuple(others), (1,) * len(others))
        return Surrogate(ctx.consistent("profession:activity", key, pool.uniform), fallback="an activity in the profession slot")
    cue = _after_a_slot(target, ctx, vocabulary.get("field_after") or {})
    fields = vocabulary.get("fields") or []
    if cue is None or not fields:
        return None
    fits = [f for f in fields if (f.get("bare") if cue.get("bare") else (f["gender"], f["number"]) == (cue["gender"], cue["number"]))]
    own = next((f for f in fields if normalise(f["word"]) == key), None)
    kin = [f for f in fits if own is not None and f["section"] == own["section"] and f is not own]
    chosen = sorted(f["word"] for f in (kin if len(kin) >= 2 else fits) if normalise(f["word"]) != key)  # one choice would say the original
    if not chosen:
        return None
    pool = WeightedList(tuple(chosen), (1,) * len(chosen))
    return Surrogate(ctx.consistent("profession:field", key, pool.uniform), fallback="a field of work in the profession slot")


def _singular(key: str, gender_of: dict[str, str], pack: LocalePack) -> tuple[str, bool]:
    """A profession written in the plural ("Los bomberos") as its listed singular, and whether it
    was plural, where the pack's language says its plurals (`singular_phrases` and `plural`): "bomberos"
    had become "portero" in "Los portero cortaron ..."."""
    morphology = pack.morphology
    if key in gender_of or not hasattr(morphology, "singular_phrases") or not hasattr(morphology, "plural"):
        return key, False
    for candidate in morphology.singular_phrases(key):
        if candidate in gender_of:
            return candidate, True
    return key, False


class ProfessionRule(Rule):
    name = "professions"
    labels = ("PROFESSION",)
    needs = ("professions",)

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        if target.text.casefold().rstrip(".") in title_words(ctx.pack):
            return Surrogate(target.text, kept=True)
        longer = self._longer_mention(target, ctx)
        if longer is not None:
            return self.replace(longer, ctx)
        situation = _situation(target, ctx)
        if situation is not None:
            return situation
        gender_of, pools = professions(ctx.pack)
        key, plural = _singular(normalise(target.text), gender_of, ctx.pack)
        if key not in gender_of and key.split(" ")[0] not in gender_of:  # no profession's name: a field, an activity, a group
            unlisted = _field_or_activity(target, key, ctx)
            if unlisted is not None:
                return unlisted
            if _names_a_group(key, ctx.pack):
                return Surrogate(target.text, kept=True, kept_as="a word for a whole occupation group")
        gender, fallback, listed = gender_of.get(key), None, key
        if gender is None:
            listed = next((w for w in key.split(" ") if w in gender_of), "")
            gender = gender_of.get(listed)
            fallback = "gender from a word of the span" if gender else None
        if gender is None:
            everything = ctx.pack.cached(
                "profession-names", lambda: WeightedList(tuple(gender_of), (1,) * len(gender_of))
            )
            near = closest(target.text, {"professions": everything}, 85)
            gender = gender_of[near[1]] if near else "neutral"
            listed = near[1] if near else ""
            fallback = "profession matched to the closest listed spelling" if near else "profession in no list"
        group = _groups(ctx.pack).get(listed, "")
        pool = (_of_kind(ctx.pack, gender, group) if group else None) or pools.get(gender) or pools.get("neutral") or next(iter(pools.values()))
        new = ctx.consistent(f"profession:{gender}", key, pool.uniform)
        return Surrogate(ctx.pack.morphology.plural(new) if plural else new, fallback=fallback)

    @staticmethod
    def _longer_mention(target: Target, ctx: Context) -> Target | None:
        """The first profession of the record that this span begins ("auxiliar" of "auxiliar de
        enfermería"): one person's profession written short."""
        key = normalise(target.text)
        for other in ctx.document.labelled(*ProfessionRule.labels):
            if normalise(other.text).startswith(key + " "):
                return other
        return None
