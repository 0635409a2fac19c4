"""Organisations: a generic organisation of the same type, by the same machinery as health care units."""

from pseudo.rules.healthcare import HealthcareUnitRule


class OrganisationRule(HealthcareUnitRule):
    name = "organisations"
    labels = ("ORGANISATION",)
    needs = ("organisations",)
    vocabulary = "organisations"
