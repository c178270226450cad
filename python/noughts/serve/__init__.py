"""``noughts serve``: a small game site on the engine (needs the ``serve`` extra: ``pip install "noughts[serve]"``).

Create a table, share a seat's link, play a friend or the computer; the
tables live in one SQLite file. See docs/serve.md.

The site is also an ASGI application for any ASGI server::

    from noughts.serve import create_app
    app = create_app("tables.sqlite3")
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from noughts.serve.store import default_db_path

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app", "default_db_path", "run"]

MISSING_EXTRA = 'noughts serve needs the serve extra: pip install "noughts[serve]" (Starlette and uvicorn)'


def create_app(db: str | Path | None = None, **limits: Any) -> Starlette:
    """The site as an ASGI application on the database file `db` (default: default_db_path())."""
    try:
        from noughts.serve.app import create_app as _create_app
    except ImportError as e:
        raise ImportError(MISSING_EXTRA) from e
    return _create_app(default_db_path() if db is None else db, **limits)


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path | None = None,
    *,
    tables_per_client: int = 30,
    log_level: str = "info",
) -> None:
    """Serves the site with uvicorn until interrupted; prints the address to open first.

    One client address may create `tables_per_client` tables an hour.
    """
    try:
        import uvicorn
    except ImportError as e:
        raise ImportError(MISSING_EXTRA) from e
    path = default_db_path() if db is None else Path(db)
    app = create_app(path, tables_per_client=tables_per_client)
    shown = f"[{host}]" if ":" in host else host
    print(f"noughts serve: open http://{shown}:{port}/  (tables in {path})", flush=True)
    # Small WebSocket messages only: the protocol's largest is a hello of ~100 bytes.
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=4096, server_header=False)
