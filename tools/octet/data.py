"""Training data for octet: encoded items, per-step batches, loss weights.

Sequence of one item (ids): [<|bos|>] + encode(prompt) + [<|answer|>] + encode(answer) + [<|eos|>].
Batches are right-padded with id 0 (masked out of every loss). Batch b of step s is a pure function
of (seed, s, sampling weights), so resuming from a checkpoint reproduces the same run.
"""
import json
import random

import torch

SUBSYSTEMS = ["rte-a", "rte-b", "rte-c", "rte-d", "rte-e", "rte-f", "rte-g", "rte-h"]
GROUP = {s: k for k, s in enumerate(SUBSYSTEMS)}
POOL = 16  # batches drawn together and length-sorted to cut padding


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


class Item:
    """ids: list[int]; n_prompt: tokens before <|answer|> incl. <|bos|>; group: 0..7."""
    __slots__ = ("ids", "n_prompt", "group", "heldout")

    def __init__(self, ids, n_prompt, group, heldout):
        self.ids, self.n_prompt, self.group, self.heldout = ids, n_prompt, group, heldout


def encode_items(records, tok):
    bos, eos, ans = (tok.special_ids[s] for s in ("<|bos|>", "<|eos|>", "<|answer|>"))
    out = []
    for r in records:
        p = tok.encode(r["prompt"])
        a = tok.encode(r["answer"])
        out.append(Item([bos] + p + [ans] + a + [eos], 1 + len(p), GROUP[r["subsystem"]],
                        bool(r.get("heldout_phrasing", False))))
    return out


def collate(items, prompt_weight, route_prompt_weight, route_from):
    """items -> dict of tensors, all [B, T] unless noted:
      ids        input ids (padded with 0)
      targets    next-token ids (position t predicts ids[t+1]); [B, T]
      lm_w       LM loss weight per position: 1 where the target is an answer token or <|eos|>
                 (positions n_prompt .. end-1), prompt_weight for earlier positions, 0 on padding
      route_w    routing loss weight per position: 1 from <|answer|> to the last answer token,
                 route_prompt_weight on prompt positions >= route_from, 0 elsewhere
      group      [B] target group
      ans_mask   positions whose input is an answer token (router accuracy), bool
    """
    B = len(items)
    T = max(len(it.ids) for it in items)
    ids = torch.zeros(B, T, dtype=torch.long)
    targets = torch.zeros(B, T, dtype=torch.long)
    lm_w = torch.zeros(B, T)
    route_w = torch.zeros(B, T)
    ans_mask = torch.zeros(B, T, dtype=torch.bool)
    group = torch.tensor([it.group for it in items], dtype=torch.long)
    for b, it in enumerate(items):
        n = len(it.ids)
        ids[b, :n] = torch.tensor(it.ids)
        targets[b, :n - 1] = torch.tensor(it.ids[1:])
        lm_w[b, :it.n_prompt - 1] = prompt_weight     # targets are prompt tokens / <|answer|>
        lm_w[b, it.n_prompt - 1] = prompt_weight      # target: <|answer|>
        lm_w[b, it.n_prompt:n - 1] = 1.0              # targets: answer tokens and <|eos|>
        route_w[b, route_from:it.n_prompt] = route_prompt_weight
        route_w[b, it.n_prompt:n - 1] = 1.0           # <|answer|> and answer-token inputs
        ans_mask[b, it.n_prompt + 1:n - 1] = True     # inputs that are answer tokens
    return {"ids": ids, "targets": targets, "lm_w": lm_w, "route_w": route_w,
            "group": group, "ans_mask": ans_mask}


class Sampler:
    """by_group: list of 8 lists of Items. weights: 8 floats (subsystem sampling weights)."""

    def __init__(self, items, seed, batch_size):
        self.by_group = [[it for it in items if it.group == g] for g in range(8)]
        self.seed, self.batch_size = seed, batch_size

    def batch(self, step, weights):
        """Items of training step `step`: pool step // POOL is drawn with its own RNG, sorted by
        length, cut into POOL batches and shuffled; this step takes batch step % POOL.
        The weights in force at the pool's first step are used for the whole pool."""
        pool_index = step // POOL
        rng = random.Random(self.seed * 1_000_003 + pool_index)
        n = self.batch_size * POOL
        groups = rng.choices(range(8), weights=weights, k=n)
        items = [self.by_group[g][rng.randrange(len(self.by_group[g]))] for g in groups]
        order = sorted(range(n), key=lambda i: (len(items[i].ids), i))
        batches = [[items[i] for i in order[j * self.batch_size:(j + 1) * self.batch_size]]
                   for j in range(POOL)]
        rng.shuffle(batches)
        return batches[step % POOL], rng
