import unittest
class T(unittest.TestCase):
    def test_ok(self):
        self.assertTrue(True)
    def test_list(self):
        self.assertListEqual([1, 2], [1, 2])
    @unittest.skip("not ready")
    def test_skip(self):
        pass
    def test_fail(self):
        self.assertEqual(1 + 1, 3)
if __name__ == "__main__":
    unittest.main(verbosity=2)
