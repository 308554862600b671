"""The problems of an entries file (``tournaments.csv_import``) in the reader's language:
one sentence per ``RowError``, shared by the organiser's import page and the API."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.csv_import import COLUMNS as CSV_COLUMNS
from tournaments.csv_import import Code, RowError


def csv_error_text(error: RowError) -> str:
    """One problem of an entries file (``tournaments.csv_import``), in the reader's language."""
    p = {"row": error.row or 0, "value": error.value}
    match error.code:
        case Code.NOT_UTF8:
            return _(
                "The file is not UTF-8 text (byte %(pos)d). Save it as “CSV UTF-8” "
                "and upload it again."
            ) % {"pos": int(error.value)}
        case Code.EMPTY:
            return _("The file is empty.")
        case Code.UNKNOWN_COLUMN:
            return _("row %(row)d: unknown column “%(col)s”; the columns are %(cols)s.") % {
                "row": error.row or 0,
                "col": error.value,
                "cols": ", ".join(CSV_COLUMNS),
            }
        case Code.NO_NAME_COLUMN:
            return _("row %(row)d: the header row needs a column “name”.") % p
        case Code.COLUMN_TWICE:
            return _("row %(row)d: column “%(col)s” appears twice.") % {
                "row": error.row or 0,
                "col": error.value,
            }
        case Code.TOO_MANY_VALUES:
            return _("row %(row)d: %(n)d values, but the header names only %(m)d columns.") % {
                "row": error.row or 0,
                "n": int(error.value),
                "m": error.limit or 0,
            }
        case Code.NAME_EMPTY:
            return _("row %(row)d: the name is empty.") % p
        case Code.TOO_LONG if error.field == "club":
            return _("row %(row)d: the club is longer than 120 characters.") % p
        case Code.TOO_LONG:
            return _("row %(row)d: the name is longer than 120 characters.") % p
        case Code.NOT_A_NUMBER:
            return _("row %(row)d: rating “%(value)s” is not a number.") % p
        case Code.NEGATIVE:
            return _("row %(row)d: a rating cannot be negative.") % p
        case Code.BAD_SEED:
            return _("row %(row)d: seed “%(value)s” is not a whole number from 1 up.") % p
        case Code.SEED_TWICE:
            return _("rows %(rows)s: seed %(seed)d is given more than once.") % {
                "rows": ", ".join(str(r) for r in error.rows),
                "seed": int(error.value),
            }
        case Code.NO_PLAYERS:
            return _("The file has a header row but no players.")
        case Code.TOO_LARGE:
            return _("row %(row)d: %(field)s “%(value)s” is larger than %(limit)d.") % {
                **p,
                "field": error.field,
                "limit": error.limit or 0,
            }
        case Code.UNREADABLE if error.value == "NUL":
            return (
                _(
                    "row %(row)d: the file holds a NUL character; save it as “CSV UTF-8” "
                    "and upload it again."
                )
                % p
            )
        case Code.UNREADABLE:
            return _("row %(row)d: a value is longer than %(limit)d characters.") % {
                **p,
                "limit": error.limit or 0,
            }
    raise AssertionError(f"no text for {error.code!r}")  # pragma: no cover
