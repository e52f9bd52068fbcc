#!/usr/bin/python3
"""Exports octet: the GGUF, the test split's tokenization, the torch reference, the test report.

  /usr/bin/python3 tools/octet/export.py [--checkpoint build-octet/checkpoint.pt]
        [--out resources/octet/octet.gguf]

Matrices are written F16, norms and routers F32. Before the reference and the report are
computed, the torch weights are rounded to the exported precision, so torch and the engine run
the same numbers. Files written (resources/octet/):
  octet.gguf               the model (contract in docs/octet.md)
  octet_test_tokens.jsonl  per test item {"prompt_ids": [...], "answer_ids": [...]}, no specials
  octet_reference.json     logits at the last prompt position and layer-mean gates, 3 prompts
and WORK/test_report.json (torch-side accuracies on the test split).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import gguf_writer as gw  # noqa: E402
from bpe import Tokenizer  # noqa: E402
from data import SUBSYSTEMS, encode_items, read_jsonl  # noqa: E402
from evaluate import full_report, summary  # noqa: E402
from model import Config, Octet  # noqa: E402

ARCH = "octet"
REFERENCE_INDICES = [0, 2, 6]  # test items: en term pair, zh safety, en code snippet


def head_map(n_layer, n_head=8):
    """Head k of every layer belongs to subsystem k * 8 // n_head: with 8 heads head k is rte-k;
    with 16 heads (16 groups) a subsystem owns its two groups' heads. With 4 groups of 2 heads,
    heads 2g and 2g+1 (one group) go to the two subsystems that share it."""
    return json.dumps({"version": 1, "layers": [[SUBSYSTEMS[k * 8 // n_head] for k in range(n_head)]
                                                for _ in range(n_layer)]})


def round_to_f16(model):
    """Rounds every 2-D weight in place to float16 precision (what the GGUF stores)."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() == 2 and not name.endswith("router.weight"):  # routers stay F32
                p.copy_(p.half().float())


def tensors(model):
    """-> list of (gguf name, torch tensor [rows = ne1, cols = ne0] or 1-D, F16/F32)."""
    c = model.c
    D, Fn = c.n_embd, c.n_ff
    out = [("token_embd.weight", model.tok_emb.weight, gw.F16)]
    for i, b in enumerate(model.blocks):
        q, k, v = b.wqkv.weight.split(D, 0)                 # each [D_out, D_in]
        gate, up = b.w_gate_up.weight.split(Fn, 0)          # each [F, D]
        p = f"blk.{i}."
        out += [(p + "attn_norm.weight", b.attn_norm.weight, gw.F32),
                (p + "attn_q.weight", q, gw.F16), (p + "attn_k.weight", k, gw.F16),
                (p + "attn_v.weight", v, gw.F16), (p + "attn_output.weight", b.wo.weight, gw.F16),
                (p + "router.weight", b.router.weight, gw.F32),     # [G, D] -> ne [D, G]
                (p + "ffn_norm.weight", b.ffn_norm.weight, gw.F32),
                (p + "ffn_gate.weight", gate, gw.F16), (p + "ffn_up.weight", up, gw.F16),
                (p + "ffn_down.weight", b.w_down.weight, gw.F16)]  # [D, F] -> ne [F, D]
    out += [("output_norm.weight", model.norm.weight, gw.F32),
            ("output.weight", model.out.weight, gw.F16)]             # [V, D] -> ne [D, V]
    return out


@torch.no_grad()
def load_gguf_weights(model, path):
    """Copies the tensors of an exported octet GGUF into `model` (the inverse of tensors():
    Q/K/V and gate/up are written back into their fused matrices). Used to fine-tune from a
    committed model; F16 tensors come back exactly as stored."""
    import numpy as np
    _, ts = gw.read_gguf(open(path, "rb").read())
    for name, t, _ in tensors(model):
        ne, ttype, data = ts[name]
        arr = np.frombuffer(data, dtype="<f2" if ttype == gw.F16 else "<f4").astype("float32")
        t.copy_(torch.from_numpy(arr.reshape(list(reversed(ne)))))


def build_gguf(model, tok):
    c = model.c
    w = gw.GGUFWriter()
    a = ARCH + "."
    w.add("general.architecture", gw.STRING, ARCH)
    w.add("general.name", gw.STRING, "octet")
    w.add("general.alignment", gw.UINT32, gw.ALIGNMENT)
    w.add(a + "context_length", gw.UINT32, c.n_ctx)
    w.add(a + "embedding_length", gw.UINT32, c.n_embd)
    w.add(a + "block_count", gw.UINT32, c.n_layer)
    w.add(a + "feed_forward_length", gw.UINT32, c.n_ff)
    w.add(a + "attention.head_count", gw.UINT32, c.n_head)
    w.add(a + "attention.head_count_kv", gw.UINT32, c.n_head)
    w.add(a + "attention.layer_norm_rms_epsilon", gw.FLOAT32, c.eps)
    w.add(a + "rope.freq_base", gw.FLOAT32, c.rope_base)
    w.add(a + "rope.dimension_count", gw.UINT32, c.head_dim)
    w.add(a + "router.group_count", gw.UINT32, c.n_group)
    w.add("octoscope.subsystem_ids", gw.ARRAY, (gw.STRING, list(SUBSYSTEMS)))
    w.add("octoscope.head_map", gw.STRING, head_map(c.n_layer, c.n_head))
    w.add("octoscope.prompt_template", gw.STRING, "{prompt}<|answer|>")
    w.add("tokenizer.ggml.model", gw.STRING, "gpt2")
    w.add("tokenizer.ggml.pre", gw.STRING, "qwen2")
    w.add("tokenizer.ggml.tokens", gw.ARRAY, (gw.STRING, tok.tokens))
    w.add("tokenizer.ggml.token_type", gw.ARRAY, (gw.INT32, tok.token_types()))
    w.add("tokenizer.ggml.merges", gw.ARRAY, (gw.STRING, tok.merges))
    w.add("tokenizer.ggml.bos_token_id", gw.UINT32, tok.special_ids["<|bos|>"])
    w.add("tokenizer.ggml.eos_token_id", gw.UINT32, tok.special_ids["<|eos|>"])
    w.add("tokenizer.ggml.add_bos_token", gw.BOOL, True)
    w.add("tokenizer.ggml.add_eos_token", gw.BOOL, False)
    for name, t, ttype in tensors(model):
        arr = t.detach().float().contiguous().numpy()
        ne = list(reversed(arr.shape))
        data = arr.astype("<f2" if ttype == gw.F16 else "<f4").tobytes()
        w.add_tensor(name, ne, ttype, data)
    return w


def write_test_tokens(tok, test_path, out_path):
    with open(out_path, "w", encoding="utf-8", newline="\n") as f:
        for r in read_jsonl(test_path):
            f.write(json.dumps({"prompt_ids": tok.encode(r["prompt"]),
                                "answer_ids": tok.encode(r["answer"])}) + "\n")


@torch.no_grad()
def write_reference(model, tok, test_rec, out_path):
    model.eval()
    bos, ans = tok.special_ids["<|bos|>"], tok.special_ids["<|answer|>"]
    items = []
    for i in REFERENCE_INDICES:
        r = test_rec[i]
        ids = [bos] + tok.encode(r["prompt"]) + [ans]
        logits, rl = model(torch.tensor([ids]))
        gates = Octet.gates(rl)[:, 0].mean(0)                  # [T, 8], position 0 all zero
        last = logits[0, -1]
        items.append({"test_index": i, "prompt": r["prompt"], "ids": ids,
                      "argmax": int(last.argmax()),
                      "last_logits": [round(float(x), 5) for x in last],
                      "gate_mean": [[round(float(x), 6) for x in row] for row in gates]})
    doc = {"note": "torch forward of octet.gguf's weights (F16 matrices as stored); input "
                   "<|bos|> + prompt + <|answer|>; last_logits at the last position; gate_mean "
                   "per position = mean over layers of the gates (softmax of router logits, all 0 "
                   "at position 0)", "items": items}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False)
        f.write("\n")
    model.train()


def export_all(model, tok, out, test_path, work):
    round_to_f16(model)
    w = build_gguf(model, tok)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    w.write(out)
    meta, ts = gw.read_gguf(open(out, "rb").read())   # self-check
    assert meta["general.architecture"] == ARCH and len(ts) == len(w.tensors)
    print(f"wrote {out}: {os.path.getsize(out)} bytes, {len(ts)} tensors", flush=True)
    res = os.path.dirname(out)
    stem = os.path.splitext(os.path.basename(out))[0]  # "octet", or a variant's "octet-g4"
    write_test_tokens(tok, test_path, os.path.join(res, stem + "_test_tokens.jsonl"))
    test_rec = read_jsonl(test_path)
    write_reference(model, tok, test_rec, os.path.join(res, stem + "_reference.json"))
    rep = full_report(model, encode_items(test_rec, tok))
    with open(os.path.join(work, "test_report.json"), "w") as f:
        json.dump(rep, f, indent=1)
    print("test (torch, F16 weights): " + summary(rep), flush=True)
    return rep


def main():
    p = argparse.ArgumentParser()
    root = os.path.join(HERE, "..", "..")
    p.add_argument("--work", default=os.path.join(root, "build-octet"))
    p.add_argument("--checkpoint", default=None, help="default WORK/checkpoint.pt")
    p.add_argument("--out", default=os.path.join(root, "resources", "octet", "octet.gguf"))
    p.add_argument("--test", default=os.path.join(root, "resources", "octet", "octet_test.jsonl"))
    a = p.parse_args()
    torch.set_num_threads(1)
    s = torch.load(a.checkpoint or os.path.join(a.work, "checkpoint.pt"))
    model = Octet(Config.from_dict(s["config"]))
    model.load_state_dict(s["model"])
    tok = Tokenizer.load(os.path.join(a.work, "tokenizer.json"))
    print(f"checkpoint step {s['step']}", flush=True)
    export_all(model, tok, a.out, a.test, a.work)


if __name__ == "__main__":
    main()
