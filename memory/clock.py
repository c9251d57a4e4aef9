"""The one clock every layer reads: real time, or a simulated ``MEMORY_NOW``.

Upkeep works on ages (episodes a fortnight old, facts due for review, TTLs), so
tests and the simulation need months to pass in seconds. ``LayerEnv.now``
defaults to ``now()``, and the CLI's global ``--now`` sets ``MEMORY_NOW``, so one
setting moves every command's clock at once.
"""

from __future__ import annotations

from datetime import UTC, datetime

import settings

NOW_ENV = settings.NOW.name


def parse_time(value: str | datetime | None) -> datetime | None:
    """ISO-8601 text (or a datetime) as an aware UTC datetime: the one time parser, for stored stamps too."""
    if value is None:
        return None
    if isinstance(value, datetime):
        dt = value
    else:
        dt = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


# The times this agent accepts from outside (the clock, an imported message's time). Every TTL,
# retention limit and review date is computed from them: a time near year 9999 overflowed on
# ``now + ttl`` and crashed an import or a session end with a traceback.
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)


def in_range(dt: datetime) -> datetime:
    """``dt`` when it lies in [EARLIEST, LATEST), else a one-line ``ValueError``."""
    if not EARLIEST <= dt < LATEST:
        raise ValueError(f"{dt.isoformat()} is outside the supported times "
                         f"({EARLIEST.date().isoformat()} to {LATEST.date().isoformat()})")
    return dt


def parse_now(text: str) -> datetime:
    """The ``--now`` / ``MEMORY_NOW`` setting as an aware UTC datetime; a clear ``ValueError`` otherwise."""
    try:
        dt = parse_time(text.strip())
    except ValueError:
        raise ValueError(f"--now / {NOW_ENV}={text!r} is not an ISO-8601 time (e.g. 2025-03-01T09:00:00Z)") from None
    assert dt is not None
    try:
        return in_range(dt)
    except ValueError as err:
        raise ValueError(f"--now / {NOW_ENV}: {err}") from None


def now() -> datetime:
    """The current time: ``MEMORY_NOW`` when set, else the system clock (UTC)."""
    raw = settings.NOW.read()
    return parse_now(raw) if raw else datetime.now(UTC)
