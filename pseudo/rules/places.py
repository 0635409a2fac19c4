"""Placeholder until the rule lands."""

from pseudo.rules.base import Rule


class PlaceRule(Rule):
    name = "places"
    labels = ("PLACE","REGION","COUNTRY","STREET","POSTCODE","ADDRESS",)
