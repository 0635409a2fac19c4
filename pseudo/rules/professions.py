"""Placeholder until the rule lands."""

from pseudo.rules.base import Rule


class ProfessionRule(Rule):
    name = "professions"
    labels = ("PROFESSION",)
