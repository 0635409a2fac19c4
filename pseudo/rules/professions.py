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
another field, an activity ("trabajaba colocando paneles de pladur") another activity, and a word
the pack gives an occupation group ("militar") one of that group, or stays where it is an
adjective ("en uniforme militar"). A form of address of the pack's titles tagged as a profession
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


def _of_kind(pack: LocalePack, gender: str, group: str, epicene: bool = False) -> WeightedList | None:
    """The professions of a gender in the group (`epicene`: and those of one form for both, "la
    gerente"), else in the nearest wider group (fewer code digits) that offers more than
    MIN_CHOICES (one may be the original); None where none does."""
    groups = _groups(pack)
    genders = {gender, "neutral"} if epicene else {gender}

    def make() -> WeightedList | None:
        listed = {normalise(r["name"]) for r in pack.rows("professions")}
        singulars = getattr(pack.morphology, "singular_phrases", lambda _: [])
        names = [
            r["name"] for r in pack.rows("professions")
            if (r.get("gender") or "neutral") in genders and not any(s != normalise(r["name"]) and s in listed for s in singulars(normalise(r["name"])))
        ]  # not a plural row of the list ("gerentes" beside "gerente": "Padre gerentes")
        for digits in range(len(group), 0, -1):
            kin = sorted({n for n in names if groups.get(normalise(n), "")[:digits] == group[:digits]})
            if len(kin) > MIN_CHOICES:
                return WeightedList(tuple(kin), (1,) * len(kin))
        return None

    return pack.cached(f"professions:{gender}:{group}:{epicene}", make)


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


def _words_before(target: Target, ctx: Context, count: int) -> list[str]:
    """The last `count` words before the span, folded, punctuation kept on its word ("profesión:")."""
    return [w.casefold() for w in ctx.document.text[max(0, target.span.start - 80) : target.span.start].split()[-count:]]


def _alias(target: Target, key: str, ctx: Context, vocabulary: dict) -> Surrogate | None:
    """A word the pack's `aliases` give an occupation group ("militar"): kept right after a noun,
    where it is an adjective ("en uniforme militar"), else drawn among the group's professions."""
    aliases = {normalise(a["word"]): a for a in vocabulary.get("aliases") or ()}
    morphology = ctx.pack.morphology
    singular = key if key in aliases else next((s for s in getattr(morphology, "singular_phrases", lambda _: [])(key) if s in aliases), None)
    if singular is None:
        return None  # "militares" is read as "militar", and written back in the plural
    entry = aliases[singular]
    before = _words_before(target, ctx, 1)
    after_a_noun = bool(before) and before[-1].isalpha() and before[-1] not in (vocabulary.get("noun_slot_after") or ())
    if entry.get("adjective") and after_a_noun:
        return Surrogate(target.text, kept=True, kept_as="an occupation group's adjective")
    _, pools = professions(ctx.pack)
    pool = _of_kind(ctx.pack, entry["gender"], entry["group"], epicene=True) or pools.get(entry["gender"]) or pools["neutral"]
    new = ctx.consistent(f"profession:{entry['gender']}", singular, pool.uniform)
    return Surrogate(morphology.plural(new) if singular != key else new)


def _field_or_activity(target: Target, key: str, ctx: Context, vocabulary: dict) -> Surrogate | None:
    """A field of work ("trabajaba en el mantenimiento de instalaciones eléctricas") becomes another
    field that agrees with the article before it, of the original's section where it is listed; a
    listed field written without a cue one of its own gender and number; an activity after a work
    word ("trabajaba colocando paneles de pladur") another activity. None for anything else (the
    pack's `situations` say which cues and words mark them)."""
    work = set(vocabulary.get("work_words") or ())
    before = _words_before(target, ctx, 6)
    first = key.split(" ")[0]
    if before and before[-1] in work and first.endswith(tuple(vocabulary.get("activity_endings") or ("\0",))) and vocabulary.get("activities"):
        others = sorted(a for a in vocabulary["activities"] if normalise(a) != key)
        pool = WeightedList(tuple(others), (1,) * len(others))
        return Surrogate(ctx.consistent("profession:activity", key, pool.uniform), fallback="an activity in the profession slot")
    fields = vocabulary.get("fields") or []
    own = next((f for f in fields if normalise(f["word"]) == key), None)
    cues = vocabulary.get("field_after") or {}
    cue = None
    for size in (2, 1):  # the longest cue right before the span, with a work word up to four words before it
        written = " ".join(before[-size:]) if len(before) >= size else ""
        if written in cues and work & set(before[:-size][-4:]):  # not "Licenciado en Derecho", "Remitido al otorrino"
            cue = cues[written]
            break
    if cue is None and own is None:
        return None
    agree = cue or {"gender": own["gender"], "number": own["number"]}  # type: ignore[index]
    fits = [f for f in fields if (f.get("bare") if agree.get("bare") else (f["gender"], f["number"]) == (agree["gender"], agree["number"]))]
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
        vocabulary = ctx.pack.vocabulary("situations") if ctx.pack.has("situations") else {}
        if key not in gender_of and key.split(" ")[0] not in gender_of:  # no profession's name: a field, an activity, a group's word
            unlisted = _alias(target, key, ctx, vocabulary) or _field_or_activity(target, key, ctx, vocabulary)
            if unlisted is not None:
                return unlisted
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
