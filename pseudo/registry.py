"""The registry of rule families, in the order they run.

Order matters: dates come before ages and identifiers (a birth date moves the age and the
personnummer), health care units before places (a catalogue hospital's street and postcode are
its own), places before phones (an area code may follow the surrogate town), names before
kinship-free mentions and e-mail addresses (an address is rebuilt from the surrogate name).
"""

from __future__ import annotations

from pseudo.rules.ages import AgeRule
from pseudo.rules.base import Rule
from pseudo.rules.contacts import EmailRule, IpRule, UrlRule
from pseudo.rules.dates import DateRule
from pseudo.rules.healthcare import HealthcareUnitRule
from pseudo.rules.ids import IdRule
from pseudo.rules.kinship import KinshipRule
from pseudo.rules.names import NameRule
from pseudo.rules.organisations import OrganisationRule
from pseudo.rules.other import OtherRule, SexRule
from pseudo.rules.phones import PhoneRule
from pseudo.rules.places import PlaceRule
from pseudo.rules.professions import ProfessionRule

RULES: dict[str, type[Rule]] = {
    rule.name: rule
    for rule in (
        DateRule,
        HealthcareUnitRule,
        PlaceRule,
        NameRule,
        KinshipRule,
        AgeRule,
        IdRule,
        PhoneRule,
        EmailRule,
        UrlRule,
        IpRule,
        OrganisationRule,
        ProfessionRule,
        SexRule,
        OtherRule,
    )
}

_BY_LABEL: dict[str, type[Rule]] = {label: rule for rule in RULES.values() for label in rule.labels}


def rule_for_label(label: str) -> type[Rule]:
    """The rule family that serves a canonical label."""
    return _BY_LABEL[label]
