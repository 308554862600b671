"""The writers' side: every version bumped (``tournaments.page_versions``' watchers) is
published once its transaction commits, as one small message per version — which part,
its new version — on the bus (``push.broker``). A message says "this part is now at
version V"; what a reader may see of it is then decided by the part's own view, which
the reader's page asks with its ETag as it does when it polls (``web.live``).

The messages (JSON):

- ``{"k": "t", "t": T, "v": V, "w": W, "p": true}``: tournament T is at version V (its
  pages, the bracket, the JSON bracket), the last change of the whole tournament at W
  (every match's parts), and whether everyone may see it;
- ``{"k": "m", "t": T, "id": M, "v": V}``: match M's parts (its page, its live part);
- ``{"k": "b", "t": T, "id": M, "v": V}``: match M's live board (``LiveGame.version``).

Decided: published after the commit (``transaction.on_commit``), so a reader told of a
version always finds it, and a change rolled back announces nothing; a failing bus (Redis
down) is logged and skipped, never the writer's error — the pages' slow polling still
shows the change. A tournament's message reads its versions after the commit (one query):
its UPDATE bumped them in the database (``F()``), so the writer never knew them; a later
change that committed meanwhile makes it name a newer version, which is right too.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from matches.models import Match
from push.broker import broker
from tournaments.models import Tournament

__all__ = ["PUBLISHER", "Publisher", "message_text"]

log = logging.getLogger(__name__)


def message_text(**fields: Any) -> str:
    return json.dumps(fields, separators=(",", ":"))


def _send(texts: Sequence[str]) -> None:
    if not texts:
        return
    try:
        broker().publish(texts)
    except Exception:
        log.warning(
            "push: the bus is unavailable; %d message(s) not sent", len(texts), exc_info=True
        )


class Publisher:
    """The watcher of ``tournaments.page_versions`` (registered in ``push.apps``)."""

    def tournaments_changed(self, *, tournaments: QuerySet[Tournament]) -> None:
        def send() -> None:
            rows = tournaments.values_list("pk", "version", "whole_version", "is_public")
            _send([message_text(k="t", t=t, v=v, w=w, p=p) for t, v, w, p in rows])

        transaction.on_commit(send, robust=True)

    def match_stamped(self, *, match_id: int, tournament_id: int, version: int) -> None:
        text = message_text(k="m", t=tournament_id, id=match_id, v=version)
        transaction.on_commit(lambda: _send([text]), robust=True)

    def matches_stamped(self, *, match_ids: Sequence[int]) -> None:
        ids = list(match_ids)

        def send() -> None:
            rows = Match.objects.filter(pk__in=ids).values_list(
                "pk", "tournament_id", "live_version"
            )
            _send([message_text(k="m", t=t, id=m, v=v) for m, t, v in rows])

        transaction.on_commit(send, robust=True)

    def board_stamped(self, *, match_id: int, tournament_id: int, version: int) -> None:
        text = message_text(k="b", t=tournament_id, id=match_id, v=version)
        transaction.on_commit(lambda: _send([text]), robust=True)


PUBLISHER = Publisher()
