"""GNU Backgammon 1.07's neural nets, in the text form gnubg-nn loads.

The analysis (``backgammon.analysis``) is measured against gnubg 1.07's own ``analyse
match``, so it evaluates with gnubg 1.07's nets. gnubg-nn 1.1.0a11's default weights
(``gnubg_nn/data/gnubg.weights``) are not all of them: its race net and its three pruning
nets are gnubg 1.07's to the last bit, but its contact and crashed nets are others (32,770
of the contact net's 32,773 weights differ, by up to 2.8; 32,763 of the crashed net's, by up
to 16.6): of 3,000 positions from real matches, half had a probability moved by more than
0.0006, the most by 0.005.

``data/gnubg-1.07.001.wd`` is gnubg 1.07's nets unchanged: the file ``/usr/lib/gnubg/gnubg.wd``
of Debian's package ``gnubg`` 1.07.001-1+b1 (sha256 :data:`SHA256`), which gnubg's build
makes from its source's ``gnubg.weights`` with ``makeweights``. GNU Backgammon is
GPL-3.0-or-later; the project's AGPL-3.0-or-later may carry it (README, "Licence").

gnubg's binary form (``NeuralNetLoadBinary``), little-endian: two float32 (the magic
472.3782 and the version 1.0), then six nets, in the order contact, race, crashed and the
pruning nets of contact, crashed and race. Each net: four int32 (inputs, hidden units,
outputs, times trained), two float32 (the hidden and output layers' beta), then float32
weights: the hidden layer's (inputs × hidden), the output layer's (hidden × outputs), the
hidden thresholds, the output thresholds.

gnubg-nn's ``net_load`` reads only its text form (as its ``net_save`` writes it): the line
``GNU Backgammon 1.01``, then per net its name, the line ``inputs hidden outputs trained
beta_hidden beta_output`` and one weight a line, in the order race, prune race, crashed,
prune crashed, contact (named ``contact contact250``), prune contact. A float32 written
with seven decimals, as gnubg writes its own text weights, reads back as the same float32.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["NETS", "SHA256", "Net", "gnubg_107_nets", "read_binary", "weights_text"]

NETS = Path(__file__).resolve().parent / "data" / "gnubg-1.07.001.wd"
SHA256 = "a022fd85ccab6a06782d2354a5fd20296323377700d7fd70435250cc88005573"
MAGIC = 472.3782
VERSION = 1.0
HEADER = "GNU Backgammon 1.01"
# the nets in gnubg's binary file, by gnubg-nn's names
BINARY_ORDER = (
    "contact contact250",
    "race",
    "crashed",
    "prune contact",
    "prune crashed",
    "prune race",
)
TEXT_ORDER = (
    "race",
    "prune race",
    "crashed",
    "prune crashed",
    "contact contact250",
    "prune contact",
)


@dataclass(frozen=True, slots=True)
class Net:
    """One net: its shape, its layers' beta and its weights in gnubg's order."""

    inputs: int
    hidden: int
    outputs: int
    beta_hidden: float
    beta_output: float
    weights: tuple[float, ...]

    @property
    def size(self) -> int:
        return self.inputs * self.hidden + self.hidden * self.outputs + self.hidden + self.outputs


def read_binary(data: bytes) -> dict[str, Net]:
    """gnubg's binary weights (``gnubg.wd``) by gnubg-nn's net names; ``ValueError`` when
    the file is not that form."""
    if len(data) < 8 or struct.unpack_from("<2f", data) != struct.unpack(
        "<2f", struct.pack("<2f", MAGIC, VERSION)
    ):
        raise ValueError("not gnubg's binary weights: wrong magic number or version")
    nets: dict[str, Net] = {}
    offset = 8
    for name in BINARY_ORDER:
        if offset + 24 > len(data):
            raise ValueError(f"gnubg's binary weights end before the net {name!r}")
        inputs, hidden, outputs, _trained = struct.unpack_from("<4i", data, offset)
        beta_hidden, beta_output = struct.unpack_from("<2f", data, offset + 16)
        offset += 24
        count = inputs * hidden + hidden * outputs + hidden + outputs
        if count <= 0 or offset + 4 * count > len(data):
            raise ValueError(f"gnubg's binary weights end inside the net {name!r}")
        weights = struct.unpack_from(f"<{count}f", data, offset)
        offset += 4 * count
        nets[name] = Net(inputs, hidden, outputs, beta_hidden, beta_output, weights)
    if offset != len(data):
        raise ValueError("gnubg's binary weights go on after its six nets")
    return nets


def weights_text(nets: dict[str, Net]) -> str:
    """The nets in gnubg-nn's text form (what ``net_load`` reads)."""
    lines = [HEADER]
    for name in TEXT_ORDER:
        net = nets[name]
        lines.append(name)
        lines.append(
            f"{net.inputs} {net.hidden} {net.outputs} 0   "
            f"{net.beta_hidden:.7f}   {net.beta_output:.7f}"
        )
        lines.extend(f"{w:.7f}" for w in net.weights)
    return "\n".join(lines) + "\n"


@cache
def gnubg_107_nets() -> dict[str, Net]:
    """gnubg 1.07's nets (``data/gnubg-1.07.001.wd``, checked against :data:`SHA256`),
    read once a process."""
    data = NETS.read_bytes()
    if hashlib.sha256(data).hexdigest() != SHA256:
        raise ValueError(f"{NETS} is not gnubg 1.07.001's gnubg.wd (its sha256 differs)")
    return read_binary(data)
