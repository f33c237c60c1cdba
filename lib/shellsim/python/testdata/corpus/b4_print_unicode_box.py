rows = [("✓", "passed", 12), ("✗", "failed", 1), ("•", "skipped", 3)]
print("┌" + "─" * 20 + "┐")
for icon, label, n in rows:
    print(f"│ {icon} {label:<10}{n:>5} │")
print("└" + "─" * 20 + "┘")
