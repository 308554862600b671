"""Webhook test set-up: a local receiver on 127.0.0.1:8113 (this branch's test port) and
private addresses allowed for it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.webhooks.receiver import Receiver

RECEIVER_PORT = 8113


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.WEBHOOKS_TIMEOUT = 0.5
    server = Receiver(RECEIVER_PORT).start()
    yield server
    server.stop()
