"""Minimal GGUF v3 writer and reader (standard library only), little-endian, alignment 32.

Layout written: magic "GGUF", u32 version 3, u64 tensor count, u64 metadata count, the
metadata (key string, u32 type, value), the tensor infos (name, u32 n_dims, u64 ne[n_dims],
u32 type, u64 offset from the data start), zero padding to the alignment, then the tensor data,
each tensor starting at a multiple of the alignment. Strings are u64 byte length + UTF-8 bytes.

Tensor shapes are given GGUF-style: ne[0] is the fastest-varying (input) dimension, so a torch
Linear weight of shape [out, in] is written with ne = [in, out] and its row-major bytes as is.
"""
import struct

GGUF_MAGIC = b"GGUF"
GGUF_VERSION = 3
ALIGNMENT = 32

# metadata value types
UINT8, INT8, UINT16, INT16, UINT32, INT32, FLOAT32, BOOL, STRING, ARRAY, UINT64, INT64, FLOAT64 = range(13)
_SCALAR_FMT = {UINT8: "<B", INT8: "<b", UINT16: "<H", INT16: "<h", UINT32: "<I", INT32: "<i",
               FLOAT32: "<f", BOOL: "<?", UINT64: "<Q", INT64: "<q", FLOAT64: "<d"}

# tensor types
F32, F16 = 0, 1
_TYPE_SIZE = {F32: 4, F16: 2}


def _string(s):
    b = s.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def _value(vtype, value):
    if vtype == STRING:
        return _string(value)
    if vtype == ARRAY:
        etype, items = value
        out = struct.pack("<IQ", etype, len(items))
        return out + b"".join(_value(etype, v) for v in items)
    return struct.pack(_SCALAR_FMT[vtype], value)


def _pad(n, align=ALIGNMENT):
    return (align - n % align) % align


class GGUFWriter:
    def __init__(self):
        self.kv = []       # (key, type, value)
        self.tensors = []  # (name, ne list, ttype, bytes)

    def add(self, key, vtype, value):
        """Scalar: add(key, UINT32, 5); string: add(key, STRING, "x");
        array: add(key, ARRAY, (element_type, [values]))."""
        if any(k == key for k, _, _ in self.kv):
            raise ValueError("duplicate key " + key)
        self.kv.append((key, vtype, value))

    def add_tensor(self, name, ne, ttype, data):
        """ne: GGUF dims (ne[0] fastest); data: raw little-endian bytes of ttype."""
        n = 1
        for d in ne:
            n *= d
        if len(data) != n * _TYPE_SIZE[ttype]:
            raise ValueError(f"{name}: {len(data)} bytes for ne={ne} type={ttype}")
        if any(t[0] == name for t in self.tensors):
            raise ValueError("duplicate tensor " + name)
        self.tensors.append((name, list(ne), ttype, bytes(data)))

    def to_bytes(self):
        out = bytearray(GGUF_MAGIC)
        out += struct.pack("<IQQ", GGUF_VERSION, len(self.tensors), len(self.kv))
        for key, vtype, value in self.kv:
            out += _string(key) + struct.pack("<I", vtype) + _value(vtype, value)
        offset = 0
        for name, ne, ttype, data in self.tensors:
            out += _string(name) + struct.pack("<I", len(ne))
            out += b"".join(struct.pack("<Q", d) for d in ne)
            out += struct.pack("<IQ", ttype, offset)
            offset += len(data) + _pad(len(data))
        out += b"\0" * _pad(len(out))
        for _, _, _, data in self.tensors:
            out += data + b"\0" * _pad(len(data))
        return bytes(out)

    def write(self, path):
        with open(path, "wb") as f:
            f.write(self.to_bytes())


def read_gguf(blob):
    """bytes -> (metadata dict key -> value, tensors dict name -> (ne, ttype, bytes)).
    Arrays come back as Python lists. Used by the tests and the exporter's self-check."""
    pos = 0

    def take(fmt):
        nonlocal pos
        v = struct.unpack_from(fmt, blob, pos)
        pos += struct.calcsize(fmt)
        return v[0] if len(v) == 1 else v

    def string():
        nonlocal pos
        n = take("<Q")
        s = blob[pos:pos + n].decode("utf-8")
        pos += n
        return s

    def value(vtype):
        if vtype == STRING:
            return string()
        if vtype == ARRAY:
            etype, n = take("<I"), take("<Q")
            return [value(etype) for _ in range(n)]
        return take(_SCALAR_FMT[vtype])

    if blob[:4] != GGUF_MAGIC:
        raise ValueError("not GGUF")
    pos = 4
    version, n_tensors, n_kv = take("<I"), take("<Q"), take("<Q")
    if version != GGUF_VERSION:
        raise ValueError(f"version {version}")
    meta = {}
    for _ in range(n_kv):
        key = string()
        meta[key] = value(take("<I"))
    infos = []
    for _ in range(n_tensors):
        name = string()
        nd = take("<I")
        ne = [take("<Q") for _ in range(nd)]
        infos.append((name, ne, take("<I"), take("<Q")))
    align = meta.get("general.alignment", ALIGNMENT)
    start = pos + _pad(pos, align)
    tensors = {}
    for name, ne, ttype, off in infos:
        n = 1
        for d in ne:
            n *= d
        size = n * _TYPE_SIZE[ttype]
        if (start + off) % align:
            raise ValueError(name + " misaligned")
        tensors[name] = (ne, ttype, blob[start + off:start + off + size])
    return meta, tensors
