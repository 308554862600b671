"""Ratings per game (FIBS formula), draw seeding by rating, rating charts and season
points tables. Pure: imports nothing from Django."""
