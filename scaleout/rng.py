"""sfc32 with the workbench's seeding (main/train/rng.ts), so a run here shuffles its batches in
exactly the order the workbench would, and the state saved in state.json resumes in either."""

M32 = 0xFFFFFFFF


def _imul(a, b):
    return (a * b) & M32


class Rng:
    def __init__(self, seed):
        if isinstance(seed, dict):
            s = seed.get("s")
            if seed.get("kind") != "sfc32" or not isinstance(s, list) or len(s) != 4:
                raise ValueError(f"rng state: field 'kind'/'s' is {seed!r}, expected {{kind:'sfc32', s:[4 uint32]}}")
            self.a, self.b, self.c, self.d = (int(v) & M32 for v in s)
            return
        x = int(seed) & M32

        def mix():
            nonlocal x
            x = (x + 0x9E3779B9) & M32
            z = x
            z = _imul(z ^ (z >> 16), 0x85EBCA6B)
            z = _imul(z ^ (z >> 13), 0xC2B2AE35)
            return (z ^ (z >> 16)) & M32

        self.a, self.b, self.c, self.d = mix(), mix(), mix(), 1
        for _ in range(12):
            self.next_uint32()

    def next_uint32(self):
        t = (((self.a + self.b) & M32) + self.d) & M32
        self.d = (self.d + 1) & M32
        self.a = self.b ^ (self.b >> 9)
        self.b = (self.c + (self.c << 3)) & M32
        self.c = ((self.c << 21) | (self.c >> 11)) & M32
        self.c = (self.c + t) & M32
        return t

    def int(self, n):
        limit = 4294967296 - (4294967296 % n)
        while True:
            u = self.next_uint32()
            if u < limit:
                return u % n

    def permutation(self, n):
        p = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.int(i + 1)
            p[i], p[j] = p[j], p[i]
        return p

    def get_state(self):
        return {"kind": "sfc32", "s": [self.a, self.b, self.c, self.d]}
