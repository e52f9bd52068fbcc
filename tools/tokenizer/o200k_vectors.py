#!/usr/bin/env python3
"""Writes tests/data/tokenizer/o200k_pretokenizer.json: texts and the pieces tiktoken's published
o200k_base expression splits them into, computed here with the third-party `regex` module (which
has the Unicode categories and scoped flags the expression uses). The test
PreTokenizer.Gpt4oMatchesThePublishedExpression checks the engine's "gpt-4o" rules against it.

Run: python3 tools/tokenizer/o200k_vectors.py   (needs `regex`: pip install regex, or Debian's python3-regex)
"""
import json
import pathlib

import regex

# o200k_base, as published with tiktoken (and in the gpt-oss tokenizer.json)
PATTERN = (
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
    r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)

TEXTS = [
    "Hello world", "HELLO World's", "I'LL go, you'Re here", "camelCaseWords andMORE", "PDFFile parser",
    "12345 67", "x=1.25e-3;", "a   b", "line1\n\nline2\r\n", "path/to/file.txt\n/usr", "don't DON'T",
    "caf\u00e9 na\u00efve \u00c9cole", "e\u0301t\u00e9", "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8",
    "\u0645\u0631\u062d\u0628\u0627 123", "\u00dcBER\u00e4ber", "\u01c5ungla", "\u02b0aspirated", "...hmm!!\n\n",
    "  leading spaces", "tab\tsep\tvalues", "emoji \U0001F600\U0001F600 ok",
    "\u0391\u03b8\u03ae\u03bd\u03b1 \u039a\u0391\u039b\u0397", "<|start|>user<|message|>Hi", "'s alone",
    "x 1234567 y", "MixedUPPERlower", "\u00bd and \u2154", "--flag=VALUE", "a\u3000b",
]


def main():
    vectors = []
    for text in TEXTS:
        pieces = regex.findall(PATTERN, text)
        assert "".join(pieces) == text, text  # the expression matches every character
        vectors.append({"text": text, "pieces": pieces})
    out = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tokenizer" / "o200k_pretokenizer.json"
    out.write_text(json.dumps(vectors, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(vectors)} texts to {out}")


if __name__ == "__main__":
    main()
