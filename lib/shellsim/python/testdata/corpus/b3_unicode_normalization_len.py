s = "Zürich, Łódź, Ærøskøbing, İstanbul, ΑΘΗΝΑ"
print(s.lower(), s.upper())
print([w[0] for w in s.split(", ")], sorted(s.split(", ")), s.count("ø"))
print("ﬀ".upper(), "ǈ".lower(), "Ω".casefold(), "Dž".swapcase() if hasattr(str, "swapcase") else "")
print(len("e\u0301"), "e\u0301" == "é", "café".encode("utf-8"))
