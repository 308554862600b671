"""Score sheets print every name as written: DejaVu Sans with WenQuanYi Micro Hei as the
fallback (Debian's fonts-dejavu-core and fonts-wqy-microhei, installed by
scripts/ensure_system_packages.sh), Arabic shaped by HarfBuzz; the PDF is read back with
pypdf. Without the fonts the sheets still come, in the built-in font, with a warning.

The tests that need the fonts fail (they are not skipped) when the fonts are missing:
CI installs them."""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from clubs import pdf_fonts, score_sheets
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
)
from tournaments.models import Round
from tournaments.stage_draws import tournament_draw

pytestmark = pytest.mark.django_db

NAMES = [
    "中文 名字",
    "Łukasz Żółć",
    "Γιώργος Παπαδόπουλος",
    "Иван Петров",
    "محمد عبد الله",
    "Åsa Öberg",
    "Nguyễn Thị Hằng",
    "Ümit Çağlar",
]
INSTALL = (
    "install Debian's fonts-dejavu-core and fonts-wqy-microhei: scripts/ensure_system_packages.sh"
)


@pytest.fixture
def fonts() -> pdf_fonts.PdfFonts:
    found = pdf_fonts.pdf_fonts()
    assert found is not None and found.cjk is not None, INSTALL
    assert pdf_fonts.shaping_available(), "uharfbuzz missing: pip install -r requirements.txt"
    return found


def first_round(
    names: list[str], club: str | None = None, *, name: str = "Öppna 東京 – Ελλάδα"
) -> Round:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(name=name, organisers=[organiser], venue="Folkets hus")
    club_obj = ClubFactory.create(name=club) if club else None
    for seed, name in enumerate(names, start=1):
        EntryFactory.create(
            tournament=tournament, player=PlayerFactory.create(name=name, club=club_obj), seed=seed
        )
    rounds = (len(names) - 1).bit_length()
    tournament_draw(tournament=tournament, by=organiser, lengths=[3] * rounds)
    return Round.objects.get(tournament=tournament, number=1)


def round_score_sheets(*, round: Round) -> tuple[str, bytes, int]:
    """The round's sheets as its tournament's organiser prints them."""
    return score_sheets.round_score_sheets(round=round, by=round.tournament.organisers.get())


def read(content: bytes) -> tuple[list[str], set[str]]:
    reader = PdfReader(io.BytesIO(content))
    texts = [" ".join(p.extract_text().split()) for p in reader.pages]
    fonts: set[str] = set()
    for page in reader.pages:
        resources: Any = page["/Resources"]
        for font in resources["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]).lstrip("/").split("+")[-1])
    return texts, fonts


def test_every_name_prints_as_written(fonts: pdf_fonts.PdfFonts) -> None:
    _name, content, count = round_score_sheets(round=first_round(NAMES))
    texts, used = read(content)
    assert count == len(texts) == 4
    everything = " ".join(texts)
    for name in NAMES:
        assert name in everything, name
    assert "?" not in everything
    assert "Öppna 東京 – Ελλάδα" in texts[0]
    assert {"DejaVuSansBook", "DejaVuSans-Bold", "WenQuanYiMicroHei"} & used
    assert not any(f.startswith("Helvetica") for f in used)


def test_the_text_after_a_name_in_the_fallback_font_keeps_its_font(
    fonts: pdf_fonts.PdfFonts,
) -> None:
    """Lines that begin in the CJK font (the tournament, a player): every line after
    them is still readable."""
    _name, content, _count = round_score_sheets(
        round=first_round(["中文 名字", "王 芳"], name="東京オープン 2026")
    )
    (text,), _fonts = read(content)
    for words in ("東京オープン 2026", "中文 名字", "王 芳", "Signature, referee", "Score sheet"):
        assert words in text


def test_a_club_in_cjk_and_arabic_after_it(fonts: pdf_fonts.PdfFonts) -> None:
    _name, content, _count = round_score_sheets(
        round=first_round(["محمد عبد الله", "Li Wei"], club="東京 ブラデ クラブ")
    )
    (text,), _fonts = read(content)
    # A line beginning in Arabic runs right to left (Unicode's bidi rules): the name and
    # the club each intact; pypdf reads the line's parts in their order on the page.
    assert "محمد عبد الله" in text and text.count("東京 ブラデ クラブ") == 2
    assert "Li Wei (東京 ブラデ クラブ)" in text


def test_latin_only_sheets_do_not_embed_the_cjk_font(fonts: pdf_fonts.PdfFonts) -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(name="Vårcupen", organisers=[organiser])
    for seed, name in enumerate(["Łukasz Żółć", "Åsa Öberg"], start=1):
        EntryFactory.create(
            tournament=tournament, player=PlayerFactory.create(name=name), seed=seed
        )
    tournament_draw(tournament=tournament, by=organiser, lengths=[3])
    _name, content, _count = round_score_sheets(round=Round.objects.get(tournament=tournament))
    (text,), used = read(content)
    assert "Łukasz Żółć" in text
    assert not any("WenQuanYi" in f for f in used)


def test_without_the_fonts_the_built_in_font_and_a_warning(
    settings: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings.PDF_FONT_DIRS = [str(tmp_path)]
    with caplog.at_level(logging.WARNING, logger="clubs.pdf_fonts"):
        _name, content, count = round_score_sheets(round=first_round(NAMES))
    assert "fonts-dejavu-core" in caplog.text and "Helvetica" in caplog.text
    texts, used = read(content)
    assert count == 4
    assert used == {"Helvetica", "Helvetica-Bold"}
    everything = " ".join(texts)
    assert "Lukasz Zólc" in everything and "Åsa Öberg" in everything
    assert "?? ??" in everything  # the CJK name, as before


def test_without_the_cjk_font_those_characters_print_as_question_marks(
    settings: Any, fonts: pdf_fonts.PdfFonts, caplog: pytest.LogCaptureFixture
) -> None:
    settings.PDF_FONT_DIRS = [str(fonts.regular.parent)]
    with caplog.at_level(logging.WARNING, logger="clubs.pdf_fonts"):
        _name, content, _count = round_score_sheets(round=first_round(NAMES))
    assert "fonts-wqy-microhei" in caplog.text
    texts, _used = read(content)
    everything = " ".join(texts)
    assert "?? ??" in everything
    assert "Γιώργος Παπαδόπουλος" in everything and "Łukasz Żółć" in everything
