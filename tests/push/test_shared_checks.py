"""``push.views._still_sees``: the streams of one reader share a visibility read per
version; a read that failed is not kept, so the next stream to ask reads again."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from push import views


def test_a_failed_read_is_read_again_and_a_good_one_is_shared() -> None:
    calls: list[int] = []

    def now(pk: int, user: Any) -> dict[str, int] | None:
        calls.append(pk)
        if len(calls) == 1:
            raise RuntimeError("the database went away")
        return {"part": 3}

    hub = SimpleNamespace(checks={})

    async def scenario() -> None:
        with pytest.raises(RuntimeError):
            await views._still_sees(hub, now, 7, AnonymousUser(), 3)  # type: ignore[arg-type]
        seen = [
            await views._still_sees(hub, now, 7, AnonymousUser(), 3)  # type: ignore[arg-type]
            for _ in range(3)
        ]
        assert seen == [True, True, True]

    asyncio.run(scenario())
    assert calls == [7, 7]  # the failure, then one read shared by the next three
