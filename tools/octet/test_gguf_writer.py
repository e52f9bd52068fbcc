"""Unit tests for tools/octet/gguf_writer.py (standard library only).

  python3 -m unittest -v tools/octet/test_gguf_writer.py
"""
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gguf_writer as gw  # noqa: E402


def f32(values):
    return struct.pack("<%df" % len(values), *values)


class Writer(unittest.TestCase):
    def build(self):
        w = gw.GGUFWriter()
        w.add("general.architecture", gw.STRING, "octet")
        w.add("general.alignment", gw.UINT32, 32)
        w.add("octet.block_count", gw.UINT32, 16)
        w.add("octet.attention.layer_norm_rms_epsilon", gw.FLOAT32, 1e-5)
        w.add("tokenizer.ggml.add_bos_token", gw.BOOL, True)
        w.add("tokenizer.ggml.tokens", gw.ARRAY, (gw.STRING, ["a", "Ġb", "周"]))
        w.add("tokenizer.ggml.token_type", gw.ARRAY, (gw.INT32, [1, 1, 3]))
        w.add_tensor("x.weight", [3, 2], gw.F32, f32([1, 2, 3, 4, 5, 6]))  # ne0 = 3
        w.add_tensor("n.weight", [5], gw.F32, f32([0.5] * 5))
        w.add_tensor("h.weight", [4], gw.F16, struct.pack("<4e", 1, -2, 0.5, 65504))
        return w

    def test_header_bytes(self):
        b = self.build().to_bytes()
        self.assertEqual(b[:4], b"GGUF")
        self.assertEqual(struct.unpack_from("<IQQ", b, 4), (3, 3, 7))
        # first key: u64 length, bytes, u32 type 8 (string), u64 length, "octet"
        n = struct.unpack_from("<Q", b, 24)[0]
        self.assertEqual(b[32:32 + n], b"general.architecture")
        self.assertEqual(struct.unpack_from("<I", b, 32 + n)[0], gw.STRING)

    def test_round_trip(self):
        meta, ts = gw.read_gguf(self.build().to_bytes())
        self.assertEqual(meta["general.architecture"], "octet")
        self.assertEqual(meta["octet.block_count"], 16)
        self.assertAlmostEqual(meta["octet.attention.layer_norm_rms_epsilon"], 1e-5, places=9)
        self.assertIs(meta["tokenizer.ggml.add_bos_token"], True)
        self.assertEqual(meta["tokenizer.ggml.tokens"], ["a", "Ġb", "周"])
        self.assertEqual(meta["tokenizer.ggml.token_type"], [1, 1, 3])
        ne, tt, data = ts["x.weight"]
        self.assertEqual((ne, tt), ([3, 2], gw.F32))
        self.assertEqual(struct.unpack("<6f", data), (1, 2, 3, 4, 5, 6))
        self.assertEqual(struct.unpack("<4e", ts["h.weight"][2]), (1, -2, 0.5, 65504))

    def test_alignment_and_size(self):
        b = self.build().to_bytes()
        self.assertEqual(len(b) % 32, 0)
        meta, ts = gw.read_gguf(b)  # read_gguf raises on a misaligned tensor
        self.assertEqual(len(ts), 3)

    def test_array_header(self):
        w = gw.GGUFWriter()
        w.add("k", gw.ARRAY, (gw.INT32, [7, -1]))
        b = w.to_bytes()
        # after magic/version/counts (24) and key "k" (8 + 1): type 9, elem type 5, count 2
        self.assertEqual(struct.unpack_from("<IIQii", b, 33), (gw.ARRAY, gw.INT32, 2, 7, -1))

    def test_errors(self):
        w = gw.GGUFWriter()
        w.add("a", gw.UINT32, 1)
        with self.assertRaises(ValueError):
            w.add("a", gw.UINT32, 2)
        with self.assertRaises(ValueError):
            w.add_tensor("t", [2, 2], gw.F32, b"\0" * 15)


if __name__ == "__main__":
    unittest.main()
