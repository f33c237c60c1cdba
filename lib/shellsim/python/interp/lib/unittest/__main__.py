import sys
import unittest

argv = sys.argv[1:]
verbosity = 1
names = []
discover = False
start = "."
pattern = "test*.py"
i = 0
while i < len(argv):
    a = argv[i]
    if a in ("-v", "--verbose"):
        verbosity = 2
    elif a in ("-q", "--quiet"):
        verbosity = 0
    elif a == "discover":
        discover = True
    elif a in ("-s", "--start-directory"):
        start = argv[i + 1]
        i += 1
    elif a in ("-p", "--pattern"):
        pattern = argv[i + 1]
        i += 1
    else:
        names.append(a)
    i += 1
loader = unittest.TestLoader()
if discover or not names:
    suite = loader.discover(start, pattern)
else:
    import os
    import _pytest_support as _ps
    suite = unittest.TestSuite()
    for n in names:
        if n.endswith(".py"):
            mod = _ps.exec_file(os.path.basename(n)[:-3], os.path.abspath(n))
            suite.addTest(loader.loadTestsFromModule(mod))
        else:
            suite.addTest(loader.loadTestsFromName(n))
result = unittest.TextTestRunner(verbosity=verbosity).run(suite)
sys.exit(not result.wasSuccessful())
