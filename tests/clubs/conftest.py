"""The season fixture (``season_day``, defined with its tests in ``test_seasons``) for the
season pages' tests too."""

from tests.clubs.test_seasons import season_day  # noqa: F401
