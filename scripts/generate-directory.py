#!/usr/bin/python3
"""Generates the composer's directory data: data/people.jsonl and data/channels.jsonl.

Deterministic: fixed name lists and a fixed-seed generator of our own (not `random`,
whose algorithms may change between Python versions), so every run writes the same
bytes. A test (DirectoryDataTests) regenerates into a temporary directory and compares
with the committed files; after changing this script, run it and commit data/.

    /usr/bin/python3 scripts/generate-directory.py            # writes <repo>/data/
    /usr/bin/python3 scripts/generate-directory.py --out DIR  # writes DIR/

Each line is one JSON object with, in this order:
  id       stable id: "u0001"… for people, "c01"… for channels
  name     the handle used in mentions; unique. People: ASCII lowercase family.given
           (tanaka.hanako, kim.minjun, novak.jiri, smith.emma). Channels may be in
           their own script (日本語, 한국어, čeština).
  display  the name in its own script (田中 花子, 김민준, Jiří Novák, Emma Smith)
  reading  kana reading for Japanese names (たなか はなこ); "" when there is none
  latin    romaji (tanaka hanako), Revised Romanization (kim minjun), ASCII-folded
           Czech (jiri novak) or English as is (emma smith); lowercase
Python 3 standard library only.
"""

import argparse
import json
import os
import sys
import unicodedata

SEED = 20240601

# Shares of the 1,200 people (u0001 is the fixed 田中 太郎 on top of the Japanese share).
COUNTS = {"ja": 359, "ko": 300, "cs": 270, "en": 270}

# (kanji, reading, romaji)
JA_FAMILY = [
    ("田中", "たなか", "tanaka"), ("佐藤", "さとう", "sato"), ("鈴木", "すずき", "suzuki"),
    ("高橋", "たかはし", "takahashi"), ("伊藤", "いとう", "ito"), ("渡辺", "わたなべ", "watanabe"),
    ("山本", "やまもと", "yamamoto"), ("中村", "なかむら", "nakamura"), ("小林", "こばやし", "kobayashi"),
    ("加藤", "かとう", "kato"), ("吉田", "よしだ", "yoshida"), ("山田", "やまだ", "yamada"),
    ("佐々木", "ささき", "sasaki"), ("山口", "やまぐち", "yamaguchi"), ("松本", "まつもと", "matsumoto"),
    ("井上", "いのうえ", "inoue"), ("木村", "きむら", "kimura"), ("林", "はやし", "hayashi"),
    ("斎藤", "さいとう", "saito"), ("清水", "しみず", "shimizu"), ("山崎", "やまざき", "yamazaki"),
    ("森", "もり", "mori"), ("池田", "いけだ", "ikeda"), ("橋本", "はしもと", "hashimoto"),
    ("阿部", "あべ", "abe"), ("石川", "いしかわ", "ishikawa"), ("山下", "やました", "yamashita"),
    ("中島", "なかじま", "nakajima"), ("小川", "おがわ", "ogawa"), ("前田", "まえだ", "maeda"),
    ("岡田", "おかだ", "okada"), ("長谷川", "はせがわ", "hasegawa"), ("藤田", "ふじた", "fujita"),
    ("後藤", "ごとう", "goto"), ("近藤", "こんどう", "kondo"), ("村上", "むらかみ", "murakami"),
    ("遠藤", "えんどう", "endo"), ("青木", "あおき", "aoki"), ("坂本", "さかもと", "sakamoto"),
    ("福田", "ふくだ", "fukuda"), ("太田", "おおた", "ota"), ("西村", "にしむら", "nishimura"),
    ("藤井", "ふじい", "fujii"), ("金子", "かねこ", "kaneko"), ("和田", "わだ", "wada"),
    ("中山", "なかやま", "nakayama"), ("原田", "はらだ", "harada"), ("小野", "おの", "ono"),
    ("竹内", "たけうち", "takeuchi"), ("田村", "たむら", "tamura"),
]
JA_GIVEN = [
    ("太郎", "たろう", "taro"), ("翔太", "しょうた", "shota"), ("大翔", "ひろと", "hiroto"),
    ("蓮", "れん", "ren"), ("悠真", "ゆうま", "yuma"), ("陽翔", "はると", "haruto"),
    ("湊", "みなと", "minato"), ("健太", "けんた", "kenta"), ("拓海", "たくみ", "takumi"),
    ("大輝", "だいき", "daiki"), ("翔", "しょう", "sho"), ("誠", "まこと", "makoto"),
    ("浩", "ひろし", "hiroshi"), ("隆", "たかし", "takashi"), ("健一", "けんいち", "kenichi"),
    ("直樹", "なおき", "naoki"), ("和也", "かずや", "kazuya"), ("達也", "たつや", "tatsuya"),
    ("亮", "りょう", "ryo"), ("大介", "だいすけ", "daisuke"), ("修", "おさむ", "osamu"),
    ("学", "まなぶ", "manabu"), ("悠人", "ゆうと", "yuto"), ("一郎", "いちろう", "ichiro"),
    ("次郎", "じろう", "jiro"),
    ("花子", "はなこ", "hanako"), ("陽菜", "ひな", "hina"), ("結衣", "ゆい", "yui"),
    ("さくら", "さくら", "sakura"), ("美咲", "みさき", "misaki"), ("葵", "あおい", "aoi"),
    ("凛", "りん", "rin"), ("結菜", "ゆいな", "yuina"), ("愛", "あい", "ai"),
    ("優子", "ゆうこ", "yuko"), ("恵子", "けいこ", "keiko"), ("真由美", "まゆみ", "mayumi"),
    ("直美", "なおみ", "naomi"), ("明美", "あけみ", "akemi"), ("由美", "ゆみ", "yumi"),
    ("智子", "ともこ", "tomoko"), ("久美子", "くみこ", "kumiko"), ("美穂", "みほ", "miho"),
    ("彩", "あや", "aya"), ("千尋", "ちひろ", "chihiro"), ("舞", "まい", "mai"),
    ("菜々子", "ななこ", "nanako"), ("杏", "あん", "an"), ("芽衣", "めい", "mei"),
    ("七海", "ななみ", "nanami"),
]

# (hangul, Revised Romanization)
KO_FAMILY = [
    ("김", "kim"), ("이", "i"), ("박", "bak"), ("최", "choe"), ("정", "jeong"),
    ("강", "gang"), ("조", "jo"), ("윤", "yun"), ("장", "jang"), ("임", "im"),
    ("한", "han"), ("오", "o"), ("서", "seo"), ("신", "sin"), ("권", "gwon"),
    ("황", "hwang"), ("안", "an"), ("송", "song"), ("전", "jeon"), ("홍", "hong"),
]
KO_GIVEN = [
    ("민준", "minjun"), ("서준", "seojun"), ("도윤", "doyun"), ("예준", "yejun"),
    ("시우", "siu"), ("하준", "hajun"), ("주원", "juwon"), ("지호", "jiho"),
    ("지후", "jihu"), ("준우", "junu"), ("현우", "hyeonu"), ("건우", "geonu"),
    ("우진", "ujin"), ("선우", "seonu"), ("연우", "yeonu"), ("유준", "yujun"),
    ("정우", "jeongu"), ("승우", "seungu"), ("승현", "seunghyeon"), ("시윤", "siyun"),
    ("준서", "junseo"), ("서연", "seoyeon"), ("서윤", "seoyun"), ("지우", "jiu"),
    ("서현", "seohyeon"), ("민서", "minseo"), ("하은", "haeun"), ("하윤", "hayun"),
    ("윤서", "yunseo"), ("지유", "jiyu"), ("지민", "jimin"), ("수아", "sua"),
    ("지아", "jia"), ("채원", "chaewon"), ("다은", "daeun"), ("은우", "eunu"),
    ("유진", "yujin"), ("수빈", "subin"), ("예은", "yeeun"), ("소윤", "soyun"),
]

# Czech given names by gender, and surnames as (masculine, feminine).
CS_GIVEN_M = [
    "Jiří", "Jan", "Petr", "Josef", "Pavel", "Martin", "Tomáš", "Jaroslav", "Miroslav",
    "Zdeněk", "Václav", "Michal", "František", "Jakub", "Milan", "Karel", "Lukáš", "David",
    "Ondřej", "Vojtěch", "Matěj", "Radek", "Luboš", "Štěpán", "Zbyněk", "Přemysl",
    "Bořivoj", "Dušan",
]
CS_GIVEN_F = [
    "Jana", "Marie", "Eva", "Hana", "Anna", "Lenka", "Kateřina", "Věra", "Lucie", "Alena",
    "Petra", "Jitka", "Tereza", "Zuzana", "Božena", "Markéta", "Michaela", "Veronika",
    "Růžena", "Dagmar", "Ludmila", "Naďa", "Šárka", "Jiřina", "Blanka", "Klára", "Žaneta",
]
CS_FAMILY = [
    ("Novák", "Nováková"), ("Svoboda", "Svobodová"), ("Novotný", "Novotná"),
    ("Dvořák", "Dvořáková"), ("Černý", "Černá"), ("Procházka", "Procházková"),
    ("Kučera", "Kučerová"), ("Veselý", "Veselá"), ("Horák", "Horáková"),
    ("Němec", "Němcová"), ("Pokorný", "Pokorná"), ("Marek", "Marková"),
    ("Pospíšil", "Pospíšilová"), ("Hájek", "Hájková"), ("Jelínek", "Jelínková"),
    ("Král", "Králová"), ("Růžička", "Růžičková"), ("Beneš", "Benešová"),
    ("Fiala", "Fialová"), ("Sedláček", "Sedláčková"), ("Doležal", "Doležalová"),
    ("Zeman", "Zemanová"), ("Kolář", "Kolářová"), ("Navrátil", "Navrátilová"),
    ("Čermák", "Čermáková"), ("Vaněk", "Vaňková"), ("Blažek", "Blažková"),
    ("Kříž", "Křížová"), ("Kovář", "Kovářová"), ("Bartoš", "Bartošová"),
    ("Vlček", "Vlčková"), ("Polák", "Poláková"), ("Musil", "Musilová"),
    ("Kopecký", "Kopecká"), ("Šimek", "Šimková"), ("Konečný", "Konečná"),
    ("Malý", "Malá"), ("Holub", "Holubová"), ("Štěpánek", "Štěpánková"),
    ("Kadlec", "Kadlecová"), ("Matoušek", "Matoušková"), ("Šťastný", "Šťastná"),
    ("Žďárský", "Žďárská"), ("Koňařík", "Koňaříková"),
]

EN_GIVEN = [
    "Emma", "Olivia", "Ava", "Sophia", "Isabella", "Mia", "Charlotte", "Amelia", "Harper",
    "Evelyn", "Abigail", "Emily", "Grace", "Chloe", "Lily", "Hannah", "Sarah", "Jessica",
    "Laura", "Rachel", "Liam", "Noah", "Oliver", "William", "James", "Benjamin", "Lucas",
    "Henry", "Alexander", "Michael", "Daniel", "Matthew", "David", "Joseph", "Samuel",
    "Thomas", "Andrew", "Ryan", "Jack", "George",
]
EN_FAMILY = [
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson",
    "Taylor", "Thomas", "Moore", "Martin", "Jackson", "Thompson", "White", "Harris", "Clark",
    "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Hill",
    "Green", "Adams", "Baker", "Nelson", "Carter", "Mitchell", "Roberts", "Turner",
    "Phillips", "Campbell", "Parker", "Evans", "Edwards",
]

# (name, display, reading, latin)
CHANNELS = [
    ("general", "General", "", "general"),
    ("random", "Random", "", "random"),
    ("announcements", "Announcements", "", "announcements"),
    ("engineering", "Engineering", "", "engineering"),
    ("design", "Design", "", "design"),
    ("support", "Support", "", "support"),
    ("releases", "Releases", "", "releases"),
    ("input-methods", "Input methods", "", "input-methods"),
    ("help", "Help", "", "help"),
    ("off-topic", "Off-topic", "", "off-topic"),
    ("music", "Music", "", "music"),
    ("books", "Books", "", "books"),
    ("travel", "Travel", "", "travel"),
    ("english", "English", "", "english"),
    ("日本語", "日本語", "にほんご", "nihongo"),
    ("雑談", "雑談", "ざつだん", "zatsudan"),
    ("開発", "開発", "かいはつ", "kaihatsu"),
    ("お知らせ", "お知らせ", "おしらせ", "oshirase"),
    ("質問", "質問", "しつもん", "shitsumon"),
    ("東京", "東京", "とうきょう", "tokyo"),
    ("한국어", "한국어", "", "hangugeo"),
    ("잡담", "잡담", "", "japdam"),
    ("개발", "개발", "", "gaebal"),
    ("서울", "서울", "", "seoul"),
    ("čeština", "Čeština", "", "cestina"),
    ("vývoj", "Vývoj", "", "vyvoj"),
    ("podpora", "Podpora", "", "podpora"),
    ("novinky", "Novinky", "", "novinky"),
    ("praha", "Praha", "", "praha"),
    ("brno", "Brno", "", "brno"),
]


class Generator:
    """xorshift64*: tiny, fixed, and the same in every Python version."""

    def __init__(self, seed):
        self.state = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF

    def next(self):
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 27
        self.state = x
        return (x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF

    def below(self, n):
        return (self.next() >> 11) % n

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def fold(text):
    """ASCII folding: Jiří Novák → jiri novak."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def handle(family_latin, given_latin):
    return (family_latin + "." + given_latin).replace(" ", "").replace("-", "")


def distinct(rng, count, draw):
    """`count` distinct people from `draw(rng)`, in the order first drawn."""
    seen, people = set(), []
    while len(people) < count:
        person = draw(rng)
        if person["display"] not in seen:
            seen.add(person["display"])
            people.append(person)
    return people


def japanese(rng):
    family, given = rng.choice(JA_FAMILY), rng.choice(JA_GIVEN)
    return {"display": family[0] + " " + given[0], "reading": family[1] + " " + given[1],
            "latin": family[2] + " " + given[2], "handle": handle(family[2], given[2])}


def korean(rng):
    family, given = rng.choice(KO_FAMILY), rng.choice(KO_GIVEN)
    return {"display": family[0] + given[0], "reading": "",
            "latin": family[1] + " " + given[1], "handle": handle(family[1], given[1])}


def czech(rng):
    feminine = rng.below(2) == 1
    given = rng.choice(CS_GIVEN_F if feminine else CS_GIVEN_M)
    family = rng.choice(CS_FAMILY)[1 if feminine else 0]
    return {"display": given + " " + family, "reading": "",
            "latin": fold(given + " " + family), "handle": handle(fold(family), fold(given))}


def english(rng):
    given, family = rng.choice(EN_GIVEN), rng.choice(EN_FAMILY)
    return {"display": given + " " + family, "reading": "",
            "latin": (given + " " + family).lower(), "handle": handle(family.lower(), given.lower())}


def people():
    rng = Generator(SEED)
    tanaka = {"display": "田中 太郎", "reading": "たなか たろう", "latin": "tanaka taro", "handle": "tanaka"}
    drawn = []
    for language, draw in (("ja", japanese), ("ko", korean), ("cs", czech), ("en", english)):
        group = distinct(rng, COUNTS[language] + (1 if language == "ja" else 0), draw)
        drawn += [p for p in group if p["display"] != tanaka["display"]][:COUNTS[language]]
    rng.shuffle(drawn)

    result, names = [], set()
    for index, person in enumerate([tanaka] + drawn, start=1):
        name, suffix = person["handle"], 2
        while name in names:
            name, suffix = person["handle"] + str(suffix), suffix + 1
        names.add(name)
        result.append({"id": "u%04d" % index, "name": name, "display": person["display"],
                       "reading": person["reading"], "latin": person["latin"]})
    return result


def channels():
    return [{"id": "c%02d" % index, "name": name, "display": display, "reading": reading, "latin": latin}
            for index, (name, display, reading, latin) in enumerate(CHANNELS, start=1)]


def write_jsonl(path, entries):
    lines = []
    for entry in entries:
        entry = {key: unicodedata.normalize("NFC", value) for key, value in entry.items()}
        lines.append(json.dumps(entry, ensure_ascii=False, separators=(", ", ": ")) + "\n")
    with open(path, "wb") as handle_:
        handle_.write("".join(lines).encode("utf-8"))


def main(argv):
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description="Write people.jsonl and channels.jsonl.")
    parser.add_argument("--out", default=os.path.join(repo, "data"),
                        help="output directory (default: the repository's data/)")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    everyone = people()
    write_jsonl(os.path.join(args.out, "people.jsonl"), everyone)
    write_jsonl(os.path.join(args.out, "channels.jsonl"), channels())
    print("wrote %d people and %d channels to %s" % (len(everyone), len(CHANNELS), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
