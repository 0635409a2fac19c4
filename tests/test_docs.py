"""The documentation names every rule and every option it can be configured with."""

import re
from pathlib import Path

import pytest

from pseudo.registry import RULES

RULES_DOC = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_rule_and_option_is_documented(name):
    assert re.search(rf"^\|[^|\n]*\b{name}\b[^|\n]*\|", RULES_DOC, re.MULTILINE), f"docs/rules.md lacks {name}"
    for option in RULES[name].options:
        assert f"`{option}`" in RULES_DOC, f"docs/rules.md does not describe {name}.{option}"


README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
EVALUATION_DOC = (Path(__file__).parents[1] / "docs" / "evaluation.md").read_text(encoding="utf-8")


def commands():
    import typer

    from pseudo.cli import app

    def walk(name, command):
        """Groups inside groups too (`judge leftovers build`)."""
        for sub, inner in getattr(command, "commands", {}).items():
            yield from walk(f"{name} {sub}", inner)
        yield name, command

    for name, command in typer.main.get_command(app).commands.items():
        yield from walk(name, command)


def long_options(command):
    return [o for p in command.params for o in p.opts if o.startswith("--")]


def synopsis():
    return README.split("## Using it", 1)[1].split("```sh", 1)[1].split("```", 1)[0]


def test_the_readme_synopsis_names_every_command_option_and_format():
    from pseudo.io import FORMATS

    text = synopsis()
    for name, command in commands():
        assert name.split()[-1] in text, f"README synopsis lacks pseudo {name}"
    apply = dict(commands())["apply"]
    for option in long_options(apply):
        assert f"[{option}" in text, f"README synopsis lacks apply {option}"
    shown = re.search(r"--format ([\w|]+)", text).group(1).split("|")
    assert sorted(shown) == sorted(["auto", *FORMATS])


def test_the_readme_names_every_tagset():
    from pseudo.labels import tagsets

    for name in tagsets():
        assert f"`{name}`" in README, f"README lacks the tagset {name}"


def test_the_evaluation_doc_names_every_option_of_its_commands():
    for name, command in commands():
        if name.startswith(("judge", "audit", "tells")):
            for option in long_options(command):
                assert f"`{option}" in EVALUATION_DOC or f"[{option}" in EVALUATION_DOC, f"docs/evaluation.md lacks {name} {option}"


def test_the_exit_codes_the_readme_states():
    from pseudo.cli import EXIT_SKIPPED
    from pseudo.console import EXIT_ERROR
    from pseudo.evaluation.cli import EXIT_AUDIT_FAILED

    for code, meaning in ((EXIT_ERROR, "bad input"), (EXIT_SKIPPED, "done with `--on-error skip`"), (EXIT_AUDIT_FAILED, "`pseudo audit` found a leak")):
        assert re.search(rf"\b{code} {re.escape(meaning)}", README), meaning


def test_the_rule_in_adding_a_rule_runs(tmp_path):
    """The example class of docs/adding-a-rule.md, as printed, replaces a span from a pack list."""
    from pseudo.keyed import Keyring
    from pseudo.lists.pack import LocalePack
    from pseudo.model import Document, Span
    from pseudo.engine import rule_context
    from pseudo.model import Target
    from pseudo.rules.base import Rule

    doc = (Path(__file__).parents[1] / "docs" / "adding-a-rule.md").read_text(encoding="utf-8")
    namespace: dict = {}
    exec(doc.split("```python", 1)[1].split("```", 1)[0], namespace)
    rule = namespace["VehicleRule"]()
    assert isinstance(rule, Rule) and rule.needs == ("vehicle_makes",)
    (tmp_path / "vehicle_makes.tsv").write_text("name\tcount\nVolvo\t10\nSaab\t5\nScania\t2\n", encoding="utf-8")
    (tmp_path / "pack.yaml").write_text("lists:\n  vehicle_makes: {file: vehicle_makes.tsv, source: test, licence: CC0}\n", encoding="utf-8")
    document = Document("d", "Bilen, en Volvo, stod kvar.", (Span(10, 15, "VEHICLE"),))
    ctx = rule_context(document, LocalePack("xx", tmp_path), "vehicles", {"keep_make": True}, Keyring(b"k"))
    surrogate = rule.replace(Target(document.spans[0], "Volvo", "VEHICLE"), ctx)
    assert surrogate in ("Saab", "Scania")


def test_ci_runs_the_readme_test_command_as_written():
    """CI must run what README tells a contributor to run, layering check included."""
    command = README.split("## Running the tests", 1)[1].split("```sh", 1)[1].split("```", 1)[0].strip()
    ci = (Path(__file__).parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert "lint-imports" in command
    assert command in ci.splitlines()
