"""Compare backgammon move generation with gnubg on many random positions (dev tool).

``python scripts/bg_oracle.py [N] [SEED]`` (default 10,000 positions, seed 2024): every roll
of each position; prints the number of comparisons, mismatches (with the first few) and time.
Needs ``gnubg-nn`` (requirements-dev.txt).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.backgammon.test_gnubg_oracle import ROLLS, mismatches


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2024
    start = time.perf_counter()
    bad = mismatches(seed, n)
    took = time.perf_counter() - start
    print(
        f"{n} positions × {len(ROLLS)} rolls = {n * len(ROLLS)} comparisons, "
        f"{len(bad)} mismatches, {took:.1f} s"
    )
    for line in bad[:10]:
        print("  ", line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
