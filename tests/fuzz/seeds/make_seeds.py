#!/usr/bin/env python3
"""Writes the fuzz seed corpus in this folder (run once; the files are committed):
small but valid GGUF files that reach every stage the fuzz target drives — a tiny `llama`
model with a SentencePiece-style vocabulary, a vocab-only `gpt2` file with merges, a tensor of
every weight type; and for fuzz_run_spec a run's settings with every field set, and a session as
the first autosave wrote it; for fuzz_workbench_files an autosave of each version, a crash marker
and the examples file; for fuzz_conversation_file conversation files as the workbench saves them
and as a chat request holds them."""
import json
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
    for tensor in tensors:
        name, ne, values = tensor[:3]
        # (name, ne, float values) is an F32 tensor; (name, ne, bytes, type id) any other
        ggml_type, payload = (tensor[3], values) if len(tensor) == 4 else (0, struct.pack(f'<{len(values)}f', *values))
        infos += s(name) + struct.pack('<I', len(ne)) + b''.join(struct.pack('<Q', d) for d in ne)
        infos += struct.pack('<IQ', ggml_type, len(data))
        data += payload
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


# Every quantised type as (ggml id, values per block, bytes per block): one 256 x 2 tensor each,
# with pseudo-random bytes, so the fuzzer reaches every dequantiser from its first input.
BLOCK_TYPES = {
    'q4_0': (2, 32, 18), 'q4_1': (3, 32, 20), 'q5_0': (6, 32, 22), 'q5_1': (7, 32, 24), 'q8_0': (8, 32, 34),
    'q2_k': (10, 256, 84), 'q3_k': (11, 256, 110), 'q4_k': (12, 256, 144), 'q5_k': (13, 256, 176),
    'q6_k': (14, 256, 210), 'iq2_xxs': (16, 256, 66), 'iq2_xs': (17, 256, 74), 'iq3_xxs': (18, 256, 98),
    'iq1_s': (19, 256, 50), 'iq4_nl': (20, 32, 18), 'iq3_s': (21, 256, 110), 'iq2_s': (22, 256, 82),
    'iq4_xs': (23, 256, 136), 'iq1_m': (29, 256, 56), 'tq1_0': (34, 256, 54), 'tq2_0': (35, 256, 66),
    'mxfp4': (39, 32, 17),
}


def every_weight_type():
    state = 12345
    def noise(n):
        nonlocal state
        out = bytearray()
        for _ in range(n):
            state = (state * 1103515245 + 12345) % (1 << 31)
            out.append((state >> 16) & 0xff)
        return bytes(out)
    kvs = [kv('general.architecture', STR, s('llama'))]
    tensors = []
    for name, (type_id, block, size) in BLOCK_TYPES.items():
        tensors.append((f'{name}.weight', [256, 2], noise(2 * 256 // block * size), type_id))
    return gguf(kvs, tensors)


def run_spec_text(settings):
    """fuzz_run_spec's input for a run's settings as JSON text: a 0 byte, then the text."""
    return b'\x00' + json.dumps(settings, ensure_ascii=False).encode()


# Every field of a RunSpec changed from its default (docs/capture-format.md, "settings").
FULL_RUN_SPEC = {
    'prompt': 'What is 35% of 240?', 'chat': True, 'system': 'be brief', 'parse_special': False,
    'enable_thinking': True, 'messages': [{'role': 'system', 'content': 's'}, {'role': 'user', 'content': 'u'},
                                          {'role': 'assistant', 'content': 'a'}, {'role': 'user', 'content': 'u2'}],
    'stop_strings': ['\n\n', 'END'], 'max_tokens': 17, 'stop_at_eog': False, 'temperature': 0.5, 'seed': 4242,
    'top_k': 40, 'top_p': 0.75, 'repeat_penalty': 1.25, 'repeat_last_n': 32, 'top_logprobs': 9,
    'disabled': [False, False, True, False, False, False, False, True], 'ablation_mode': 'mean', 'dla': True,
    'record_attention': False, 'disabled_experts': ['3:5', '*:2'], 'record_router_probs': True,
    'switch_target': 'experts', 'n_ctx': 256, 'threads': 3, 'precision': 'reference'}

# A session as the first autosave wrote it (docs/autosave.md).
FIRST_SESSION = {
    'model': '/m.gguf', 'prompt': 'old', 'chat': True, 'system': 'sys', 'max_tokens': 17, 'temperature': 0.5,
    'seed': 4242, 'top_p': 0.9, 'top_k': 40, 'dla': True, 'record_attention': False,
    'disabled': [False, True, False, False, False, False, False, False], 'ablation_mode': 'mean',
    'metric': 'relative', 'precision': 'default'}


def workbench_file(kind, data):
    """fuzz_workbench_files' input: the file's kind (0 autosave, 1 marker, 2 examples, 3 session index), then its bytes."""
    return bytes([kind]) + data


def autosave(version, session):
    return workbench_file(0, json.dumps({'format': 'octoscope-autosave', 'version': version,
                                         'saved_at': '2026-12-07T03:00:00.000Z', 'session': session},
                                        ensure_ascii=False, indent=4).encode())


CONVERSATION = [
    {'role': 'system', 'content': 'You answer in one sentence.'},
    {'role': 'developer', 'content': [{'type': 'text', 'text': 'Be '}, {'type': 'text', 'text': 'kind.'}]},
    {'role': 'user', 'content': 'What is the weather in Paris? 天气如何？'},
    {'role': 'assistant', 'content': None, 'tool_calls': [
        {'id': 'call_1', 'type': 'function', 'function': {'name': 'get_weather', 'arguments': '{"city": "Paris"}'}}]},
    {'role': 'tool', 'tool_call_id': 'call_1', 'name': 'get_weather', 'content': '{"temp": 21}'},
    {'role': 'assistant', 'content': 'It is 21 °C in Paris.'},
]


if __name__ == '__main__':
    seeds = {'tiny_llama.gguf': tiny_llama(), 'tiny_gpt2_vocab.gguf': tiny_gpt2_vocab(),
             'every_weight_type.gguf': every_weight_type(), 'run_spec_text_full.bin': run_spec_text(FULL_RUN_SPEC),
             'run_spec_text_session.bin': run_spec_text(FIRST_SESSION),
             'workbench_autosave_v2.bin': autosave(2, dict(FULL_RUN_SPEC, model='/models/octet.gguf', metric='dla',
                                                            conversation=CONVERSATION[2:])),
             'workbench_autosave_v1.bin': autosave(1, {('ablation' if k == 'ablation_mode' else k): v
                                                       for k, v in FIRST_SESSION.items()}),
             'workbench_marker.bin': workbench_file(1, b'{"pid":4242,"started_at":"2026-12-07T02:59:58.123Z"}'),
             'workbench_examples.bin': workbench_file(2, open(os.path.join(
                 HERE, '..', '..', '..', 'resources', 'examples', 'octet_examples.json'), 'rb').read()),
             'workbench_session_index.bin': workbench_file(3, json.dumps({
                 'format': 'octoscope-session', 'version': 1, 'exported_at': '2026-12-07T08:00:00.125Z', 'app_version': '0.1.0',
                 'runs': [{'file': 'run-001.octo', 'name': 'baseline', 'pinned': False},
                          {'file': 'run-002.octo', 'name': '', 'pinned': True}],
                 'skipped': ['#3: the run is still going']}, indent=4).encode()),
             'conversation_saved.json': (json.dumps({'messages': CONVERSATION}, ensure_ascii=False, indent=2) + '\n').encode(),
             'conversation_bare.json': json.dumps(CONVERSATION[2:4] + [{'role': 'user', 'content': 'Thanks'}]).encode()}
    for name, data in seeds.items():
        with open(os.path.join(HERE, name), 'wb') as f:
            f.write(data)
    print(f'wrote {len(seeds)} seeds')
