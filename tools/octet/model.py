"""octet in torch: a llama-style decoder whose heads are gated in groups by a per-token router.

Shapes: B batch, T tokens, D n_embd, H heads, G router groups (G divides H; the built-in octet
has H = G = 8: one head per subsystem), E head_dim = D / H, F n_ff, V n_vocab.
Per layer l, with h = RMSNorm(x) * attn_norm (the input of Q/K/V):
  gates g = softmax(R_l h)              R_l: [G, D]  -> g: [B, T, G]
  g[:, 0, :] = 0                        absolute position 0 (<|bos|>) gets no head output
  z_k = softmax(q_k k_k^T / sqrt(E) + causal) v_k     per head k: [B, T, E]
  attn = W_O concat_k(g_{k // (H/G)} * z_k)           head k is gated by its group's gate
The "why 8" variants (docs/octet.md) train the same budget with G = 4 (two subsystems share a
group) or G = 16 (two groups per subsystem, H = 16): groups_of() says which groups serve a
subsystem, and the router is trained toward them.
RoPE is llama.cpp's "normal" layout: adjacent pairs (x[2i], x[2i+1]) rotate by
pos * base^(-2i/E), so the GGUF exporter writes W_Q / W_K unpermuted.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_SUBSYSTEMS = 8


def groups_of(subsystem, n_group):
    """The router groups that serve `subsystem` (0..7) in a model with n_group groups: with 8,
    its own; with 16, two (2s, 2s+1); with 4, the one it shares with its neighbour (s // 2)."""
    if n_group >= N_SUBSYSTEMS:
        k = n_group // N_SUBSYSTEMS
        return list(range(subsystem * k, (subsystem + 1) * k))
    return [subsystem * n_group // N_SUBSYSTEMS]


def group_mask(subsystems, n_group):
    """[B] subsystem indices -> [B, G] 1.0 where the group serves the item's subsystem."""
    m = torch.zeros(len(subsystems), n_group)
    for b, s in enumerate(subsystems):
        m[b, groups_of(int(s), n_group)] = 1.0
    return m


class Config:
    def __init__(self, n_vocab, n_embd=128, n_layer=16, n_head=8, n_ff=352, n_ctx=256,
                 eps=1e-5, rope_base=10000.0, n_group=8):
        self.n_vocab, self.n_embd, self.n_layer, self.n_head = n_vocab, n_embd, n_layer, n_head
        self.n_ff, self.n_ctx, self.eps, self.rope_base = n_ff, n_ctx, eps, rope_base
        self.n_group = n_group
        self.head_dim = n_embd // n_head
        if n_head % n_group or not (n_group % N_SUBSYSTEMS == 0 or N_SUBSYSTEMS % n_group == 0):
            raise ValueError(f"{n_group} groups need to divide {n_head} heads and divide or be a multiple of 8")

    def to_dict(self):
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, d):
        d = {k: v for k, v in d.items() if k != "head_dim"}
        return cls(**d)


class RMSNorm(nn.Module):
    def __init__(self, d, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):  # [..., D] -> [..., D]
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_tables(T, E, base):
    """cos, sin: [T, E/2] for positions 0..T-1."""
    inv = base ** (-torch.arange(0, E, 2, dtype=torch.float64) / E)      # [E/2]
    ang = torch.arange(T, dtype=torch.float64)[:, None] * inv[None, :]   # [T, E/2]
    return torch.cos(ang).float(), torch.sin(ang).float()


def apply_rope(x, cos, sin):
    """x: [B, H, T, E]; rotates adjacent pairs (x[2i], x[2i+1])."""
    x0, x1 = x[..., 0::2], x[..., 1::2]                                 # [B, H, T, E/2]
    r0 = x0 * cos - x1 * sin
    r1 = x0 * sin + x1 * cos
    return torch.stack((r0, r1), dim=-1).flatten(-2)                    # [B, H, T, E]


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        D, F_ = c.n_embd, c.n_ff
        self.attn_norm = RMSNorm(D, c.eps)
        self.wqkv = nn.Linear(D, 3 * D, bias=False)   # rows: Q [D], K [D], V [D]
        self.wo = nn.Linear(D, D, bias=False)
        self.router = nn.Linear(D, c.n_group, bias=False)  # R_l: [G, D]
        self.ffn_norm = RMSNorm(D, c.eps)
        self.w_gate_up = nn.Linear(D, 2 * F_, bias=False)  # rows: gate [F], up [F]
        self.w_down = nn.Linear(F_, D, bias=False)

    def forward(self, x, cos, sin, mask, keep):
        """x: [B, T, D]; mask: [T, T] additive causal; keep: [B, G] (1 = group on).
        Returns x' [B, T, D] and router logits [B, T, G]."""
        B, T, D = x.shape
        H, E = self.c.n_head, self.c.head_dim
        h = self.attn_norm(x)
        q, k, v = self.wqkv(h).view(B, T, 3, H, E).permute(2, 0, 3, 1, 4)  # each [B, H, T, E]
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        att = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(E)) + mask    # [B, H, T, T]
        z = att.softmax(-1) @ v                                           # [B, H, T, E]
        logits_r = self.router(h)                                         # [B, T, G]
        g = logits_r.softmax(-1) * keep[:, None, :]
        g = torch.cat((torch.zeros_like(g[:, :1]), g[:, 1:]), dim=1)     # position 0: all 0
        if H != self.c.n_group:
            g = g.repeat_interleave(H // self.c.n_group, dim=-1)          # [B, T, H]: each head its group's gate
        z = z * g.permute(0, 2, 1)[..., None]                             # [B, H, T, E]
        x = x + self.wo(z.transpose(1, 2).reshape(B, T, D))
        gate, up = self.w_gate_up(self.ffn_norm(x)).chunk(2, dim=-1)      # [B, T, F] each
        x = x + self.w_down(F.silu(gate) * up)
        return x, logits_r


class Octet(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.tok_emb = nn.Embedding(c.n_vocab, c.n_embd)
        self.blocks = nn.ModuleList(Block(c) for _ in range(c.n_layer))
        self.norm = RMSNorm(c.n_embd, c.eps)
        self.out = nn.Linear(c.n_embd, c.n_vocab, bias=False)
        cos, sin = rope_tables(c.n_ctx, c.head_dim, c.rope_base)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        self.reset_parameters()

    def reset_parameters(self):
        std = 0.02
        for name, p in self.named_parameters():
            if p.dim() < 2:
                continue
            if name.endswith("router.weight"):
                nn.init.zeros_(p)  # uniform gates at the start
            elif name.endswith("wo.weight") or name.endswith("w_down.weight"):
                nn.init.normal_(p, 0.0, std / math.sqrt(2 * self.c.n_layer))
            else:
                nn.init.normal_(p, 0.0, std)

    def forward(self, ids, keep=None):
        """ids: [B, T] int64 -> logits [B, T, V], router logits [L, B, T, G]."""
        B, T = ids.shape
        if keep is None:
            keep = torch.ones(B, self.c.n_group)
        mask = torch.full((T, T), float("-inf")).triu(1)
        cos, sin = self.cos[:T], self.sin[:T]
        x = self.tok_emb(ids)
        routers = []
        for blk in self.blocks:
            x, r = blk(x, cos, sin, mask, keep)
            routers.append(r)
        return self.out(self.norm(x)), torch.stack(routers)

    @staticmethod
    def gates(router_logits):
        """[L, B, T, G] router logits -> effective gates (position 0 zeroed), same shape."""
        g = router_logits.softmax(-1)
        g[:, :, 0] = 0
        return g
