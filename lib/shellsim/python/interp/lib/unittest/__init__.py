"""unittest: TestCase, assertions, discovery of test classes in a module,
TextTestRunner output and exit codes like CPython's."""
import sys
import os

__all__ = ["TestCase", "main", "TestSuite", "TestLoader", "TextTestRunner", "skip", "skipIf", "skipUnless",
           "expectedFailure", "SkipTest", "mock", "TestResult", "defaultTestLoader", "FunctionTestCase"]


class SkipTest(Exception):
    pass


class _AssertRaisesContext:
    def __init__(self, expected, test_case, regex=None):
        self.expected = expected
        self.test_case = test_case
        self.regex = regex
        self.exception = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        if exc_type is None:
            name = getattr(self.expected, "__name__", str(self.expected))
            raise self.test_case.failureException(f"{name} not raised")
        if not issubclass(exc_type, self.expected):
            return False
        self.exception = exc_value
        if self.regex is not None:
            import re
            if not re.search(self.regex, str(exc_value)):
                raise self.test_case.failureException(f'"{self.regex}" does not match "{exc_value}"')
        return True


class _Outcome:
    pass


def _safe_repr(obj, short=False):
    r = repr(obj)
    if short and len(r) >= 80:
        return r[:80] + " [truncated]..."
    return r


class TestCase:
    failureException = AssertionError
    longMessage = True
    maxDiff = 80 * 8

    def __init__(self, methodName="runTest"):
        self._testMethodName = methodName
        self._cleanups = []
        self._testMethodDoc = getattr(getattr(self, methodName, None), "__doc__", None)

    def setUp(self):
        pass

    def tearDown(self):
        pass

    @classmethod
    def setUpClass(cls):
        pass

    @classmethod
    def tearDownClass(cls):
        pass

    def addCleanup(self, function, *args, **kwargs):
        self._cleanups.append((function, args, kwargs))

    def id(self):
        return f"{type(self).__module__}.{type(self).__qualname__}.{self._testMethodName}"

    def __str__(self):
        return f"{self._testMethodName} ({type(self).__module__}.{type(self).__qualname__})"

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__qualname__} testMethod={self._testMethodName}>"

    def shortDescription(self):
        doc = self._testMethodDoc
        return doc.strip().split("\n")[0].strip() if doc else None

    def skipTest(self, reason):
        raise SkipTest(reason)

    def fail(self, msg=None):
        raise self.failureException(msg)

    def _formatMessage(self, msg, standardMsg):
        if not self.longMessage:
            return msg or standardMsg
        if msg is None:
            return standardMsg
        return f"{standardMsg} : {msg}"

    def assertEqual(self, first, second, msg=None):
        if not first == second:
            standardMsg = f"{_safe_repr(first)} != {_safe_repr(second)}"
            if isinstance(first, str) and isinstance(second, str) and ("\n" in first or "\n" in second):
                import difflib
                diff = "\n" + "".join(difflib.ndiff(first.splitlines(True), second.splitlines(True)))
                standardMsg = standardMsg + diff
            elif isinstance(first, (list, tuple)) and isinstance(second, (list, tuple)) and type(first) == type(second):
                kind = "Lists" if isinstance(first, list) else "Tuples"
                for i, (a, b) in enumerate(zip(first, second)):
                    if a != b:
                        standardMsg += f"\n\nFirst differing element {i}:\n{a!r}\n{b!r}\n"
                        break
                else:
                    if len(first) > len(second):
                        standardMsg += f"\n\nFirst list contains {len(first) - len(second)} additional elements.\nFirst extra element {len(second)}:\n{first[len(second)]!r}\n"
                    elif len(second) > len(first):
                        standardMsg += f"\n\nSecond list contains {len(second) - len(first)} additional elements.\nFirst extra element {len(first)}:\n{second[len(first)]!r}\n"
            raise self.failureException(self._formatMessage(msg, standardMsg))

    assertEquals = assertEqual

    def assertNotEqual(self, first, second, msg=None):
        if not first != second:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(first)} == {_safe_repr(second)}"))

    def assertTrue(self, expr, msg=None):
        if not expr:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(expr)} is not true"))

    def assertFalse(self, expr, msg=None):
        if expr:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(expr)} is not false"))

    def assertIs(self, a, b, msg=None):
        if a is not b:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(a)} is not {_safe_repr(b)}"))

    def assertIsNot(self, a, b, msg=None):
        if a is b:
            raise self.failureException(self._formatMessage(msg, f"unexpectedly identical: {_safe_repr(a)}"))

    def assertIsNone(self, obj, msg=None):
        if obj is not None:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(obj)} is not None"))

    def assertIsNotNone(self, obj, msg=None):
        if obj is None:
            raise self.failureException(self._formatMessage(msg, "unexpectedly None"))

    def assertIn(self, member, container, msg=None):
        if member not in container:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(member)} not found in {_safe_repr(container)}"))

    def assertNotIn(self, member, container, msg=None):
        if member in container:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(member)} unexpectedly found in {_safe_repr(container)}"))

    def assertIsInstance(self, obj, cls, msg=None):
        if not isinstance(obj, cls):
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(obj)} is not an instance of {cls!r}"))

    def assertNotIsInstance(self, obj, cls, msg=None):
        if isinstance(obj, cls):
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(obj)} is an instance of {cls!r}"))

    def assertGreater(self, a, b, msg=None):
        if not a > b:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(a)} not greater than {_safe_repr(b)}"))

    def assertGreaterEqual(self, a, b, msg=None):
        if not a >= b:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(a)} not greater than or equal to {_safe_repr(b)}"))

    def assertLess(self, a, b, msg=None):
        if not a < b:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(a)} not less than {_safe_repr(b)}"))

    def assertLessEqual(self, a, b, msg=None):
        if not a <= b:
            raise self.failureException(self._formatMessage(msg, f"{_safe_repr(a)} not less than or equal to {_safe_repr(b)}"))

    def assertAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        if first == second:
            return
        diff = abs(first - second)
        if delta is not None:
            if diff <= delta:
                return
            standardMsg = f"{_safe_repr(first)} != {_safe_repr(second)} within {_safe_repr(delta)} delta ({_safe_repr(diff)} difference)"
        else:
            if places is None:
                places = 7
            if round(diff, places) == 0:
                return
            standardMsg = f"{_safe_repr(first)} != {_safe_repr(second)} within {places!r} places ({_safe_repr(diff)} difference)"
        raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertNotAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        diff = abs(first - second)
        if delta is not None:
            if diff > delta:
                return
        elif round(diff, places or 7) != 0:
            return
        raise self.failureException(self._formatMessage(msg, f"{_safe_repr(first)} == {_safe_repr(second)}"))

    def assertCountEqual(self, first, second, msg=None):
        a, b = list(first), list(second)
        try:
            from collections import Counter
            ok = Counter(a) == Counter(b)
        except TypeError:
            ok = sorted(map(repr, a)) == sorted(map(repr, b))
        if not ok:
            raise self.failureException(self._formatMessage(msg, "Element counts were not equal"))

    def assertListEqual(self, a, b, msg=None):
        self.assertEqual(a, b, msg)

    assertTupleEqual = assertListEqual
    assertSetEqual = assertListEqual
    assertSequenceEqual = assertListEqual

    def assertDictEqual(self, a, b, msg=None):
        self.assertEqual(a, b, msg)

    def assertMultiLineEqual(self, a, b, msg=None):
        self.assertEqual(a, b, msg)

    def assertRegex(self, text, regex, msg=None):
        import re
        if not re.search(regex, text):
            raise self.failureException(self._formatMessage(msg, f"Regex didn't match: {regex!r} not found in {text!r}"))

    def assertNotRegex(self, text, regex, msg=None):
        import re
        m = re.search(regex, text)
        if m:
            raise self.failureException(self._formatMessage(msg, f"Regex matched: {text[m.start():m.end()]!r} matches {regex!r} in {text!r}"))

    def assertRaises(self, expected_exception, *args, **kwargs):
        ctx = _AssertRaisesContext(expected_exception, self)
        if not args:
            return ctx
        with ctx:
            args[0](*args[1:], **kwargs)

    def assertRaisesRegex(self, expected_exception, expected_regex, *args, **kwargs):
        ctx = _AssertRaisesContext(expected_exception, self, expected_regex)
        if not args:
            return ctx
        with ctx:
            args[0](*args[1:], **kwargs)

    def assertWarns(self, expected_warning, *args, **kwargs):
        import warnings
        ctx = warnings.catch_warnings(record=True)
        if not args:
            return ctx
        with ctx:
            args[0](*args[1:], **kwargs)

    def assertLogs(self, logger=None, level=None):
        import contextlib
        import logging

        @contextlib.contextmanager
        def ctx():
            class CM:
                records = []
                output = []
            lg = logging.getLogger(logger)

            class H(logging.Handler):
                def emit(self, record):
                    CM.records.append(record)
                    CM.output.append(f"{record.levelname}:{record.name}:{record.getMessage()}")
            h = H()
            old = lg.level
            lg.addHandler(h)
            lg.setLevel(level or logging.INFO)
            try:
                yield CM
            finally:
                lg.removeHandler(h)
                lg.setLevel(old)
            if not CM.records:
                raise self.failureException(f"no logs of level {logging.getLevelName(level or logging.INFO)} or higher triggered on {lg.name}")
        return ctx()

    def subTest(self, msg=None, **params):
        import contextlib
        return contextlib.nullcontext()

    def run(self, result=None):
        if result is None:
            result = TestResult()
        result.startTest(self)
        method = getattr(self, self._testMethodName)
        if getattr(type(self), "__unittest_skip__", False) or getattr(method, "__unittest_skip__", False):
            why = getattr(method, "__unittest_skip_why__", "") or getattr(type(self), "__unittest_skip_why__", "")
            result.addSkip(self, why)
            return result
        expecting_failure = getattr(method, "__unittest_expecting_failure__", False)
        try:
            self.setUp()
        except SkipTest as e:
            result.addSkip(self, str(e))
            return result
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            result.addError(self, e)
            self._do_cleanups(result)
            return result
        ok = False
        try:
            method()
            ok = True
        except SkipTest as e:
            result.addSkip(self, str(e))
        except self.failureException as e:
            if expecting_failure:
                result.addExpectedFailure(self, e)
            else:
                result.addFailure(self, e)
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            if expecting_failure:
                result.addExpectedFailure(self, e)
            else:
                result.addError(self, e)
        try:
            self.tearDown()
        except BaseException as e:
            result.addError(self, e)
            ok = False
        self._do_cleanups(result)
        if ok:
            if expecting_failure:
                result.addUnexpectedSuccess(self)
            else:
                result.addSuccess(self)
        return result

    def _do_cleanups(self, result):
        while self._cleanups:
            fn, args, kw = self._cleanups.pop()
            try:
                fn(*args, **kw)
            except BaseException as e:
                result.addError(self, e)

    def __call__(self, result=None):
        return self.run(result)


class FunctionTestCase(TestCase):
    def __init__(self, testFunc, setUp=None, tearDown=None, description=None):
        TestCase.__init__(self, "runTest")
        self._func = testFunc

    def runTest(self):
        self._func()


def skip(reason):
    def deco(obj):
        obj.__unittest_skip__ = True
        obj.__unittest_skip_why__ = reason
        return obj
    if callable(reason) and not isinstance(reason, str):
        f = reason
        reason = ""
        return deco(f)
    return deco


def skipIf(condition, reason):
    if condition:
        return skip(reason)
    return lambda obj: obj


def skipUnless(condition, reason):
    if not condition:
        return skip(reason)
    return lambda obj: obj


def expectedFailure(func):
    func.__unittest_expecting_failure__ = True
    return func


class TestResult:
    def __init__(self, stream=None, descriptions=None, verbosity=0):
        self.failures = []
        self.errors = []
        self.skipped = []
        self.expectedFailures = []
        self.unexpectedSuccesses = []
        self.testsRun = 0
        self.shouldStop = False

    def startTest(self, test):
        self.testsRun += 1

    def addSuccess(self, test):
        pass

    def addFailure(self, test, err):
        self.failures.append((test, err))

    def addError(self, test, err):
        self.errors.append((test, err))

    def addSkip(self, test, reason):
        self.skipped.append((test, reason))

    def addExpectedFailure(self, test, err):
        self.expectedFailures.append((test, err))

    def addUnexpectedSuccess(self, test):
        self.unexpectedSuccesses.append(test)

    def wasSuccessful(self):
        return not self.failures and not self.errors and not self.unexpectedSuccesses


class TextTestResult(TestResult):
    def __init__(self, stream, descriptions, verbosity):
        TestResult.__init__(self)
        self.stream = stream
        self.verbosity = verbosity
        self.dots = verbosity == 1
        self.showAll = verbosity > 1

    def startTest(self, test):
        TestResult.startTest(self, test)
        if self.showAll:
            self.stream.write(str(test))
            doc = test.shortDescription()
            if doc:
                self.stream.write("\n" + doc)
            self.stream.write(" ... ")

    def _out(self, word, dot):
        if self.showAll:
            self.stream.write(word + "\n")
        elif self.dots:
            self.stream.write(dot)

    def addSuccess(self, test):
        self._out("ok", ".")

    def addFailure(self, test, err):
        TestResult.addFailure(self, test, err)
        self._out("FAIL", "F")

    def addError(self, test, err):
        TestResult.addError(self, test, err)
        self._out("ERROR", "E")

    def addSkip(self, test, reason):
        TestResult.addSkip(self, test, reason)
        self._out(f"skipped {reason!r}", "s")

    def addExpectedFailure(self, test, err):
        TestResult.addExpectedFailure(self, test, err)
        self._out("expected failure", "x")

    def addUnexpectedSuccess(self, test):
        TestResult.addUnexpectedSuccess(self, test)
        self._out("unexpected success", "u")

    def printErrors(self):
        import traceback
        if self.dots or self.showAll:
            self.stream.write("\n")
        for flavour, errors in (("ERROR", self.errors), ("FAIL", self.failures)):
            for test, err in errors:
                self.stream.write("=" * 70 + "\n")
                self.stream.write(f"{flavour}: {test}\n")
                self.stream.write("-" * 70 + "\n")
                self.stream.write("".join(traceback.format_exception(err)))
                self.stream.write("\n")


class TestSuite:
    def __init__(self, tests=()):
        self._tests = []
        for t in tests:
            self.addTest(t)

    def addTest(self, test):
        self._tests.append(test)

    def addTests(self, tests):
        for t in tests:
            self.addTest(t)

    def __iter__(self):
        return iter(self._tests)

    def countTestCases(self):
        n = 0
        for t in self._tests:
            n += t.countTestCases() if isinstance(t, TestSuite) else 1
        return n

    def run(self, result):
        classes_done = []
        for t in self._tests:
            if result.shouldStop:
                break
            if isinstance(t, TestSuite):
                t.run(result)
                continue
            cls = type(t)
            if cls not in classes_done:
                classes_done.append(cls)
                try:
                    cls.setUpClass()
                except BaseException as e:
                    result.addError(t, e)
                    continue
            t.run(result)
        for cls in classes_done:
            try:
                cls.tearDownClass()
            except BaseException as e:
                pass
        return result

    def __call__(self, result):
        return self.run(result)


class TestLoader:
    testMethodPrefix = "test"

    def getTestCaseNames(self, cls):
        names = set()
        for klass in cls.__mro__:
            for n, v in vars(klass).items():
                if n.startswith(self.testMethodPrefix) and callable(v):
                    names.add(n)
        return sorted(names)

    def loadTestsFromTestCase(self, cls):
        return TestSuite([cls(n) for n in self.getTestCaseNames(cls)])

    def loadTestsFromModule(self, module, pattern=None):
        suite = TestSuite()
        for name, obj in vars(module).items():
            if isinstance(obj, type) and issubclass(obj, TestCase) and obj is not TestCase and obj is not FunctionTestCase:
                suite.addTest(self.loadTestsFromTestCase(obj))
        return suite

    def loadTestsFromName(self, name, module=None):
        parts = name.split(".")
        obj = module if module is not None else __import__(parts[0])
        for p in parts[1 if module is None else 0:]:
            obj = getattr(obj, p)
        if isinstance(obj, type):
            return self.loadTestsFromTestCase(obj)
        if hasattr(obj, "__dict__") and type(obj).__name__ == "module":
            return self.loadTestsFromModule(obj)
        return TestSuite([obj])

    def loadTestsFromNames(self, names, module=None):
        return TestSuite([self.loadTestsFromName(n, module) for n in names])

    def discover(self, start_dir=".", pattern="test*.py", top_level_dir=None):
        import fnmatch
        import _pytest_support as _ps
        suite = TestSuite()
        start = os.path.abspath(start_dir)
        if start not in sys.path:
            sys.path.insert(0, start)
        for root, dirs, files in os.walk(start):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            for f in sorted(files):
                if f.endswith(".py") and fnmatch.fnmatch(f, pattern):
                    rel = os.path.relpath(os.path.join(root, f), start)[:-3].replace("/", ".")
                    mod = _ps.exec_file(rel, os.path.join(root, f))
                    suite.addTest(self.loadTestsFromModule(mod))
        return suite


defaultTestLoader = TestLoader()


class TextTestRunner:
    def __init__(self, stream=None, descriptions=True, verbosity=1, failfast=False, buffer=False, resultclass=None, **kw):
        self.stream = stream if stream is not None else sys.stderr
        self.verbosity = verbosity
        self.failfast = failfast

    def run(self, test):
        import _pytest_support as _ps
        result = TextTestResult(self.stream, True, self.verbosity)
        start = _ps.walltime()
        test(result)
        elapsed = _ps.walltime() - start
        result.printErrors()
        run = result.testsRun
        self.stream.write("-" * 70 + "\n")
        self.stream.write(f"Ran {run} test{'s' if run != 1 else ''} in {elapsed:.3f}s\n\n")
        infos = []
        if not result.wasSuccessful():
            self.stream.write("FAILED")
            if result.failures:
                infos.append(f"failures={len(result.failures)}")
            if result.errors:
                infos.append(f"errors={len(result.errors)}")
        else:
            self.stream.write("NO TESTS RAN" if run == 0 else "OK")
        if result.skipped:
            infos.append(f"skipped={len(result.skipped)}")
        if result.expectedFailures:
            infos.append(f"expected failures={len(result.expectedFailures)}")
        if result.unexpectedSuccesses:
            infos.append(f"unexpected successes={len(result.unexpectedSuccesses)}")
        if infos:
            self.stream.write(" (" + ", ".join(infos) + ")")
        self.stream.write("\n")
        return result


class TestProgram:
    def __init__(self, module="__main__", defaultTest=None, argv=None, testRunner=None, testLoader=defaultTestLoader,
                 exit=True, verbosity=1, failfast=None, catchbreak=None, buffer=None, warnings=None):
        if argv is None:
            argv = sys.argv
        if isinstance(module, str):
            module = sys.modules[module]
        self.verbosity = verbosity
        names = []
        for a in argv[1:]:
            if a in ("-v", "--verbose"):
                self.verbosity = 2
            elif a in ("-q", "--quiet"):
                self.verbosity = 0
            elif not a.startswith("-"):
                names.append(a)
        if names:
            suite = TestSuite()
            for n in names:
                try:
                    suite.addTest(testLoader.loadTestsFromName(n, module))
                except Exception as e:
                    suite.addTest(_make_failed_test(n, e))
        elif defaultTest:
            suite = testLoader.loadTestsFromName(defaultTest, module)
        else:
            suite = testLoader.loadTestsFromModule(module)
        runner = testRunner or TextTestRunner(verbosity=self.verbosity)
        if isinstance(runner, type):
            runner = runner(verbosity=self.verbosity)
        self.result = runner.run(suite)
        if exit:
            sys.exit(not self.result.wasSuccessful())


class _FailedTest(TestCase):
    _testMethodName = None

    def __init__(self, name, exc):
        TestCase.__init__(self, name)
        self._exc = exc

    def __getattr__(self, name):
        if name == self._testMethodName:
            def testFailure():
                raise self._exc
            return testFailure
        raise AttributeError(name)

    def id(self):
        return "unittest.loader._FailedTest." + self._testMethodName

    def __str__(self):
        return f"{self._testMethodName} (unittest.loader._FailedTest.{self._testMethodName})"


def _make_failed_test(name, exc):
    return _FailedTest(name, exc)


main = TestProgram
