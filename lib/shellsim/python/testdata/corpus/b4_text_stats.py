text = """Python is a programming language that lets you work quickly
and integrate systems more effectively. Python is powerful... and fast;
plays well with others; runs everywhere; is friendly & easy to learn; is Open."""
sentences = [s for s in text.replace("\n", " ").split(".") if s.strip()]
words = text.split()
print(len(text), len(words), len(sentences))
print(max(words, key=len), sorted(set(w.lower().strip(".,;&") for w in words if len(w) > 6)))
print(sum(c.isupper() for c in text), text.count("is"), round(sum(map(len, words)) / len(words), 3))
