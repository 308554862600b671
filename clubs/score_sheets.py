"""Printable score sheets: one PDF per round, one A4 page per match.

A sheet carries what the table needs to play and record the match without the site: the
tournament, round and match, both players (and clubs), the match length, what the game
reads (bräde: the scale and rule set; backgammon: the cube and the Crawford rule;
Kungabräde: the game types), a row per possible game with boxes for its winner and
outcome (and the cube or game type), the match's result, and lines for the signatures of
both players and the referee. The match's table (``Match.board``) is printed large in the
top right corner, and the sheets come in table order. The footer names the match's number
on the site, so the referee finds it when entering the result.

Which matches get a sheet: every match of the round except a bye (nobody to play) and a
match already decided as a walkover (nothing is played; the walkover is on the site).
A match still waiting for a player gets a sheet with an empty line for that player, so a
whole round can be printed before the previous one ends.

The PDF is made with fpdf2 in DejaVu Sans, with WenQuanYi Micro Hei as the fallback for
Chinese, Japanese and Korean, both found on the machine (``clubs.pdf_fonts``): names in
Latin with any accents, Greek, Cyrillic, Arabic (shaped, right to left) and CJK print as
written. A character no font has prints as ``?``. Without DejaVu on the machine (a
warning in the log), the sheets fall back to the built-in Helvetica, encoded as
Windows-1252: Swedish and Danish letters (åäöæøÅÄÖÆØ, é, the en dash) are covered,
another character (a Polish ł, say) is written without its accent, or as ``?`` when it
has no Latin base letter. A name too long for its box is set smaller, down to ``MIN_NAME_SIZE``, and
wrapped onto more lines beyond that; it never runs out of its box.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import F
from django.utils.translation import gettext as _
from fpdf import FPDF
from fpdf.fonts import TTFFont

from clubs import pdf_fonts
from matches.models import Match, MatchState
from matches.visibility import visible_matches
from tournaments.game_words import family_of_key, game_meta, length_heading, term_word
from tournaments.lengths import POINTS
from tournaments.models import ResignationPolicyName, Round, Tournament
from tournaments.permissions import User

ENCODING = "windows-1252"
FONT = "Helvetica"  # built in; only when DejaVu Sans is missing
UNICODE_FONT = "DejaVu"
CJK_FONT = "WenQuanYi"
PAGE_W, MARGIN = 210.0, 15.0
CONTENT_W = PAGE_W - 2 * MARGIN
NAME_SIZE, MIN_NAME_SIZE = 14.0, 8.0
ROW_H = 8.0
MAX_ROWS = 15  # what fits above the result and signatures on A4
PAGE_H = 297.0
FOOTER_Y = PAGE_H - 12  # the footer line; everything else ends above it
# Letters with a stroke have no decomposition to a base letter.
STROKES = str.maketrans({"Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i"})


def pdf_text(text: str) -> str:
    """``text`` as the core font can write it: unchanged within Windows-1252, else each
    character without its accents, or ``?``."""
    out = []
    for char in text:
        try:
            char.encode(ENCODING)
        except UnicodeEncodeError:
            base = "".join(
                c
                for c in unicodedata.normalize("NFKD", char.translate(STROKES))
                if not unicodedata.combining(c)
            )
            try:
                base.encode(ENCODING)
            except UnicodeEncodeError:
                base = ""
            char = base or "?"
        out.append(char)
    return "".join(out)


@dataclass(frozen=True)
class Fitted:
    size: float
    lines: tuple[str, ...]


def fit_text(pdf: FPDF, text: str, *, width: float, size: float, min_size: float) -> Fitted:
    """The largest font size, from ``size`` down to ``min_size`` by half points, at which
    ``text`` (as the current font writes it) fits ``width`` on one line; at ``min_size``,
    the words wrapped onto lines that each fit (a word longer than the box is cut between
    characters)."""
    current = size
    while current >= min_size:
        pdf.set_font_size(current)
        if pdf.get_string_width(text) <= width:
            return Fitted(current, (text,))
        current -= 0.5
    pdf.set_font_size(min_size)
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if pdf.get_string_width(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in word:
            if pdf.get_string_width(line + char) > width and line:
                lines.append(line)
                line = ""
            line += char
    if line:
        lines.append(line)
    return Fitted(min_size, tuple(lines))


def sheet_matches(round: Round, *, by: User) -> list[Match]:
    """The round's matches that get a sheet (no byes, no decided walkovers), in table
    order (a match without a table after, in pairing order): those ``by`` may see
    (``matches.visibility``; the sheets are the staff's, who see an unpublished round to
    print it before publishing)."""
    matches = (
        visible_matches(by=by, tournament=round.tournament)
        .filter(round=round)
        .exclude(state__in=(MatchState.BYE, MatchState.WALKOVER))
        .select_related("player1__club", "player2__club", "round")
        .order_by(F("table").asc(nulls_last=True), "is_third_place", "slot", "id")
    )
    return list(matches)


def most_games(round: Round, resignations: str | None) -> int:
    """The most games a match of ``round`` can take.

    In points every game gives at least one, so 2n - 1 games at most. A best of n takes n
    games, but where the game has a resignation policy (bräde, S1) a resigned game is not
    a completed one and lengthens the match: under ``capped`` each player may resign n
    games, so n completed games and 2n resigned ones at most (3n); under ``forbidden``
    n. A sheet gives the match every row it can take, as far as the page holds them."""
    if round.length_unit == POINTS:
        return 2 * round.match_length - 1
    if resignations == ResignationPolicyName.CAPPED:
        return 3 * round.match_length
    return round.match_length


def _rows(round: Round, resignations: str | None) -> tuple[int, bool]:
    """Game rows on the sheet, and whether the match may need more (then the back)."""
    most = most_games(round, resignations)
    return min(most, MAX_ROWS), most > MAX_ROWS


def _right_to_left(texts: list[str]) -> bool:
    """Whether a text holds letters written right to left (Arabic, Hebrew …), which need
    shaping."""
    return any(unicodedata.bidirectional(c) in ("R", "AL") for text in texts for c in text)


def _code_points(pdf: FPDF, family: str) -> set[int]:
    """The characters an added TrueType font has."""
    font = pdf.fonts[family.lower()]
    return set(font.cmap) if isinstance(font, TTFFont) else set()


class ScoreSheetPdf:
    def __init__(self, tournament: Tournament, texts: list[str]) -> None:
        """``texts``: the names and places the sheets will print (to choose the fonts)."""
        self.tournament = tournament
        self.family = family_of_key(tournament.game)
        self.points = self.family is not None and self.family.length_unit == POINTS
        self.types = self.family.vocabulary.game_types if self.family is not None else ()
        reads_policy = self.family is not None and "resignation_policy" in self.family.options
        self.resignations = tournament.resignation_policy if reads_policy else None
        pdf = FPDF(orientation="P", unit="mm", format="A4")
        self.pdf = pdf
        self.covered: set[int] | None = None  # code points the fonts have (None: built-in)
        self.font_name = FONT
        fonts = pdf_fonts.pdf_fonts()
        if fonts is None:
            pdf.core_fonts_encoding = ENCODING
        else:
            self._unicode_fonts(fonts, texts)
        pdf.set_margins(MARGIN, MARGIN, MARGIN)
        pdf.set_auto_page_break(auto=False)
        pdf.set_title(self.t(_("Score sheets: %(name)s") % {"name": tournament.name}))
        pdf.set_creator("Bräde Arena")
        self.bottom = 0.0  # the lowest point written above a footer, on any page
        self.name = ""
        self.count = 0

    def _unicode_fonts(self, fonts: pdf_fonts.PdfFonts, texts: list[str]) -> None:
        pdf = self.pdf
        pdf.add_font(UNICODE_FONT, "", str(fonts.regular))
        pdf.add_font(UNICODE_FONT, "B", str(fonts.bold))
        self.font_name = UNICODE_FONT
        covered = _code_points(pdf, UNICODE_FONT)
        lacking = {ord(c) for text in texts for c in text} - covered
        # The CJK font only when a text needs it: reading it costs half a second.
        if fonts.cjk is not None and lacking:
            pdf.add_font(CJK_FONT, "", str(fonts.cjk))
            covered |= _code_points(pdf, CJK_FONT)
            pdf.set_fallback_fonts([CJK_FONT], exact_match=False)
        self.covered = covered
        if _right_to_left(texts) and pdf_fonts.shaping_available():
            pdf.set_text_shaping(True)

    def t(self, text: str) -> str:
        """``text`` as the fonts can write it: a character none has becomes ``?``."""
        if self.covered is None:
            return pdf_text(text)
        return "".join(c if ord(c) in self.covered or c.isspace() else "?" for c in text)

    def font(self, *, style: str = "", size: float = 0) -> None:
        """The sheet's font in ``style`` (``size`` 0: the current size)."""
        self.pdf.set_font(self.font_name, style=style, size=size)

    def text(self, text: str, *, size: float = 10, style: str = "", h: float = 5.5) -> None:
        self.font(style=style, size=size)
        self.pdf.multi_cell(CONTENT_W, h, self.t(text), new_x="LMARGIN", new_y="NEXT")

    def page(self, match: Match) -> None:
        pdf, round = self.pdf, match.round
        pdf.add_page()
        if match.board is not None:
            # The table, large in the top right corner: the sheet is laid on it.
            self.font(style="B", size=16)
            pdf.cell(CONTENT_W, 7.5, self.t(_("Table %(n)s") % {"n": match.board}), align="R")
            pdf.set_x(MARGIN)
        self.text(_("Score sheet"), size=9, style="B")
        self.text(self.tournament.name, size=16, style="B", h=7.5)
        where = _("Match for third place") if match.is_third_place else round.name
        place = [
            self.tournament.start_date.isoformat(),
            self.tournament.venue,
        ]
        self.text(
            " · ".join([where, _("match %(n)s") % {"n": match.slot + 1}, *filter(None, place)]),
            size=11,
        )
        self.text(
            f"{length_heading(round.match_length, round.length_unit)} · "
            f"{game_meta(self.tournament)}",
            size=11,
        )
        pdf.ln(3)
        self.players(match)
        pdf.ln(4)
        self.games(match)
        pdf.ln(4)
        self.result()
        self.signatures()
        self.bottom = max(self.bottom, pdf.get_y())
        pdf.set_y(FOOTER_Y)
        self.font(size=8)
        pdf.cell(
            CONTENT_W,
            4,
            self.t(
                _("Bräde Arena · tournament %(t)s · match %(m)s: enter the result on the site.")
                % {"t": self.tournament.pk, "m": match.pk}
            ),
        )

    def players(self, match: Match) -> None:
        pdf = self.pdf
        label_w = 38.0
        name_w = CONTENT_W - label_w - 2
        for label, player in (
            (_("White (player 1)"), match.player1),
            (_("Black (player 2)"), match.player2),
        ):
            top = pdf.get_y()
            self.font(size=10)
            pdf.set_xy(MARGIN, top)
            pdf.cell(label_w, 7, self.t(label))
            if player is None:
                lines: tuple[str, ...] = ("",)
                size = NAME_SIZE
            else:
                name = player.name + (f" ({player.club.name})" if player.club else "")
                self.font(style="B")
                fitted = fit_text(
                    pdf, self.t(name), width=name_w, size=NAME_SIZE, min_size=MIN_NAME_SIZE
                )
                lines, size = fitted.lines, fitted.size
            self.font(style="B", size=size)
            line_h = max(size * 0.45, 4.0)
            y = top
            for line in lines:
                pdf.set_xy(MARGIN + label_w + 2, y)
                pdf.cell(name_w, line_h, line)
                y += line_h
            bottom = max(y, top + 7) + 1
            pdf.line(MARGIN + label_w + 2, bottom, MARGIN + CONTENT_W, bottom)
            pdf.set_y(bottom + 2)

    def columns(self) -> list[tuple[str, float]]:
        if self.points:
            return [
                (_("Game"), 14),
                (_("Winner (1 or 2)"), 30),
                (_("Outcome"), 56),
                (_("Cube"), 20),
                (_("Points"), 20),
                (_("Score 1 – 2"), 40),
            ]
        if self.types:
            return [
                (_("Game"), 14),
                (_("Winner (1 or 2)"), 30),
                (_("Game type"), 46),
                (_("Outcome"), 50),
                (_("Score 1 – 2"), 40),
            ]
        return [
            (_("Game"), 14),
            (_("Winner (1 or 2)"), 30),
            (_("Outcome"), 64),
            (_("Points 1 – 2"), 36),
            (_("Score 1 – 2"), 36),
        ]

    def header_row(self, columns: list[tuple[str, float]]) -> None:
        """The column heads, each inside its own lines: set smaller (9 pt down to 7) and,
        when that is not enough, on two lines, the row as tall as its tallest head
        ("Vinnare (1 eller 2)" no longer runs over its column)."""
        pdf = self.pdf
        self.font(style="B", size=9)
        fitted = [
            fit_text(pdf, self.t(label), width=width - 2, size=9, min_size=7)
            for label, width in columns
        ]
        line_h = 3.8
        height = max(ROW_H, max(len(f.lines) for f in fitted) * line_h + 1.5)
        y, x = pdf.get_y(), pdf.get_x()
        for (_label, width), fit in zip(columns, fitted, strict=True):
            pdf.rect(x, y, width, height)
            pdf.set_font_size(fit.size)
            top = y + (height - len(fit.lines) * line_h) / 2
            for i, line in enumerate(fit.lines):
                pdf.set_xy(x + 1, top + i * line_h)
                pdf.cell(width - 2, line_h, line, align="C")
            x += width
        pdf.set_xy(pdf.l_margin, y + height)

    def games(self, match: Match) -> None:
        pdf = self.pdf
        rows, more = _rows(match.round, self.resignations)
        columns = self.columns()
        self.header_row(columns)
        self.font(size=10)
        for number in range(1, rows + 1):
            for index, (_label, width) in enumerate(columns):
                if index == 0:
                    pdf.cell(width, ROW_H, str(number), border=1, align="C")
                elif index == 1:
                    x, y = pdf.get_x(), pdf.get_y()
                    pdf.cell(width, ROW_H, "", border=1)
                    for box, side in enumerate(("1", "2")):
                        bx = x + 4 + box * 13
                        pdf.rect(bx, y + 2, 4, 4)
                        pdf.text(bx + 5, y + 5.5, side)
                else:
                    pdf.cell(width, ROW_H, "", border=1)
            pdf.ln(ROW_H)
        pdf.ln(1)
        if self.family is not None:
            outcomes = ", ".join(term_word(t) for t in self.family.vocabulary.outcomes)
            self.text(_("Outcomes: %(list)s.") % {"list": outcomes}, size=8, h=4)
        if self.types:
            kinds = ", ".join(term_word(t) for t in self.types)
            self.text(_("Game types: %(list)s.") % {"list": kinds}, size=8, h=4)
        if self.points:
            self.text(
                _(
                    "Cube: its value when the game ended (1, 2, 4, …); points = cube × 1, 2 "
                    "or 3. No doubling in the Crawford game."
                ),
                size=8,
                h=4,
            )
        if more:
            self.text(_("More games: continue on the back of the sheet."), size=8, h=4)

    def result(self) -> None:
        pdf = self.pdf
        pdf.ln(2)
        self.font(style="B", size=11)
        pdf.cell(60, 8, self.t(_("Winner of the match:")))
        x, y = pdf.get_x(), pdf.get_y()
        pdf.line(x, y + 7, MARGIN + CONTENT_W - 50, y + 7)
        pdf.set_x(MARGIN + CONTENT_W - 48)
        pdf.cell(20, 8, self.t(_("Result:")))
        pdf.line(MARGIN + CONTENT_W - 28, y + 7, MARGIN + CONTENT_W, y + 7)
        pdf.ln(16)

    def signatures(self) -> None:
        pdf = self.pdf
        width = (CONTENT_W - 2 * 6) / 3
        y = pdf.get_y() + 10
        for index, label in enumerate(
            (_("Signature, player 1"), _("Signature, player 2"), _("Signature, referee"))
        ):
            x = MARGIN + index * (width + 6)
            pdf.line(x, y, x + width, y)
            self.font(size=9)
            pdf.set_xy(x, y + 1)
            pdf.cell(width, 5, self.t(label))
        pdf.set_y(y + 8)


def round_score_sheets(
    *, round: Round, by: User, after: Callable[[ScoreSheetPdf, list[Match]], None] | None = None
) -> tuple[str, bytes, int]:
    """The round's sheets as a PDF: its file name, bytes and the number of sheets (none:
    the PDF holds one page saying there is nothing to play). ``after(sheet, matches)``
    draws more pages at the end (the private links' slips, ``clubs.link_slips``)."""
    sheet = sheets_drawn(round=round, by=by)
    if after is not None:
        after(sheet, sheet_matches(round, by=by))
    return sheet.name, bytes(sheet.pdf.output()), sheet.count


def sheets_drawn(*, round: Round, by: User) -> ScoreSheetPdf:
    """The round's sheets drawn (``round_score_sheets`` writes them out)."""
    tournament = round.tournament
    matches = sheet_matches(round, by=by)
    texts = [tournament.name, tournament.venue, round.name]
    for match in matches:
        for player in (match.player1, match.player2):
            if player is not None:
                texts += [player.name, player.club.name if player.club else ""]
    sheet = ScoreSheetPdf(tournament, texts)
    for match in matches:
        sheet.page(match)
    if not matches:
        sheet.pdf.add_page()
        sheet.text(tournament.name, size=16, style="B", h=7.5)
        sheet.text(
            _("%(round)s: no match to play (only byes and walkovers).") % {"round": round.name},
            size=11,
        )
    sheet.name = f"tournament-{tournament.pk}-round-{round.number}-score-sheets.pdf"
    sheet.count = len(matches)
    return sheet
