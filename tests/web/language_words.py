"""Tell-tale words of each page language, and one page of every kind of the demo, for the
crawl that reads every page kind in every language (``test_language_crawl``).

A word list rather than the catalogue: the catalogue checks (``test_swedish_crawl``,
``test_danish_crawl``) find English msgids shown untranslated, but not English built
outside the catalogue (an f-string, a file's raw words) nor Swedish on an English or a
Danish page. The words are common function words and result words of each language that
the others do not use; the game words (hemspel, jan, munk, Slagfält …) stay Swedish on
every page by design and are not in the lists, nor are words two of the languages share
("match", "Final"; Swedish and Danish "med", "ja", "nej", "parti"; English and Danish
"for", "point").
"""

from __future__ import annotations

import html
import re

from django.urls import reverse

from matches.models import GameRecordSubmission, GameReport, Match
from tournaments.models import Player, Tournament

# Each language's own words, which a page in another language may not show.
OWN_WORDS = {
    "en": r"the|and|with|wins|won|player|players|game|games|doubles|takes|drops|points|"
    r"cube|round|verified|not|yes|no",
    "sv": r"och|är|vinner|vann|spelare|spelaren|omgång|poäng|ställning|inte|av|för|kub|"
    r"verifierat|matchen|matcher",
    "da": r"og|ikke|spiller|spillere|kamp|kampe|kampen|runde|vinder|vandt|stilling|"
    r"dobleterning|verificeret|af",
}
# The Swedish words a page in English may not show include the two the Swedish and Danish
# pages share, as before Danish came (an English page shows neither).
SHARED_NORDIC = r"med|parti|partier|partiet|ja|nej"


def _telltale(lang: str) -> re.Pattern[str]:
    others = [words for other, words in OWN_WORDS.items() if other != lang]
    if lang == "en":
        others.append(SHARED_NORDIC)
    return re.compile(r"\b(" + "|".join(others) + r")\b", re.IGNORECASE)


# The other languages' words no page in a language may show.
TELLTALE = {lang: _telltale(lang) for lang in OWN_WORDS}


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
    """Names the pages show as they are written, in every language."""
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
