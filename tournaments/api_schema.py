"""The API schema's error answers: every operation documents the 4xx statuses it can give,
each with the one error body every view answers with (``api_base.exception_handler``)::

    {"error": {"code": "conflict", "message": "…", "fields": {…}, …}}

A drf-spectacular postprocessing hook (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``)
adds them after the views' own responses, so no view repeats them. Which statuses:

- 400 everywhere: a body, a query parameter or a rule of the tournament refused;
- 401 everywhere: a token that is wrong or revoked is refused on any request;
- 403 on writes, and on reads whose description says who may read (403);
- 404 where the path names an object (or it is not visible to the caller);
- 409 on writes: the state changed, or does not allow it (someone was first);
- 415 where there is a body: a media type the operation does not parse;
- what a view declares itself (428 for a correction naming no version, 429 for the
  token's password limit) keeps its own description and gets the same body.
"""

from __future__ import annotations

from typing import Any

ERROR_COMPONENT = "Error"

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every error answer of the API.",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {
                    "type": "string",
                    "description": "for programs: 'invalid', 'not_found', 'conflict', …",
                },
                "message": {"type": "string", "description": "for people, in their language"},
                "fields": {
                    "type": "object",
                    "additionalProperties": True,
                    "description": "invalid input: the messages per field of the request",
                },
            },
            "required": ["code", "message"],
            # A conflict holds the current state ("match", "game", "report"), an import
            # its "problems", a swap its "warnings".
            "additionalProperties": True,
        }
    },
    "required": ["error"],
}

DESCRIPTIONS = {
    "400": "The request is not valid, or the tournament's rules do not allow it "
    "(code 'invalid' with 'fields' per field, or a code of its own).",
    "401": "Not signed in, or the token is wrong or revoked: send 'Authorization: Token …'.",
    "403": "Your role does not allow this.",
    "404": "Not found, or not visible to you.",
    "409": "The current state does not allow this (someone was first); the error holds "
    "the current state where there is one.",
    "415": "The body's media type is not one this operation reads (send JSON).",
}

WRITE_METHODS = ("post", "put", "patch", "delete")


def _statuses(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    codes = ["400", "401"]
    description = operation.get("description") or ""
    if method in WRITE_METHODS or "403" in description:
        codes.append("403")
    if "{" in path:
        codes.append("404")
    if method in WRITE_METHODS and operation.get("operationId") != "token_destroy":
        codes.append("409")
    if "requestBody" in operation:
        codes.append("415")
    return codes


def error_responses(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """Add the ``Error`` component and the error answers of every operation."""
    result.setdefault("components", {}).setdefault("schemas", {})[ERROR_COMPONENT] = ERROR_SCHEMA
    content = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}}}
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method not in ("get", *WRITE_METHODS):
                continue
            responses = operation.setdefault("responses", {})
            for code in _statuses(path, method, operation):
                responses.setdefault(code, {"description": DESCRIPTIONS[code]})
            for code, response in responses.items():
                if code.startswith("4"):
                    response["content"] = content
    return result
