"""What each worker process the server starts (hints, bots) does first: it follows its server, not the terminal."""

from __future__ import annotations

import os
import signal
import threading
import time


def follow_parent(parent: int) -> None:
    """A worker's initializer (`ProcessPoolExecutor(initializer=follow_parent, initargs=(os.getpid(),))`).

    Ctrl-C at the terminal reaches every process of its group: the server shuts its workers down itself, so a
    worker ignores it (it had printed a traceback from its idle wait as the table closed). And a server killed
    outright (a power cut's cousin, `kill -9`, the crash tests) cannot shut its pool down, and a worker holds its
    own end of the job queue, so it would never notice on its own: it leaves once its parent is gone.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
