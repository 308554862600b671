"""Ratings (issue 15): FIBS formula, ledger, seeding, chart, season table. No database."""
