"""The followers bench (``bench/followers_bench.py``) counts what the push streams did, not
what its own writers did: a referee whose entries take longer than its schedule does not
send the entries it fell behind on in a burst at the end, after the followers stopped
reading, and a change is counted against the followers only when it was committed in
time for them to have it, its latency from that commit."""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "followers_bench.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("followers_bench", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["followers_bench"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class _Reply:
    status = 201
    body = b""


class _SlowClient:
    """A referee's client whose every entry takes three times the schedule's step."""

    def __init__(self, port: int, token: str = "") -> None:
        pass

    def request(self, method: str, path: str, body: Any = None) -> _Reply:
        time.sleep(0.3)
        return _Reply()


def test_a_referee_behind_its_schedule_sends_nothing_after_its_end(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench, "Client", _SlowClient)
    monkeypatch.setattr(bench, "playable", lambda tournament, skip: (1, 2))
    monkeypatch.setattr(bench, "version_of", lambda tournament: 7)
    entries: list[Any] = []
    errors: list[str] = []
    start = time.monotonic()
    until = start + 1.0
    bench.referee(0, "", 1, set(), 0.1, start, until, entries, errors)
    assert errors == []
    assert entries != []
    assert [e.sent for e in entries if e.sent >= until] == []


def test_the_slots_a_writer_missed_are_skipped(bench: ModuleType) -> None:
    assert bench.next_slot(10.0, 2.0, 11.0) == 12.0
    assert bench.next_slot(10.0, 2.0, 17.5) == 18.0


def test_a_change_counts_from_its_commit_and_only_when_committed_in_time(
    bench: ModuleType,
) -> None:
    Entry, Follower = bench.Entry, bench.Follower
    measured, until = 100.0, 160.0
    entries = [
        Entry(90.0, 91.0, 5),  # before the measured part
        Entry(110.0, 118.0, 6),  # its POST took 8 s; committed at 117.5
        Entry(120.0, 121.0, 7),  # committed at 120.5, never arrived at the second follower
        Entry(153.0, 158.0, 8),  # committed at 157.0: too near the end to count
    ]
    heard = {5: 90.5, 6: 117.5, 7: 120.5, 8: 157.0}
    first = Follower("bracket", 0, "/push/tournaments/1/", {}, events=[
        (90.6, "part", 5), (117.6, "part", 6), (120.7, "part", 7),
    ])  # fmt: skip
    second = Follower("bracket", 1, "/push/tournaments/1/", {}, events=[
        (117.9, "part", 6),
    ])  # fmt: skip
    got = bench.arrivals(entries, heard, [first, second], measured, until)
    assert (got.counted, got.late, got.missed) == (2, 1, 1)
    assert [round(x, 3) for x in got.committed[0]] == [0.1, 0.2]
    assert [round(x, 3) for x in got.committed[1]] == [0.4]
    assert [round(x, 3) for x in got.sent] == [7.6, 7.9, 0.7]


def test_a_part_counts_as_shown_when_applied_from_its_event_though_fetched_later(
    bench: ModuleType,
) -> None:
    Entry, Follower = bench.Entry, bench.Follower
    follower = Follower("bracket", 0, "/push/tournaments/1/", {}, events=[(120.7, "part", 7)])
    follower.applied = [(120.7, "part", "diff")]
    follower.fetched = [(130.0, "part", 304)]  # the slow poll, long after
    got = bench.arrivals([Entry(120.0, 121.0, 7)], {7: 120.5}, [follower], 100.0, 160.0)
    assert [round(x, 3) for x in got.shown] == [0.2]


def test_a_hellos_heads_are_read_as_the_whole_json_reads_them(bench: ModuleType) -> None:
    """The crowd reads a ``hello``'s versions and its parts' heads without parsing the
    bodies; a body holding the very pattern of a head (escaped, as JSON writes it inside
    a string) is not taken for one."""
    body = '<a title=\'"part":{"v":9,"etag":"z","body":\'>"quoted"</a>'
    hello = {
        "part": 5,
        "board": 2,
        "bodies": {
            "part": {"v": 5, "etag": 'W/"bracket-1-v5"', "body": body},
            "board": {"v": 2, "etag": '"b2"', "body": "{}"},
        },
    }
    whole = json.loads(json.dumps(hello, separators=(",", ":")))
    read = bench._hello_head(json.dumps(hello, separators=(",", ":")).encode())
    for event in ("part", "board"):
        whole["bodies"][event]["body"] = None
    assert read == whole
    assert bench._hello_head(b'{"part":3}') == {"part": 3}


def _reader_fed(bench: ModuleType, pieces: list[bytes]) -> tuple[Any, list[tuple[str, bytes]]]:
    """An ``EventReader`` fed ``pieces`` as they would arrive, and the events it read."""
    import asyncio

    got: list[tuple[str, bytes]] = []

    async def run() -> Any:
        reader = bench.EventReader(lambda name, data, _at: got.append((name, data)))
        for piece in pieces:
            reader.data_received(piece)
        return reader

    return asyncio.run(run()), got


def _chunk(text: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(text), text)


def test_the_crowds_reader_reads_chunked_events_cut_anywhere(bench: ModuleType) -> None:
    """The crowd reads each stream's bytes as they arrive, not a task per event: the events
    come out whole and in order however the chunks and their events are cut, and a last
    chunk of nothing ends the stream."""
    events = (
        b'retry: 5000\nevent: hello\ndata: {"part":3}\n\n'
        + b'event: part\ndata: {"v":4,"etag":"e4","diff":[]}\n\n'
        + b": keep-alive\n\n"
        + b'event: board\ndata: {"v":1}\n\n'
    )
    body = _chunk(events[:30]) + _chunk(events[30:70]) + _chunk(events[70:])
    head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked"
    whole = head + b"\r\n\r\n" + body + b"0\r\n\r\n"
    expected = [
        ("hello", b'{"part":3}'),
        ("part", b'{"v":4,"etag":"e4","diff":[]}'),
        ("board", b'{"v":1}'),
    ]
    for step in (1, 7, 64, len(whole)):
        reader, got = _reader_fed(bench, [whole[i : i + step] for i in range(0, len(whole), step)])
        assert got == expected, step
        assert reader.head.result().startswith(b"HTTP/1.1 200")
        assert reader.done.result() == "ended"
    # without its last chunk the stream has not ended
    reader, got = _reader_fed(bench, [whole[: -len(b"0\r\n\r\n")]])
    assert got == expected
    assert not reader.done.done()


def test_the_crowds_reader_says_why_a_stream_ended_early(bench: ModuleType) -> None:
    reader, got = _reader_fed(
        bench, [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"]
    )
    assert (got, reader.done.result()) == ([], "ValueError")
    reader, _got = _reader_fed(bench, [b"HTTP/1.1 200 OK\r\n"])
    reader.connection_lost(None)
    assert isinstance(reader.head.exception(), ConnectionResetError)
    assert reader.done.result() == "ended"
