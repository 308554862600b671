"""How often a follower of a live board asks for it: the page's script
(``web/static/web/live-board.js``, given it by ``web.views.scoresheet``) and
``bench/live_board_bench.py``'s viewers poll at this interval. Imports nothing, so the
bench reads it before Django is set up.

Decided: 4 seconds. A turn saved is seen by a follower after at most one interval plus
the poll's latency, so 4 s leaves a second of latency within the 5 s a live board is to be
seen in. A shorter interval buys little and costs much: tables post a turn every few
seconds, so most polls find a new version and are answered 200, not 304. For a follower
not signed in, both are answered from the cache before Django (``core.kept_responses``:
about a millisecond of a gunicorn worker), but the first poll of each version goes to the
view, and the turns need the workers' time (``bench/live_board_bench.py`` prints gunicorn's
CPU per request).
"""

from __future__ import annotations

__all__ = ["FOLLOW_EVERY"]

FOLLOW_EVERY = 4  # seconds between a follower's polls of the live state
