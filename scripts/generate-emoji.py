#!/usr/bin/python3
"""Generates the composer's emoji data: data/emoji.jsonl.

Sources (Debian packages, see scripts/debian-packages.txt):
  unicode-cldr-core  CLDR annotations: English and Japanese text-to-speech names and
                     keywords (common/annotations/{en,ja}.xml, plus annotationsDerived/
                     for skin tones, flags and keycaps)
  python3-emoji      which sequences are fully-qualified emoji, and their aliases
                     (EMOJI_DATA[...]["alias"], e.g. :smiley_cat: for 😺)

Deterministic: the output is sorted by code points and contains nothing that depends on
the machine, so every run writes the same bytes. A test (EmojiDataTests) regenerates
into a temporary directory and compares with the committed file; after changing this
script or upgrading the packages, run it and commit data/emoji.jsonl.

    /usr/bin/python3 scripts/generate-emoji.py            # writes <repo>/data/emoji.jsonl
    /usr/bin/python3 scripts/generate-emoji.py --out DIR  # writes DIR/emoji.jsonl

One JSON object per line, fields in this order:
  id         the code points of the fully-qualified sequence, lowercase hex joined by "-"
             ("1f431", "1f44d-1f3fb")
  char       the emoji itself, fully qualified (with U+FE0F where it belongs)
  shortcodes without colons: the CLDR English short name in snake_case first
             ("cat_face"), then python3-emoji's aliases ("cat"), deduplicated, in order
  names      {"en": CLDR English name, "ja": CLDR Japanese name} ("" when CLDR has none)
  keywords   {"en": [...], "ja": [...]}: CLDR keywords, in CLDR's order, without the name

Included: every fully-qualified emoji of python3-emoji (not components such as a lone
skin tone) that CLDR names in English. Python 3 standard library plus python3-emoji only.
"""

import argparse
import json
import os
import re
import sys
import unicodedata
import xml.etree.ElementTree as ElementTree

import emoji

CLDR = "/usr/share/unicode/cldr/common"
VS16 = "\ufe0f"


def read_annotations(language):
    """{cp without U+FE0F: (tts name, [keywords])} from annotations + annotationsDerived."""
    result = {}
    for folder in ("annotations", "annotationsDerived"):
        path = os.path.join(CLDR, folder, language + ".xml")
        if not os.path.exists(path):
            continue
        for node in ElementTree.parse(path).getroot().iter("annotation"):
            cp = node.get("cp", "").replace(VS16, "")
            text = (node.text or "").strip()
            if not cp or not text or text == "↑↑↑":
                continue
            name, keywords = result.get(cp, ("", []))
            if node.get("type") == "tts":
                name = text
            else:
                keywords = [word.strip() for word in text.split("|") if word.strip()]
            result[cp] = (name, keywords)
    return result


def snake_case(name):
    """CLDR short name → shortcode: "cat face" → "cat_face", "flag: Côte d’Ivoire" → "flag_cote_divoire"."""
    text = unicodedata.normalize("NFKD", name.lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("’", "").replace("'", "").replace("&", " and ")
    text = text.replace("#", " hash ").replace("*", " asterisk ")
    return re.sub(r"[^0-9a-z]+", "_", text).strip("_")


def dedupe(items):
    seen = set()
    result = []
    for item in items:
        if item and item not in seen:
            seen.add(item)
            result.append(item)
    return result


def emoji_entries():
    english = read_annotations("en")
    japanese = read_annotations("ja")
    fully_qualified = emoji.STATUS["fully_qualified"]
    entries = []
    for char, data in emoji.EMOJI_DATA.items():
        if data.get("status") != fully_qualified:
            continue
        key = char.replace(VS16, "")
        if key not in english or not english[key][0]:
            continue
        en_name, en_keywords = english[key]
        ja_name, ja_keywords = japanese.get(key, ("", []))
        aliases = [alias.strip(":") for alias in data.get("alias", [])]
        entries.append({
            "id": "-".join("%x" % ord(scalar) for scalar in char),
            "char": char,
            "shortcodes": dedupe([snake_case(en_name)] + aliases),
            "names": {"en": en_name, "ja": ja_name},
            "keywords": {
                "en": dedupe(word for word in en_keywords if word != en_name),
                "ja": dedupe(word for word in ja_keywords if word != ja_name),
            },
        })
    entries.sort(key=lambda entry: [ord(scalar) for scalar in entry["char"]])
    return entries


def write_jsonl(path, entries):
    lines = [json.dumps(entry, ensure_ascii=False, separators=(", ", ": ")) + "\n" for entry in entries]
    with open(path, "wb") as handle:
        handle.write("".join(lines).encode("utf-8"))


def main(argv):
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description="Write emoji.jsonl from CLDR and python3-emoji.")
    parser.add_argument("--out", default=os.path.join(repo, "data"),
                        help="output directory (default: the repository's data/)")
    args = parser.parse_args(argv)
    if not os.path.isdir(os.path.join(CLDR, "annotations")):
        print("generate-emoji.py: %s/annotations is missing; apt-get install unicode-cldr-core" % CLDR,
              file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    entries = emoji_entries()
    write_jsonl(os.path.join(args.out, "emoji.jsonl"), entries)
    print("wrote %d emoji to %s" % (len(entries), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
