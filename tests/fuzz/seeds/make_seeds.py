#!/usr/bin/env python3
"""Writes the fuzz seed corpus in this folder (run once; the files are committed):
small but valid GGUF files that reach every stage the fuzz target drives — a tiny `llama`
model with a SentencePiece-style vocabulary, and a vocab-only `gpt2` file with merges."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
U32, I32, F32, BOOL, STR, ARR = 4, 5, 6, 7, 8, 9


def s(text):
    b = text.encode()
    return struct.pack('<Q', len(b)) + b


def kv(key, vtype, payload):
    return s(key) + struct.pack('<I', vtype) + payload


def arr(etype, items):
    out = struct.pack('<IQ', etype, len(items))
    for it in items:
        if etype == STR:
            out += s(it)
        elif etype == F32:
            out += struct.pack('<f', it)
        else:
            out += struct.pack('<i', it)
    return out


def gguf(kvs, tensors):
    head = b'GGUF' + struct.pack('<IQQ', 3, len(tensors), len(kvs))
    infos, data = b'', b''
    for name, ne, values in tensors:
        infos += s(name) + struct.pack('<I', len(ne)) + b''.join(struct.pack('<Q', d) for d in ne)
        infos += struct.pack('<IQ', 0, len(data))
        data += struct.pack(f'<{len(values)}f', *values)
        data += b'\0' * ((-len(data)) % 32)
    body = head + b''.join(kvs) + infos
    return body + b'\0' * ((-len(body)) % 32) + data


def tiny_llama():
    tokens = ['<unk>', '<s>', '</s>', '<0x0A>', '\u2581a', '\u2581b', 'a', 'b']
    n_embd, n_ff, n_vocab = 8, 16, len(tokens)
    kvs = [
        kv('general.architecture', STR, s('llama')),
        kv('llama.block_count', U32, struct.pack('<I', 1)),
        kv('llama.context_length', U32, struct.pack('<I', 32)),
        kv('llama.embedding_length', U32, struct.pack('<I', n_embd)),
        kv('llama.feed_forward_length', U32, struct.pack('<I', n_ff)),
        kv('llama.attention.head_count', U32, struct.pack('<I', 2)),
        kv('llama.attention.head_count_kv', U32, struct.pack('<I', 1)),
        kv('llama.attention.layer_norm_rms_epsilon', F32, struct.pack('<f', 1e-5)),
        kv('tokenizer.ggml.model', STR, s('llama')),
        kv('tokenizer.ggml.tokens', ARR, arr(STR, tokens)),
        kv('tokenizer.ggml.scores', ARR, arr(F32, [0.0, 0.0, 0.0, 0.0, -1.0, -2.0, -3.0, -4.0])),
        kv('tokenizer.ggml.token_type', ARR, arr(I32, [2, 3, 3, 6, 1, 1, 1, 1])),
        kv('tokenizer.ggml.bos_token_id', U32, struct.pack('<I', 1)),
        kv('tokenizer.ggml.eos_token_id', U32, struct.pack('<I', 2)),
        kv('tokenizer.ggml.add_bos_token', BOOL, b'\x01'),
    ]
    head_dim, n_kv = n_embd // 2, n_embd // 2
    def w(*ne):
        n = 1
        for d in ne:
            n *= d
        return [((i * 7) % 13 - 6) / 10.0 for i in range(n)]
    tensors = [
        ('token_embd.weight', [n_embd, n_vocab], w(n_embd, n_vocab)),
        ('output_norm.weight', [n_embd], [1.0] * n_embd),
        ('blk.0.attn_norm.weight', [n_embd], [1.0] * n_embd),
        ('blk.0.attn_q.weight', [n_embd, n_embd], w(n_embd, n_embd)),
        ('blk.0.attn_k.weight', [n_embd, n_kv], w(n_embd, n_kv)),
        ('blk.0.attn_v.weight', [n_embd, n_kv], w(n_embd, n_kv)),
        ('blk.0.attn_output.weight', [n_embd, n_embd], w(n_embd, n_embd)),
        ('blk.0.ffn_norm.weight', [n_embd], [1.0] * n_embd),
        ('blk.0.ffn_gate.weight', [n_embd, n_ff], w(n_embd, n_ff)),
        ('blk.0.ffn_up.weight', [n_embd, n_ff], w(n_embd, n_ff)),
        ('blk.0.ffn_down.weight', [n_ff, n_embd], w(n_ff, n_embd)),
    ]
    assert head_dim == 4
    return gguf(kvs, tensors)


def tiny_gpt2_vocab():
    # Byte-level symbols: 'Ġ' is the space byte 0x20 in GPT-2's byte-to-unicode map.
    tokens = ['<|endoftext|>', 'h', 'e', 'l', 'o', '\u0120', 'he', 'll', 'hell', 'hello', '\u0120hello']
    merges = ['h e', 'l l', 'he ll', 'hell o', '\u0120 hello']
    kvs = [
        kv('general.architecture', STR, s('gpt2')),
        kv('tokenizer.ggml.model', STR, s('gpt2')),
        kv('tokenizer.ggml.pre', STR, s('gpt-2')),
        kv('tokenizer.ggml.tokens', ARR, arr(STR, tokens)),
        kv('tokenizer.ggml.token_type', ARR, arr(I32, [3] + [1] * (len(tokens) - 1))),
        kv('tokenizer.ggml.merges', ARR, arr(STR, merges)),
        kv('tokenizer.ggml.bos_token_id', U32, struct.pack('<I', 0)),
        kv('tokenizer.ggml.eos_token_id', U32, struct.pack('<I', 0)),
    ]
    return gguf(kvs, [])


if __name__ == '__main__':
    for name, data in {'tiny_llama.gguf': tiny_llama(), 'tiny_gpt2_vocab.gguf': tiny_gpt2_vocab()}.items():
        with open(os.path.join(HERE, name), 'wb') as f:
            f.write(data)
    print('wrote 2 seeds')
