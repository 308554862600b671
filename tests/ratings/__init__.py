"""Ratings: FIBS formula, ledger, seeding, chart, season table. No database."""
