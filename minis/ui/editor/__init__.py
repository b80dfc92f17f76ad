"""The map editor (`minis edit`, and "Map editor" in the main menu): maps, sections, configurations
and scenario zones, edited with the mouse.

`EditorView(window, path=None)` is the screen. It is imported on first use, so that the document model
(`minis.ui.editor.model`, no arcade) can be used and tested without a window.
"""

from __future__ import annotations

from typing import Any

__all__ = ["EditorView"]


def __getattr__(name: str) -> Any:
    if name == "EditorView":
        from minis.ui.editor.view import EditorView

        return EditorView
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
