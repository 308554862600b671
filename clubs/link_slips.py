"""Private-link slips: each player's private link (``tournaments.private_links``) as a
QR code with their name, to cut out and hand to the player, printed by an organiser on
their own (``link_slips_pdf``) or after a round's score sheets or wall sheet (``?links=1``).

Decision where the docs are silent: a link is the player's key, so it is never printed
where others read it. The wall sheet is pinned up and a score sheet lies between both
players; so the codes are not in the sheets' tables but on slips on pages of their own,
appended to those PDFs for the organiser only ("cut along the lines and hand each player
theirs"), two columns of five slips a page. A player without a live link gets no slip
(the organiser issues links on the private links page first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import segno
from django.utils.translation import gettext as _
from fpdf import FPDF

from clubs.score_sheets import CONTENT_W, MARGIN, ScoreSheetPdf, fit_text
from tournaments.models import Player, PrivateLink, Tournament
from tournaments.private_links import private_link_token

__all__ = ["Slip", "link_slips", "link_slips_draw", "link_slips_pdf", "qr_draw"]

COLUMNS, ROWS = 2, 5
SLIP_W = CONTENT_W / COLUMNS
SLIP_H = 52.0
QR_SIZE = 40.0


@dataclass(frozen=True)
class Slip:
    player: Player
    url: str
    table: int | None = None


def qr_draw(pdf: FPDF, text: str, *, x: float, y: float, size: float) -> None:
    """``text`` as a QR code (segno, error correction M), ``size`` mm square with its
    quiet zone, drawn as filled squares at (x, y)."""
    qr = segno.make(text, error="m")
    matrix = qr.matrix
    border = 2
    count = len(matrix) + 2 * border
    module = size / count
    pdf.set_fill_color(0, 0, 0)
    for row, line in enumerate(matrix):
        col = 0
        while col < len(line):
            if not line[col]:
                col += 1
                continue
            start = col
            while col < len(line) and line[col]:
                col += 1
            pdf.rect(
                x + (border + start) * module,
                y + (border + row) * module,
                (col - start) * module,
                module,
                style="F",
            )


def link_slips(
    tournament: Tournament,
    url_of: Callable[[str], str],
    tables: dict[int, int] | None = None,
) -> list[Slip]:
    """Every live link of ``tournament`` as a slip, alphabetically; ``url_of(token)`` is
    the link's full address; ``tables``: player id → their table this round."""
    links = (
        PrivateLink.objects.filter(tournament=tournament, revoked_at__isnull=True)
        .select_related("player")
        .order_by("player__name", "pk")
    )
    tables = tables or {}
    return [
        Slip(link.player, url_of(private_link_token(link)), tables.get(link.player_id))
        for link in links
    ]


def link_slips_draw(sheet: ScoreSheetPdf, slips: Sequence[Slip]) -> None:
    """The slips on pages of their own at the end of ``sheet`` (see the module text)."""
    pdf = sheet.pdf
    per_page = COLUMNS * ROWS
    for index, slip in enumerate(slips):
        if index % per_page == 0:
            pdf.add_page()
            sheet.text(
                _("Private links: cut along the lines and hand each player theirs."),
                size=10,
                style="B",
            )
            top = pdf.get_y() + 2
        place = index % per_page
        x = MARGIN + (place % COLUMNS) * SLIP_W
        y = top + (place // COLUMNS) * SLIP_H
        pdf.set_draw_color(150, 150, 150)
        pdf.set_dash_pattern(dash=1.5, gap=1.5)
        pdf.rect(x, y, SLIP_W, SLIP_H)
        pdf.set_dash_pattern()
        pdf.set_draw_color(0, 0, 0)
        qr_draw(pdf, slip.url, x=x + 2, y=y + (SLIP_H - QR_SIZE) / 2, size=QR_SIZE)
        text_x, text_w = x + QR_SIZE + 4, SLIP_W - QR_SIZE - 6
        sheet.font(style="B", size=12)
        fitted = fit_text(pdf, sheet.t(slip.player.name), width=text_w, size=12, min_size=7)
        sheet.font(style="B", size=fitted.size)
        line_y = y + 4
        for line in fitted.lines:
            pdf.set_xy(text_x, line_y)
            pdf.cell(text_w, 5, line)
            line_y += 5
        sheet.font(size=8)
        lines = [sheet.tournament.name]
        if slip.table is not None:
            lines.append(_("Table %(n)s") % {"n": slip.table})
        lines.append(_("Scan to report and confirm your results. Keep it to yourself."))
        pdf.set_xy(text_x, line_y + 1)
        pdf.multi_cell(text_w, 3.6, sheet.t("\n".join(lines)))
        sheet.font(size=5.5)
        pdf.set_xy(text_x, y + SLIP_H - 6)
        pdf.multi_cell(text_w, 2.6, slip.url)


def link_slips_pdf(tournament: Tournament, url_of: Callable[[str], str]) -> tuple[str, bytes, int]:
    """All the tournament's live links as slips: file name, bytes and how many."""
    slips = link_slips(tournament, url_of)
    sheet = ScoreSheetPdf(tournament, [tournament.name, *(s.player.name for s in slips)])
    sheet.pdf.set_title(sheet.t(_("Private links: %(name)s") % {"name": tournament.name}))
    if slips:
        link_slips_draw(sheet, slips)
    else:
        sheet.pdf.add_page()
        sheet.text(_("No private link is issued yet."), size=11)
    return f"tournament-{tournament.pk}-private-links.pdf", bytes(sheet.pdf.output()), len(slips)
