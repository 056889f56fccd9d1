"""Values the editor cannot know without running the user's module."""
from __future__ import annotations

from typing import Optional

from ..errors import Loc


class UnknownValue:
    """A module-level value that cannot be known without running the module."""

    def __init__(self, reason: str, loc: Optional[Loc] = None):
        self.reason = reason
        self.loc = loc

    def __repr__(self) -> str:
        return f"<unknown: {self.reason}>"
