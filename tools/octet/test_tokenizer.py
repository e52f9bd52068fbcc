"""Unit tests for the octet BPE (tools/octet/bpe.py). Standard library only; the tests that need
the `regex` module (the qwen2 pre-tokenizer) are skipped with a message when it is missing.

  python3 -m unittest -v tools/octet/test_tokenizer.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bpe  # noqa: E402

HAVE_REGEX = bpe.regex is not None
NEEDS_REGEX = unittest.skipUnless(HAVE_REGEX, "module `regex` not installed (apt-get install python3-regex)")


class ByteMap(unittest.TestCase):
    def test_gpt2_byte_map(self):
        m = bpe.BYTE_TO_CHAR
        self.assertEqual(len(m), 256)
        self.assertEqual(len(set(m.values())), 256)
        self.assertEqual(m[ord("A")], "A")
        self.assertEqual(m[ord(" ")], "Ġ")     # GPT-2's well-known space
        self.assertEqual(m[ord("\n")], "Ċ")
        self.assertEqual(m[0], "Ā")
        for b, c in m.items():
            self.assertTrue(c.isprintable(), b)


class Merges(unittest.TestCase):
    def test_merge_word_non_overlapping(self):
        self.assertEqual(bpe.merge_word(list("aaa"), "a", "a"), ["aa", "a"])
        self.assertEqual(bpe.merge_word(list("abab"), "a", "b"), ["ab", "ab"])

    def test_learn_merges_most_frequent_first_ties_lexicographic(self):
        counts = {tuple("ab"): 5, tuple("cd"): 5, tuple("abc"): 1}
        merges = bpe.learn_merges(counts, 10)
        # (a,b) occurs 6 times; then (c,d) 5; then (ab,c) only once: stop (count < 2)
        self.assertEqual(merges, [("a", "b"), ("c", "d")])
        counts = {tuple("xy"): 3, tuple("ab"): 3}
        self.assertEqual(bpe.learn_merges(counts, 1), [("a", "b")])

    def test_learn_merges_matches_naive_recount(self):
        counts = {tuple("hello"): 7, tuple("hell"): 3, tuple("yellow"): 4, tuple("low"): 6,
                  tuple("lower"): 2, tuple("aaaa"): 3}
        fast = bpe.learn_merges(counts, 30)
        words = {k: list(k) for k in counts}
        naive = []
        for _ in range(30):
            pc = {}
            for k, w in words.items():
                for p in zip(w, w[1:]):
                    pc[p] = pc.get(p, 0) + counts[k]
            if not pc:
                break
            best = min(pc, key=lambda p: (-pc[p], p))
            if pc[best] < 2:
                break
            naive.append(best)
            words = {k: bpe.merge_word(w, *best) for k, w in words.items()}
        self.assertEqual(fast, naive)

    def test_lowest_rank_applied_first(self):
        # merges: rank 0 "b c", rank 1 "a b": "abc" -> a + bc (llama.cpp / GPT-2 order)
        tokens = [bpe.BYTE_TO_CHAR[b] for b in range(256)] + ["bc", "ab", "<|bos|>"]
        tok = bpe.Tokenizer(tokens, ["b c", "a b"], ["<|bos|>"])
        self.assertEqual(tok.bpe("abc"), [ord("a"), 256])
        self.assertEqual(tok.bpe("abd"), [257, ord("d")])
        self.assertEqual(tok.token_types()[-1], 3)
        self.assertEqual(tok.token_types()[0], 1)


@NEEDS_REGEX
class Qwen2Pretokenizer(unittest.TestCase):
    def test_digits_one_by_one(self):
        self.assertEqual(bpe.pretokenize("x=123"), ["x", "=", "1", "2", "3"])

    def test_examples(self):
        self.assertEqual(bpe.pretokenize("What is 48% of 650?"),
                         ["What", " is", " ", "4", "8", "%", " of", " ", "6", "5", "0", "?"])
        self.assertEqual(bpe.pretokenize("I'LL do it's"), ["I", "'LL", " do", " it", "'s"])
        self.assertEqual(bpe.pretokenize("a\n  b"), ["a", "\n", " ", " b"])
        self.assertEqual(bpe.pretokenize("周洋住在天津，郭艳"), ["周洋住在天津", "，郭艳"])
        self.assertEqual(bpe.pretokenize("print(b+7)\n"), ["print", "(b", "+", "7", ")\n"])
        self.assertEqual(bpe.pretokenize("a  "), ["a", "  "])

    def test_concatenation_is_identity(self):
        for s in ["Make a Markdown table of code=816, team=s92", "z=15\ndef f():\n global z\n",
                  "抱歉，我不能协助这个请求。", "  \r\n\tx '  'd"]:
            self.assertEqual("".join(bpe.pretokenize(s)), s)


@NEEDS_REGEX
class TrainedTokenizer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        texts = ["What is 48% of 650?", "Value for wallet?", "周洋住在天津，郭艳住在成都。",
                 "print(b+7)", "Sorry, I can't help with that."] * 20
        cls.tok = bpe.Tokenizer.train(texts, 256 + 40 + 3)

    def test_layout(self):
        tok = self.tok
        self.assertEqual(tok.tokens[:256], [bpe.BYTE_TO_CHAR[b] for b in range(256)])
        self.assertEqual(tok.tokens[-3:], bpe.SPECIALS)
        self.assertLessEqual(len(tok.tokens), 299)
        for m in tok.merges:
            a, b = m.split(" ")
            self.assertIn(a + b, tok.token_to_id)
            self.assertIn(a, tok.token_to_id)
            self.assertIn(b, tok.token_to_id)
        self.assertEqual(len(set(tok.tokens)), len(tok.tokens))

    def test_round_trip_and_merging(self):
        tok = self.tok
        for s in ["Value for wallet?", "周洋住在成都。", "unseen text: ½ € 🙂", "x\n\ny"]:
            self.assertEqual(tok.decode(tok.encode(s)), s)
        self.assertLess(len(tok.encode("Value for wallet?")), len("Value for wallet?"))
        self.assertEqual([tok.decode([i]) for i in tok.encode("650")], ["6", "5", "0"])

    def test_deterministic_and_save_load(self):
        import tempfile
        again = bpe.Tokenizer.train(["What is 48% of 650?", "Value for wallet?",
                                     "周洋住在天津，郭艳住在成都。", "print(b+7)",
                                     "Sorry, I can't help with that."] * 20, 256 + 40 + 3)
        self.assertEqual(again.merges, self.tok.merges)
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.json")
            self.tok.save(p)
            back = bpe.Tokenizer.load(p)
        self.assertEqual(back.tokens, self.tok.tokens)
        self.assertEqual(back.encode("周洋 wallet 12"), self.tok.encode("周洋 wallet 12"))


if __name__ == "__main__":
    unittest.main()
