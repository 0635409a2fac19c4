"""A Dask cluster gives the bytes of one process: a LocalCluster of two worker processes."""

import json

import pytest
from test_stream import corpus, settings_for, streamed, whole

from pseudo.api import Dask, pseudonymise, pseudonymise_bag
from pseudo.errors import PseudoError
from pseudo.io.native import document_from_dict, document_to_dict

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client


@pytest.mark.parametrize("scope,scattered", [("document", False), ("subject", True)])
def test_a_dask_run_writes_the_bytes_of_one_process(tmp_path, client, scope, scattered):
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(d) + "\n" for d in corpus(scope, scattered)))
    whole(source, tmp_path / "one.jsonl", settings_for(scope))
    streamed(source, tmp_path / "dask.jsonl", settings_for(scope), executor=Dask(client))
    assert (tmp_path / "dask.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    documents = [document_from_dict(d, "t", "#") for d in corpus(scope, scattered)]
    one = pseudonymise(documents, settings_for(scope)).results
    assert pseudonymise(documents, settings_for(scope), executor=Dask(client)).results == one


def test_a_bag_of_documents_gives_the_outcomes_of_one_process(client):
    import dask.bag

    documents = [document_from_dict(d, "t", "#") for d in corpus("document", False)]
    one = [document_to_dict(r.document) for r in pseudonymise(documents, settings_for("document")).results]
    bag = dask.bag.from_sequence(documents, npartitions=4)
    outcomes = pseudonymise_bag(bag, settings_for("document")).compute()
    assert [document_to_dict(r.document) for r in outcomes] == one


def test_a_subject_split_over_two_partitions_is_refused(client):
    import dask.bag

    documents = [document_from_dict(d, "t", "#") for d in corpus("subject", True)]
    with pytest.raises(PseudoError, match="two partitions"):
        pseudonymise_bag(dask.bag.from_sequence(documents, npartitions=4), settings_for("subject"))


def test_the_command_line_runs_on_the_scheduler_it_is_given(tmp_path, client, monkeypatch):
    from typer.testing import CliRunner

    from pseudo.cli import app

    source = tmp_path / "in.json"
    source.write_text(json.dumps(corpus("subject", True)))
    monkeypatch.setenv("PSEUDO_KEY", "dask-key")
    one = CliRunner().invoke(app, ["apply", str(source), "--out", str(tmp_path / "one.json")])
    sent, run = [], Dask.run
    monkeypatch.setattr(Dask, "run", lambda self, *args: sent.append(self.client.scheduler.address) or run(self, *args))
    on_dask = CliRunner().invoke(app, ["apply", str(source), "--out", str(tmp_path / "dask.json"), "--dask", client.scheduler.address])
    assert one.exit_code == on_dask.exit_code == 0, on_dask.output
    assert sent == [client.scheduler.address]
    assert (tmp_path / "dask.json").read_bytes() == (tmp_path / "one.json").read_bytes()
