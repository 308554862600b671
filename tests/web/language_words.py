"""Tell-tale words of each page language, and one page of every kind of the demo, for the
crawl that reads every page kind in both languages (``test_language_crawl``).

A word list rather than the catalogue: the catalogue check (``test_swedish_crawl``) finds
English msgids shown untranslated, but not English built outside the catalogue (an
f-string, a file's raw words) nor Swedish on an English page. The words are common
function words and result words of each language that the other language does not use;
the game words (hemspel, jan, munk, Slagfält …) stay Swedish on English pages by design
and are not in the list, nor are words the two languages share ("match", "Final").
"""

from __future__ import annotations

import html
import re

from django.urls import reverse

from matches.models import GameRecordSubmission, GameReport, Match
from tournaments.models import Player, Tournament

# English words no Swedish page may show, and Swedish words no English page may show.
TELLTALE = {
    "sv": re.compile(
        r"\b(the|and|with|wins|won|player|players|game|games|doubles|takes|drops|points|"
        r"cube|round|verified|not|yes|no)\b",
        re.IGNORECASE,
    ),
    "en": re.compile(
        r"\b(och|med|är|vinner|vann|spelare|spelaren|parti|partier|partiet|omgång|poäng|"
        r"ställning|inte|av|för|kub|verifierat|ja|nej)\b",
        re.IGNORECASE,
    ),
}


def visible_text(page: str) -> str:
    """The page's text as a reader sees it (tags, scripts, styles and the language
    switch's own names removed)."""
    page = re.sub(r"(?is)<(script|style|pre)\b.*?</\1>", " ", page)  # a record is its file
    page = re.sub(r"(?is)<form[^>]*setlang.*?</form>", " ", page)  # the language switch
    page = re.sub(r"(?s)<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page))


def foreign_words(text: str, lang: str, names: tuple[str, ...] = ()) -> list[str]:
    """The other language's tell-tale words in ``text`` (a page in ``lang``), each with
    a little of its context; ``names`` (players', tournaments', clubs') are left out."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return [text[max(0, m.start() - 30) : m.end() + 30] for m in TELLTALE[lang].finditer(text)]


def proper_names() -> tuple[str, ...]:
    """Names the pages show as they are written, in both languages."""
    names = [p.name for p in Player.objects.all()]
    names += [t.name for t in Tournament.objects.all()]
    names += [t.venue for t in Tournament.objects.exclude(venue="")]
    return tuple(n for n in names if n)


def page_urls() -> list[str]:
    """One page of each kind of every demo tournament (each game and format): the
    tournament, its bracket or rounds, a match of each state, a player, the records and
    their viewer, the referee's entry, a player's report, the organiser's page, and the
    site's own pages (list, words, ratings, seasons)."""
    urls = [
        reverse("web:tournament_list"),
        reverse("web:glossary"),
        reverse("clubs:ratings"),
        reverse("clubs:season_list"),
    ]
    for tournament in Tournament.objects.order_by("pk"):
        urls += [
            reverse("web:tournament_detail", args=[tournament.pk]),
            reverse("web:tournament_manage", args=[tournament.pk]),
            reverse("web:tournament_screen", args=[tournament.pk]),
        ]
        if tournament.format == "round_robin":
            urls.append(reverse("web:tournament_round", args=[tournament.pk, 1]))
        elif tournament.format != "swiss":
            urls.append(reverse("web:tournament_bracket", args=[tournament.pk]))
        seen: set[str] = set()
        for match in Match.objects.filter(tournament=tournament).order_by("pk"):
            if match.state in seen:
                continue
            seen.add(match.state)
            urls.append(reverse("web:match_detail", args=[match.pk]))
            if match.state in ("ready", "playing"):
                urls.append(reverse("web:match_enter", args=[match.pk]))
                if tournament.results_by == "players":
                    urls.append(reverse("web:match_report", args=[match.pk]))
        player = Player.objects.filter(entries__tournament=tournament).order_by("pk").first()
        if player is not None:
            urls.append(reverse("web:player_detail", args=[player.pk]))
    for sub in GameRecordSubmission.objects.order_by("pk"):
        urls.append(reverse("web:record_detail", args=[sub.pk]))
        if sub.state in ("verified", "entered", "mismatch"):
            urls.append(reverse("web:record_viewer", args=[sub.pk]))
    for report in GameReport.objects.order_by("pk")[:2]:
        urls.append(reverse("web:report_detail", args=[report.pk]))
    return urls
