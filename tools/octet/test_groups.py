"""Unit tests of octet's group count (the "why 8" variants, docs/octet.md): which groups serve a
subsystem, how gates reach heads, the router loss toward several groups, the exported head map
and router. Needs torch (Debian's python3-torch, run with /usr/bin/python3).

  /usr/bin/python3 -m unittest -v tools/octet/test_groups.py
"""
import json
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import export  # noqa: E402
import gguf_writer as gw  # noqa: E402
from data import SUBSYSTEMS, collate, Item  # noqa: E402
from model import Config, Octet, group_mask, groups_of  # noqa: E402
from train import loss_fn  # noqa: E402


def tiny(groups, heads=None):
    torch.manual_seed(3)
    c = Config(n_vocab=40, n_embd=32, n_layer=2, n_head=heads or max(8, groups), n_ff=48, n_ctx=32, n_group=groups)
    m = Octet(c)
    for b in m.blocks:  # routers start at zero (uniform gates); give them something to say
        torch.nn.init.normal_(b.router.weight, 0.0, 0.5)
    return m


class Groups(unittest.TestCase):
    def test_groups_serving_each_subsystem(self):
        self.assertEqual([groups_of(s, 8) for s in range(8)], [[s] for s in range(8)])
        self.assertEqual([groups_of(s, 16) for s in range(8)], [[2 * s, 2 * s + 1] for s in range(8)])
        self.assertEqual([groups_of(s, 4) for s in range(8)], [[0], [0], [1], [1], [2], [2], [3], [3]])
        self.assertEqual(group_mask([0, 5], 4).tolist(), [[1, 0, 0, 0], [0, 0, 1, 0]])

    def test_invalid_counts_are_refused(self):
        for groups, heads in ((3, 9), (16, 8), (6, 12)):
            with self.assertRaises(ValueError):
                Config(n_vocab=10, n_head=heads, n_group=groups)

    def test_router_shapes(self):
        for g in (4, 8, 16):
            m = tiny(g)
            logits, rl = m(torch.randint(0, 40, (2, 7)))
            self.assertEqual(tuple(logits.shape), (2, 7, 40))
            self.assertEqual(tuple(rl.shape), (2, 2, 7, g))

    def test_a_group_switched_off_silences_its_heads_only(self):
        # 4 groups over 8 heads: group 0 gates heads 0 and 1. With it off, heads 0-1's values
        # cannot matter; head 2's still do.
        m = tiny(4)
        ids = torch.randint(0, 40, (1, 6))
        keep = torch.tensor([[0.0, 1.0, 1.0, 1.0]])
        E = m.c.head_dim
        base, _ = m(ids, keep)
        with torch.no_grad():
            v_rows = m.blocks[0].wqkv.weight[2 * m.c.n_embd:]   # V rows, head-major
            v_rows[0:2 * E] += 1.0                              # heads 0 and 1
        changed, _ = m(ids, keep)
        self.assertTrue(torch.allclose(base, changed, atol=1e-6))
        with torch.no_grad():
            v_rows[2 * E:3 * E] += 1.0                          # head 2 (group 1, on)
        moved, _ = m(ids, keep)
        self.assertFalse(torch.allclose(base, moved, atol=1e-4))

    def test_router_loss_sums_the_serving_groups(self):
        item = Item([1, 5, 6, 2, 7, 3], 3, 2, False)  # <bos> p p <ans> a <eos>; subsystem rte-c
        t = collate([item], 0.0, 0.0, 0)
        for g in (8, 16, 4):
            m = tiny(g)
            _, lm, route = loss_fn(m, t, torch.ones(1, g), 1.0)
            _, rl = m(t["ids"])
            p = rl.softmax(-1)                                   # [L, 1, T, G]
            served = groups_of(2, g)
            expect = -torch.log(p[..., served].sum(-1))          # [L, 1, T]
            w = t["route_w"][None]
            want = (expect * w).sum() / (rl.shape[0] * w.sum())
            self.assertAlmostEqual(route.item(), want.item(), places=5)
            self.assertTrue(math.isfinite(lm.item()))

    def test_export_writes_the_group_count_and_a_head_map(self):
        self.assertEqual(json.loads(export.head_map(2, 8))["layers"][1], SUBSYSTEMS)
        sixteen = json.loads(export.head_map(1, 16))["layers"][0]
        self.assertEqual(sixteen, [SUBSYSTEMS[k // 2] for k in range(16)])

        class Tok:  # the exporter's view of a tokenizer
            tokens = ["<|bos|>", "<|eos|>", "<|answer|>"] + [chr(97 + i) for i in range(37)]
            merges = []
            special_ids = {"<|bos|>": 0, "<|eos|>": 1, "<|answer|>": 2}

            def token_types(self):
                return [3, 3, 3] + [1] * 37

        m = tiny(4)
        meta, tensors = gw.read_gguf(export.build_gguf(m, Tok()).to_bytes())
        self.assertEqual(meta["octet.router.group_count"], 4)
        self.assertEqual(meta["octet.attention.head_count"], 8)
        ne, ttype, _ = tensors["blk.0.router.weight"]
        self.assertEqual(list(ne), [32, 4])
        self.assertEqual(ttype, gw.F32)


if __name__ == "__main__":
    unittest.main()
