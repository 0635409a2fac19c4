"""Placeholder until the rule lands."""

from pseudo.rules.base import Rule


class HealthcareUnitRule(Rule):
    name = "healthcare"
    labels = ("HEALTHCARE_UNIT",)
