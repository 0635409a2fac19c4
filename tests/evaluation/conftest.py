"""Tiny locale packs built in temporary folders, in the documented pack layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from pseudo.lists.pack import LocalePack

SV_LISTS = {
    "first_names_female.tsv": "name\tcount\nAnna\t900\nMaria\t800\nMadeleine\t300\nKarin\t250\nKim\t40\n",
    "first_names_male.tsv": "name\tcount\nLars\t800\nErik\t700\nKim\t60\nMaria\t5\n",
    "last_names.tsv": "name\tcount\nAndersson\t900\nBerg\t300\n",
    "locations.tsv": "id\tparent_id\tkind\tname\tpreposition\nSE\t\tcountry\tSverige\ti\n"
    "G\tSE\tcounty\tGotland\tpå\nS\tSE\tmunicipality\tStockholm\ti\nV\tSE\tmunicipality\tVisby\t\n",
    "phone_area_codes.tsv": "code\tplace\n08\tStockholm\n0652\tBergsjö\n0498\tGotland\n",
    "phone_mobile_prefixes.tsv": "prefix\n070\n072\n073\n076\n079\n",
    "phone_fiction_ranges.tsv": "first\tlast\tkind\n0701740605\t0701740699\tmobile\n",
}
SV_VOCABULARIES = {
    "kinship.yaml": {
        "terms": [
            {"word": "mamma", "gender": "female", "generation": "older", "number": "singular", "forms": ["mamman", "mor"]},
            {"word": "bror", "gender": "male", "generation": "same", "number": "singular", "forms": ["brodern"]},
            {"word": "syskon", "gender": "neutral", "generation": "same", "number": "plural", "forms": []},
        ]
    },
    "titles.yaml": {"titles": [{"word": "fru", "gender": "female"}, {"word": "herr", "gender": "male"}]},
}
SV_SETTINGS = {
    "phone": {"country_code": "46", "trunk_prefix": "0", "international_prefix": "00", "mobile_pattern": r"7[02369]\d{7}"},
    "dates": {"order": "YMD", "birth_cues": ["född"]},
}

ES_LISTS = {
    "first_names_female.tsv": "name\tcount\nMaría\t900\nCarmen\t500\n",
    "first_names_male.tsv": "name\tcount\nJuan\t900\nJosé\t800\n",
    "last_names.tsv": "name\tcount\nGarcía\t900\nLópez\t700\n",
    "locations.tsv": "id\tparent_id\tkind\tname\taliases\nES\t\tcountry\tEspaña\t\nM\tES\tmunicipality\tMadrid\t\n"
    "BI\tES\tprovince\tBizkaia\tVizcaya\nFR\t\tcountry\tFrancia\t\n",
    "phone_area_codes.tsv": "code\tplace\n91\tMadrid\n93\tBarcelona\n",
    "phone_mobile_prefixes.tsv": "prefix\n6\n",
}
ES_VOCABULARIES = {
    "kinship.yaml": {
        "terms": [
            {"word": "madre", "gender": "female", "generation": "older", "number": "singular", "forms": []},
            {"word": "padres", "gender": "male", "generation": "older", "number": "plural", "forms": []},
            {"word": "hermanas", "gender": "female", "generation": "same", "number": "plural", "forms": []},
        ]
    },
    "titles.yaml": {"titles": [{"word": "Dra.", "gender": "female"}, {"word": "Dr.", "gender": "male"}, {"word": "la paciente", "gender": "female"}]},
}
ES_SETTINGS = {
    "phone": {"country_code": "34", "trunk_prefix": "", "international_prefix": "00", "mobile_pattern": r"[67]\d{8}"},
    "dates": {"order": "DMY", "connectors": ["de", "del"], "birth_cues": ["nacimiento"], "admission_cues": ["ingreso"], "discharge_cues": ["alta"]},
    "names": {"particles": ["de", "del"]},
}


def make_pack(root: Path, code: str, lists: dict[str, str], vocabularies: dict[str, dict], settings: dict) -> LocalePack:
    root.mkdir(parents=True)
    entries = {}
    for file, text in lists.items():
        (root / file).write_text(text, encoding="utf-8")
        entries[file.split(".")[0]] = {"file": file, "source": "test", "licence": "CC0"}
    for file, data in vocabularies.items():
        (root / file).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        entries[file.split(".")[0]] = {"file": file, "source": "test", "licence": "CC0"}
    manifest = {"name": f"test {code}", "language": code, "morphology": code, "lists": entries, "settings": settings}
    (root / "pack.yaml").write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
    return LocalePack(code, root)


@pytest.fixture
def sv_pack(tmp_path: Path) -> LocalePack:
    return make_pack(tmp_path / "sv", "sv", SV_LISTS, SV_VOCABULARIES, SV_SETTINGS)


@pytest.fixture
def es_pack(tmp_path: Path) -> LocalePack:
    return make_pack(tmp_path / "es", "es", ES_LISTS, ES_VOCABULARIES, ES_SETTINGS)


def doc(doc_id: str, text: str, *spans: tuple[str, str], locale: str | None = None) -> dict:
    """A native document; each span is (label, its text), found left to right in the text."""
    found, cursor = [], 0
    for label, value in spans:
        start = text.index(value, cursor)
        found.append({"start": start, "end": start + len(value), "label": label})
        cursor = start + len(value)
    return {"id": doc_id, "text": text, "spans": found, **({"meta": {"locale": locale}} if locale else {})}


def write_jsonl(path: Path, documents: list[dict]) -> str:
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents), encoding="utf-8")
    return str(path)
