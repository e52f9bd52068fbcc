"""Byte-level BPE for octet: training, encoding, decoding (GPT-2 / llama.cpp semantics).

Token texts use GPT-2's byte-to-unicode map (every byte is one printable character), merges are
"a b" strings, and text is first split by the qwen2 pre-tokenizer regex (digits one by one).
Encoding repeatedly merges the adjacent pair with the lowest merge rank, as llama.cpp does.

The pre-tokenizer needs the third-party `regex` module (Debian: python3-regex) for \\p{L} and
\\p{N}; everything else here is standard library. Vocabulary layout (ids):
  0..255           the 256 byte tokens, in byte order (id b = byte b)
  256..             one token per distinct merge result, in merge order
  then             the special (control) tokens, in the order given to train()
"""
import heapq
import json
from collections import Counter, defaultdict

try:
    import regex
except ImportError:  # the encoder needs it; tests skip when it is missing
    regex = None

# qwen2's pre-tokenizer, as in llama.cpp (LLAMA_VOCAB_PRE_TYPE_QWEN2).
QWEN2_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
                 r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")

SPECIALS = ["<|bos|>", "<|eos|>", "<|answer|>"]


def bytes_to_unicode():
    """GPT-2's map: byte value (0..255) -> one printable unicode character."""
    keep = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
            + list(range(ord("®"), ord("ÿ") + 1)))
    chars = list(keep)
    n = 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(keep, chars)}


BYTE_TO_CHAR = bytes_to_unicode()
CHAR_TO_BYTE = {c: b for b, c in BYTE_TO_CHAR.items()}

_compiled = None


def pretokenize(text):
    """str -> list of str pieces (the qwen2 split); concatenation gives back `text`."""
    global _compiled
    if regex is None:
        raise RuntimeError("the octet tokenizer needs the `regex` module (apt-get install python3-regex)")
    if _compiled is None:
        _compiled = regex.compile(QWEN2_PATTERN)
    return _compiled.findall(text)


def to_symbols(piece):
    """str piece -> list of byte-characters (one per UTF-8 byte)."""
    return [BYTE_TO_CHAR[b] for b in piece.encode("utf-8")]


def learn_merges(word_counts, n_merges):
    """Learns up to n_merges merges from {tuple_of_symbols: count}.

    Each step merges the most frequent adjacent pair (ties: the lexicographically smallest pair),
    counting pairs within words weighted by the word's count. Stops early when no pair occurs
    at least twice. Returns a list of (a, b) pairs in rank order.
    """
    words = [list(w) for w in sorted(word_counts)]
    freq = [word_counts[tuple(w)] for w in words]
    pair_count = defaultdict(int)      # (a, b) -> weighted occurrences
    where = defaultdict(set)           # (a, b) -> indices of words containing it
    for i, w in enumerate(words):
        for p in zip(w, w[1:]):
            pair_count[p] += freq[i]
            where[p].add(i)
    heap = [(-c, p) for p, c in pair_count.items()]
    heapq.heapify(heap)
    merges = []
    while len(merges) < n_merges and heap:
        negc, p = heapq.heappop(heap)
        if pair_count.get(p, 0) != -negc:
            continue  # stale entry
        if -negc < 2:
            break
        merges.append(p)
        a, b = p
        touched = set()
        for i in sorted(where.pop(p, ())):
            w = words[i]
            for q in zip(w, w[1:]):
                pair_count[q] -= freq[i]
                touched.add(q)
            new = merge_word(w, a, b)
            words[i] = new
            for q in zip(new, new[1:]):
                pair_count[q] += freq[i]
                where[q].add(i)
                touched.add(q)
        pair_count.pop(p, None)
        touched.discard(p)
        for q in sorted(touched):
            c = pair_count.get(q, 0)
            if c > 0:
                heapq.heappush(heap, (-c, q))
            else:
                pair_count.pop(q, None)
    return merges


def merge_word(w, a, b):
    """Replaces every non-overlapping (a, b) in list w, left to right, by a+b."""
    out = []
    i = 0
    while i < len(w):
        if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(w[i])
            i += 1
    return out


class Tokenizer:
    """tokens: list of token texts (id -> text); merges: list of "a b"; specials: names."""

    def __init__(self, tokens, merges, specials):
        self.tokens = list(tokens)
        self.merges = list(merges)
        self.specials = list(specials)
        self.token_to_id = {t: i for i, t in enumerate(self.tokens)}
        self.rank = {tuple(m.split(" ")): r for r, m in enumerate(self.merges)}
        self.special_ids = {s: self.token_to_id[s] for s in self.specials}
        self._cache = {}

    @classmethod
    def train(cls, texts, vocab_size, specials=SPECIALS):
        """texts: iterable of str. vocab_size counts bytes + merges + specials."""
        counts = Counter()
        for t in texts:
            for piece in pretokenize(t):
                counts[tuple(to_symbols(piece))] += 1
        n_merges = vocab_size - 256 - len(specials)
        merges = learn_merges(counts, n_merges)
        tokens = [BYTE_TO_CHAR[b] for b in range(256)]
        seen = set(tokens)
        for a, b in merges:  # two merges can make the same text: one token for both
            if a + b not in seen:
                seen.add(a + b)
                tokens.append(a + b)
        tokens += list(specials)
        return cls(tokens, [a + " " + b for a, b in merges], specials)

    def token_types(self):
        """GGUF token_type per id: 1 normal, 3 control (the specials)."""
        return [3 if t in self.special_ids else 1 for t in self.tokens]

    def bpe(self, piece):
        """One pre-token (str) -> list of token ids, lowest-rank merge first."""
        hit = self._cache.get(piece)
        if hit is not None:
            return hit
        w = to_symbols(piece)
        while len(w) > 1:
            best = None
            for p in zip(w, w[1:]):
                r = self.rank.get(p)
                if r is not None and (best is None or r < best[0]):
                    best = (r, p)
            if best is None:
                break
            w = merge_word(w, *best[1])
        ids = [self.token_to_id[s] for s in w]
        self._cache[piece] = ids
        return ids

    def encode(self, text):
        """Plain text (no special-token parsing) -> list of ids."""
        ids = []
        for piece in pretokenize(text):
            ids.extend(self.bpe(piece))
        return ids

    def decode(self, ids):
        """ids -> str; special tokens decode to their names."""
        out = bytearray()
        for i in ids:
            t = self.tokens[i]
            if t in self.special_ids:
                out.extend(t.encode("utf-8"))
            else:
                out.extend(CHAR_TO_BYTE[c] for c in t)
        return out.decode("utf-8", errors="replace")

    def to_json(self):
        return {"tokens": self.tokens, "merges": self.merges, "specials": self.specials}

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_json(), f, ensure_ascii=False)

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        return cls(d["tokens"], d["merges"], d["specials"])
