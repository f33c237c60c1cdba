"""Platform identification of the simulated machine."""
def system(): return "Linux"
def machine(): return "x86_64"
def python_version(): return "3.13.0"
def python_version_tuple(): return ("3", "13", "0")
def python_implementation(): return "CPython"
def release(): return "6.1.0"
def node():
    import os
    return os.uname().nodename
def platform(aliased=False, terse=False): return "Linux-6.1.0-x86_64-with-glibc2.36"
def processor(): return "x86_64"
def architecture(executable=None, bits="", linkage=""): return ("64bit", "ELF")
def uname():
    import os
    return os.uname()
