"""Views of the pages: thin, each reads through a selector or changes through a service.

Modules: ``public`` (tournaments, bracket, matches, players), ``referee`` (result
entry at the table), ``records`` (game-record upload, status, viewer), ``organiser``
(creating and running a tournament). Shared helpers are in ``common``.
"""
