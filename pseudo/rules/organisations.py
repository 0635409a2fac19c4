"""Placeholder until the rule lands."""

from pseudo.rules.base import Rule


class OrganisationRule(Rule):
    name = "organisations"
    labels = ("ORGANISATION",)
