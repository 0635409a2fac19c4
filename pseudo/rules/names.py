"""Placeholder until the rule lands."""

from pseudo.rules.base import Rule


class NameRule(Rule):
    name = "names"
    labels = ("FIRST_NAME","LAST_NAME","PERSON",)
