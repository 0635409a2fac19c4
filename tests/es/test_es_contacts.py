"""E-mail addresses and URLs: rebuilt from the surrogate of the person they derive from, on
domains people in Spain really use, or reserved ones with `contacts: fictional`."""

import regex
from es_helpers import es_pack, run, run_many

from pseudo.folds import ascii_fold as fold
from pseudo.rules.contacts import RESERVED_DOMAINS

DOCTOR = "NOMBRE_PERSONAL_SANITARIO"
MAIL = "CORREO_ELECTRONICO"


def test_an_address_made_from_a_name_follows_the_surrogate_name():
    text = "Remitido por: Ignacio Navarro Cuéllar E-mail: nnavcu@hotmail.com."
    for name, mail in run_many(text, [("Ignacio Navarro Cuéllar", DOCTOR), ("nnavcu@hotmail.com", MAIL)]):
        _, surname, second = [fold(w) for w in name.split()]
        local, domain = mail.split("@")
        assert domain in providers()
        assert local[1:] == surname[:3] + second[:2], (name, mail)


def test_separators_stay_between_the_name_parts():
    text = "Dra. Marta Sobas (marta.sobas@gmail.com)"
    for name, mail in run_many(text, [("Marta Sobas", DOCTOR), ("marta.sobas@gmail.com", MAIL)]):
        first, last = [fold(w) for w in name.split()]
        assert mail.split("@")[0] == f"{first}.{last}"


def providers():
    return {r["name"] for r in es_pack().rows("email_domains") if r["kind"] == "provider"}


def test_an_address_of_nobody_named_is_drawn_from_names_on_a_listed_domain():
    listed = {r["name"] for r in es_pack().rows("email_domains")}
    first_names = {fold(r["name"]).casefold() for r in es_pack().rows("first_names_female")[:200]}
    first_names |= {fold(r["name"]).casefold() for r in es_pack().rows("first_names_male")[:200]}
    surnames = {fold(r["name"]).casefold().replace(" ", "") for r in es_pack().rows("last_names")[:500]}
    for (mail,) in run_many("Contacto: contacto@clinica.es", [("contacto@clinica.es", MAIL)]):
        local, domain = mail.split("@")
        assert domain in listed and not domain.startswith("example.")
        assert any(local.startswith(f) and local[len(f) :] in surnames for f in first_names | {n[0] for n in first_names})


def test_a_provider_becomes_another_listed_provider():
    result = run("a: pepe@gmail.com, b: ana@yahoo.es", [("pepe@gmail.com", MAIL), ("ana@yahoo.es", MAIL)])
    assert all(r.surrogate.split("@")[1] in providers() for r in result.replacements)


def test_an_institution_domain_is_rebuilt_from_the_surrogate_town():
    text = "Hospital de Getafe. Dr. Pablo Ruiz, pruiz@hospital-getafe.es, web www.hospital-getafe.es/citas"
    spans = [("Getafe", "TERRITORIO"), ("Pablo Ruiz", DOCTOR), ("pruiz@hospital-getafe.es", MAIL), ("www.hospital-getafe.es/citas", "URL_WEB")]
    for town, name, mail, url in run_many(text, spans):
        domain = "hospital-" + "-".join("".join(c if c.isalnum() else " " for c in fold(town).casefold()).split()) + ".es"
        assert mail.split("@")[1] == domain and url.startswith(f"www.{domain}/"), (town, mail, url)
        assert mail.split("@")[0] == fold(name.split()[0][0] + name.split()[1]).casefold()


def test_contacts_fictional_keeps_reserved_domains():
    for (mail,) in run_many("a: pepe@gmail.com", [("pepe@gmail.com", MAIL)], keys=5, rules={"emails": {"contacts": "fictional"}}):
        assert mail.split("@")[1] in RESERVED_DOMAINS


def test_an_institution_domain_that_names_no_place_becomes_a_listed_one_not_a_town_hall():
    """"comb.cat" names no town: a town glued onto it ("@teruel.es") read as a town hall's to readers."""
    listed = {row["name"] for row in es_pack().rows("email_domains")}
    for town, mail in run_many("Barcelona. e-mail: 17039psg@comb.cat", [("Barcelona", "TERRITORIO"), ("17039psg@comb.cat", MAIL)]):
        assert mail.split("@")[1] in listed, (town, mail)


def test_a_health_service_domain_is_the_one_of_the_surrogate_towns_region():
    """A Galician service's domain for a doctor in Palma gave records away: the listed institution
    domain is the region's where the pack lists one, else a provider's."""
    pack = es_pack()
    tree = pack.tree()
    by_region = {r["region"]: r["name"] for r in pack.rows("email_domains") if r["kind"] == "institution"}
    providers = {r["name"] for r in pack.rows("email_domains") if r["kind"] == "provider"}
    for town, mail in run_many("Gijón. e-mail: mgarcia@sespa.es", [("Gijón", "TERRITORIO"), ("mgarcia@sespa.es", MAIL)], keys=12):
        place = next(p for p in tree.lookup(town) if p.kind == "municipality")
        region = tree.ancestor(place, "autonomous_community").name
        assert mail.split("@")[1] == by_region.get(region, mail.split("@")[1]), (town, mail)
        assert region in by_region or mail.split("@")[1] in providers, (town, mail)


MADRID_TOWNS = {p.name for p in es_pack().tree().descendants(es_pack().tree().places["ES-A13"], "municipality")}


def test_a_regions_own_service_domain_is_never_its_only_surrogate():
    """A Madrid service's address in a record whose town becomes a Madrid town: the region's only
    listed domain is the original, so a provider, never an error."""
    towns = set()
    tagged = [("Sabadell", "TERRITORIO"), ("mgarcia@salud.madrid.org", MAIL)]
    for town, mail in run_many("Sabadell. e-mail: mgarcia@salud.madrid.org", tagged, keys=60, rules={"places": {"keep": "none"}}):
        assert not mail.endswith("@salud.madrid.org"), (town, mail)
        towns.add(town)
    assert towns & MADRID_TOWNS  # the case occurred


def test_a_kept_regions_own_service_domain_stays_with_a_town_of_that_region():
    """Asturias kept, the town drawn inside it: SESPA's domain says no more than the province
    written beside it, and a provider's in its place made the doctor's address read wrong."""
    tree = es_pack().tree()
    for town, mail in run_many("Gijón. e-mail: mgarcia@sespa.es", [("Gijón", "TERRITORIO"), ("mgarcia@sespa.es", MAIL)], keys=12):
        place = next(p for p in tree.lookup(town) if p.kind == "municipality")
        assert tree.ancestor(place, "province").name == "Asturias" and place.name != "Gijón", town
        assert mail.endswith("@sespa.es") and mail != "mgarcia@sespa.es", mail


def test_a_surrogate_may_hold_a_place_kept_as_written():
    """Madrid stays (a kept province): the Madrid service's domain beside it holds no hidden
    original, so it is drawn at once, not as a last resort with a fallback."""
    for key in range(5):
        result = run("Madrid. e-mail: mgarcia@sespa.es", [("Madrid", "TERRITORIO"), ("mgarcia@sespa.es", MAIL)], key=f"k{key}".encode())
        town, mail = result.replacements
        assert town.surrogate == "Madrid" and mail.surrogate.endswith("@salud.madrid.org") and mail.fallback is None, mail.fallback


def test_an_address_no_name_explains_is_built_from_the_name_signed_just_before_it():
    """'emencia.hdoc' matches too little of 'Elena Mencía-Gutiérrez' to be rebuilt piece by
    piece; its local part is then made from that doctor's surrogate, not from a stranger's name
    (readers caught 'Dra. Ana López ... marco.pizarro@')."""
    text = "Remitido por: Elena Mencía-Gutiérrez Correos electrónicos: emencia.hdoc@salud.madrid.org"
    for name, mail in run_many(text, [("Elena Mencía-Gutiérrez", DOCTOR), ("emencia.hdoc@salud.madrid.org", MAIL)]):
        words = [fold(w).casefold() for w in name.replace("-", " ").split()]
        local = mail.split("@")[0]
        assert local.startswith((words[0], words[0][0])) and words[1] in local, (name, mail)


def test_the_signed_name_gives_an_address_no_title_or_particle():
    """'Dra. Juana de la Cruz' signs 'hdoc.urg@...': the address is made of her surrogate given
    name and surname, never of 'dra', 'de' or 'la'."""
    text = "Remitido por: Dra. Juana de la Cruz. Correo: hdoc.urg@salud.madrid.org"
    for name, mail in run_many(text, [("Dra. Juana de la Cruz", DOCTOR), ("hdoc.urg@salud.madrid.org", MAIL)]):
        first, last = mail.split("@")[0].split(".")
        assert first not in ("dra", "de", "la", "del") and last not in ("dra", "de", "la", "del"), (name, mail)


def test_letters_no_name_explains_are_dropped_not_redrawn():
    """"josea.contreras.sspa": "sspa" (a health service's tag) is no name; four random letters in
    its place would read as a machine string. It goes, with its separator; an initial stays one letter."""
    text = "Responsable clínico: Jose Antonio Contreras Ibáñez. Correo: josea.contreras.sspa@juntadeandalucia.es"
    for name, mail in run_many(text, [("Jose Antonio Contreras Ibáñez", DOCTOR), ("josea.contreras.sspa@juntadeandalucia.es", MAIL)]):
        first, second, surname = [fold(w).casefold() for w in name.split()[:3]]
        assert mail.split("@")[0] == f"{first}{second[0]}.{surname}", (name, mail)


def test_a_letter_among_letters_no_name_explains_is_no_initial():
    """"nefropolaina@" for Manuel Polaina Rusillo had become "sxramon@" (round 40): the "r" of the
    service's "nefro" was read as Rusillo's initial, the "o" as another's. "nefro" goes whole, and
    as it opens the address where the given name is not, the surrogate's given name stands there
    (a bare surname, "ribas@hotmail.com", read as made up in round 66)."""
    text = "Responsable clínico: Dr. Manuel Polaina Rusillo. nefropolaina@yahoo.es"
    for name, mail in run_many(text, [("Manuel Polaina Rusillo", DOCTOR), ("nefropolaina@yahoo.es", MAIL)]):
        first, surname = (fold(w).casefold() for w in name.split()[:2])
        assert regex.fullmatch(rf"{first}{surname}\d*", mail.split("@")[0]), (name, mail)


def test_a_letter_no_name_explains_becomes_an_initial_of_the_surrogate():
    """"hermidana@" for José Alberto Hermida Pérez had become "garciaor@" for Antonio Rafael García
    Mena (round 19: "does not match the name"): the "n" no name explains was drawn at random. It is
    now the initial of a name the address does not use yet, in the order of the name."""
    text = "Remitido por: José Alberto Hermida Pérez. hermidana@yahoo.es"
    for name, mail in run_many(text, [("José Alberto Hermida Pérez", DOCTOR), ("hermidana@yahoo.es", MAIL)]):
        first, second, surname = [fold(w).casefold() for w in name.split()[:3]]
        assert mail.split("@")[0] == f"{surname}{first[0]}{second[0]}", (name, mail)


def test_two_addresses_of_one_record_never_become_one():
    """"E-mail: bacamorilla@hotmail.com E-mail: angelasoriano_@hotmail.com" had become the same
    address twice: both rebuilt from the doctor's surrogate name. The second is made its own."""
    text = ("Responsable clínico: Dra. Ángela Soriano Pérez, Servicio de Dolor, Jaén "
            "E-mail: bacamorilla@hotmail.com E-mail: angelasoriano_@hotmail.com")  # fmt: skip
    spans = [("Ángela Soriano Pérez", "NOMBRE_PERSONAL_SANITARIO"), ("bacamorilla@hotmail.com", "CORREO_ELECTRONICO"),
             ("angelasoriano_@hotmail.com", "CORREO_ELECTRONICO")]  # fmt: skip
    for _, first, second in run_many(text, spans, keys=15):
        assert first != second, first


def test_an_address_of_one_common_name_alone_is_made_ones_own():
    """"ballujera@hotmail.com" (a rare surname alone) had become "garcia@gmail.com": an address of a
    common name alone is long taken, and readers called it generic. Two digits at a provider."""
    text = "Remitido por: Dra. Paula Ortiz Ballujera. Correo electrónico: ballujera@hotmail.com"
    spans = [("Paula Ortiz Ballujera", "NOMBRE_PERSONAL_SANITARIO"), ("ballujera@hotmail.com", "CORREO_ELECTRONICO")]
    common = {fold(n) for n in es_pack().weighted("last_names").top(200).items}
    for name, mail in run_many(text, spans, keys=20):
        local = mail.split("@")[0]
        assert regex.sub(r"\d", "", local) not in common or regex.search(r"\d\d$", local), (name, mail)


def test_an_address_that_is_a_number_stays_a_number():
    """"a00799839@itesm.com" had become "ramontorres07567562@salud.madrid.org": a name before eight
    digits reads as a machine's; a number with a letter keeps that shape."""
    text = "Dr. Ramón Torres Carvajal. Correo electrónico: a00799839@itesm.com"
    for _, mail in run_many(text, [("Ramón Torres Carvajal", "NOMBRE_PERSONAL_SANITARIO"), ("a00799839@itesm.com", "CORREO_ELECTRONICO")], keys=10):
        assert regex.fullmatch(r"[a-z]\d{8}", mail.split("@")[0]), mail


def test_an_address_of_another_persons_name_stays_a_strangers():
    """Leftover round 22: every surrogate address matched a name of its record, so an original
    that did not ("garcia_martor@" signed by Elena Salgado Gómez) stood out at once. An address of
    a listed name none of the record's people hold is drawn from other names, as the original
    was; a mailbox of no name ("hdoc.urg") is still the signer's."""
    text = "Remitido por: Dra. Elena Salgado Gómez. Servicio de Pediatría. garcia_martor@g.va.es"
    for name, mail in run_many(text, [("Elena Salgado Gómez", DOCTOR), ("garcia_martor@g.va.es", MAIL)], keys=10):
        words = {fold(w).casefold() for w in name.split()}
        assert "_" in mail and not words & set(mail.split("@")[0].split("_")), (name, mail)
    text = "Responsable clínico: Dra. Ángela Soriano Pérez, Jaén E-mail: bacamorilla@hotmail.com"
    for name, mail in run_many(text, [("Ángela Soriano Pérez", DOCTOR), ("bacamorilla@hotmail.com", MAIL)], keys=6):
        words = {fold(w).casefold() for w in name.split()}
        assert not any(w in mail for w in words), (name, mail)  # "Morilla" inside it: a stranger's too
    text = "Remitido por: Dra. Elena Salgado Gómez. urgencias.hospital@salud.madrid.org"
    for name, mail in run_many(text, [("Elena Salgado Gómez", DOCTOR), ("urgencias.hospital@salud.madrid.org", MAIL)], keys=5):
        first = fold(name.split()[0]).casefold()
        assert mail.startswith((first, first[0])), (name, mail)  # "hospital" is a surname too, and a common word: no stranger's


def test_no_provider_launched_after_the_record_holds_its_addresses():
    """"@outlook.es" in a record of 2006 is an anachronism (the statistical reader's e-mail clue,
    outlook and icloud domains no original uses): a domain whose `since` year is after the
    record's latest date, as the output writes it, is never drawn."""
    late = {r["name"] for r in es_pack().rows("email_domains") if r.get("since") and int(r["since"]) > 2007}
    assert {"outlook.es", "icloud.com"} <= late
    drawn = {True: set(), False: set()}
    for year in (2003, 2019):
        text = f"Fecha de Ingreso: 12/03/{year}.\nCorreo electrónico: jgarcia@hotmail.com"
        for date, mail in run_many(text, [(f"12/03/{year}", "FECHAS"), ("jgarcia@hotmail.com", "CORREO_ELECTRONICO")], keys=60):
            drawn[year < 2010].add(mail.split("@")[1])
    assert not drawn[True] & late, drawn[True] & late
    assert drawn[False] & late  # the same draw reaches them for a recent record


def test_an_address_holding_a_name_written_with_a_slip_is_that_persons():
    """"m_trassierra@" for Dra. Magdalena Tassierra Villa had been drawn as a stranger's
    ("valeria_valenzuela@"), which both readers of rounds 42 and 43 caught: the slip is read as the
    name, and the address is rebuilt from her surrogate."""
    text = "Médico: Magdalena Tassierra Villa. E-mail autora: m_trassierra@yahoo.es"
    for name, mail in run_many(text, [("Magdalena Tassierra Villa", DOCTOR), ("m_trassierra@yahoo.es", MAIL)]):
        first, surname = [fold(w).casefold() for w in name.split()[:2]]
        assert mail.split("@")[0] == f"{first[0]}_{surname}", (name, mail)


def test_a_departments_address_is_rebuilt_from_the_department_and_the_surrogate_unit():
    """"urología.saneloy@hsel.osakidetza.net" (Servicio de Urología, Hospital San Eloy) had become
    "blas.real@osakidetza.eus", a person's address naming no one of the record, which both readers
    of a round named. The department's word stays (the record writes it) and the unit's name is the
    surrogate unit's, written together."""
    text = ("Remitido por: Dr. Juan Pereira Arias Servicio de Urología. Hospital San Eloy. Avenida Antonio Miranda, 5 Baracaldo 48902. "
            "Vizcaya. (España) urología.saneloy@hsel.osakidetza.net")  # fmt: skip
    spans = [("Juan Pereira Arias", "NOMBRE_PERSONAL_SANITARIO"), ("Hospital San Eloy", "HOSPITAL"), ("Avenida Antonio Miranda, 5", "CALLE"),
             ("Baracaldo", "TERRITORIO"), ("48902", "TERRITORIO"), ("Vizcaya", "TERRITORIO"), ("España", "PAIS"),
             ("urología.saneloy@hsel.osakidetza.net", "CORREO_ELECTRONICO")]  # fmt: skip
    for _, unit, *_, address in run_many(text, spans, keys=8):
        local = address.split("@")[0]
        department, _, named = local.partition(".")
        assert department == "urología" and named and named in unit.casefold().replace(" ", ""), (unit, address)

    text = ("Remitido por: Dra. Dolores Pereira Arias. Servicio de Urología. Hospital San Eloy. Refiere dolores lumbares. "
            "Correo: dolores.saneloy@hsel.osakidetza.net")  # a review's finding: a name's word written untagged as a noun
    spans = [("Dolores Pereira Arias", "NOMBRE_PERSONAL_SANITARIO"), ("Hospital San Eloy", "HOSPITAL"), ("dolores.saneloy@hsel.osakidetza.net", "CORREO_ELECTRONICO")]
    for *_, address in run_many(text, spans, keys=6):
        assert "dolores" not in address, address


def test_a_nickname_before_a_surname_in_an_address_becomes_the_surrogate_s_given_name():
    """"pepebarquero@yahoo.es" of Dr. José Barquero Romero had become "ribas@hotmail.com" (round 66):
    "pepe", José's nickname, spelt by no name, was dropped and a bare surname read as made up. A
    run of letters no name explains that opens the address, where the given name is nowhere in it,
    becomes the surrogate's given name."""
    text = "Médico: José Barquero Romero NºCol: 06 06 12345.\nRemitido por: Dr. José Barquero Romero. 06011 Badajoz. e-mail: pepebarquero@yahoo.es"
    spans = [("José Barquero Romero", "NOMBRE_PERSONAL_SANITARIO"), ("José Barquero Romero", "NOMBRE_PERSONAL_SANITARIO"),
             ("06011", "TERRITORIO"), ("Badajoz", "TERRITORIO"), ("pepebarquero@yahoo.es", "CORREO_ELECTRONICO")]  # fmt: skip
    for doctor, _, _, _, mail in run_many(text, spans, keys=10):
        first, surname = (fold(w) for w in doctor.split()[:2])
        assert mail.split("@")[0] == first + surname, (doctor, mail)
