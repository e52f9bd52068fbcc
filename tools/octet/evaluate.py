"""Torch-side evaluation of octet: greedy exact match, ablations, router accuracy.

Greedy generation reproduces the answer exactly iff, with the gold answer fed in (teacher forcing),
the argmax at every position from <|answer|> on is the next gold token, <|eos|> included. So one
forward pass per item gives the greedy exact-match result (ties in argmax aside).

Router accuracy: over positions whose input is an answer token (not <|answer|>, not <|eos|>), the
fraction where argmax_k of the layer-mean gates (mean over the 16 layers of softmax(R_l h)) is the
item's group.
"""
import torch

from data import SUBSYSTEMS, collate
from model import group_mask, groups_of


@torch.no_grad()
def run(model, items, disable=None, batch_size=64):
    """Returns (correct: list[bool] per item, router_hits, router_total, heldout hits/total).
    disable: subsystem index whose groups are switched off (gates zeroed in every layer) or None;
    with 4 groups that also switches off the subsystem sharing its group."""
    model.eval()
    order = sorted(range(len(items)), key=lambda i: len(items[i].ids))
    correct = [False] * len(items)
    rh = rt = hh = ht = 0
    for j in range(0, len(order), batch_size):
        idx = order[j:j + batch_size]
        batch = [items[i] for i in idx]
        t = collate(batch, 0.0, 0.0, 0)
        G = model.c.n_group
        keep = torch.ones(len(batch), G)
        if disable is not None:
            keep[:, groups_of(disable, G)] = 0
        logits, rl = model(t["ids"], keep)
        pred = logits.argmax(-1)                                    # [B, T]
        ok = (pred == t["targets"]) | (t["lm_w"] == 0)
        gmean = rl.softmax(-1).mean(0).argmax(-1)                   # [B, T] the top group
        served = group_mask(t["group"].tolist(), G).bool()          # [B, G]
        hit = served.gather(1, gmean) & t["ans_mask"]
        for b, i in enumerate(idx):
            it = items[i]
            n = len(it.ids)
            correct[i] = bool(ok[b, it.n_prompt:n - 1].all())
            h, c = int(hit[b].sum()), int(t["ans_mask"][b].sum())
            rh, rt = rh + h, rt + c
            if it.heldout:
                hh, ht = hh + h, ht + c
    model.train()
    return correct, (rh, rt), (hh, ht)


def per_subsystem(items, correct):
    """-> {subsystem: accuracy} plus "overall"."""
    out = {}
    for g, s in enumerate(SUBSYSTEMS):
        sel = [c for it, c in zip(items, correct) if it.group == g]
        out[s] = sum(sel) / max(1, len(sel))
    out["overall"] = sum(correct) / max(1, len(correct))
    return out


def full_report(model, items, with_ablation=True):
    """-> dict: base per-subsystem accuracy, router accuracy (all / held-out phrasing),
    and, if with_ablation, ablation[k] = per-subsystem accuracy with group k disabled."""
    correct, (rh, rt), (hh, ht) = run(model, items)
    rep = {"base": per_subsystem(items, correct),
           "router_acc": rh / max(1, rt), "router_acc_heldout": hh / max(1, ht) if ht else None}
    if with_ablation:
        rep["ablation"] = {}
        for k, s in enumerate(SUBSYSTEMS):
            c, _, _ = run(model, items, disable=k)
            rep["ablation"][s] = per_subsystem(items, c)
    return rep


def summary(rep):
    """One-line text: base accuracies, own-group drop and others' mean drop per group."""
    b = rep["base"]
    parts = ["overall %.3f" % b["overall"],
             " ".join("%s %.2f" % (s[-1], b[s]) for s in SUBSYSTEMS),
             "router %.3f" % rep["router_acc"]]
    if rep.get("router_acc_heldout") is not None:
        parts.append("router_heldout %.3f" % rep["router_acc_heldout"])
    if "ablation" in rep:
        own, other = [], []
        for s in SUBSYSTEMS:
            a = rep["ablation"][s]
            own.append("%.2f" % a[s])
            others = [t for t in SUBSYSTEMS if t != s]
            other.append("%+.2f" % (sum(a[t] for t in others) / 7 - sum(b[t] for t in others) / 7))
        parts.append("own-off " + " ".join(own))
        parts.append("others-delta " + " ".join(other))
    return " | ".join(parts)
