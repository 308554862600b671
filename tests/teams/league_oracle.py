"""An independent oracle for team-league tables, written only from the rules (no project code).

Tests use it to check the site's division tables and promotion/relegation. Standard library only.

Rules, in short:

- A board result is a mapping ``{"winner": "home" | "away" | None, "home_points": int,
  "away_points": int, "home_tiebreak": int, "away_tiebreak": int, "walkover": bool}``.
  ``winner None`` and no walkover: undecided. ``winner None`` with a walkover: decided, both
  teams lose the board. A walkover with a winner gives that team the board; its points and
  tiebreaks count 0 for both.
- A team match is decided when every board is decided, or early when one side's board points
  exceed the other's plus the undecided boards. More board points wins; equal with all boards
  decided is a draw. Only decided team matches count in a table, and of those only their decided
  boards.
- Table order: match points, board points, points difference, points for, head-to-head match
  points among the teams still tied (recomputed on each still-tied subset), then the lots.

Tiebreaks (``home_tiebreak`` / ``away_tiebreak``) play no part in any of these rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict

Side = Literal["home", "away"]


class Outcome(TypedDict):
    decided: bool
    winner: Literal["home", "away", "draw"] | None
    home_boards: int
    away_boards: int


class Row(TypedDict):
    team: int
    played: int
    won: int
    drawn: int
    lost: int
    match_points: int
    board_points: int
    points_for: int
    points_against: int


def _board_decided(board: Mapping[str, Any]) -> bool:
    return board["winner"] is not None or bool(board["walkover"])


def _board_points(board: Mapping[str, Any]) -> tuple[int, int]:
    """(home, away) individual-match points a decided board contributes; walkovers count 0."""
    if board["walkover"]:
        return 0, 0
    return int(board["home_points"]), int(board["away_points"])


def team_match_outcome(boards: Sequence[Mapping[str, Any]]) -> Outcome:
    """The outcome of one team match from its boards."""
    home_boards = away_boards = undecided = 0
    for board in boards:
        winner = board["winner"]
        if winner not in ("home", "away", None):
            raise ValueError(f"bad board winner: {winner!r}")
        if not _board_decided(board):
            undecided += 1
        elif winner == "home":
            home_boards += 1
        elif winner == "away":
            away_boards += 1
        # else: a double walkover, decided, nobody gets the board.
    decided = (
        undecided == 0
        or home_boards > away_boards + undecided
        or away_boards > home_boards + undecided
    )
    winner_out: Literal["home", "away", "draw"] | None = None
    if decided:
        if home_boards > away_boards:
            winner_out = "home"
        elif away_boards > home_boards:
            winner_out = "away"
        else:
            winner_out = "draw"
    return {
        "decided": decided,
        "winner": winner_out,
        "home_boards": home_boards,
        "away_boards": away_boards,
    }


def _tally(
    teams: Sequence[int],
    matches: Sequence[Mapping[str, Any]],
    *,
    win: int,
    draw: int,
    loss: int,
) -> dict[int, Row]:
    """Rows for `teams` from the decided matches in which both sides are among `teams`."""
    members = set(teams)
    rows: dict[int, Row] = {
        team: {
            "team": team,
            "played": 0,
            "won": 0,
            "drawn": 0,
            "lost": 0,
            "match_points": 0,
            "board_points": 0,
            "points_for": 0,
            "points_against": 0,
        }
        for team in teams
    }
    for match in matches:
        home, away = match["home"], match["away"]
        if home not in members or away not in members:
            continue
        outcome = team_match_outcome(match["boards"])
        if not outcome["decided"]:
            continue
        home_for = away_for = 0
        for board in match["boards"]:
            if _board_decided(board):
                h, a = _board_points(board)
                home_for += h
                away_for += a
        for team, own_boards, own_for, opp_for, side in (
            (home, outcome["home_boards"], home_for, away_for, "home"),
            (away, outcome["away_boards"], away_for, home_for, "away"),
        ):
            row = rows[team]
            row["played"] += 1
            if outcome["winner"] == "draw":
                row["drawn"] += 1
                row["match_points"] += draw
            elif outcome["winner"] == side:
                row["won"] += 1
                row["match_points"] += win
            else:
                row["lost"] += 1
                row["match_points"] += loss
            row["board_points"] += own_boards
            row["points_for"] += own_for
            row["points_against"] += opp_for
    return rows


def _group_by(teams: list[int], key: Mapping[int, tuple[int, ...]]) -> list[list[int]]:
    """`teams` split into groups of equal key, best (highest key) group first."""
    ordered = sorted(teams, key=lambda t: key[t], reverse=True)
    groups: list[list[int]] = []
    for team in ordered:
        if groups and key[groups[-1][0]] == key[team]:
            groups[-1].append(team)
        else:
            groups.append([team])
    return groups


def _break_tie(
    tied: list[int],
    matches: Sequence[Mapping[str, Any]],
    lots: Sequence[int],
    *,
    win: int,
    draw: int,
    loss: int,
) -> list[int]:
    """Order teams tied on the main criteria: head-to-head (recursively), then lots."""
    if len(tied) == 1:
        return list(tied)
    h2h = _tally(tied, matches, win=win, draw=draw, loss=loss)
    groups = _group_by(tied, {t: (h2h[t]["match_points"],) for t in tied})
    if len(groups) > 1:
        ordered: list[int] = []
        for group in groups:
            ordered.extend(_break_tie(group, matches, lots, win=win, draw=draw, loss=loss))
        return ordered
    lot_rank = {team: i for i, team in enumerate(lots)}
    missing = [t for t in tied if t not in lot_rank]
    if missing:
        raise ValueError(f"tie needs the lots but teams {sorted(missing)} are not in them")
    return sorted(tied, key=lambda t: lot_rank[t])


def division_table(
    teams: Sequence[int],
    matches: Sequence[Mapping[str, Any]],
    *,
    lots: Sequence[int],
    win: int = 2,
    draw: int = 1,
    loss: int = 0,
) -> list[Row]:
    """The division's table, rows in table order (best first)."""
    if len(set(teams)) != len(teams):
        raise ValueError("duplicate team in division")
    members = set(teams)
    for match in matches:
        if match["home"] not in members or match["away"] not in members:
            raise ValueError(f"match {match['home']} v {match['away']} has a team not in division")
        if match["home"] == match["away"]:
            raise ValueError("a team cannot play itself")
    rows = _tally(teams, matches, win=win, draw=draw, loss=loss)
    main_key = {
        t: (
            rows[t]["match_points"],
            rows[t]["board_points"],
            rows[t]["points_for"] - rows[t]["points_against"],
            rows[t]["points_for"],
        )
        for t in teams
    }
    order: list[int] = []
    for group in _group_by(list(teams), main_key):
        order.extend(_break_tie(group, matches, lots, win=win, draw=draw, loss=loss))
    return [rows[t] for t in order]


def next_divisions(tables: Sequence[Sequence[int]], *, up: int, down: int) -> list[set[int]]:
    """Next season's divisions (top first) from this season's final orders (best first)."""
    if up < 0 or down < 0:
        raise ValueError("up and down must be non-negative")
    n = len(tables)
    result: list[set[int]] = []
    for d, table in enumerate(tables):
        going_up = up if d > 0 else 0
        going_down = down if d < n - 1 else 0
        if going_up + going_down > len(table):
            raise ValueError(f"division {d} has too few teams for {going_up} up, {going_down} down")
        staying = set(table[going_up : len(table) - going_down])
        if d > 0:
            staying |= set(tables[d - 1][len(tables[d - 1]) - down :])
        if d < n - 1:
            staying |= set(tables[d + 1][:up])
        result.append(staying)
    return result


if __name__ == "__main__":

    def _b(winner: str | None, hp: int = 0, ap: int = 0, walkover: bool = False) -> dict[str, Any]:
        return {
            "winner": winner,
            "home_points": hp,
            "away_points": ap,
            "home_tiebreak": 0,
            "away_tiebreak": 0,
            "walkover": walkover,
        }

    # Outcomes: 3 boards, 2-0 with one undecided -> decided early for home.
    assert team_match_outcome([_b("home", 7, 3), _b("home", 7, 5), _b(None)]) == {
        "decided": True,
        "winner": "home",
        "home_boards": 2,
        "away_boards": 0,
    }
    # 1-0 with two undecided: not decided.
    assert not team_match_outcome([_b("home", 7, 3), _b(None), _b(None)])["decided"]
    # A double walkover is decided with no board for anyone: 1-1 -> draw.
    assert team_match_outcome([_b("home", 7, 3), _b("away", 2, 7), _b(None, walkover=True)]) == {
        "decided": True,
        "winner": "draw",
        "home_boards": 1,
        "away_boards": 1,
    }

    # Example 1: teams 1, 2, 3, 4, each with 2 boards, W/D/L = 2/1/0.
    #   1 v 2: 2-0 (7-3, 7-5)               -> 1 wins.
    #   2 v 3: 2-0 (7-1, walkover; 9-9 ignored) -> 2 wins.
    #   3 v 1: 2-0 (7-2, 7-4)               -> 3 wins.
    #   4 v 1: 1-1 (7-0, 0-7)               -> draw.
    #   4 v 2: 1 board away 7-6, other undecided -> not decided, does not count.
    # Match points: 1: 2+0+1=3, 2: 0+2=2, 3: 0+2=2, 4: 1.
    # 2 and 3: board points 2 each; the walkover board counts 0-0, so
    #   2: for 3+5+7+0 = 15, against 7+7+1+0 = 15 -> 0; 3: for 1+0+7+7 = 15, against 13 -> +2.
    # So 1 (3), 3 (2, diff +2), 2 (2, diff 0), 4 (1).
    m1 = [
        {"home": 1, "away": 2, "boards": [_b("home", 7, 3), _b("home", 7, 5)]},
        {"home": 2, "away": 3, "boards": [_b("home", 7, 1), _b("home", 9, 9, walkover=True)]},
        {"home": 3, "away": 1, "boards": [_b("home", 7, 2), _b("home", 7, 4)]},
        {"home": 4, "away": 1, "boards": [_b("home", 7, 0), _b("away", 0, 7)]},
        {"home": 4, "away": 2, "boards": [_b("away", 6, 7), _b(None)]},
    ]
    t1 = division_table([1, 2, 3, 4], m1, lots=[4, 3, 2, 1])
    assert [r["team"] for r in t1] == [1, 3, 2, 4], t1
    assert t1[0] == {
        "team": 1,
        "played": 3,
        "won": 1,
        "drawn": 1,
        "lost": 1,
        "match_points": 3,
        "board_points": 3,
        "points_for": 7 + 7 + 2 + 4 + 0 + 7,
        "points_against": 3 + 5 + 7 + 7 + 7 + 0,
    }, t1[0]
    assert (t1[1]["points_for"], t1[1]["points_against"]) == (15, 13)
    assert (t1[2]["points_for"], t1[2]["points_against"]) == (15, 15)
    assert t1[3]["played"] == 1 and t1[3]["match_points"] == 1

    # Example 2: head-to-head then lots. Teams 10, 20, 30, 40, one board each, all 7-5 wins.
    #   10 beat 20, 20 beat 30, 30 beat 10 (a cycle), each of 10, 20, 30 beats 40.
    #   10, 20, 30: 4 match points, 2 boards, for 7+7+5 = 19, against 17.
    #   Head-to-head among {10, 20, 30}: 2 each -> still tied -> lots [30, 10, 20].
    # Then a second table of the cycle plus 30 beating 40: 30 has 4 match points; 10 and 20
    #   have 2 each, 1 board, for 12, against 12; head-to-head 10 beat 20 -> 10 above 20
    #   despite the lots putting 20 first.
    def _w(home: int, away: int, winner: str | None = "home") -> dict[str, Any]:
        hp, ap = (7, 5) if winner == "home" else (5, 7)
        return {"home": home, "away": away, "boards": [_b(winner, hp, ap)]}

    m2 = [_w(10, 20), _w(20, 30), _w(30, 10), _w(10, 40), _w(20, 40), _w(40, 30, "away")]
    t2 = division_table([10, 20, 30, 40], m2, lots=[30, 10, 20, 40])
    assert [r["team"] for r in t2] == [30, 10, 20, 40], t2
    assert all(r["match_points"] == 4 and r["points_for"] == 19 for r in t2[:3]), t2
    m3 = [*m2[:3], _w(30, 40)]
    t3 = division_table([10, 20, 30, 40], m3, lots=[20, 10, 30, 40])
    assert [r["team"] for r in t3] == [30, 10, 20, 40], t3
    assert (
        (t3[1]["points_for"], t3[1]["points_against"])
        == (12, 12)
        == (
            t3[2]["points_for"],
            t3[2]["points_against"],
        )
    ), t3

    # Promotion/relegation: 3 divisions, 1 up, 2 down.
    nd = next_divisions([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], up=1, down=2)
    assert nd == [{1, 2, 5}, {3, 4, 6, 9}, {7, 8, 10, 11, 12}], nd
    assert next_divisions([[1, 2, 3]], up=1, down=1) == [{1, 2, 3}]
    print("league_oracle self-test OK")
