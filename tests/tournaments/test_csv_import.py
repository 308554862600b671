"""The entries-file parser: bytes → player rows, or structured problems (no database)."""

from __future__ import annotations

import pytest

from tournaments.csv_import import (
    Code,
    CsvImportError,
    ImportRow,
    RowError,
    parse_entries_csv,
)


def errors_of(data: bytes) -> list[RowError]:
    with pytest.raises(CsvImportError) as err:
        parse_entries_csv(data)
    assert isinstance(err.value, ValueError)
    return err.value.errors


class TestReads:
    def test_commas_with_a_bom_quotes_and_blank_rows(self) -> None:
        data = b"\xef\xbb\xbfname,club,rating,seed\r\nAnna Berg,Lunds BK,1620,1\r\n\r\n"
        data += b'"Berg, Sara",,,2\r\n'
        assert parse_entries_csv(data) == [
            ImportRow(2, "Anna Berg", "Lunds BK", 1620, 1),
            ImportRow(4, "Berg, Sara", "", None, 2),
        ]

    def test_a_bom_is_not_part_of_the_first_column(self) -> None:
        rows = parse_entries_csv(b"\xef\xbb\xbfname\nAnna\n")
        assert rows == [ImportRow(2, "Anna", "", None, None)]

    def test_semicolons_any_case_and_spreadsheet_numbers(self) -> None:
        data = "Name;Club;Rating\nÅsa Öberg;Bräde Malmö;1 500\nLars Ek;;1500.0\n".encode()
        assert parse_entries_csv(data) == [
            ImportRow(2, "Åsa Öberg", "Bräde Malmö", 1500, None),
            ImportRow(3, "Lars Ek", "", 1500, None),
        ]

    def test_tabs(self) -> None:
        rows = parse_entries_csv(b"seed\tname\tclub\n3\tA\tK\n")
        assert rows == [ImportRow(2, "A", "K", None, 3)]

    def test_one_column_is_not_split_at_a_comma_in_a_name(self) -> None:
        rows = parse_entries_csv(b'name\n"Berg, Sara"\n')
        assert [r.name for r in rows] == ["Berg, Sara"]

    def test_fewer_values_than_columns(self) -> None:
        assert parse_entries_csv(b"name;club;rating;seed\nA\n")[0] == ImportRow(
            2, "A", "", None, None
        )


class TestProblems:
    def test_empty_file(self) -> None:
        assert errors_of(b"") == [RowError(Code.EMPTY)]
        assert errors_of(b"\xef\xbb\xbf\n  \n") == [RowError(Code.EMPTY)]

    def test_header_only(self) -> None:
        assert errors_of(b"name,club\n\n") == [RowError(Code.NO_PLAYERS)]

    def test_not_utf8(self) -> None:
        assert errors_of("name\nÅsa\n".encode("latin-1")) == [RowError(Code.NOT_UTF8, value="6")]

    def test_unknown_column_stops_at_the_header(self) -> None:
        assert errors_of(b"\nname,ratng\nA,x\n") == [
            RowError(Code.UNKNOWN_COLUMN, 2, value="ratng")
        ]

    def test_header_needs_name_once(self) -> None:
        assert errors_of(b"club\nK\n") == [RowError(Code.NO_NAME_COLUMN, 1)]
        assert errors_of(b"name;Name\nA;B\n") == [RowError(Code.COLUMN_TWICE, 1, value="name")]

    def test_bad_rating(self) -> None:
        assert errors_of(b"name,rating\nA,abc\nB,-3\nC,1.5\n") == [
            RowError(Code.NOT_A_NUMBER, 2, "rating", "abc"),
            RowError(Code.NEGATIVE, 3, "rating", "-3"),
            RowError(Code.NOT_A_NUMBER, 4, "rating", "1.5"),
        ]

    def test_bad_seed(self) -> None:
        assert errors_of(b"name,seed\nA,0\nB,x\n") == [
            RowError(Code.BAD_SEED, 2, "seed", "0"),
            RowError(Code.BAD_SEED, 3, "seed", "x"),
        ]

    def test_duplicate_seed_names_every_row(self) -> None:
        # Row 3 has another problem too; its seed still counts, so one pass says both.
        assert errors_of(b"name,rating,seed\nA,,1\nB,x,1\nC,,2\nD,,1\n") == [
            RowError(Code.NOT_A_NUMBER, 3, "rating", "x"),
            RowError(Code.SEED_TWICE, 2, "seed", "1", rows=(2, 3, 5)),
        ]

    def test_name_and_club_length_and_extra_values(self) -> None:
        long = "x" * 121
        assert errors_of(f"name,club\n,K\n{long},{long}\nA,K,extra\n".encode()) == [
            RowError(Code.NAME_EMPTY, 2, "name"),
            RowError(Code.TOO_LONG, 3, "name", long, limit=120),
            RowError(Code.TOO_LONG, 3, "club", long, limit=120),
            RowError(Code.TOO_MANY_VALUES, 4, value="3", limit=2),
        ]
