"""Start a program with resource limits and a lower CPU priority (marin-shellbox's launcher).

``python -I -S -c <source> <limits JSON> <program> <args>...``: the JSON is a list of
``[resource.RLIMIT_*, value]``; each limit is lowered to ``value`` (never raised above the current soft
limit), the niceness goes up by COMMAND_NICENESS, SIGPIPE and SIGXFSZ get their default action back
(Python ignores them and exec would pass that on), and the program replaces this process. shellbox's
own local backend does the same in Go (lib/backends/local/launcher); this module is for callers of the
marin-shellbox name.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys

COMMAND_NICENESS = 10


def main() -> None:
    for which, value in json.loads(sys.argv[1]):
        soft, _ = resource.getrlimit(which)
        if soft != resource.RLIM_INFINITY:
            value = min(value, soft)
        resource.setrlimit(which, (value, value))
    os.nice(COMMAND_NICENESS)
    for number in (signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(number, signal.SIG_DFL)
    os.execv(sys.argv[2], sys.argv[2:])


if __name__ == "__main__":
    main()
