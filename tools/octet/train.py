#!/usr/bin/python3
"""Trains octet from scratch (or resumes) and exports the GGUF. See docs/octet.md.

  /usr/bin/python3 tools/octet/train.py --out resources/octet/octet.gguf [--work build-octet]

Deterministic: one torch thread, fixed seeds, batches a pure function of the step. Every run
regenerates the splits with generate.py, trains the BPE, then trains (resuming from
WORK/checkpoint.pt, or --resume PATH, when present) and exports.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from bpe import Tokenizer  # noqa: E402
from data import SUBSYSTEMS, Sampler, collate, encode_items, read_jsonl, POOL  # noqa: E402
from evaluate import full_report, summary  # noqa: E402
from model import Config, Octet, group_mask, groups_of  # noqa: E402

BASE_WEIGHTS = [1.0, 2.0, 3.0, 1.5, 3.0, 1.0, 2.0, 1.0]  # rte-a..h, hard tasks oversampled


def log(msg, f=None):
    line = time.strftime("%H:%M:%S ") + msg
    print(line, flush=True)


def lr_at(step, a):
    """Linear warm-up, then cosine from lr to lr/10 over --steps."""
    if step < a.warmup:
        return a.lr * (step + 1) / a.warmup
    t = (step - a.warmup) / max(1, a.steps - a.warmup)
    return a.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, t))))


def loss_fn(model, t, keep, route_lambda):
    """LM cross-entropy (weighted by lm_w) + route_lambda * router loss toward the groups that
    serve the item's subsystem, -log(sum of their probabilities) (with one group per subsystem
    the usual cross-entropy), weighted by route_w and averaged over the layers."""
    logits, rl = model(t["ids"], keep)                          # [B,T,V], [L,B,T,G]
    V = logits.shape[-1]
    ce = F.cross_entropy(logits.reshape(-1, V), t["targets"].reshape(-1), reduction="none")
    lm = (ce * t["lm_w"].reshape(-1)).sum() / t["lm_w"].sum()
    L, B, T, G = rl.shape
    if G == 8:  # one group per subsystem: the original loss, bit for bit
        tgt = t["group"][None, :, None].expand(L, B, T).reshape(-1)
        rce = F.cross_entropy(rl.reshape(-1, G), tgt, reduction="none").view(L, B, T)
    else:
        served = group_mask(t["group"].tolist(), G)[None, :, None, :]   # [1, B, 1, G]
        rce = torch.logsumexp(rl, -1) - torch.logsumexp(rl.masked_fill(served == 0, float("-inf")), -1)
    route = (rce * t["route_w"][None]).sum() / (L * t["route_w"].sum())
    return lm + route_lambda * route, lm, route


def save_checkpoint(path, model, opt, step, weights, a, history):
    tmp = path + ".tmp"
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
                "weights": weights, "config": model.c.to_dict(), "args": vars(a),
                "history": history, "torch_rng": torch.get_rng_state(),
                "py_rng": random.getstate()}, tmp)
    os.replace(tmp, path)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=None,
                   help="GGUF to write (default resources/octet/octet.gguf; octet/variants/octet-gN.gguf with --groups N)")
    p.add_argument("--work", default=None, help="checkpoints and data (default build-octet, build-octet-gN with --groups N)")
    p.add_argument("--groups", type=int, default=8,
                   help="router groups: 8 (the built-in octet), 4 or 16 (the 'why 8' variants, same budget)")
    p.add_argument("--heads", type=int, default=None, help="heads per layer (default max(8, groups))")
    p.add_argument("--resume", default=None, help="checkpoint to resume (default WORK/checkpoint.pt)")
    p.add_argument("--init", default=None,
                   help="start from the weights of this octet GGUF (fresh optimiser): fine-tuning")
    p.add_argument("--base-weights", default=",".join(str(w) for w in BASE_WEIGHTS),
                   help="sampling base weights of rte-a..rte-h, comma-separated")
    p.add_argument("--seed", type=int, default=8)
    p.add_argument("--vocab", type=int, default=2048)
    p.add_argument("--steps", type=int, default=4000)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--warmup", type=int, default=150)
    p.add_argument("--prompt-weight", type=float, default=0.1)
    p.add_argument("--route-lambda", type=float, default=0.5)
    p.add_argument("--route-prompt-weight", type=float, default=0.5)
    p.add_argument("--route-from", type=int, default=3, help="first prompt position routed")
    p.add_argument("--drop-other", type=float, default=0.3,
                   help="probability an item trains with one random other group off")
    p.add_argument("--eval-every", type=int, default=400)
    p.add_argument("--eval-items", type=int, default=50, help="dev items per subsystem")
    p.add_argument("--ckpt-minutes", type=float, default=10.0)
    p.add_argument("--max-steps-this-run", type=int, default=None,
                   help="stop (with a checkpoint) after this many steps; for timing runs")
    p.add_argument("--no-export", action="store_true")
    a = p.parse_args(argv)
    assert a.eval_every % POOL == 0
    suffix = "" if a.groups == 8 else f"-g{a.groups}"
    if a.out is None:
        a.out = os.path.join(HERE, "..", "..", "resources", "octet",
                             "octet.gguf" if a.groups == 8 else os.path.join("variants", f"octet{suffix}.gguf"))
    if a.work is None:
        a.work = os.path.join(HERE, "..", "..", "build-octet" + suffix)
    if a.heads is None:
        a.heads = max(8, a.groups)
    base_weights = [float(w) for w in a.base_weights.split(",")]
    assert len(base_weights) == 8
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    random.seed(a.seed)
    os.makedirs(a.work, exist_ok=True)

    data_dir = os.path.join(a.work, "data")
    if not os.path.exists(os.path.join(data_dir, "train.jsonl")):
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--out", data_dir,
                        "--seed", str(a.seed)], check=True)
    train_rec = read_jsonl(os.path.join(data_dir, "train.jsonl"))
    dev_rec = read_jsonl(os.path.join(data_dir, "dev.jsonl"))
    tok_path = os.path.join(a.work, "tokenizer.json")
    tok = Tokenizer.train([s for r in train_rec for s in (r["prompt"], r["answer"])], a.vocab)
    tok.save(tok_path)
    log(f"tokenizer: {len(tok.tokens)} tokens, {len(tok.merges)} merges")
    train = encode_items(train_rec, tok)
    dev_by = {g: [] for g in range(8)}
    for it in encode_items(dev_rec, tok):
        if len(dev_by[it.group]) < a.eval_items:
            dev_by[it.group].append(it)
    dev = [it for g in range(8) for it in dev_by[g]]
    log(f"train items {len(train)}, mean tokens {sum(len(i.ids) for i in train) / len(train):.1f}")

    cfg = Config(n_vocab=len(tok.tokens), n_head=a.heads, n_group=a.groups)
    model = Octet(cfg)
    log(f"params {sum(p.numel() for p in model.parameters())}")
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=a.lr, betas=(0.9, 0.98), eps=1e-8)
    if a.init:
        import export
        export.load_gguf_weights(model, a.init)
        log(f"initialised from {a.init}")
    step, weights, history = 0, list(base_weights), []
    ckpt = a.resume or os.path.join(a.work, "checkpoint.pt")
    if os.path.exists(ckpt):
        s = torch.load(ckpt)
        model.load_state_dict(s["model"])
        opt.load_state_dict(s["opt"])
        step, weights, history = s["step"], s["weights"], s.get("history", [])
        torch.set_rng_state(s["torch_rng"])
        random.setstate(s["py_rng"])
        log(f"resumed from {ckpt} at step {step}")
    ckpt = os.path.join(a.work, "checkpoint.pt")
    sampler = Sampler(train, a.seed, a.batch)

    t0 = time.time()
    last_ckpt = time.time()
    tokens = 0
    run_steps = 0
    while step < a.steps:
        if step % a.eval_every == 0 and (step > 0 or a.init):
            te = time.time()
            rep = full_report(model, dev)
            rep["step"] = step
            history.append(rep)
            acc = rep["base"]
            weights = [base_weights[g] * (0.3 + 1.0 - acc[s]) for g, s in enumerate(SUBSYSTEMS)]
            log(f"eval step {step}: {summary(rep)} ({time.time() - te:.0f}s)")
        items, _ = sampler.batch(step, weights)
        t = collate(items, a.prompt_weight, a.route_prompt_weight, a.route_from)
        rng = random.Random(a.seed * 7919 + step)
        keep = torch.ones(len(items), cfg.n_group)
        for b, it in enumerate(items):
            if rng.random() < a.drop_other:  # one group that does not serve the item, off
                others = [g for g in range(cfg.n_group) if g not in groups_of(it.group, cfg.n_group)]
                keep[b, others[rng.randrange(len(others))]] = 0
        for gr in opt.param_groups:
            gr["lr"] = lr_at(step, a)
        loss, lm, route = loss_fn(model, t, keep, a.route_lambda)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        run_steps += 1
        tokens += sum(len(it.ids) for it in items)
        if step % 20 == 0:
            el = time.time() - t0
            log(f"step {step}/{a.steps} loss {loss.item():.4f} lm {lm.item():.4f} "
                f"route {route.item():.4f} lr {lr_at(step - 1, a):.2e} "
                f"tok/s {tokens / el:.0f} elapsed {el / 60:.1f} min")
        if time.time() - last_ckpt > a.ckpt_minutes * 60:
            save_checkpoint(ckpt, model, opt, step, weights, a, history)
            last_ckpt = time.time()
        if a.max_steps_this_run and run_steps >= a.max_steps_this_run:
            break
    save_checkpoint(ckpt, model, opt, step, weights, a, history)
    log(f"stopped at step {step}; {tokens} tokens in {(time.time() - t0) / 60:.1f} min "
        f"({tokens / max(1e-9, time.time() - t0):.0f} tok/s)")
    if step >= a.steps and not a.no_export:
        import export
        export.export_all(model, tok, a.out, os.path.join(HERE, "..", "..", "resources", "octet",
                                                          "octet_test.jsonl"), a.work)


if __name__ == "__main__":
    main()
