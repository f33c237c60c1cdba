import unittest

class TestStrings(unittest.TestCase):
    def setUp(self):
        self.s = "hello"

    def test_upper(self):
        self.assertEqual(self.s.upper(), "HELLO")

    def test_in(self):
        self.assertIn("ell", self.s)

    def test_raises(self):
        with self.assertRaises(ValueError):
            int(self.s)

    def test_fail(self):
        self.assertEqual(len(self.s), 4)
