#!/usr/bin/env python3
"""Writes the hand-made malformed GGUF files in this folder (run once; the files are committed).

Each file breaks one rule of the format; tests/engine/gguf/test_gguf_malformed.cpp lists the
error message each must produce. Layout written here, little-endian:
  "GGUF" u32 version u64 n_tensors u64 n_kv, then key/values, tensor infos, padding, data.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def s(text):
    b = text.encode()
    return struct.pack('<Q', len(b)) + b


def kv_u32(key, v):
    return s(key) + struct.pack('<II', 4, v)


def kv_str(key, v):
    return s(key) + struct.pack('<I', 8) + s(v)


def tensor(name, ne, ttype, offset):
    out = s(name) + struct.pack('<I', len(ne))
    for d in ne:
        out += struct.pack('<Q', d)
    return out + struct.pack('<IQ', ttype, offset)


def gguf(kvs, tensors, data=b'', version=3, n_tensors=None, n_kv=None, align=32):
    head = b'GGUF' + struct.pack('<IQQ', version,
                                 len(tensors) if n_tensors is None else n_tensors,
                                 len(kvs) if n_kv is None else n_kv)
    body = head + b''.join(kvs) + b''.join(tensors)
    body += b'\0' * ((-len(body)) % align)
    return body + data


ARCH = kv_str('general.architecture', 'llama')
GOOD = gguf([ARCH], [tensor('w', [8], 0, 0)], data=b'\0' * 32)

FILES = {
    'wrong_magic.gguf': b'GGML' + GOOD[4:],
    'truncated_header.gguf': GOOD[:14],
    'truncated_data.gguf': GOOD[:-8],
    'version_99.gguf': gguf([ARCH], [], version=99),
    'absurd_kv_count.gguf': gguf([ARCH], [], n_kv=1 << 60),
    'absurd_tensor_count.gguf': gguf([ARCH], [], n_tensors=1 << 62),
    'string_past_end.gguf': b'GGUF' + struct.pack('<IQQ', 3, 0, 1) + struct.pack('<Q', 1 << 40) + b'general',
    'array_count_too_large.gguf': gguf([s('tokenizer.ggml.tokens') + struct.pack('<IIQ', 9, 8, 1 << 50)], []),
    'unknown_value_type.gguf': gguf([s('general.x') + struct.pack('<II', 77, 0)], []),
    'duplicate_key.gguf': gguf([ARCH, ARCH], []),
    'duplicate_tensor.gguf': gguf([ARCH], [tensor('w', [8], 0, 0), tensor('w', [8], 0, 32)], data=b'\0' * 64),
    'dims_overflow.gguf': gguf([ARCH], [tensor('w', [1 << 40, 1 << 40], 0, 0)], data=b'\0' * 32),
    'zero_dim_overflow.gguf': gguf([ARCH], [tensor('w', [0, 1 << 40, 1 << 40], 0, 0)]),
    'too_many_dims.gguf': gguf([ARCH], [tensor('w', [1, 1, 1, 1, 1], 0, 0)], data=b'\0' * 32),
    'unknown_tensor_type.gguf': gguf([ARCH], [tensor('w', [8], 200, 0)], data=b'\0' * 32),
    'misaligned_offset.gguf': gguf([ARCH], [tensor('w', [8], 0, 4)], data=b'\0' * 64),
    'offset_past_end.gguf': gguf([ARCH], [tensor('w', [8], 0, 1 << 20)], data=b'\0' * 32),
    'row_not_block_multiple.gguf': gguf([ARCH], [tensor('w', [33], 8, 0)], data=b'\0' * 64),
    'bad_alignment.gguf': gguf([ARCH, kv_u32('general.alignment', 24)], [tensor('w', [8], 0, 0)], data=b'\0' * 32),
    'nested_too_deep.gguf': gguf([s('general.deep') + struct.pack('<I', 9) +
                                  struct.pack('<IQ', 9, 1) * 20 + struct.pack('<IQ', 4, 0)], []),
}

if __name__ == '__main__':
    for name, data in FILES.items():
        with open(os.path.join(HERE, name), 'wb') as f:
            f.write(data)
    print(f'wrote {len(FILES)} files')
