"""The README's API example, run as written against the demo as ``run.sh`` builds it.

The commands and their documented answers are read out of README.md (the shell block of
"First steps with the API" that uses ``$TOKEN``), so the README and this test cannot
drift: each ``curl`` becomes a test-client request to the same path, with the same method,
headers and body, and its answer must have the status and the fields of the comment
below it (``# 201 {"number":1,…}``; ``…`` leaves parts out). ``$TOKEN`` stands for the key
the first answer gave, as the README says. The database's ids start at 1
(``reset_sequences``), as on the fresh machine the README speaks of.
"""

from __future__ import annotations

import io
import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent.parent
SERVER = "http://127.0.0.1:8000"
# "key":value pairs of a documented answer: a number, true/false/null or a string.
PAIR = re.compile(r'"(\w+)":(-?\d+|true|false|null|"[^"]*")')


@dataclass
class Curl:
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    data: list[str] = field(default_factory=list)
    status: int = 0
    answer: str = ""


def readme_example() -> list[Curl]:
    """The curl commands of the README's token example, each with its documented answer."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### First steps with the API", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    block = next(b for b in blocks if "$TOKEN" in b)
    lines = block.replace("\\\n", " ").splitlines()
    commands: list[Curl] = []
    for line in lines:
        if line.startswith("curl "):
            commands.append(_curl(line))
        elif line.startswith("# ") and commands and not commands[-1].status:
            status, _space, answer = line[2:].partition(" ")
            commands[-1].status, commands[-1].answer = int(status), answer
    assert commands and all(c.status for c in commands), "every curl has its answer below it"
    return commands


def _curl(line: str) -> Curl:
    words = shlex.split(line)[1:]
    method, url, headers, data = "", "", {}, []
    while words:
        word = words.pop(0)
        if word == "-X":
            method = words.pop(0)
        elif word == "-H":
            name, _colon, value = words.pop(0).partition(":")
            headers[name.strip()] = value.strip()
        elif word == "-d":
            data.append(words.pop(0))
        else:
            url = word
    assert url.startswith(SERVER + "/"), url
    method = method or ("POST" if data else "GET")
    return Curl(method, url.removeprefix(SERVER), headers, data)


def _pairs_found(answer: Any, key: str, value: Any) -> bool:
    """Whether some object in ``answer``, at any depth, has ``key`` with ``value``."""
    if isinstance(answer, dict):
        if answer.get(key, object()) == value:
            return True
        return any(_pairs_found(v, key, value) for v in answer.values())
    if isinstance(answer, list):
        return any(_pairs_found(v, key, value) for v in answer)
    return False


def _send(client: Client, curl: Curl, token: str) -> Any:
    headers = {k: v.replace("$TOKEN", token) for k, v in curl.headers.items()}
    content_type = headers.pop("Content-Type", "application/x-www-form-urlencoded")
    headers["Host"] = "127.0.0.1:8000"
    body = "&".join(curl.data)
    return client.generic(curl.method, curl.path, body, content_type=content_type, headers=headers)


def test_the_readme_documents_the_example_it_runs() -> None:
    commands = readme_example()
    assert [c.method for c in commands] == ["POST", "GET", "POST", "POST", "DELETE"]
    assert commands[0].path == "/api/token/" and commands[-1].path == "/api/token/"
    assert [c.status for c in commands] == [201, 200, 201, 409, 204]


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_readme_api_example_works_on_the_demo() -> None:
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    commands = readme_example()
    games_paths = {c.path for c in commands if c.path.endswith("/games/")}
    assert len(games_paths) == 1
    (games_path,) = games_paths
    match_id = int(games_path.split("/")[3])
    # seed_demo names the README's match, ready for game 1.
    assert re.search(
        rf"API example \(README\): match {match_id} \(.*\) is ready for game 1", out.getvalue()
    )

    client = Client()
    token = ""
    for curl in commands:
        response = _send(client, curl, token)
        assert response.status_code == curl.status, (curl, response.content)
        if curl.status == 204:
            continue
        answer = json.loads(response.content)
        for key, raw in PAIR.findall(curl.answer):
            if key == "token":  # any key: the README's is an example
                token = answer["token"]
                continue
            assert _pairs_found(answer, key, json.loads(raw)), (curl.path, key, raw, answer)
    assert token
