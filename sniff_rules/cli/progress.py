"""A progress bar for long command-line runs: tqdm when the ``[cli]`` extra is installed, plain text otherwise."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO


class Progress:
    """Counts finished work on ``stream`` (a terminal's stderr): a tqdm bar, or a line rewritten in place."""

    def __init__(self, total: int, stream: TextIO, plain: bool = False) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self._bar: Any = None
        self._update: Callable[[int], object] | None = None
        if not plain:
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                bar = tqdm(total=total, file=stream, unit="match", leave=False, dynamic_ncols=True)
                self._bar, self._update = bar, bar.update

    def advance(self, count: int) -> None:
        """``count`` more units are done."""
        self.done += count
        if self._update is not None:
            self._update(count)
        else:
            self.stream.write(f"\r{self.done}/{self.total} matches played")
            self.stream.flush()

    def close(self) -> None:
        """Take the bar off the terminal."""
        if self._bar is not None:
            self._bar.close()
        elif self.done:
            self.stream.write("\r" + " " * (len(f"{self.total}/{self.total} matches played") + 1) + "\r")
            self.stream.flush()
