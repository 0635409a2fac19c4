"""The English corpora of the shared folder through `pseudo apply` and `pseudo audit` (presidio's
synthetic samples and the PhysioNet deid sample): no error, output aligned, audit clean; and every
US address coherent: a city of the state written, a ZIP of that city, a street of that city (else
a common national name), a phone of an area code of that state.

The corpora are looked for in the shared folder (tests/shared_data.py); the tests are skipped
when it is not there, and fail under CI.
"""

from __future__ import annotations

import regex
import pytest
from en_helpers import run
from shared_data import SHARED
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.digits import digits_of
from pseudo.io import read_input
from pseudo.lists.numbering import numbering_plan
from pseudo.lists.pack import load_pack

PRESIDIO = SHARED / "corpora/presidio_synth/synth_dataset_v2.sample.json"
PHYSIONET = SHARED / "corpora/physionet_deid/id.text"
ENVIRONMENT = {"PSEUDO_KEY": "english-corpora-test"}
US_ADDRESS = regex.compile(r"^(?P<street>\d+ [^,\n]+?)(?:,? (?:Apt|Suite|Unit)\.? \w+)?[,\n]\s*(?P<city>[^,\n]+?)\s*[,\n]\s*,?\s*(?P<state>[A-Z]{2})\s+(?P<zip>\d{5})$")


def _apply(tmp_path, source, name: str, *extra: str):
    out = tmp_path / name
    result = CliRunner().invoke(app, ["apply", str(source), "--locale", "en", "--out", str(out), *extra], env=ENVIRONMENT)
    assert result.exit_code == 0 and "0 error(s)" in result.output, result.output
    audit = CliRunner().invoke(app, ["audit", str(source), str(out), "--locale", "en", *extra])
    assert audit.exit_code == 0 and "leak 0, collision 0, inconsistent 0" in audit.output, audit.output
    return out


def _aligned(source, out, fmt: str) -> None:
    """Same documents, same labels in the same order, the text between spans unchanged."""
    before, after = read_input(str(source), fmt), read_input(str(out), fmt)  # reading checks every span's text
    assert not before.errors and not after.errors
    assert [d.id for d in before.documents] == [d.id for d in after.documents]
    for old, new in zip(before.documents, after.documents):
        assert [s.label for s in old.spans] == [s.label for s in new.spans], old.id
        edges = lambda d: list(zip((0, *(s.end for s in d.spans)), (*(s.start for s in d.spans), len(d.text))))  # noqa: E731
        assert [old.text[a:b] for a, b in edges(old)] == [new.text[a:b] for a, b in edges(new)], old.id


class Coherence:
    """Checks a surrogate US address against the en pack."""

    def __init__(self):
        self.pack = load_pack("en")
        self.tree = self.pack.tree()
        self.plan = numbering_plan(self.pack)
        self.national = set(self.pack.weighted("streets").items)
        self.streets: dict[str, set[str]] = {}
        for row in self.pack.rows("town_streets"):
            self.streets.setdefault(row["place_id"], set()).add(row["name"])
        self.zips: dict[str, set[str]] = {}
        for row in self.pack.rows("postal_codes"):
            self.zips.setdefault(row["postcode"], set()).add(row["place_id"])

    def cities(self, name: str, state: str) -> list:
        return [p for p in self.tree.lookup(name) if p.kind == "city" and self.tree.ancestor(p, "state").extra["code"] == state.upper()]

    def city(self, name: str, state: str):
        found = self.cities(name, state)
        assert found, f"{name} is no city of {state}"
        return found[0]

    def check(self, street: str, city: str, state: str, zip_code: str, phone: str | None = None) -> None:
        town = self.city(city, state)
        holders = self.zips.get(zip_code, set())
        own = any(town.id in ids for ids in self.zips.values())  # a city without ZIPs of its own takes one of its county
        county = self.tree.parent(town)
        assert town.id in holders or (not own and any(self.tree.parent(self.tree.places[h]) == county for h in holders)), (zip_code, city, state)
        name = regex.sub(r"\s+\d+\w*$", "", street.split(" ", 1)[1])  # a second number as written ("03751 Gerrit Achterberghove 137")
        assert name in self.streets.get(town.id, self.national), (street, city, state)
        if phone is not None:
            code = digits_of(phone)[-10:][:3]
            served = {served for c, served in self.plan.regions if c == code}
            assert self.tree.ancestor(town, "state").name in served or town.name in served, (phone, city, state)


@pytest.fixture(scope="module")
def coherence():
    return Coherence()


@pytest.mark.shared("corpora/presidio_synth/synth_dataset_v2.sample.json")
def test_presidio_samples_are_aligned_audit_clean_and_their_us_addresses_coherent(tmp_path, coherence):
    out = _apply(tmp_path, PRESIDIO, "presidio.json", "--format", "presidio")
    _aligned(PRESIDIO, out, "presidio")
    originals = {d.id: d for d in read_input(str(PRESIDIO), "presidio").documents}
    checked = 0
    for document in read_input(str(out), "presidio").documents:
        source = originals[document.id]
        for old, new in zip(source.spans, document.spans):
            found = US_ADDRESS.match(source.text[old.start : old.end])
            if old.label == "STREET_ADDRESS" and found and coherence.cities(found["city"], found["state"]):  # a US address
                surrogate = US_ADDRESS.match(document.text[new.start : new.end])
                assert surrogate, document.id
                coherence.check(surrogate["street"], surrogate["city"], surrogate["state"], surrogate["zip"])
                checked += 1
    assert checked >= 1


@pytest.mark.shared("corpora/physionet_deid/id.text")
def test_the_physionet_sample_is_aligned_and_audit_clean(tmp_path):
    """Tags alone keep the structure span for span; by default one untagged date (a week before a
    stay's tagged dates) follows the clock and joins the annotation, and the audit (which aligns
    added spans) stays clean."""
    out = tmp_path / "id.text"
    result = CliRunner().invoke(app, ["apply", str(PHYSIONET), "--locale", "en", "--out", str(out), "--no-propagate"], env=ENVIRONMENT)
    assert result.exit_code == 0, result.output
    _aligned(PHYSIONET, out, "physionet")
    tags_alone = {d.id: d for d in read_input(str(out), "physionet").documents}
    default = read_input(str(_apply(tmp_path, PHYSIONET, "default.text")), "physionet").documents
    added = {d.id: len(d.spans) - len(tags_alone[d.id].spans) for d in default if len(d.spans) != len(tags_alone[d.id].spans)}
    assert added == {"14-9": 1}


RECORDS = [  # hand-written: a town whose name several states share, written with its state
    ("Home: 1668 Glyn St, Springfield, IL 62704. Phone (217) 555-0134.", [("1668 Glyn St, Springfield, IL 62704", "ADDRESS"), ("(217) 555-0134", "PHONE")]),
    ("Phone 217-555-0199. Lives at 12 Oak Street, Springfield, IL 62704.", [("217-555-0199", "PHONE"), ("12 Oak Street", "STREET"), ("Springfield", "PLACE"), ("IL", "REGION"), ("62704", "POSTCODE")]),
    ("Pt from Portland, ME 04101; lives at 40 Elm Street. Cell 207-555-0188.", [("Portland", "PLACE"), ("ME", "REGION"), ("04101", "POSTCODE"), ("40 Elm Street", "STREET"), ("207-555-0188", "PHONE")]),
]


@pytest.mark.parametrize("text, spans", RECORDS)
def test_every_us_address_is_coherent_whatever_town_its_name_could_be(text, spans, coherence):
    for key in range(15):
        drawn = dict(zip((label + str(i) for i, (_, label) in enumerate(spans)), (r.surrogate for r in run(text, spans, key=f"k{key}".encode()).replacements)))
        values = {label.rstrip("0123456789"): value for label, value in drawn.items()}
        if "ADDRESS" in values:
            found = US_ADDRESS.match(values["ADDRESS"])
            assert found, values["ADDRESS"]
            values.update(STREET=found["street"], PLACE=found["city"], REGION=found["state"], POSTCODE=found["zip"])
        coherence.check(values["STREET"], values["PLACE"], values["REGION"], values["POSTCODE"], values["PHONE"])
