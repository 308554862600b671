"""Reading an entries file: CSV bytes → player rows, or every problem found, row by row.

Pure Python (no Django), so it is tested without a database and the services and pages
share it. The problems are structured (``RowError``: code, row, field, value), not
sentences: the page that shows them words them in the reader's language, and the API
could return them as data.

The file: UTF-8 with or without the byte-order mark Excel writes; a header row naming
the columns (``name``, ``club``, ``rating``, ``seed``; only ``name`` is required, in any
order, any case), then one player per row; separated by semicolons (Swedish
spreadsheets), commas or tabs. Blank rows are skipped.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from core.bounds import DB_INT_MAX, db_int_in_range

COLUMNS = ("name", "club", "rating", "seed")
NAME_MAX = 120  # Player.name and Club.name
DELIMITERS = (";", ",", "\t")


class Code(StrEnum):
    """What is wrong; ``RowError`` says where."""

    NOT_UTF8 = "not_utf8"  # value: the 1-based position of the first bad byte
    EMPTY = "empty"  # no header row
    UNKNOWN_COLUMN = "unknown_column"  # value: the column
    NO_NAME_COLUMN = "no_name_column"
    COLUMN_TWICE = "column_twice"  # value: the column
    TOO_MANY_VALUES = "too_many_values"  # value: how many values; limit: how many columns
    NAME_EMPTY = "name_empty"
    TOO_LONG = "too_long"  # field: name or club; limit: the longest allowed
    NOT_A_NUMBER = "not_a_number"  # field: rating; value: the text
    NEGATIVE = "negative"  # field: rating; value: the text
    BAD_SEED = "bad_seed"  # field: seed; value: the text (not a whole number from 1 up)
    SEED_TWICE = "seed_twice"  # field: seed; value: the seed; rows: the rows giving it
    NO_PLAYERS = "no_players"  # a header row and nothing else
    TOO_LARGE = "too_large"  # field: rating or seed; value: the text; limit: the largest
    UNREADABLE = "unreadable"  # a NUL character, or a value longer than csv reads (limit)


@dataclass(frozen=True)
class RowError:
    """One problem: ``row`` is the row number in the file (1 = the first row, as a
    spreadsheet counts), ``None`` for the file as a whole."""

    code: Code
    row: int | None = None
    field: str = ""
    value: str = ""
    rows: tuple[int, ...] = ()  # SEED_TWICE: every row giving the seed
    limit: int | None = None  # TOO_LONG, TOO_MANY_VALUES


@dataclass(frozen=True)
class ImportRow:
    """One player row of an entries file; ``line`` is its row number in the file."""

    line: int
    name: str
    club: str
    rating: int | None
    seed: int | None


class CsvImportError(ValueError):
    """The file cannot be read as an entries file; ``errors`` lists every problem."""

    def __init__(self, errors: list[RowError]) -> None:
        super().__init__("; ".join(f"row {e.row}: {e.code}" for e in errors))
        self.errors = errors


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")  # also strips Excel's byte-order mark
    except UnicodeDecodeError as err:
        raise CsvImportError([RowError(Code.NOT_UTF8, value=str(err.start + 1))]) from None


def _delimiter(header: str) -> str:
    """Semicolon, comma or tab: whichever splits the header into the most known column
    names (first wins a tie); ``csv.Sniffer`` guesses wrong on one-column files."""
    best, best_known = ",", -1
    for delimiter in DELIMITERS:
        names = [c.strip().strip('"').lower() for c in header.split(delimiter)]
        known = sum(1 for n in names if n in COLUMNS)
        if known > best_known:
            best, best_known = delimiter, known
    return best


def _number(text: str) -> int:
    """A whole number as spreadsheets write it: ``1 500``, ``1500`` or ``1500.0``."""
    cleaned = text.replace("\u00a0", "").replace(" ", "")
    if re.fullmatch(r"-?\d+(\.0+)?", cleaned):
        return int(cleaned.split(".")[0])
    raise ValueError(text)


def _header_errors(header: list[str], line: int) -> list[RowError]:
    errors: list[RowError] = []
    unknown = [c for c in header if c not in COLUMNS]
    if unknown:
        errors.append(RowError(Code.UNKNOWN_COLUMN, line, value=unknown[0]))
    if "name" not in header:
        errors.append(RowError(Code.NO_NAME_COLUMN, line))
    doubled = sorted(c for c, n in Counter(header).items() if n > 1)
    if doubled:
        errors.append(RowError(Code.COLUMN_TWICE, line, value=doubled[0]))
    return errors


def _row(values: dict[str, str], line: int) -> tuple[ImportRow | None, list[RowError]]:
    errors: list[RowError] = []
    name = values.get("name", "")
    club = values.get("club", "")
    if not name:
        errors.append(RowError(Code.NAME_EMPTY, line, "name"))
    elif len(name) > NAME_MAX:
        errors.append(RowError(Code.TOO_LONG, line, "name", name, limit=NAME_MAX))
    if len(club) > NAME_MAX:
        errors.append(RowError(Code.TOO_LONG, line, "club", club, limit=NAME_MAX))
    rating: int | None = None
    if text := values.get("rating", ""):
        try:
            rating = _number(text)
        except ValueError:
            errors.append(RowError(Code.NOT_A_NUMBER, line, "rating", text))
        if rating is not None and rating < 0:
            errors.append(RowError(Code.NEGATIVE, line, "rating", text))
            rating = None
        if rating is not None and not db_int_in_range(rating):
            errors.append(RowError(Code.TOO_LARGE, line, "rating", text, limit=DB_INT_MAX))
            rating = None
    seed: int | None = None
    if text := values.get("seed", ""):
        try:
            seed = _number(text)
        except ValueError:
            seed = None
        if seed is None or seed < 1:
            errors.append(RowError(Code.BAD_SEED, line, "seed", text))
            seed = None
        elif not db_int_in_range(seed):
            errors.append(RowError(Code.TOO_LARGE, line, "seed", text, limit=DB_INT_MAX))
            seed = None
    if errors:
        return None, errors
    return ImportRow(line, name, club, rating, seed), []


def parse_entries_csv(data: bytes) -> list[ImportRow]:
    """The player rows of an entries file, in file order.

    Raises ``CsvImportError`` listing every problem (a bad header stops at the header;
    otherwise every bad row is listed), so the whole file can be fixed at once.
    """
    text = _decode(data)
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise CsvImportError([RowError(Code.EMPTY)])
    if "\x00" in text:
        # No name holds a NUL (the database refuses it): a binary file, or a broken save.
        row = text[: text.index("\x00")].count("\n") + 1
        raise CsvImportError([RowError(Code.UNREADABLE, row, value="NUL")])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(lines[first]))
    try:
        return _entries(reader)
    except csv.Error:  # a value longer than csv.field_size_limit(): no name is that long
        row = reader.line_num
        raise CsvImportError(
            [RowError(Code.UNREADABLE, row, limit=csv.field_size_limit())]
        ) from None


def _entries(reader: Any) -> list[ImportRow]:
    header: list[str] | None = None
    errors: list[RowError] = []
    rows: list[ImportRow] = []
    seed_rows: dict[int, list[int]] = {}
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            header = [c.strip().lower() for c in cells]
            if header_errors := _header_errors(header, line):
                raise CsvImportError(header_errors)
            continue
        if len(cells) > len(header):
            errors.append(
                RowError(Code.TOO_MANY_VALUES, line, value=str(len(cells)), limit=len(header))
            )
            continue
        values = dict(zip(header, (c.strip() for c in cells), strict=False))
        row, row_errors = _row(values, line)
        if values.get("seed") and (seed := _seed_of(values["seed"])) is not None:
            # Counted also on rows with other errors, so one pass reports both.
            seed_rows.setdefault(seed, []).append(line)
        errors.extend(row_errors)
        if row is not None:
            rows.append(row)
    for seed, at in sorted(seed_rows.items()):
        if len(at) > 1:
            errors.append(RowError(Code.SEED_TWICE, at[0], "seed", str(seed), rows=tuple(at)))
    if header is None:  # only blank rows (a file of whitespace and separators)
        raise CsvImportError([RowError(Code.EMPTY)])
    if errors:
        raise CsvImportError(errors)
    if not rows:
        raise CsvImportError([RowError(Code.NO_PLAYERS)])
    return rows


def _seed_of(text: str) -> int | None:
    """A valid seed, or ``None`` (the row's own error says why)."""
    try:
        seed = _number(text)
    except ValueError:
        return None
    return seed if seed >= 1 else None
