"""Placeholder until the rule lands."""

from pseudo.rules.base import Rule


class KinshipRule(Rule):
    name = "kinship"
    labels = ("KINSHIP",)
