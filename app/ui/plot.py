"""A small line plot as inline SVG, computed here: no script, no image library, nothing from a CDN."""

from __future__ import annotations

from typing import Any

W, H, PAD = 560, 160, 28


def series_points(values: list[float]) -> str:
    """SVG ``points`` for ``values`` spread over the plot's width, scaled to its height."""
    if not values:
        return ""
    top = max(values) or 1.0
    step = (W - 2 * PAD) / max(len(values) - 1, 1)
    return " ".join(f"{PAD + i * step:.1f},{H - PAD - (v / top) * (H - 2 * PAD):.1f}" for i, v in enumerate(values))


def trend_plot(trend: list[dict[str, Any]]) -> dict[str, Any]:
    """What upkeep.html draws: memory count and prompt tokens per pass, each on its own scale."""
    memories = [float(p.get("memories") or 0) for p in trend]
    tokens = [float(p.get("prompt_tokens") or 0) for p in trend]
    return {"w": W, "h": H, "pad": PAD, "memories": series_points(memories), "tokens": series_points(tokens),
            "max_memories": int(max(memories, default=0)), "max_tokens": int(max(tokens, default=0)),
            "first": str(trend[0]["at"])[:10] if trend else "", "last": str(trend[-1]["at"])[:10] if trend else ""}
