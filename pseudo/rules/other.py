"""SEX stays as written, unless the record's running text outweighs it; OTHER is tagged for review by default."""

from __future__ import annotations

import regex

from pseudo.casing import match_case
from pseudo.lists.names import field_in_sex
from pseudo.model import Target
from pseudo.rules.base import Context, Rule, Surrogate
from pseudo.rules.ids import as_date, is_whole_date, plain_words


_FIELD_LABEL = regex.compile(r"\p{L}[^\S\n]*:[^\S\n]*$")  # "Sexo: ", "Sexo:": the value of a field, not a word of the story


class SexRule(Rule):
    """A sex field stays (the language gives the sex away anyway), except where the record's
    running text outweighs it, or its fields disagree, and the patient's surrogate names took the
    text's sex, or where the names held against a value written for either sex
    (`PersonService.field_sex`): the field says it too ("Sexo: H" beside "la paciente" again and
    again -> "Sexo: M"; "Sexo: M" beside "Arturo ... el paciente" -> "Sexo: H"), and the record
    holds one person where readers had caught "Amaia" with "Sexo: H". Only a field's value ("Sexo:
    H") is written so: "su hijo, varón de 20 años" tags a relative's sex, which stays."""

    name = "sex"
    labels = ("SEX",)
    requires = ("person",)

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        if ctx.pack is not None and target.role in (None, "patient") and _FIELD_LABEL.search(ctx.text_before(target.span, 40)):
            sex = ctx.services.person.field_sex(ctx.document)
            written = field_in_sex(ctx.pack, target.text, sex) if sex is not None else None
            if written is not None:
                return Surrogate(match_case(target.text, written))
        return Surrogate(target.text, kept=True)


class OtherRule(Rule):
    """No list can hold what OTHER means; when a surrogate is asked for, the span is read as what
    it looks like: a date moves as a date, a name becomes a name, digits are redrawn and common
    words stay (pseudo.rules.ids.plain_words), never random letters."""

    name = "other"
    labels = ("OTHER",)
    default_strategy = "tag"
    requires = ("clock",)

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        if not any(c.isalnum() for c in target.text):
            return Surrogate(f"[{target.label}]", fallback="OTHER span without letters or digits")
        if is_whole_date(target, ctx):
            return as_date(target, ctx, "OTHER span that is a date, moved as a date")
        text, reason = plain_words(target, ctx, "other")
        return Surrogate(text, kept=text == target.text, fallback=reason)
