#!/usr/bin/env python3
"""Writes server/accounts/common_passwords.txt: the passwords the server refuses as too common.

No published list is copied. The words below are ones that every public breach study and every
"worst passwords of the year" article names again and again (password, qwerty, letmein, dragon,
football, iloveyou, ...), written down here by hand; the list is those words and the ways people
are known to stretch them to eight characters: digits and years appended, a capital first
letter, a trailing '!', keyboard walks, repeated and counted digits. Only entries of 8 to 128
characters are kept, since shorter ones are refused anyway; the server compares lower-cased.

Run: python3 tools/common_passwords.py > server/accounts/common_passwords.txt
"""

WORDS = """
password passw0rd p@ssword p@ssw0rd pass passwd qwerty qwertz azerty abc abcd abcdef letmein
welcome admin administrator root login user guest master monkey dragon football baseball
basketball soccer hockey iloveyou trustno1 sunshine princess shadow superman batman spiderman
michael jordan jennifer charlie ashley daniel thomas robert hunter killer freedom whatever
starwars pokemon computer internet secret cheese chocolate cookie summer winter spring autumn
flower orange banana apple purple silver golden diamond matrix mustang harley ferrari
yankees liverpool arsenal chelsea barcelona 
lovely loveme love iloveu babygirl angel angels nicole jessica amanda samsung google
facebook youtube hello hello123 access changeme default secure security test tester testing
demo sample temp temporary nothing hottie flower123 family friends lucky blessed
jesus christ heaven qazwsx zaq12wsx asdfgh asdfghjkl zxcvbn zxcvbnm qwertyuiop 1q2w3e4r
1qaz2wsx q1w2e3r4 a1b2c3d4 abc123 abcd1234 qwe123 asd123 zxc123 aaaaaa letmein1 welcome1
monkey1 dragon1 master1 shadow1 superstar rockstar player gamer gaming minecraft fortnite
roblox naruto tigger buster pepper ginger maggie daisy bailey charlie1 snoopy mickey
computer1 server duelhall jedi yoda skywalker vader force
""".split()

SUFFIXES = ["", "1", "12", "123", "1234", "12345", "123456", "!", "1!", "123!", "01", "007",
            "69", "99", "00", "11", "2000", "2010", "2015", "2016", "2017", "2018", "2019",
            "2020", "2021", "2022", "2023", "2024", "2025", "2026", "@123", "#1", "$"]

DIGIT_RUNS = ["12345678", "123456789", "1234567890", "0123456789", "87654321", "987654321",
              "9876543210", "11223344", "12341234", "12121212", "13131313", "69696969",
              "01234567", "10203040", "11112222", "12344321", "1234512345", "147258369",
              "159753159", "741852963", "963852741", "123123123", "123321123", "456456456",
              "789789789", "112233445566", "123456123456", "1q2w3e4r5t", "1qaz2wsx3edc",
              "qwertyuiop", "asdfghjkl", "zxcvbnm123", "qwerty123456", "qweasdzxc",
              "qweasd123", "zaq1zaq1", "!qaz2wsx", "q1w2e3r4t5", "a1s2d3f4", "1a2b3c4d",
              "abcdefgh", "abcdefghi", "abcdefghij", "abcd1234", "aa123456", "a1234567",
              "password1", "iloveyou1", "00000000", "000000000"]


def words():
    out = set()
    for word in WORDS:
        for base in {word, word.capitalize(), word.upper()}:
            for suffix in SUFFIXES:
                out.add(base + suffix)
    for digit in "0123456789":
        for length in range(8, 13):
            out.add(digit * length)
    for letter in "abcdefghijklmnopqrstuvwxyz":
        out.add(letter * 8)
    out.update(DIGIT_RUNS)
    return out


def main():
    # Lower-cased and de-duplicated: the server compares lower-cased.
    kept = sorted({w.lower() for w in words() if 8 <= len(w) <= 128})
    for word in kept:
        print(word)


if __name__ == "__main__":
    main()
