"""Signal names; handlers are accepted and recorded (the simulation delivers none to Python)."""
SIGINT = 2
SIGTERM = 15
SIGKILL = 9
SIGALRM = 14
SIGHUP = 1
SIGUSR1 = 10
SIGUSR2 = 12
SIGPIPE = 13
SIGCHLD = 17
SIG_DFL = 0
SIG_IGN = 1
_handlers = {}
def signal(sig, handler):
    old = _handlers.get(sig, SIG_DFL)
    _handlers[sig] = handler
    return old
def getsignal(sig): return _handlers.get(sig, SIG_DFL)
def alarm(n): return 0
