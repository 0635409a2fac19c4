"""The statistical reader: can a simple classifier tell surrogate values from original ones?

Blind readers catch what no hand-written check names. This reader learns it instead: for each label
family it trains a logistic regression on character n-grams and shape features of the values, originals
against surrogates, and reports the cross-validated area under the ROC curve (0.5: indistinguishable,
1: every surrogate gives itself away) and the features that most give surrogates away. scikit-learn is
an optional extra (`pip install "pseudo[eval]"`): it is imported only when the reader runs.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import regex

from pseudo.errors import PseudoError
from pseudo.evaluation.tells import Knowledge, knowledge_for, national_number
from pseudo.folds import ascii_fold as fold
from pseudo.labels import LabelMapping
from pseudo.lists.pack import LocalePack
from pseudo.model import Document

INSTALL = 'the statistical reader needs scikit-learn: pip install "pseudo[eval]" (or pip install scikit-learn)'
FAMILIES = {"FIRST_NAME": "PERSON", "LAST_NAME": "PERSON"}  # one person's names are read as one family
MIN_VALUES = 50  # fewer values in a family give an AUC too noisy to read
FOLDS = 5
SEED = 2019
TOP = 5  # give-away features reported per family
_WORD = regex.compile(r"\p{L}+")
_LENGTHS = (2, 4, 6, 9, 14, 20, 30)


@dataclass(frozen=True)
class Value:
    family: str
    text: str
    surrogate: bool
    knowledge: Knowledge


def sklearn_or_exit() -> Any:
    """The sklearn modules the reader uses; a PseudoError saying how to install them when missing."""
    try:
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import StratifiedKFold, cross_val_score
    except ImportError:
        raise PseudoError(INSTALL) from None
    return DictVectorizer, TfidfVectorizer, LogisticRegression, StratifiedKFold, cross_val_score


def collect(
    documents: Sequence[Document], labels: Mapping[str, LabelMapping], pack_for: Callable[[Document], LocalePack | None], surrogate: bool
) -> list[Value]:
    """Every tagged value of a corpus, with its family and the knowledge of its document's pack."""
    found = []
    for document in documents:
        k = knowledge_for(pack_for(document))
        for span in document.spans:
            if span.label in labels:
                label = labels[span.label].label
                text = document.span_text(span).strip()
                if text:
                    found.append(Value(FAMILIES.get(label, label), text, surrogate, k))
    return found


def _shape(text: str) -> str:
    """Letters, digits and spaces as X, x, d and a space, runs collapsed; other characters as they are."""
    out: list[str] = []
    for char in text:
        mark = "X" if char.isupper() else "x" if char.isalpha() else "d" if char.isdigit() else " " if char.isspace() else char
        if not out or out[-1] != mark:
            out.append(mark)
    return "".join(out)[:24]


def _case(text: str) -> str:
    words = _WORD.findall(text)
    if not words:
        return "none"
    if all(w.isupper() for w in words):
        return "upper"
    if all(w.islower() for w in words):
        return "lower"
    return "title" if all(w[0].isupper() for w in words) else "mixed"


def _listed(value: Value) -> str:
    """Whether the pack's lists hold the value, some of its words, or none."""
    k = value.knowledge
    if not k.words:
        return "no pack"
    if k.tree is not None and k.tree.lookup(value.text) or fold(value.text) in k.entries:
        return "whole"
    words = [fold(w) for w in _WORD.findall(value.text) if len(w) > 1]
    held = sum(w in k.words for w in words)
    return "all words" if words and held == len(words) else "some words" if held else "none"


def features(value: Value) -> dict[str, Any]:
    """The shape features of a value: what a reader sees besides its letters. Text-bearing ones
    (an e-mail domain, a phone prefix) are marked so that the report can hold them back."""
    text = value.text
    length = next((f"<={n}" for n in _LENGTHS if len(text) <= n), f">{_LENGTHS[-1]}")
    found: dict[str, Any] = {
        "length": length,
        "shape": _shape(text),
        "case": _case(text),
        "words": str(min(len(text.split()), 6)),
        "digits": "yes" if any(c.isdigit() for c in text) else "no",
        "listed": _listed(value),
    }
    if "@" in text:
        found["domain"] = text.rsplit("@", 1)[1].casefold()
    if value.family in ("PHONE", "FAX"):
        plan = value.knowledge.plan
        number = national_number(text, plan) if plan else None
        found["prefix"] = (number or "".join(c for c in text if c.isdigit()))[:3]
    return found


def _texts(values: Sequence[Value]) -> list[str]:
    return [v.text for v in values]


def _dicts(values: Sequence[Value]) -> list[dict[str, Any]]:
    return [features(v) for v in values]


def read_family(family: str, values: Sequence[Value], sk: Any) -> dict[str, Any]:
    """One family's cross-validated AUC and the features that give its surrogates away."""
    DictVectorizer, TfidfVectorizer, LogisticRegression, StratifiedKFold, cross_val_score = sk
    from scipy.sparse import hstack  # scikit-learn depends on scipy
    from sklearn.pipeline import FeatureUnion, make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    labels = [int(v.surrogate) for v in values]
    surrogates = sum(labels)
    row: dict[str, Any] = {"family": family, "values": len(values), "originals": len(values) - surrogates, "surrogates": surrogates}
    if len(values) < MIN_VALUES or min(surrogates, len(values) - surrogates) < FOLDS:
        return {**row, "status": "too few", "auc": None, "giveaways": []}
    ngrams = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 4), lowercase=False, sublinear_tf=True)
    shapes = DictVectorizer()
    model = make_pipeline(
        FeatureUnion([
            ("ngrams", make_pipeline(FunctionTransformer(_texts), ngrams)),
            ("shapes", make_pipeline(FunctionTransformer(_dicts), shapes)),
        ]),
        LogisticRegression(solver="liblinear", max_iter=1000),
    )
    folds = StratifiedKFold(n_splits=FOLDS, shuffle=True, random_state=SEED)
    scores = cross_val_score(model, list(values), labels, cv=folds, scoring="roc_auc")
    model.fit(list(values), labels)
    matrix = hstack([ngrams.transform(_texts(values)), shapes.transform(_dicts(values))]).tocsc()
    names = [f"ngram {n!r}" for n in ngrams.get_feature_names_out()] + [str(n) for n in shapes.get_feature_names_out()]
    weights = model[-1].coef_[0]
    originals = [i for i, label in enumerate(labels) if not label]
    in_originals = (matrix[originals] != 0).sum(axis=0).A1
    giveaways = []
    for index in weights.argsort()[::-1]:
        if weights[index] <= 0 or len(giveaways) == TOP:
            break
        name = names[index]
        text_bearing = name.startswith(("ngram ", "domain=", "prefix="))
        if text_bearing and in_originals[index]:
            continue  # never print a piece of an original value
        giveaways.append(name)
    return {**row, "status": "read", "auc": round(float(scores.mean()), 3), "auc_folds": [round(float(s), 3) for s in scores], "giveaways": giveaways}


def read(originals: Sequence[Value], surrogates: Sequence[Value], paired: bool, sk: Any = None) -> dict[str, Any]:
    """The AUC of every family found on either side, in the order the families first occur."""
    sk = sk or sklearn_or_exit()
    families: dict[str, list[Value]] = defaultdict(list)
    for value in [*originals, *surrogates]:
        families[value.family].append(value)
    rows = [read_family(family, values, sk) for family, values in families.items()]
    return {"paired": paired, "folds": FOLDS, "seed": SEED, "min_values": MIN_VALUES, "families": rows}


def text_table(result: Mapping[str, Any]) -> str:
    """One row per family: values, AUC (or "too few") and the give-away features."""
    rows = [("family", "values", "orig/surr", "AUC", "gives surrogates away")]
    for family in result["families"]:
        auc = "too few" if family["auc"] is None else f"{family['auc']:.3f}"
        rows.append((family["family"], str(family["values"]), f"{family['originals']}/{family['surrogates']}", auc, "; ".join(family["giveaways"])))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:4], widths[1:])), r[4]]).rstrip() for r in rows]
    how = "paired by document id" if result["paired"] else "two corpora, not paired"
    lines.append(
        f"{FOLDS}-fold stratified cross-validated AUC ({how}; seed {SEED}): 0.5 = surrogates indistinguishable from originals, "
        f"1 = every surrogate gives itself away; under {MIN_VALUES} values: too few"
    )
    return "\n".join(lines)
