"""Strategies, scopes, consistency, one-to-one surrogates, overrides, propagation."""

import pytest
from conftest import PACKS, document_from_dict, make_doc, run, surrogate_texts

from pseudo.config import parse_config
from pseudo.engine import Engine, Settings
from pseudo.errors import InputError
from pseudo.keyed import Keyring

TEXT = "Anna Andersson träffade Lars Karlsson. Anna ringde sedan Lars."
SPANS = [("Anna", "FIRST_NAME"), ("Andersson", "LAST_NAME"), ("Lars", "FIRST_NAME"), ("Karlsson", "LAST_NAME"),
         ("Anna", "FIRST_NAME"), ("Lars", "FIRST_NAME")]  # fmt: skip


def names_doc(doc_id="d1", **meta):
    return make_doc(TEXT, SPANS, doc_id, locale="tiny", **meta)


def test_same_value_same_surrogate_within_a_document():
    [out] = run(names_doc())
    first_anna, _, first_lars, _, second_anna, second_lars = surrogate_texts(out)
    assert first_anna == second_anna and first_lars == second_lars
    assert first_anna != first_lars


def test_output_spans_slice_to_surrogates_and_keep_labels():
    [out] = run(names_doc())
    assert [s["label"] for s in out["spans"]] == [label for _, label in SPANS]
    assert out["text"].endswith(" ringde sedan " + surrogate_texts(out)[-1] + ".")
    assert " träffade " in out["text"]


def test_same_key_identical_output_other_key_or_reroll_other_output():
    assert run(names_doc()) == run(names_doc())
    assert run(names_doc()) != run(names_doc(), key=b"another key")
    assert run(names_doc()) != run(names_doc(), reroll=1)


def test_document_scope_is_the_default_subject_scope_links_records():
    docs = [names_doc("r1", subject="p1"), names_doc("r2", subject="p1"), names_doc("r3", subject="p2")]
    by_document = run(docs)
    by_subject = run(docs, {"scope": "subject"})
    assert surrogate_texts(by_subject[0]) == surrogate_texts(by_subject[1])
    assert surrogate_texts(by_subject[0]) != surrogate_texts(by_subject[2])
    assert surrogate_texts(by_document[0]) != surrogate_texts(by_document[1])
    corpus = run(docs, {"scope": "corpus"})
    assert surrogate_texts(corpus[0]) == surrogate_texts(corpus[2])


def test_a_scope_is_remembered_until_its_last_document_and_then_freed():
    """Interleaved records of one patient stay consistent; once a scope's last document is done,
    the engine keeps nothing of it (a long run holds results only)."""
    items = [names_doc("r1", subject="p1"), names_doc("r2", subject="p2"), names_doc("r3", subject="p1")]
    documents = [document_from_dict(d, "test", f"#{i}") for i, d in enumerate(items)]
    engine = Engine(Settings(config=parse_config({"scope": "subject"}), keyring=Keyring(b"test-key")))
    held = []
    outputs = []
    for outcome in engine.run(documents):
        outputs.append(outcome.document)
        held.append(sorted(engine._scopes))
    assert held == [["subject:p1", "subject:p2"], ["subject:p1"], []]
    texts = [[d.text[s.start : s.end] for s in d.spans] for d in outputs]
    assert texts[0] == texts[2] != texts[1]


def test_subject_scope_needs_a_subject():
    with pytest.raises(InputError, match="meta.subject is missing"):
        run(names_doc(), {"scope": "subject"})


def test_surrogates_are_one_to_one_and_never_another_original():
    names = ["Anna", "Maria", "Eva", "Karin", "Lena", "Emma", "Kerstin", "Sara", "Malin", "Ingrid", "Linda", "Elin"]
    text = ", ".join(names)
    [out] = run(make_doc(text, [(n, "FIRST_NAME") for n in names], locale="tiny"), {"rules": {"names": {"pool": 40}}})
    surrogates = surrogate_texts(out)
    assert len(set(surrogates)) == len(names)
    assert not set(surrogates) & set(names)


@pytest.mark.parametrize(
    "strategy, expected",
    [
        ("tag", "[FIRST_NAME] och [FIRST_NAME] och [FIRST_NAME]"),
        ({"strategy": "tag", "indexed": True}, "[FIRST_NAME-1] och [FIRST_NAME-2] och [FIRST_NAME-1]"),
        ("redact", "[REDACTED] och [REDACTED] och [REDACTED]"),
        ({"strategy": "redact", "text": "XXX"}, "XXX och XXX och XXX"),
        ("suppress", "*** och *** och ***"),
        ("keep", "Anna och Lars och Anna"),
    ],
)
def test_strategies(strategy, expected):
    doc = make_doc("Anna och Lars och Anna", [("Anna", "FIRST_NAME"), ("Lars", "FIRST_NAME"), ("Anna", "FIRST_NAME")])
    [out] = run(doc, {"strategies": {"FIRST_NAME": strategy}})
    assert out["text"] == expected
    assert [out["text"][s["start"] : s["end"]] for s in out["spans"]] == expected.split(" och ")


def test_gazetteer_labels_without_a_locale_fail_with_advice():
    doc = make_doc("Anna kom.", [("Anna", "FIRST_NAME")])
    with pytest.raises(InputError, match="need the list.*no locale.*--locale"):
        run(doc)


def test_the_locale_may_come_from_settings_when_meta_is_silent():
    doc = make_doc("Anna kom.", [("Anna", "FIRST_NAME")])
    [out] = run(doc, locale="tiny")
    assert out["text"] != "Anna kom." and out["text"].endswith(" kom.")


def test_an_override_wins_for_its_value_in_its_scope():
    overrides = {("document:d1", "FIRST_NAME", "anna"): "Beata"}
    [out] = run(names_doc(), overrides=overrides)
    texts = surrogate_texts(out)
    assert texts[0] == texts[4] == "Beata"
    assert texts[2] != "Beata"


def test_propagation_replaces_untagged_occurrences_and_adds_spans():
    doc = make_doc("Anna Andersson kom. Sedan ringde Andersson igen.", [("Anna", "FIRST_NAME"), ("Andersson", "LAST_NAME")], locale="tiny")
    [plain] = run(doc)
    [spread] = run(doc, propagate=True)
    assert "Andersson" in plain["text"] and "Andersson" not in spread["text"]
    assert len(spread["spans"]) == 3
    texts = surrogate_texts(spread)
    assert texts[1] == texts[2]


def test_an_exhausted_pool_draws_past_its_cap_then_shares_surrogates_before_it_reuses_originals():
    """A pool capped at the N most common draws past its cap when it runs out (a review: 250 women
    of a corpus scope had shared 60 surrogates); the whole list run out shares surrogates before
    it gives a value another original."""
    from pseudo.lists.pack import load_pack

    listed = [n for n in load_pack("tiny").weighted("first_names_female").items]
    names = ["Anna", "Maria", "Eva", "Karin", "Lena", "Emma"]
    [out] = run(make_doc(", ".join(names), [(n, "FIRST_NAME") for n in names], locale="tiny"), {"rules": {"names": {"pool": 8}}})
    surrogates = surrogate_texts(out)
    assert not set(surrogates) & set(names) and len(set(surrogates)) == len(names)  # two free names in the cap, more past it
    names = listed[: listed.index("Frida")]  # every woman's name an original but two (the list ends in names of either sex)
    [out] = run(make_doc(", ".join(names), [(n, "FIRST_NAME") for n in names], locale="tiny"), {"rules": {"names": {"pool": 8}}})
    surrogates = surrogate_texts(out)
    assert set(surrogates) <= {"Frida", "Madeleine"}, set(surrogates) - {"Frida", "Madeleine"}


def test_subject_scopes_split_across_processes_give_the_same_output():
    from pseudo.api import pseudonymise
    from pseudo.config import parse_config
    from pseudo.engine import Settings
    from pseudo.io.native import document_from_dict
    from pseudo.keyed import Keyring

    docs = [document_from_dict(names_doc(f"r{i}", subject=f"p{i % 7}"), "t", "#") for i in range(140)]
    settings = Settings(config=parse_config({"scope": "subject"}), keyring=Keyring(b"k"))
    one = [r.document for r in pseudonymise(docs, settings).results]
    two = [r.document for r in pseudonymise(docs, settings, jobs=2).results]
    assert one == two
    assert one[0].text == one[7].text != one[1].text


def test_a_pack_sets_rule_defaults_and_the_config_overrides_them():
    doc = make_doc("Paciente de 70 años.", [("70 años", "AGE")], locale="es")

    def shifts(config=None):
        return {int(surrogate_texts(run(doc, config, key=f"k{i}".encode())[0])[0].split()[0]) - 70 for i in range(40)}

    assert shifts() == {-3, -2, -1, 1, 2, 3}  # the Spanish pack's `defaults: {ages: {shift: 3}}`
    assert shifts({"rules": {"ages": {"shift": 1}}}) == {-1, 1}


def test_bad_pack_defaults_are_named(tmp_path, monkeypatch):
    import shutil

    from pseudo.errors import ConfigError
    from pseudo.lists import pack as pack_module

    folder = tmp_path / "tiny"
    shutil.copytree(PACKS / "tiny", folder)
    manifest = folder / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "defaults:\n  ages: {shfit: 3}\n", encoding="utf-8")
    monkeypatch.setattr(pack_module, "available_packs", lambda: {"tiny": folder})
    pack_module.load_pack.cache_clear()
    try:
        with pytest.raises(ConfigError, match="locale 'tiny': pack.yaml: defaults.ages: unknown key"):
            run(make_doc("Anna, 52 år.", [("52 år", "AGE")], locale="tiny"))
    finally:
        pack_module.load_pack.cache_clear()


def test_a_surrogate_never_holds_its_original_as_whole_words():
    from pseudo.keyed import Keyring
    from pseudo.scope import ScopeState

    offers = iter(["San Juan de Alicante", "Alicante Norte", "Elche"])
    scope = ScopeState("document:d", Keyring(b"k"))
    chosen = scope.consistent("places", "place:municipality", "Alicante", lambda stream: next(offers), one_to_one=True)
    assert chosen == "Elche"


def test_a_failing_rule_names_the_document_and_span_but_not_the_text(monkeypatch):
    from pseudo.errors import InputError
    from pseudo.rules.ids import IdRule

    def broken(self, target, ctx):
        raise ValueError(f"cannot read {target.text}")

    monkeypatch.setattr(IdRule, "replace", broken)
    doc = make_doc("Journal AB-4711 och MRN 88.", [("AB-4711", "ID")])
    with pytest.raises(InputError) as error:
        run(doc)
    assert "document 'd1'" in str(error.value) and "span 8-15: rule ids failed (ValueError)" in str(error.value)
    assert "AB-4711" not in str(error.value)
