"""Render the viewer's data model into one self-contained HTML page (inline CSS, JS and data; no network)."""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

TEMPLATE = "template.html"


def render_page(view: dict[str, Any]) -> str:
    """The HTML page for a view model built by `build_view`."""
    template = resources.files("dreamteam.viewer").joinpath(TEMPLATE).read_text(encoding="utf-8")
    run = view.get("run", {})
    title = html.escape(f"{run.get('id', 'run')} · {run.get('game_id', '')}")
    return template.replace("__TITLE__", title, 1).replace("__RUN_DATA__", script_json(view), 1)


def script_json(data: Any) -> str:
    """JSON that is safe inside a <script> element (no `</script>` or `<!--` can end or confuse it)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
