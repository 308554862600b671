"""Ratings per game (FIBS formula), draw seeding by rating, rating charts and season
points tables (issue 15). Pure: imports nothing from Django."""
