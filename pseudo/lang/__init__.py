"""Language modules: only what data cannot say (inflection, check digits), one small module per language.

A pack names its module in pack.yaml (`morphology: sv`). A module may define
`split_inflection(word, known) -> (base, suffix)` (known: a spelling's weight in the lists, 0 if absent) and `inflect(surrogate, suffix) -> str` for
names, `ID_SCHEMES`, a tuple of identifier schemes (see pseudo.rules.ids.IdScheme), `ID_CHECKS`, a tuple
of `text -> True | False | None` check-digit validators for the same identifiers (read by `pseudo tells`), and
`read_numbers(text) -> [(start, end, value)]` with `write_number(value) -> str` for numbers written in
words, which the age rule then shifts like digits.
"""
