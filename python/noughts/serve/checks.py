"""Request checks of noughts serve: each field's type and value, with a message saying what is allowed."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from noughts.levels import LEVELS
from noughts.serve.tables import SEATS

__all__ = [
    "MAX_BODY",
    "MAX_MESSAGE",
    "ApiError",
    "bearer",
    "choice",
    "hello",
    "json_object",
    "move_request",
    "only_fields",
    "parse_settings",
]

#: The largest request body (bytes) and WebSocket message (characters) accepted.
MAX_BODY = 2048
MAX_MESSAGE = 1024


class ApiError(Exception):
    """A refused request: its HTTP status and a message for the user."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# ---------------------------------------------------------------------------
# Request checks
# ---------------------------------------------------------------------------
def bearer(request: Request) -> str:
    header = request.headers.get("authorization")
    if header is None:
        raise ApiError(401, "this needs a seat's token: send it as 'Authorization: Bearer <token>'")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token or len(token) > 100:
        raise ApiError(401, "the Authorization header must be 'Bearer <token>' with the token from a seat's link")
    return token.strip()


async def json_object(request: Request) -> dict[str, Any]:
    body = await request.body()
    if not body:
        return {}
    # JSON only: a form on another site can post text/plain, but not this without the browser asking first.
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ApiError(415, "the request body must be JSON, sent as Content-Type: application/json")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "the request body must be JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the request body must be a JSON object, not {type(data).__name__}")
    return data


def only_fields(data: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r}: the fields are {', '.join(allowed)}")


def choice(data: dict[str, Any], name: str, choices: tuple[Any, ...], default: Any) -> Any:
    value = data.get(name, default)
    if isinstance(value, bool) != isinstance(choices[0], bool) or value not in choices:
        allowed = ", ".join(json.dumps(c) for c in choices)
        raise ApiError(400, f"{name} must be one of {allowed}, not {json.dumps(value)[:40]}")
    return value


def parse_settings(data: dict[str, Any]) -> tuple[str, dict[str, Any], str | None, str]:
    """A table's settings from a create request: (game, options, computer level or None, creator's seat)."""
    only_fields(data, ("game", "size", "misere", "free_choice", "gravity", "opponent", "level", "seat"))
    game = choice(data, "game", ("classic", "ultimate", "quantum"), "classic")
    options: dict[str, Any] = {}
    if game == "classic":
        size = choice(data, "size", (3, 4, 5), 3)
        options = {"rows": size, "cols": size}
        for flag in ("misere", "free_choice", "gravity"):
            options[flag] = choice(data, flag, (False, True), False)
    else:
        given = [name for name in ("size", "misere", "free_choice", "gravity") if name in data]
        if given:
            raise ApiError(400, f"{game} has no settings: {given[0]!r} is only for classic")
    opponent = choice(data, "opponent", ("friend", "computer"), "friend")
    level = choice(data, "level", LEVELS, "medium") if opponent == "computer" else None
    if opponent == "friend" and "level" in data:
        raise ApiError(400, "level is only for a game against the computer (opponent 'computer')")
    seat = choice(data, "seat", SEATS, "X")
    return game, options, level, seat


def move_request(data: dict[str, Any]) -> tuple[str, int]:
    only_fields(data, ("move", "number"))
    move, number = data.get("move"), data.get("number")
    if not isinstance(move, str) or not 1 <= len(move) <= 32:
        raise ApiError(400, 'move must be the move\'s notation as a string of 1 to 32 characters, e.g. "b2"')
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 10_000:
        raise ApiError(400, "number must be the move's number, a whole number from 1: the moves played so far + 1")
    return move, number


def hello(text: str) -> tuple[str | None, int]:
    if len(text) > MAX_MESSAGE:
        raise ApiError(413, f"a message is at most {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise ApiError(400, "a message must be JSON") from None
    if not isinstance(data, dict) or data.get("type") != "hello":
        raise ApiError(
            400, 'the only message is {"type": "hello", "token": <seat token or null>, "have": <moves seen>}'
        )
    only_fields(data, ("type", "token", "have"))
    token, have = data.get("token"), data.get("have", 0)
    if token is not None and (not isinstance(token, str) or len(token) > 100):
        raise ApiError(400, "token must be a seat's token (a string) or null for a spectator")
    if isinstance(have, bool) or not isinstance(have, int) or not 0 <= have <= 10_000:
        raise ApiError(400, "have must be the number of moves the page has, a whole number from 0")
    return token, have
