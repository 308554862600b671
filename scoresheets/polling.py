"""How often a follower of a live board asks for it: the page's script
(``web/static/web/live-board.js``, given it by ``web.views.scoresheet``) and
``bench/live_board_bench.py``'s viewers poll at this interval. Imports nothing, so the
bench reads it before Django is set up.

Decided: 3 seconds. A turn saved is seen by a follower after at most one interval plus the
poll's latency (the page waits the interval after each answer), so 3 s leaves a crowd 2 s
of latency within the 5 s a live board is seen in; the polls cost little (a board that did
not change is answered 304 from the cache, one that did from the state built once per
turn), so a crowd can afford the third more of them that 3 s asks over 4 s.
"""

from __future__ import annotations

__all__ = ["FOLLOW_EVERY"]

FOLLOW_EVERY = 3  # seconds between a follower's polls of the live state
