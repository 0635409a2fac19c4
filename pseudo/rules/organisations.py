"""Organisations: a generic organisation of the same type, by the same machinery as health care
units; a maker or a product tagged as an organisation becomes a real maker or brand instead.

Case reports tag the maker of a drug or device ("Zovirax®, Glaxo Smith Kline", "BioGide®
(Geistlich, Wolhusen, Suiza)"): an institution in its place ("Instituto Sosa") gave records away.
What counts as a cue (trademark signs, legal forms, the lists) is the pack's `makers` section of
its organisations vocabulary; where the span stands counts too (a place after it in brackets, a
product's name before it). Each span read as a maker or product is counted as a fallback.

A maker cited with its untagged product ("Prograf® (Astellas)", "(Contour®, Boston Scientific)")
is kept as written, and counted as kept: the maker of a named product is public knowledge about
the product, not about the patient, and another firm beside a famous product gives the record
away. The makers service (pseudo.services.makers) decides it, so the places rule keeps that
maker's town and country in the same brackets; the option `keep_makers: false` turns it off.
"""

from __future__ import annotations

from typing import Any, Mapping

import regex

from pseudo.folds import normalise
from pseudo.keyed import KeyedStream
from pseudo.lists.weighted import WeightedList
from pseudo.model import Target
from pseudo.lists.pack import LocalePack
from pseudo.rules.base import LISTED, NOT_RECOGNISED, Context, Option, Surrogate
from pseudo.rules.healthcare import HealthcareUnitRule, recognise

_WORD = regex.compile(r"[\p{L}\p{N}]+")
_CLAUSE_START = regex.compile(r"[()\n]|\.\s")  # where the words a trademark sign belongs to begin
MIN_MAKERS = 5  # makers of the original's number of words enough to draw among; else any number
_BETWEEN = regex.compile(r"[^\p{L}\p{N}()]*")  # what may stand between a maker and the place after it
_PRODUCT_THEN = regex.compile(r"\s*[\p{Lu}\p{N}][^(),;]*[,;]\s*")  # "(Cavit, " before a maker
PLACE_LABELS = ("PLACE", "REGION", "COUNTRY")


def _clause_before(text: str, start: int) -> str:
    """The text from the last bracket, line or sentence end up to a position."""
    cuts = list(_CLAUSE_START.finditer(text, max(0, start - 120), start))
    return text[cuts[-1].end() if cuts else max(0, start - 120) : start]


def _in_brackets(text: str, start: int) -> bool:
    before = text[max(0, start - 120) : start]
    return before.rfind("(") > before.rfind(")")


def _place_after(target: Target, ctx: Context) -> bool:
    """A tagged place or country follows the span with nothing but punctuation between."""
    text, end = ctx.document.text, target.span.end
    return any(
        place.span.start >= end and _BETWEEN.fullmatch(text, end, place.span.start)
        for place in ctx.document.labelled(*PLACE_LABELS)
    )


def _after_a_product(target: Target, ctx: Context) -> bool:
    """'(Cavit, Espe)': the span follows one untagged name in its bracket, the way a product's
    maker is cited."""
    text, start = ctx.document.text, target.span.start
    opening = text.rfind("(", max(0, start - 60), start)
    if opening < 0 or not _PRODUCT_THEN.fullmatch(text, opening + 1, start):
        return False
    return not any(opening < t.span.start < start for t in ctx.document.targets)


def _one_word_makers(pack: LocalePack, catalogue: str) -> frozenset[str]:
    """Makers listed by one word ("Roche", "Alcon"), folded, that are no common word of the
    language ("Miles"): a span starting with one names that maker ("Alcon Cusi")."""

    def make() -> frozenset[str]:
        common = {r["word"] for r in pack.rows("common_words")} if pack.has("common_words") else set()
        single = (n.casefold() for n in pack.weighted(catalogue).items if len(_WORD.findall(n)) == 1)
        return frozenset(n for n in single if len(n) >= 4 and n not in common)

    return pack.cached(f"makers:one-word:{catalogue}", make)


def reading(target: Target, ctx: Context, makers: dict[str, Any]) -> tuple[str, str] | None:
    """("product" or "maker", the cue) where the span reads as one; None for an institution."""
    text, span = ctx.document.text, target.span
    marks = tuple(makers.get("marks") or ())
    unit_type, _ = recognise(target.text, ctx.pack, "organisations")
    if unit_type is not None and unit_type["type"] not in makers.get("types", ()):
        return None
    if _in_brackets(text, span.start) and _place_after(target, ctx):
        return "maker", "a place after it in brackets"  # "(MODUS; Medartis®, Basel, Suiza)": its maker
    right_after = text[span.end : span.end + 2].lstrip()[:1]
    if any(m in target.text for m in marks) or (right_after and right_after in marks):
        return "product", "a trademark sign on it"
    if unit_type is not None:
        return "maker", "a legal form or trade word"
    if any(m in _clause_before(text, span.start) for m in marks):
        return "maker", "a trademark sign before it"
    if _after_a_product(target, ctx):
        return "maker", "a product's name before it in brackets"
    words = _WORD.findall(target.text)
    if words and words[0].casefold() in _one_word_makers(ctx.pack, makers["catalogue"]):
        return "maker", "a listed maker's name"
    return None


def _legal_form(name: str, forms: frozenset[str]) -> bool:
    return name.rsplit(" ", 1)[-1].casefold() in forms


class OrganisationRule(HealthcareUnitRule):
    name = "organisations"
    labels = ("ORGANISATION",)
    needs = ("organisations",)
    vocabulary = "organisations"
    requires = ("address", "makers")
    options = {
        **HealthcareUnitRule.options,
        "keep_makers": Option(
            True,
            "keep a maker written beside its untagged product (a word marked ® or ™, a listed brand), and its town "
            "and country in the same brackets: public knowledge about the product; false replaces them",
            bool,
        ),
    }

    def recognises(self, text: str, after: str, label: str, pack: LocalePack, options: Mapping[str, Any] | None = None) -> int:
        """LISTED when the value is a maker the pack lists by one word, whole ("Genentech" tagged as
        a location: a firm, not a town). Type words are no sign here: "County" and "School" name
        places too."""
        if label not in self.labels or not pack.has(self.vocabulary):
            return NOT_RECOGNISED
        catalogue = (pack.vocabulary(self.vocabulary).get("makers") or {}).get("catalogue", "")
        if not catalogue or not pack.has(catalogue):
            return NOT_RECOGNISED
        return LISTED if text.strip().casefold() in _one_word_makers(pack, catalogue) else NOT_RECOGNISED

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        if ctx.services.makers.is_maker(ctx.document, target):
            return Surrogate(target.text, kept=True, kept_as="a product's maker")
        service = self._health_service(target, ctx)  # "SAS" is a region's health service, not a maker
        if service is not None:
            return service
        makers = ctx.pack.vocabulary(self.vocabulary).get("makers") or {}
        if not makers or not ctx.pack.has(makers.get("catalogue", "")):
            return super().replace(target, ctx)
        read = reading(target, ctx, makers)
        if read is None:
            return super().replace(target, ctx)
        kind, cue = read
        if kind == "product" and ctx.pack.has(makers.get("products", "")):
            return self._product(target, ctx, makers, cue)
        forms = frozenset(f.casefold() for f in makers.get("legal_forms") or ())
        form_after = ctx.services.makers.legal_form_after(ctx.document.text, target)
        with_form = _legal_form(target.text, forms) and not form_after
        every = ctx.pack.weighted(makers["catalogue"])

        def same_form() -> WeightedList:
            kept = [(n, w) for n, w in zip(every.items, every.weights) if _legal_form(n, forms) == with_form]
            return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept)) if kept else every

        pool = ctx.pack.cached(f"makers:form={with_form}", same_form)
        size = len(_WORD.findall(target.text))

        def same_size() -> WeightedList:
            kept = [(n, w) for n, w in zip(pool.items, pool.weights) if len(_WORD.findall(n)) == size]
            return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept)) if len(kept) >= MIN_MAKERS else pool

        pool = ctx.pack.cached(f"makers:form={with_form}:words={size}", same_size)  # "Genentech" a one-word firm, not "Hikma Pharmaceuticals"
        surrogate = ctx.consistent(f"{self.name}:maker", normalise(target.text), pool.draw)
        if form_after and _legal_form(surrogate, forms):
            surrogate = surrogate.rsplit(" ", 1)[0]  # drawn at a mention without the form after it: written once here
        return Surrogate(surrogate, fallback=f"organisation read as a maker ({cue}): a listed maker")

    def _product(self, target: Target, ctx: Context, makers: dict[str, Any], cue: str) -> Surrogate:
        """A listed brand in the original's casing; a trademark sign in the span stays where it was."""
        marks = "".join(makers.get("marks") or ())
        bare = target.text.strip(marks + " ")
        brands = ctx.pack.weighted(makers["products"])

        def draw(stream: KeyedStream) -> str:
            name = brands.draw(stream)
            return name.upper() if bare.isupper() and len(bare) > 1 else name

        brand = ctx.consistent(f"{self.name}:product", normalise(bare), draw)
        start = target.text.find(bare)
        text = target.text[:start] + brand + target.text[start + len(bare) :]
        return Surrogate(text, fallback=f"organisation read as a product ({cue}): a listed brand")
