"""Placeholder until the rule lands."""

from pseudo.rules.base import Rule


class DateRule(Rule):
    name = "dates"
    labels = ("DATE",)
