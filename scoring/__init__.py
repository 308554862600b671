"""Match scoring (docs/scoring.md S1–S6); the pure part imports nothing from Django."""
