"""Tokens from the simulation's deterministic random source."""
import os
import base64
import random as _random

_sysrand = _random.Random(int.from_bytes(os.urandom(8), "big"))


def token_bytes(nbytes=32):
    return os.urandom(nbytes)


def token_hex(nbytes=32):
    return token_bytes(nbytes).hex()


def token_urlsafe(nbytes=32):
    return base64.urlsafe_b64encode(token_bytes(nbytes)).rstrip(b"=").decode("ascii")


def choice(seq):
    return _sysrand.choice(seq)


def randbelow(n):
    return _sysrand.randrange(n)


def compare_digest(a, b):
    return a == b
