"""E-mail addresses: rebuilt from the surrogate of the person they derive from, on reserved domains."""

from es_helpers import run, run_many

from pseudo.folds import ascii_fold as fold
from pseudo.rules.contacts import RESERVED_DOMAINS

DOCTOR = "NOMBRE_PERSONAL_SANITARIO"
MAIL = "CORREO_ELECTRONICO"


def test_an_address_made_from_a_name_follows_the_surrogate_name():
    text = "Remitido por: Ignacio Navarro Cuéllar E-mail: nnavcu@hotmail.com."
    for name, mail in run_many(text, [("Ignacio Navarro Cuéllar", DOCTOR), ("nnavcu@hotmail.com", MAIL)]):
        _, surname, second = [fold(w) for w in name.split()]
        local, domain = mail.split("@")
        assert domain == "example.com"
        assert local[1:] == surname[:3] + second[:2], (name, mail)


def test_separators_stay_between_the_name_parts():
    text = "Dra. Marta Sobas (marta.sobas@gmail.com)"
    for name, mail in run_many(text, [("Marta Sobas", DOCTOR), ("marta.sobas@gmail.com", MAIL)]):
        first, last = [fold(w) for w in name.split()]
        assert mail.split("@")[0] == f"{first}.{last}"


def test_an_address_of_nobody_named_is_drawn_from_names_on_a_reserved_domain():
    for (mail,) in run_many("Contacto: contacto@clinica.es", [("contacto@clinica.es", MAIL)]):
        local, domain = mail.split("@")
        assert domain in RESERVED_DOMAINS and local.isascii() and local != "contacto"


def test_no_real_provider_survives():
    result = run("a: pepe@gmail.com, b: ana@yahoo.es", [("pepe@gmail.com", MAIL), ("ana@yahoo.es", MAIL)])
    assert all(r.surrogate.split("@")[1] in RESERVED_DOMAINS for r in result.replacements)
