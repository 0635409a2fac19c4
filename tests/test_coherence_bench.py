"""bench/coherence.py on a hand-made pair of BRAT folders: one coherent record, one whose
surrogates do not fit together, one with a foreign header it must not judge."""

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "coherence.py"
REPORT = "Informe clínico del paciente: " + "varón que consulta por dolor abdominal de una semana de evolución, " * 3
ORIGINAL_ONLY = ("Esteban", "Pontevedra", "Cunqueiro", "36201", "Vigo", "Habana")

# Plain strings are the same on both sides; (label, original, surrogate) is a tagged span.
RECORDS = {
    "good": [
        "Nombre: ", ("NOMBRE_SUJETO_ASISTENCIA", "Ernesto", "Lucía"), ".\n",
        "Localidad/ Provincia: ", ("TERRITORIO", "Vigo", "Getafe"), ", ", ("TERRITORIO", "Pontevedra", "Madrid"), ".\n",
        "CP: ", ("TERRITORIO", "36201", "28901"), ".\n",
        "País: ", ("PAIS", "España", "España"), ".\n",
        REPORT, "Remitido desde el ", ("HOSPITAL", "Hospital Álvaro Cunqueiro", "Hospital de Getafe"), ".\n",
        "Remitido por: Dr. Gil. ", ("HOSPITAL", "Hospital Álvaro Cunqueiro", "Hospital Universitario de Getafe"), " C/ Mayor 1 ",
        ("TERRITORIO", "36201", "28901"), " ", ("TERRITORIO", "Vigo", "Getafe"), ".\n",
    ],
    "bad": [
        "\ufeffNombre: ", ("NOMBRE_SUJETO_ASISTENCIA", "Esteban", "Giménez"), ".\n",
        "Localidad/ Provincia: ", ("TERRITORIO", "Vigo", "Torrent"), ", ", ("TERRITORIO", "Pontevedra", "Cádiz"), ".\n",
        "CP: ", ("TERRITORIO", "36201", "28901"), ".\n",
        "País: ", ("PAIS", "España", "Italia"), ".\n",
        REPORT, "Remitido desde el ", ("HOSPITAL", "Hospital Álvaro Cunqueiro", "Hospital de Vigo"), ".\n",
        "Remitido por: Dr. Gil. ", ("HOSPITAL", "Hospital Álvaro Cunqueiro", "Hospital Universitario de Getafe"), " C/ Mayor 1 ",
        ("TERRITORIO", "36201", "28901"), " ", ("TERRITORIO", "Vigo", "Torrent"), ".\n",
    ],
    "foreign": [
        "Nombre: ", ("NOMBRE_SUJETO_ASISTENCIA", "Yefren", "Lucas"), ".\n",
        "Localidad/ Provincia: ", ("TERRITORIO", "La Habana", "Getafe"), ".\n",
        "CP: ", ("TERRITORIO", "10200", "28902"), ".\n",
        REPORT + "\n",
    ],
}


def write_pair(root: Path) -> tuple[Path, Path]:
    folders = root / "original", root / "output"
    for side, folder in enumerate(folders, start=1):
        folder.mkdir()
        for doc_id, pieces in RECORDS.items():
            text, ann = "", []
            for piece in pieces:
                if isinstance(piece, str):
                    text += piece
                    continue
                label, value = piece[0], piece[side]
                ann.append(f"T{len(ann) + 1}\t{label} {len(text)} {len(text) + len(value)}\t{value}\n")
                text += value
            (folder / f"{doc_id}.txt").write_text(text, encoding="utf-8")
            (folder / f"{doc_id}.ann").write_text("".join(reversed(ann)), encoding="utf-8")  # brat order is free
    return folders


def run(*args: str, python: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *python, str(SCRIPT), *map(str, args)], capture_output=True, text=True)


def counts(stdout: str) -> dict[str, tuple[int, int, int]]:
    """Each check's title: (offending, checked, documents)."""
    found = {}
    for line in stdout.splitlines():
        title, _, figures = line.rpartition(": ")
        match = re.fullmatch(r"(\d+) of (\d+), in (\d+) documents", figures)
        if match:
            found[title] = tuple(int(n) for n in match.groups())
    return found


def test_one_good_and_one_bad_record_give_these_counts(tmp_path):
    original, output = write_pair(tmp_path)
    result = run(original, output)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["documents: 3 (unpaired: 0)", "headers checked: 2"]  # the foreign header is not judged
    assert counts(result.stdout) == {
        "headers whose town, province and postcode do not belong together": (1, 2, 1),
        'given-name fields ("Nombre:") whose surrogate is a surname only': (1, 3, 1),
        "unit and organisation surrogates holding a place original of their document": (1, 4, 1),
        "health care units named after a town of another province than the address": (2, 4, 1),
        "catalogue units written with a town on their line that the catalogue files at another town": (1, 2, 1),
        "Spain/España replaced by a foreign country": (1, 2, 1),
        'postcodes written right before a town ("48080 Bilbao") that are not of its surrogate': (1, 2, 1),
    }


def test_examples_name_the_bad_record_by_offsets_and_never_an_original(tmp_path):
    original, output = write_pair(tmp_path)
    result = run(original, output, "--examples", "5")
    assert result.returncode == 0, result.stderr
    examples = [line for line in result.stdout.splitlines() if line.startswith("  ")]
    assert len(examples) == 8 and all(line.split("\t")[0].strip() == "bad" for line in examples)
    assert "'Hospital Universitario de Getafe' beside 'Torrent'" in result.stdout  # the catalogue files it at Getafe
    assert "postcode '28901' is not of 'Torrent'" in result.stdout and "'Giménez' is a surname only" in result.stdout
    assert "'Italia'" in result.stdout
    for value in ORIGINAL_ONLY:
        assert value not in result.stdout
    assert "withheld" in result.stdout  # "Hospital de Vigo" holds the original town


def test_bad_input_is_one_line_and_exit_1(tmp_path):
    original, _ = write_pair(tmp_path)
    result = run(original, tmp_path / "nowhere")
    assert result.returncode == 1 and result.stderr == f"coherence: {tmp_path / 'nowhere'}: no such folder\n"
    (original / "bad.ann").write_text("T1\tTERRITORIO 5 900\tVigo\n", encoding="utf-8")
    result = run(original, original)
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "bad.ann:1: offsets 5-900 outside the text" in result.stderr
    assert run(original, original, "--examples", "-1").returncode == 2


def test_it_judges_the_engine_from_outside_without_its_rules(tmp_path):
    original, output = write_pair(tmp_path)
    result = run(original, output, python=("-X", "importtime"))
    assert result.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert "pseudo.lists.pack" in imported and not any(name.startswith("pseudo.rules") for name in imported)
