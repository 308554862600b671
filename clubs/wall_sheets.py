"""The wall sheet: a round's pairings printed on A4 to pin up at the venue, as chess
arbiters post them: first by table (table, player, opponent), then, from a new page,
every player in alphabetical order with their table and opponent, so a player finds their
name without knowing where they play.

Decisions where the docs are silent:
- Who may print it: whoever may see the round's matches (``matches.visibility``): the
  tournament's staff before the round is published (to check it, or print it the minute
  it is), everyone who sees the tournament once it is. A round nobody may see yet is a 404
  as on the round page.
- What is on it: every match of the round, in table order (a match without a table
  after, in pairing order). Player 1 is named first (in bräde the white player). A bye
  reads "bye" with no table, a walkover "walkover" with no table (it is not played), a
  reset not needed is left out. A knockout round whose players are not known yet prints
  "to be decided" for them. A Swiss player sitting the round out on a half-point bye is
  listed after the matches, with no table and "½ bye" for an opponent: they are in the
  round and look for their name on the wall like everyone else.
- The alphabetical list sorts names as a reader of the sheet's language does: case
  ignored; in Swedish å, ä, ö after z in that order (æ with ä, ø with ö); in Danish æ, ø,
  å after z in that order (ä with æ, ö with ø, and a double ``aa`` as å, as Danish
  dictionaries and phone books sort Aagaard); other accented letters with their base
  letter. English has no letters after z: an English sheet keeps the site's Swedish order
  (the players are the Swedish and Danish clubs' own).
- A tournament played at several venues (``tournaments.venues``) prints a sheet per venue
  (``venue``): that venue's matches with its own table numbers, its name where the
  tournament's place stands, and the round's half-point byes too (they are at no venue,
  and look for their name wherever they are). Without a venue, every match, as before.
- The type is large (14 pt names) to be read on a wall; the column heads are repeated
  on each page when a list runs over. The fonts are the score sheets' (``clubs.pdf_fonts``
  through ``clubs.score_sheets``): names in any script print as written.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.score_sheets import CONTENT_W, MARGIN, PAGE_H, ScoreSheetPdf, fit_text
from games.seats import SEATS, other
from matches.models import HalfPointBye, Match, MatchState
from matches.visibility import visible_matches
from tournaments.game_words import length_heading
from tournaments.models import Round, Venue
from tournaments.permissions import User

__all__ = [
    "WallLine",
    "alphabetical_key",
    "half_bye_names",
    "wall_lines",
    "wall_sheet",
    "wall_sheet_matches",
]

NAME_SIZE, MIN_NAME_SIZE = 14.0, 8.0
ROW_H = 9.0
BOTTOM = PAGE_H - 15  # a row that would end below this starts a new page
# The letters after z of each alphabet, in its order, as the characters just past "z" in
# ASCII; Danish reads a double a as å first. A language not listed sorts as Swedish (see
# the module text).
LAST_LETTERS = {
    "sv": str.maketrans({"å": "{", "ä": "|", "æ": "|", "ö": "}", "ø": "}"}),
    "da": str.maketrans({"æ": "{", "ä": "{", "ø": "|", "ö": "|", "å": "}"}),
}
DOUBLE_LETTERS = {"da": (("aa", "å"),)}


def alphabetical_key(name: str, language: str = "sv") -> str:
    """The sort key of ``name`` in ``language``'s alphabetical order (see the module
    text)."""
    folded = name.casefold()
    for double, letter in DOUBLE_LETTERS.get(language, ()):
        folded = folded.replace(double, letter)
    folded = folded.translate(LAST_LETTERS.get(language, LAST_LETTERS["sv"]))
    return "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))


@dataclass(frozen=True)
class WallLine:
    """One line of the alphabetical list: a player, their table and opponent."""

    name: str
    table: int | None
    opponent: str


def wall_sheet_matches(round: Round, *, by: User, venue: Venue | None = None) -> list[Match]:
    """The round's matches ``by`` may see (at ``venue`` when given), in table order (see
    the module text)."""
    shown = visible_matches(by=by, tournament=round.tournament)
    if venue is not None:
        shown = shown.filter(venue=venue)
    matches = (
        shown.filter(round=round)
        .exclude(state=MatchState.NOT_NEEDED)
        .select_related("player1", "player2")
    )
    # By the table shown (``Match.board``): a walkover's kept number does not count.
    return sorted(
        matches,
        key=lambda m: (m.board is None, m.board or 0, m.is_third_place, m.slot, m.pk),
    )


def _name(match: Match, seat: int) -> str:
    player = match.player_for(seat)
    if player is not None:
        return player.name
    if match.state == MatchState.BYE:
        return _("bye")
    return _("to be decided")


def _note(match: Match) -> str:
    if match.state == MatchState.WALKOVER:
        return _("walkover")
    return ""


def half_bye_names(round: Round, language: str = "sv") -> list[str]:
    """The players sitting ``round`` out on a half-point bye, in ``language``'s
    alphabetical order."""
    names = HalfPointBye.objects.filter(
        entry__tournament_id=round.tournament_id, round_number=round.number
    ).values_list("entry__player__name", flat=True)
    return sorted(names, key=lambda name: (alphabetical_key(name, language), name))


def wall_lines(
    matches: list[Match], half_byes: Sequence[str] = (), language: str = "sv"
) -> list[WallLine]:
    """Every known player of ``matches`` (and of ``half_byes``) with their table and
    opponent, in ``language``'s alphabetical order."""
    lines = [WallLine(name, None, _("½ bye")) for name in half_byes]
    for m in matches:
        for seat in SEATS:
            player = m.player_for(seat)
            if player is None:
                continue
            opponent = _name(m, other(seat))
            note = _note(m)
            lines.append(
                WallLine(player.name, m.board, f"{opponent} ({note})" if note else opponent)
            )
    return sorted(lines, key=lambda line: (alphabetical_key(line.name, language), line.name))


class WallSheetPdf(ScoreSheetPdf):
    """The wall sheet's PDF: the score sheets' fonts, its own pages."""

    def __init__(
        self,
        round: Round,
        matches: list[Match],
        half_byes: Sequence[str] = (),
        venue: Venue | None = None,
    ) -> None:
        tournament = round.tournament
        names = [p.name for m in matches for p in (m.player1, m.player2) if p is not None]
        names += half_byes
        self.place = venue.name if venue is not None else tournament.venue
        super().__init__(tournament, [tournament.name, self.place, round.name, *names])
        self.round = round
        self.heads: list[tuple[str, float, str]] = []  # the current list's column heads
        self.pdf.set_title(
            self.t(
                _("Pairings: %(tournament)s, %(round)s")
                % {"tournament": tournament.name, "round": round.name}
            )
        )
        self.pdf.set_auto_page_break(auto=False)

    def heading(self, title: str) -> None:
        tournament, round = self.tournament, self.round
        self.pdf.add_page()
        self.text(tournament.name, size=14, style="B", h=7)
        self.text(f"{round.name} · {title}", size=20, style="B", h=10)
        place = [tournament.start_date.isoformat(), self.place]
        self.text(
            " · ".join(
                [length_heading(round.match_length, round.length_unit), *filter(None, place)]
            ),
            size=10,
        )
        if not round.published:
            self.text(_("Not published yet: for the organisers and referees."), size=10)
        self.pdf.ln(3)

    def row(self, cells: list[tuple[str, float, str]], *, bold: bool = False) -> None:
        """One row: (text, width, align) per column; a long name is set smaller, then
        wrapped, and the row grows to hold it."""
        pdf = self.pdf
        fitted = []
        for text, width, _align in cells:
            self.font(style="B" if bold else "", size=NAME_SIZE)
            fitted.append(
                fit_text(pdf, self.t(text), width=width - 3, size=NAME_SIZE, min_size=MIN_NAME_SIZE)
            )
        height = max(ROW_H, max(len(f.lines) for f in fitted) * 5.5 + 2.5)
        if not bold and pdf.get_y() + height > BOTTOM:
            pdf.add_page()
            self.row(self.heads, bold=True)
        y, x = pdf.get_y(), MARGIN
        for (_text, width, align), fit in zip(cells, fitted, strict=True):
            pdf.rect(x, y, width, height)
            self.font(style="B" if bold else "", size=fit.size)
            line_h = (height - 2) / len(fit.lines) if len(fit.lines) > 1 else height
            for i, line in enumerate(fit.lines):
                pdf.set_xy(x + 1.5, y + (1 if len(fit.lines) > 1 else 0) + i * line_h)
                pdf.cell(width - 3, line_h, line, align=align)
            x += width
        pdf.set_xy(MARGIN, y + height)

    def by_table(self, matches: list[Match], half_byes: Sequence[str] = ()) -> None:
        self.heading(_("Pairings by table"))
        name_w = (CONTENT_W - 22) / 2
        self.heads = [
            (_("Table"), 22.0, "C"),
            (_("Player"), name_w, "L"),
            (_("Opponent"), name_w, "L"),
        ]
        self.row(self.heads, bold=True)
        for m in matches:
            note = _note(m)
            second = _name(m, 1)
            self.row(
                [
                    ("" if m.board is None else str(m.board), 22.0, "C"),
                    (_name(m, 0), name_w, "L"),
                    (f"{second} ({note})" if note else second, name_w, "L"),
                ]
            )
        for name in half_byes:
            self.row([("", 22.0, "C"), (name, name_w, "L"), (_("½ bye"), name_w, "L")])

    def alphabetical(self, lines: list[WallLine]) -> None:
        self.heading(_("Players in alphabetical order"))
        name_w = (CONTENT_W - 22) / 2
        self.heads = [
            (_("Player"), name_w, "L"),
            (_("Table"), 22.0, "C"),
            (_("Opponent"), name_w, "L"),
        ]
        self.row(self.heads, bold=True)
        for line in lines:
            self.row(
                [
                    (line.name, name_w, "L"),
                    ("" if line.table is None else str(line.table), 22.0, "C"),
                    (line.opponent, name_w, "L"),
                ]
            )


def wall_sheet(
    *,
    round: Round,
    by: User,
    after: Callable[[ScoreSheetPdf, list[Match]], None] | None = None,
    venue: Venue | None = None,
) -> tuple[str, bytes]:
    """The round's wall sheet as a PDF: its file name and bytes (see the module text;
    the caller checks that ``by`` may see the round). ``after(sheet, matches)`` draws
    more pages at the end (the private links' slips, ``clubs.link_slips``); ``venue``:
    that venue's sheet."""
    language = get_language() or settings.LANGUAGE_CODE  # the sheet's words' language
    matches = wall_sheet_matches(round, by=by, venue=venue)
    half_byes = half_bye_names(round, language)
    sheet = WallSheetPdf(round, matches, half_byes, venue)
    sheet.by_table(matches, half_byes)
    sheet.alphabetical(wall_lines(matches, half_byes, language))
    if after is not None:
        after(sheet, matches)
    at = f"-venue-{venue.pk}" if venue is not None else ""
    name = f"tournament-{round.tournament_id}-round-{round.number}{at}-wall-sheet.pdf"
    return name, bytes(sheet.pdf.output())
