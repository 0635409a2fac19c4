"""A pack's closed-class words, indexed once per pack: kinship terms, name particles, common words.

Shared by the rules, which keep or replace these words, and the evaluation, which reads them as cues.
"""

from __future__ import annotations

from typing import Any

from pseudo.lists.pack import LocalePack


def kinship_terms(pack: LocalePack) -> dict[str, dict[str, Any]]:
    """Every spelling (word and listed forms) -> its term."""

    def make() -> dict[str, dict[str, Any]]:
        terms: dict[str, dict[str, Any]] = {}
        for term in pack.vocabulary("kinship").get("terms", []):
            for spelling in [term["word"], *term.get("forms", [])]:
                terms.setdefault(spelling.casefold(), term)
        return terms

    return pack.cached("kinship-terms", make)


def particles(pack: LocalePack) -> frozenset[str]:
    """Words kept inside names ("de la", "von"): closed-class, from the pack's settings."""
    return pack.cached(
        "name-particles", lambda: frozenset(p.casefold() for p in pack.settings.names.particles)
    )


def surname_leads(pack: LocalePack) -> frozenset[str]:
    """Words that open a surname of two words ("San" of "San Martín"), folded, from the pack's settings."""
    return pack.cached("surname-leads", lambda: frozenset(w.casefold() for w in pack.settings.names.surname_leads))


def common_words(pack: LocalePack) -> frozenset[str]:
    """The language's most frequent words, case-folded (none when the pack lists none): a word
    that may be an ordinary word is never propagated as a name or a place."""
    if not pack.has("common_words"):
        return frozenset()
    return pack.cached("common-words", lambda: frozenset(row["word"].casefold() for row in pack.rows("common_words")))
