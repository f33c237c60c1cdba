"""UUID objects; uuid4 draws from the simulation's deterministic generator."""
import os
import hashlib


class UUID:
    def __init__(self, hex=None, bytes=None, int=None, version=None):
        if hex is not None:
            h = hex.replace("urn:", "").replace("uuid:", "").strip("{}").replace("-", "")
            if len(h) != 32:
                raise ValueError("badly formed hexadecimal UUID string")
            int = _int(h, 16)
        elif bytes is not None:
            if len(bytes) != 16:
                raise ValueError("bytes is not a 16-char string")
            int = _from_bytes(bytes)
        if int is None:
            raise TypeError("one of the hex, bytes or int arguments must be given")
        if version is not None:
            int &= ~(0xc000 << 48)
            int |= 0x8000 << 48
            int &= ~(0xf000 << 64)
            int |= version << 76
        self.int = int

    @property
    def hex(self):
        return "%032x" % self.int

    @property
    def bytes(self):
        return self.int.to_bytes(16, "big")

    @property
    def version(self):
        return (self.int >> 76) & 0xf

    def __str__(self):
        h = self.hex
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def __repr__(self):
        return f"UUID('{self}')"

    def __eq__(self, other):
        return isinstance(other, UUID) and self.int == other.int

    def __lt__(self, other):
        return self.int < other.int

    def __hash__(self):
        return hash(self.int)

    @property
    def urn(self):
        return "urn:uuid:" + str(self)


_int = int


def _from_bytes(b):
    return _int.from_bytes(b, "big")


def uuid4():
    return UUID(bytes=os.urandom(16), version=4)


def uuid5(namespace, name):
    h = hashlib.sha1(namespace.bytes + name.encode()).digest()
    return UUID(bytes=h[:16], version=5)


def uuid3(namespace, name):
    h = hashlib.md5(namespace.bytes + name.encode()).digest()
    return UUID(bytes=h[:16], version=3)


def uuid1():
    return uuid4()


NAMESPACE_DNS = UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
NAMESPACE_URL = UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")
NAMESPACE_OID = UUID("6ba7b812-9dad-11d1-80b4-00c04fd430c8")
NAMESPACE_X500 = UUID("6ba7b814-9dad-11d1-80b4-00c04fd430c8")
