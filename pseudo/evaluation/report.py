"""The HTML report of a scoring: the table of `pseudo judge score` and a chart, in one file."""

from __future__ import annotations

from html import escape
from importlib import resources
from typing import Any, Mapping

from pseudo.evaluation.scoring import (
    METRICS,
    evaluators_of,
    format_proportion,
    notes,
    table_rows,
)

COLOURS = ("#1d4ed8", "#b45309", "#047857", "#7c3aed", "#be123c", "#0e7490")
BAR, GAP, LEFT, PLOT = 14, 10, 230, 420


def chart(report: Mapping[str, Any]) -> str:
    """Horizontal bars per measure and evaluator with 95% Wilson whiskers; the dashed line is 0.5."""
    names = evaluators_of(report)
    group = len(names) * BAR + GAP
    height = len(METRICS) * group + 50
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{LEFT + PLOT + 30}" height="{height}" role="img" '
        f'aria-label="Measures per evaluator with 95% intervals" font-family="sans-serif" font-size="12">'
    ]
    for tick in range(0, 11, 2):
        x = LEFT + PLOT * tick / 10
        parts.append(f'<line x1="{x}" y1="10" x2="{x}" y2="{height - 30}" stroke="#ddd"/>')
        parts.append(f'<text x="{x}" y="{height - 14}" text-anchor="middle">{tick / 10:.1f}</text>')
    half = LEFT + PLOT / 2
    parts.append(f'<line x1="{half}" y1="10" x2="{half}" y2="{height - 30}" stroke="#555" stroke-dasharray="4 3"/>')
    for row, (metric, title) in enumerate(METRICS):
        top = 10 + row * group
        parts.append(f'<text x="{LEFT - 8}" y="{top + len(names) * BAR / 2 + 4}" text-anchor="end">{escape(title)}</text>')
        for index, name in enumerate(names):
            p = report[name][metric]
            if p["value"] is None:
                continue
            y = top + index * BAR
            colour = COLOURS[index % len(COLOURS)]
            parts.append(
                f'<rect x="{LEFT}" y="{y + 2}" width="{PLOT * p["value"]:.1f}" height="{BAR - 4}" fill="{colour}" '
                f'opacity="0.75"><title>{escape(name)}: {escape(format_proportion(p))}</title></rect>'
            )
            low, high, mid = LEFT + PLOT * p["low"], LEFT + PLOT * p["high"], y + BAR / 2
            parts.append(f'<path d="M{low:.1f} {mid}H{high:.1f}M{low:.1f} {mid - 4}v8M{high:.1f} {mid - 4}v8" stroke="#111"/>')
    parts.append("</svg>")
    return "".join(parts)


def legend(report: Mapping[str, Any]) -> str:
    names = evaluators_of(report)
    return " ".join(
        f'<span><span style="display:inline-block;width:.8em;height:.8em;background:{COLOURS[i % len(COLOURS)]}"></span> '
        f"{escape(name)}</span>"
        for i, name in enumerate(names)
    )


def table(report: Mapping[str, Any]) -> str:
    head = "".join(f"<th>{escape(n)}</th>" for n in evaluators_of(report))
    body = "".join(
        "<tr><th>" + escape(title) + "</th>" + "".join(f"<td>{escape(v)}</td>" for v in values) + "</tr>"
        for title, values in table_rows(report)
    )
    return f"<table><tr><th></th>{head}</tr>{body}</table>"


def html_report(report: Mapping[str, Any]) -> str:
    template = resources.files("pseudo.evaluation").joinpath("templates/report.html").read_text(encoding="utf-8")
    listed = "".join(f"<li>{escape(line)}</li>" for line in notes(report))
    parts = {"{{table}}": table(report), "{{legend}}": legend(report), "{{chart}}": chart(report), "{{notes}}": f"<ul>{listed}</ul>"}
    for marker, content in parts.items():
        template = template.replace(marker, content)
    return template
