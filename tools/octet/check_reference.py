#!/usr/bin/python3
"""Independent numpy forward pass of resources/octet/octet.gguf, written from the contract in
docs/octet.md (not from model.py), compared with resources/octet/octet_reference.json.

  /usr/bin/python3 tools/octet/check_reference.py      (needs numpy; prints max |difference|)
"""
import json
import os
import sys

import numpy as np
HERE = os.path.dirname(os.path.abspath(__file__))
RES = os.path.join(HERE, '..', '..', 'resources', 'octet')
sys.path.insert(0, HERE)
import gguf_writer as gw
meta, ts = gw.read_gguf(open(os.path.join(RES, 'octet.gguf'), 'rb').read())
def W(n):
    ne, tt, b = ts[n]
    a = np.frombuffer(b, dtype='<f2' if tt == 1 else '<f4').astype(np.float64)
    return a.reshape(list(reversed(ne)))
D = meta['octet.embedding_length']; H = meta['octet.attention.head_count']; E = D // H
L = meta['octet.block_count']; eps = meta['octet.attention.layer_norm_rms_epsilon']; base = meta['octet.rope.freq_base']
def rms(x, w): return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w
def rope(x, T):  # x [T, H, E], llama normal: adjacent pairs
    inv = base ** (-np.arange(0, E, 2) / E); ang = np.arange(T)[:, None] * inv[None]
    c, s = np.cos(ang)[:, None], np.sin(ang)[:, None]
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x); out[..., 0::2] = x0 * c - x1 * s; out[..., 1::2] = x0 * s + x1 * c
    return out
ref = json.load(open(os.path.join(RES, 'octet_reference.json'), encoding='utf-8'))
for it in ref['items']:
    ids = it['ids']; T = len(ids)
    x = W('token_embd.weight')[ids]
    gsum = np.zeros((T, 8))
    for l in range(L):
        p = f'blk.{l}.'
        h = rms(x, W(p + 'attn_norm.weight'))
        q = rope((h @ W(p + 'attn_q.weight').T).reshape(T, H, E), T)
        k = rope((h @ W(p + 'attn_k.weight').T).reshape(T, H, E), T)
        v = (h @ W(p + 'attn_v.weight').T).reshape(T, H, E)
        r = h @ W(p + 'router.weight').T; g = np.exp(r - r.max(-1, keepdims=True)); g /= g.sum(-1, keepdims=True); g[0] = 0
        gsum += g
        z = np.zeros((T, H, E))
        for hh in range(H):
            a = q[:, hh] @ k[:, hh].T / np.sqrt(E) + np.triu(np.full((T, T), -np.inf), 1)
            a = np.exp(a - a.max(-1, keepdims=True)); a /= a.sum(-1, keepdims=True)
            z[:, hh] = (a @ v[:, hh]) * g[:, hh:hh + 1]
        x = x + z.reshape(T, D) @ W(p + 'attn_output.weight').T
        f = rms(x, W(p + 'ffn_norm.weight'))
        gt = f @ W(p + 'ffn_gate.weight').T; up = f @ W(p + 'ffn_up.weight').T
        x = x + (gt / (1 + np.exp(-gt)) * up) @ W(p + 'ffn_down.weight').T
    logits = rms(x, W('output_norm.weight')) @ W('output.weight').T
    d = np.abs(logits[-1] - np.array(it['last_logits'])).max()
    dg = np.abs(gsum / L - np.array(it['gate_mean'])).max()
    print(it['test_index'], 'argmax', int(logits[-1].argmax()), it['argmax'], 'max|dlogit|', d, 'max|dgate|', dg, 'T', T)
