"""The fonts of the printable score sheets, found on the machine at run time.

Clubs have players named ``Łukasz``, ``Γιώργος``, ``Иван``, ``محمد`` and ``中文 名字``; the
PDF's built-in Helvetica (Windows-1252) prints those as ``?``. The sheets use instead:

- **DejaVu Sans** (regular and bold; Debian's ``fonts-dejavu-core``): Latin with every
  extension, Greek, Cyrillic, Arabic, Hebrew, Armenian, Georgian. Licence: the Bitstream
  Vera licence (free use, embedding and redistribution; modified fonts renamed), DejaVu's
  own changes in the public domain.
- **WenQuanYi Micro Hei** (Debian's ``fonts-wqy-microhei``), fpdf2's fallback for what
  DejaVu lacks: Chinese, Japanese kana and kanji, Korean hangul. Licence: Apache 2.0 (or
  GPL 3 with the font-embedding exception). Chosen over ``fonts-noto-cjk`` for its size:
  one 5 MB TrueType file against Noto's CFF collections of over 100 MB.

Both are embedded in the PDF as subsets of the glyphs used, as both licences allow. They
are looked for in ``settings.PDF_FONT_DIRS`` (Debian's folders by default;
``PDF_FONT_DIRS`` in the environment, comma-separated, for another system) and installed
by ``scripts/ensure_system_packages.sh`` (run by ``scripts/run.sh``, ``scripts/test.sh``
and ``.ci/run``), as Chromium is.

Arabic (and Hebrew) letters change shape with their neighbours and run right to left:
fpdf2 does that with HarfBuzz (``uharfbuzz``, a pinned requirement), switched on for a
document only when one of its texts holds such letters.

Missing fonts: the sheets are still made, with the built-in Helvetica as before (names
outside Windows-1252 lose their accents, or print as ``?``), and a warning in the log says
which package to install; missing only the CJK font, those characters print as ``?``.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings

logger = logging.getLogger(__name__)

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
CJK = "wqy-microhei.ttc"
DEBIAN_PACKAGES = {
    REGULAR: "fonts-dejavu-core",
    BOLD: "fonts-dejavu-core",
    CJK: "fonts-wqy-microhei",
}


@dataclass(frozen=True)
class PdfFonts:
    regular: Path
    bold: Path
    cjk: Path | None


def _find(name: str, dirs: tuple[str, ...]) -> Path | None:
    for folder in dirs:
        path = Path(folder) / name
        if path.is_file() and os.access(path, os.R_OK):
            return path
    return None


@lru_cache(maxsize=4)
def _fonts_in(dirs: tuple[str, ...]) -> PdfFonts | None:
    found = {name: _find(name, dirs) for name in (REGULAR, BOLD, CJK)}
    missing = sorted({DEBIAN_PACKAGES[name] for name, path in found.items() if path is None})
    regular, bold = found[REGULAR], found[BOLD]
    if regular is None or bold is None:
        logger.warning(
            "PDF score sheets: DejaVu Sans not found in %s; using the built-in Helvetica, so "
            "names outside Windows-1252 print without accents or as '?'. Install Debian's %s "
            "(scripts/ensure_system_packages.sh).",
            ", ".join(dirs),
            " and ".join(missing),
        )
        return None
    if found[CJK] is None:
        logger.warning(
            "PDF score sheets: %s not found in %s; Chinese, Japanese and Korean names print "
            "as '?'. Install Debian's fonts-wqy-microhei (scripts/ensure_system_packages.sh).",
            CJK,
            ", ".join(dirs),
        )
    return PdfFonts(regular=regular, bold=bold, cjk=found[CJK])


def pdf_fonts() -> PdfFonts | None:
    """The fonts found (looked for once per process and folder list), or ``None`` when
    DejaVu Sans is missing (then the sheets use the built-in font, with a warning)."""
    return _fonts_in(tuple(settings.PDF_FONT_DIRS))


@lru_cache(maxsize=1)
def shaping_available() -> bool:
    """Whether fpdf2 can shape text (``uharfbuzz`` importable)."""
    try:
        import uharfbuzz  # noqa: F401
    except ImportError:
        logger.warning(
            "PDF score sheets: uharfbuzz is not installed; Arabic and Hebrew names print "
            "unshaped (pip install -r requirements.txt)."
        )
        return False
    return True
