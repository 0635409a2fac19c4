"""Scoring evaluators' answers against a kit's key: how well each spotted pseudonymised records,
whether that beats guessing, and how far evaluators agree with one another."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Mapping, Sequence

from pseudo.errors import InputError
from pseudo.evaluation.kit import ANSWERS
from pseudo.evaluation.stats import binomial_test, cohen_kappa, fleiss_kappa, wilson


def read_key(path: str | Path) -> tuple[str, dict[str, dict[str, Any]]]:
    """The kit id and record id -> {condition, document_id, ...} from a kit's key.json."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except OSError as error:
        raise InputError(f"cannot read the key ({error.strerror})", str(path)) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text: not a judgment kit key (written by pseudo judge build)", str(path)) from None
    except json.JSONDecodeError as error:
        raise InputError(f"invalid JSON at line {error.lineno}", str(path)) from None
    records = raw.get("records") if isinstance(raw, dict) else None
    if not isinstance(records, dict) or not isinstance(raw.get("kit"), str) or not all(
        isinstance(r, dict) and r.get("condition") in ANSWERS for r in records.values()
    ):
        raise InputError("not a judgment kit key (written by pseudo judge build)", str(path))
    return raw["kit"], records


@dataclass
class Answers:
    """One evaluator's file: the usable answers and everything that could not be used."""

    name: str
    answers: dict[str, str] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)  # record ids the key does not hold
    duplicates: list[str] = field(default_factory=list)  # answered twice: kept once if the answers agree
    conflicting: list[str] = field(default_factory=list)  # answered twice, differently: not scored
    invalid: list[str] = field(default_factory=list)  # an answer other than real or pseudo
    missing: list[str] = field(default_factory=list)  # in the key, but no usable answer

    def problems(self) -> dict[str, list[str]]:
        names = ("unknown", "duplicates", "conflicting", "invalid", "missing")
        return {name: getattr(self, name) for name in names if getattr(self, name)}


def _rows(path: Path) -> list[Mapping[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise InputError(f"cannot read the answers ({error.strerror})", str(path)) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", str(path)) from None
    if text.lstrip().startswith(("[", "{")):
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError(f"invalid JSON at line {error.lineno}", str(path)) from None
        if not isinstance(raw, list) or not all(isinstance(row, dict) for row in raw):
            raise InputError("a JSON answer file is a list of objects", str(path))
        return raw
    reader = csv.DictReader(io.StringIO(text))
    if "record_id" not in (reader.fieldnames or ()) or "answer" not in (reader.fieldnames or ()):
        raise InputError("a CSV answer file needs the columns record_id and answer", str(path))
    return list(reader)


def read_answers(path: str | Path, key: Mapping[str, Any], name: str, kit: str) -> Answers:
    """One evaluator's answers; a file whose rows name another kit is refused, since its record
    ids mean other records (rows without a kit, typed by hand, are taken as they are)."""
    rows = _rows(Path(path))
    others = sorted({str(row["kit"]) for row in rows if row.get("kit") not in (None, "", kit)})
    if others:
        raise InputError(f"answers to kit {', '.join(others)}, not to this key's kit {kit}: score them with their own key.json", str(path))
    result = Answers(name)
    seen: dict[str, set[str]] = {}
    for row in rows:
        record = str(row.get("record_id") or "").strip()
        answer = str(row.get("answer") or "").strip().lower()
        if record not in key:
            result.unknown.append(record)
            continue
        if record in seen:
            if record not in result.duplicates:
                result.duplicates.append(record)
        else:
            seen[record] = set()
        if answer in ANSWERS:
            seen[record].add(answer)
        elif answer:
            result.invalid.append(record)
    for record, given in seen.items():
        if len(given) == 1:
            result.answers[record] = next(iter(given))
        elif len(given) > 1:
            result.conflicting.append(record)
    result.missing = [r for r in key if r not in result.answers and r not in result.conflicting]
    return result


def proportion(k: int, n: int) -> dict[str, Any]:
    interval = wilson(k, n)
    return {
        "k": k,
        "n": n,
        "value": k / n if n else None,
        "low": interval[0] if interval else None,
        "high": interval[1] if interval else None,
    }


def score_one(answers: Answers, key: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """'Positive' is pseudonymised: precision and recall are those of spotting pseudonymised records."""
    counts = {"pseudo_judged_pseudo": 0, "pseudo_judged_real": 0, "real_judged_pseudo": 0, "real_judged_real": 0}
    for record, answer in answers.answers.items():
        counts[f"{key[record]['condition']}_judged_{answer}"] += 1
    tp, fn = counts["pseudo_judged_pseudo"], counts["pseudo_judged_real"]
    fp, tn = counts["real_judged_pseudo"], counts["real_judged_real"]
    n = tp + fn + fp + tn
    return {
        "answered": n,
        "counts": counts,
        "precision": proportion(tp, tp + fp),
        "recall": proportion(tp, tp + fn),
        "accuracy": proportion(tp + tn, n),
        "share_pseudo_judged_real": proportion(fn, tp + fn),
        "share_real_judged_pseudo": proportion(fp, fp + tn),
        "binomial_p": binomial_test(tp + tn, n),
        "problems": answers.problems(),
    }


def agreement(evaluators: Sequence[Answers], key: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Cohen's kappa per pair on the records both answered; Fleiss' kappa and the records every
    evaluator caught on the records all of them answered."""
    pairs = []
    for a, b in combinations(evaluators, 2):
        common = [r for r in key if r in a.answers and r in b.answers]
        first, second = [a.answers[r] for r in common], [b.answers[r] for r in common]
        pairs.append({
            "evaluators": [a.name, b.name],
            "records": len(common),
            "observed_agreement": sum(x == y for x, y in zip(first, second)) / len(common) if common else None,
            "cohen_kappa": cohen_kappa(first, second),
        })
    everyone = [r for r in key if all(r in e.answers for e in evaluators)]
    result: dict[str, Any] = {"pairs": pairs, "records_answered_by_all": len(everyone)}
    if len(evaluators) >= 3:
        table = [[sum(e.answers[r] == c for e in evaluators) for c in ANSWERS] for r in everyone]
        result["fleiss_kappa"] = fleiss_kappa(table) if table else None
    result["caught_by_all"] = [
        {"record_id": r, "document_id": key[r].get("document_id")}
        for r in everyone
        if key[r]["condition"] == "pseudo" and all(e.answers[r] == "pseudo" for e in evaluators)
    ]
    return result


def evaluator_names(paths: Sequence[str]) -> list[str]:
    """Answer files are named by file name, or by the path as given when two file names clash."""
    names = [Path(p).name for p in paths]
    return [n if names.count(n) == 1 and n != "agreement" else p for n, p in zip(names, paths)]


def score(key_path: str, answer_paths: Sequence[str]) -> dict[str, Any]:
    """The JSON report: one object per evaluator keyed by answer-file name, plus `agreement`."""
    kit, key = read_key(key_path)
    evaluators = [read_answers(p, key, n, kit) for p, n in zip(answer_paths, evaluator_names(answer_paths))]
    report: dict[str, Any] = {e.name: score_one(e, key) for e in evaluators}
    report["agreement"] = agreement(evaluators, key)
    return report


METRICS = (
    ("precision", "precision (judged pseudo that were)"),
    ("recall", "recall (pseudo records caught)"),
    ("accuracy", "accuracy"),
    ("share_pseudo_judged_real", "share of pseudo judged real"),
    ("share_real_judged_pseudo", "share of real judged pseudo"),
)


def format_proportion(p: Mapping[str, Any]) -> str:
    if p["value"] is None:
        return "n/a"
    return f"{p['value']:.2f} [{p['low']:.2f}, {p['high']:.2f}] {p['k']}/{p['n']}"


COUNTS = ("pseudo_judged_pseudo", "pseudo_judged_real", "real_judged_pseudo", "real_judged_real")


def evaluators_of(report: Mapping[str, Any]) -> list[str]:
    return [n for n in report if n != "agreement"]


def table_rows(report: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """Measures as rows, one cell per evaluator, 95% Wilson intervals in brackets: the one table
    that the text output and the HTML report both show."""
    names = evaluators_of(report)
    rows = [("answered", [str(report[n]["answered"]) for n in names])]
    rows += [(counter.replace("_", " "), [str(report[n]["counts"][counter]) for n in names]) for counter in COUNTS]
    rows += [(title, [format_proportion(report[n][metric]) for n in names]) for metric, title in METRICS]
    rows.append(("binomial p vs guessing", [format_p(report[n]["binomial_p"]) for n in names]))
    return rows


def notes(report: Mapping[str, Any]) -> list[str]:
    """What the table does not show, one line each: records that could not be scored, agreement,
    and the pseudonymised records every evaluator caught (with their documents)."""
    lines = [
        f"{name}: {problem} record(s) ({len(records)}): {', '.join(records)}"
        for name in evaluators_of(report)
        for problem, records in report[name]["problems"].items()
    ]
    agree = report["agreement"]
    for pair in agree["pairs"]:
        kappa = "n/a" if pair["cohen_kappa"] is None else f"{pair['cohen_kappa']:.3f}"
        lines.append(f"Cohen's kappa {' / '.join(pair['evaluators'])}: {kappa} on {pair['records']} record(s)")
    if "fleiss_kappa" in agree:
        kappa = "n/a" if agree["fleiss_kappa"] is None else f"{agree['fleiss_kappa']:.3f}"
        lines.append(f"Fleiss' kappa: {kappa} on {agree['records_answered_by_all']} record(s)")
    caught = ", ".join(f"{c['record_id']} ({c['document_id']})" for c in agree["caught_by_all"]) or "none"
    lines.append(f"pseudonymised records every evaluator caught: {caught}")
    return lines


def text_table(report: Mapping[str, Any]) -> str:
    rows = [("", *evaluators_of(report)), *((title, *cells) for title, cells in table_rows(report))]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines + notes(report))


def format_p(value: float | None) -> str:
    return "n/a" if value is None else (f"{value:.3g}" if value >= 0.001 else f"{value:.1e}")
