"""How often a follower of a live board asks for it: the page's script
(``web/static/web/live-board.js``, given it by ``web.views.scoresheet``) and
``bench/live_board_bench.py``'s viewers poll at this interval. Imports nothing, so the
bench reads it before Django is set up.

Decided: 4 seconds. A turn saved is seen by a follower after at most one interval plus
the poll's latency, so 4 s leaves a second of latency within the 5 s a live board is to be
seen in. A shorter interval buys little and costs much: tables post a turn every few
seconds, so most polls find a new version and are answered 200 (the state kept per
version: one query, a few milliseconds of CPU), not 304 (no query); on two cores 1,000
followers at 3 s ask about a third more CPU than a gunicorn gets there, at 4 s they leave
room for the turns (``bench/live_board_bench.py`` prints gunicorn's CPU per request).
"""

from __future__ import annotations

__all__ = ["FOLLOW_EVERY"]

FOLLOW_EVERY = 4  # seconds between a follower's polls of the live state
