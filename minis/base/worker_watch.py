"""Pool workers that end with the process that started them.

A `ProcessPoolExecutor` worker waits on a queue whose write end it holds itself, so when its parent is
killed (`kill -9` of `minis lab run`, a crashed search) it would wait forever. Started as a pool's
initializer, `end_with_parent` watches the parent from a daemon thread and ends the worker once the
parent is gone.
"""

from __future__ import annotations

import os
import threading
import time

#: How often a worker looks whether its parent is still there (seconds).
POLL = 1.0


def end_with_parent(parent: int) -> None:
    """End this process soon after process `parent` is gone (it then has another parent)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(POLL)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
