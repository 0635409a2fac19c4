"""No ID, DATE or OTHER surrogate of a span with letters holds letters a reader would take for a
machine's: every run of three or more letters is a word of the pack's lists (names, month and
weekday names) or the original's own letters."""

from __future__ import annotations

import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pseudo.datetext import month_names, weekday_names
from pseudo.engine import rule_context
from pseudo.keyed import Keyring
from pseudo.lists.pack import load_pack
from pseudo.model import Document, Span, Target
from pseudo.rules.dates import OPTIONS, DateRule
from pseudo.rules.ids import NAME_LISTS, IdRule
from pseudo.rules.other import OtherRule

PACKS = {code: load_pack(code) for code in ("es", "sv")}
RULES = {"ID": (IdRule(), {"remove": ()}), "DATE": (DateRule(), {n: o.default for n, o in OPTIONS.items()}), "OTHER": (OtherRule(), {})}
RUN = regex.compile(r"\p{L}{3,}")
WORDS = st.sampled_from(["Lactante", "raza", "caucásica", "november", "igår", "Pérez", "Lucía", "AB", "xq", "HC", "Marzo", "kl"])
PIECES = st.one_of(WORDS, st.from_regex(r"[A-Za-zåäöñé]{1,9}", fullmatch=True), st.from_regex(r"\d{1,8}", fullmatch=True))
SEPARATORS = st.sampled_from([" ", "-", "/", ". ", ""])


def vocabulary(code: str) -> frozenset[str]:
    """Every word a surrogate may write: the pack's names and the language's month and weekday names."""
    pack = PACKS[code]
    words = {word.casefold() for list_name in NAME_LISTS for name, _ in _names(pack, list_name) for word in name.split()}
    for names in (month_names(pack.language), weekday_names(pack.language)):
        words |= {form.rstrip(".").casefold() for written in names.written.values() for form in written}
    return frozenset(words)


def _names(pack, list_name):
    return [(row["name"], row["count"]) for row in pack.rows(list_name)]


VOCABULARY = {code: vocabulary(code) for code in PACKS}


@st.composite
def spans(draw):
    pieces = draw(st.lists(st.tuples(PIECES, SEPARATORS), min_size=1, max_size=4))
    text = "".join(piece + separator for piece, separator in pieces).strip(" -/.")
    return text if regex.search(r"\p{L}", text) else text + " Lactante"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=spans(), label=st.sampled_from(sorted(RULES)), code=st.sampled_from(sorted(PACKS)), key=st.binary(min_size=1, max_size=4))
def test_no_surrogate_holds_letters_that_are_no_word_and_not_the_originals(text, label, code, key):
    document = Document("d", f"Nota: {text}.", (Span(6, 6 + len(text), label),))
    rule, options = RULES[label]
    ctx = rule_context(document, PACKS[code], rule.name, options, Keyring(key))
    answer = rule.replace(Target(document.spans[0], text, label), ctx)
    surrogate = answer if isinstance(answer, str) else answer.text
    own = text.casefold()
    for run in RUN.findall(surrogate):
        assert run.casefold() in own or run.casefold() in VOCABULARY[code], (label, code, text, surrogate)
